"""The dark appearance of the shipped `standard` and `streets` styles (MapKit's dark map, chosen with
`userInterfaceStyle` .dark), derived from the light style by a colour rule per role, used by
Scripts/make-streets-style.py.

Each colour keeps its hue; its lightness is remapped by what the property paints, so that what was dark
on light becomes light on dark and the contrasts stay:
- ground (background, fill, fill-outline, fill-extrusion): light ground becomes a dark ground,
  L' = 0.07 + 0.26 (1 - L), saturation x 0.7 (land about 8 %, water and parks a little lighter in their hue);
- roads (line layers of the `transportation` source layer and Helsinki's `hel_roads`): the lightness order is
  kept and lifted, L' = 0.16 + 0.30 L (white streets become mid grey over the dark land, casings darker);
- other lines (waterways, borders, park outlines): L' = 0.22 + 0.45 (1 - L);
- text and icon tints, circle fills: inverted, L' = 1 - 0.85 L (dark label text becomes light);
- halos and circle strokes: L' = 0.08 + 0.08 (1 - L) (white halos become near-black, so light text
  stands out on any ground).
Alpha is kept. Colours inside expressions (match, step, interpolate) are remapped one by one.
"""
import colorsys
import json
import re

GROUND = ("background-color", "fill-color", "fill-outline-color", "fill-extrusion-color")
INVERT = ("text-color", "icon-color", "circle-color")
HALO = ("text-halo-color", "icon-halo-color", "circle-stroke-color")
ROAD_LAYERS = ("transportation",)
ROAD_SOURCES = ("hel_roads",)


def parse(text):
    """(r, g, b, a) in 0...1 from #rgb, #rrggbb, rgb() or rgba(); None for anything else."""
    if text.startswith("#") and len(text) in (4, 7) and re.fullmatch(r"#[0-9a-fA-F]+", text):
        h = text[1:] if len(text) == 7 else "".join(c * 2 for c in text[1:])
        return tuple(int(h[i:i + 2], 16) / 255 for i in (0, 2, 4)) + (1.0,)
    m = re.fullmatch(r"rgba?\(([^)]*)\)", text.replace(" ", ""))
    if m:
        parts = [float(p) for p in m.group(1).split(",")]
        return (parts[0] / 255, parts[1] / 255, parts[2] / 255, parts[3] if len(parts) == 4 else 1.0)
    return None


def write(r, g, b, a):
    rgb = [max(0, min(255, round(c * 255))) for c in (r, g, b)]
    if a >= 1:
        return "#%02x%02x%02x" % tuple(rgb)
    return "rgba(%d,%d,%d,%s)" % (*rgb, ("%.3f" % a).rstrip("0").rstrip("."))


def remap(text, role):
    rgba = parse(text)
    if rgba is None:
        return text
    h, lightness, s = colorsys.rgb_to_hls(*rgba[:3])
    if role == "ground":
        lightness, s = 0.07 + 0.26 * (1 - lightness), s * 0.7
    elif role == "road":
        lightness, s = 0.16 + 0.30 * lightness, s * 0.5
    elif role == "line":
        lightness, s = 0.22 + 0.45 * (1 - lightness), s * 0.8
    elif role == "invert":
        lightness = 1 - 0.85 * lightness
    else:  # halo
        lightness, s = 0.08 + 0.08 * (1 - lightness), s * 0.5
    return write(*colorsys.hls_to_rgb(h, lightness, s), rgba[3])


def walk(value, role):
    if isinstance(value, str):
        return remap(value, role)
    if isinstance(value, list):
        return [walk(v, role) for v in value]
    if isinstance(value, dict):
        return {k: walk(v, role) for k, v in value.items()}
    return value


def role(layer, prop):
    if prop in GROUND:
        return "ground"
    if prop in INVERT:
        return "invert"
    if prop in HALO:
        return "halo"
    if prop == "line-color":
        if layer.get("source-layer") in ROAD_LAYERS or layer.get("source") in ROAD_SOURCES:
            return "road"
        return "line"
    return None


def dark_variant(style, name, light_name):
    """A deep copy of `style` with every paint colour remapped for the dark appearance."""
    style = json.loads(json.dumps(style))
    style["name"] = name
    metadata = style.setdefault("metadata", {})
    metadata["mapraster:appearance"] = "dark"
    metadata["mapraster:description"] = (
        f"The dark appearance of the shipped {light_name} style: its colours remapped by role (ground, roads, "
        "lines, text and icons, halos) by Scripts/streets_style_dark.py.")
    for layer in style["layers"]:
        paint = layer.get("paint", {})
        for prop in list(paint):
            r = role(layer, prop)
            if r:
                paint[prop] = walk(paint[prop], r)
    return style
