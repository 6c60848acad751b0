#!/usr/bin/env python3
"""Builds the streets style's sprite (styles/sprites/streets{,@2x}.{png,json}) from the SVG icons drawn for
MapRaster in styles/sprites/src/.

- `src/NAME.svg`: a one-colour glyph (black, `currentColor`) on a 15x15 grid (some smaller: `city` is 9x9).
  Each becomes image NAME: the glyph in its category's colour (COLOURS below) over a white halo one point
  wide (the glyph's shape grown by a disc of radius 1 point, antialiased), so that icons read on any
  background. Glyphs stay within 1 point of the grid's edges, so the halo fits.
- `src/sdf/NAME.svg`: a shape for a signed-distance-field image (`"sdf": true` in the JSON), tinted by
  `icon-color` at draw time. Its alpha holds MapLibre's SDF encoding (as its glyph and icon shaders read
  it: SDF_PX = 8, the edge at 192/255): alpha = 255 * clamp(0.75 - d / 8, 0, 1), d the signed distance in
  image pixels of that sheet from the pixel's centre to the shape's outline (negative inside), measured on
  an 8x supersampled rendering of the shape. Colour channels are 0. The shapes leave 3 points of padding
  so that a halo up to 3 points wide fits.

Rendering: Debian's `rsvg-convert` (librsvg2-bin) at 1x and 2x, and at 4x/8x of those for the halo and the
distance field. A data-preparation tool only: MapRaster reads the PNG and JSON, never the SVGs.

Packing (MapLibre's sprite format: x, y, width, height, pixelRatio, sdf, and for the shield stretchX,
stretchY and content): images sorted by height, then
width (tallest first), then name, placed on shelves left to right in a sheet 128 pixels wide (256 at 2x)
with a 2-pixel gap (4 at 2x) between images; the 2x sheet is the 1x layout doubled. Deterministic: run it
again and the four files do not change (for the same librsvg, Pillow and zlib).

Usage: python3 Scripts/make-sprite.py [--preview PATH]   (needs rsvg-convert, Pillow, numpy)
  --preview PATH  also writes a contact sheet (every image 4x on white, on the streets land colour and on
                  a dark grey, SDF images tinted) for looking at the icons; not committed.
"""
import argparse
import io
import json
import os
import re
import shutil
import subprocess
import sys

import numpy as np
from PIL import Image, ImageDraw

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
# The sheets ship with the styles (styles/sprites/streets* link there); the SVG sources stay in styles/.
SPRITES = os.path.join(ROOT, "Sources", "MapBaseMap", "Resources", "styles", "sprites")
SRC = os.path.join(ROOT, "styles", "sprites", "src")
SHEET_WIDTH = 128  # pixels at 1x
GAP = 2  # pixels at 1x between images
HALO = 1.0  # halo width in points
SDF_PX = 8.0  # MapLibre's SDF scale: one alpha unit of 1/8 per pixel of distance
SDF_EDGE = 0.75  # MapLibre's SDF edge value (192/256)

# Nine-patch metadata of images, in pixels at 1x (doubled at 2x): the parts that stretch and the box text
# fits into with icon-text-fit (MapLibre's stretchX, stretchY, content). The shield's rectangle is
# 3...18 x 3...12 with corners of radius 2: its straight parts stretch, its text sits inside.
NINE_PATCH = {"shield": {"stretchX": [[5, 16]], "stretchY": [[5, 10]], "content": [4, 4, 17, 11]}}

# Colours by category, matching the text colours of the POI labels in Scripts/make-streets-style.py.
FOOD, SHOP, LODGING, HEALTH, EDUCATION = "#a0602a", "#8c5f94", "#5a6a9a", "#b04a4a", "#8a7040"
WORSHIP, SIGHT, LEISURE, TRANSPORT, PUBLIC = "#6b5a4a", "#8a5a2b", "#4e8a3a", "#4f5f96", "#6f665e"
COLOURS = {
    "shop": SHOP, "grocery": SHOP,
    "restaurant": FOOD, "cafe": FOOD, "bar": FOOD, "fast_food": FOOD,
    "lodging": LODGING, "campsite": LEISURE,
    "hospital": HEALTH, "pharmacy": HEALTH,
    "school": EDUCATION, "college": EDUCATION,
    "place_of_worship": WORSHIP, "religious-christian": WORSHIP, "religious-muslim": WORSHIP,
    "religious-jewish": WORSHIP,
    "bank": PUBLIC, "post": PUBLIC, "police": "#3f5a8a", "fire_station": HEALTH, "toilets": PUBLIC,
    "information": PUBLIC,
    "museum": SIGHT, "attraction": SIGHT, "castle": SIGHT, "monument": SIGHT, "viewpoint": SIGHT,
    "park": LEISURE, "playground": LEISURE, "sports": LEISURE, "stadium": LEISURE, "swimming": "#3d7fb0",
    "parking": "#3d6fb0", "fuel": TRANSPORT, "bus": TRANSPORT, "rail": TRANSPORT, "subway": TRANSPORT,
    "tram": TRANSPORT, "ferry": "#3d7fb0", "aerialway": TRANSPORT, "airport": TRANSPORT,
    "peak": "#7a5f45", "capital": "#2a2522", "city": "#2a2522",
}


def rsvg(path, zoom, colour="#000000"):
    """The SVG rendered by rsvg-convert at `zoom` pixels per point, as float RGBA in 0...1 (straight)."""
    with open(path, encoding="utf-8") as f:
        text = f.read()
    # currentColor resolves to the root's `color`.
    text = text.replace("<svg ", f'<svg color="{colour}" ', 1)
    process = subprocess.run(["rsvg-convert", "--zoom", f"{zoom:g}", "--format", "png"], input=text.encode(),
                             capture_output=True, check=False)
    if process.returncode != 0:
        sys.exit(f"error: rsvg-convert failed on {path}: {process.stderr.decode(errors='replace').strip()}")
    image = Image.open(io.BytesIO(process.stdout)).convert("RGBA")
    return np.asarray(image, dtype=np.float64) / 255.0


def svg_size(path):
    """(width, height) in points from the root's integer width and height attributes."""
    with open(path, encoding="utf-8") as f:
        head = f.read(400)
    w = re.search(r'\bwidth="(\d+)"', head)
    h = re.search(r'\bheight="(\d+)"', head)
    if not (w and h):
        sys.exit(f"error: {path}: the <svg> element needs whole-number width and height attributes")
    return int(w.group(1)), int(h.group(1))


def downsample(array, factor):
    """Box filter: the mean of each factor x factor block."""
    h, w = array.shape[0] // factor, array.shape[1] // factor
    return array[: h * factor, : w * factor].reshape(h, factor, w, factor).mean(axis=(1, 3))


def dilate(alpha, radius):
    """Grey dilation of a coverage image by a disc of `radius` pixels (max over the disc's offsets)."""
    r = int(np.ceil(radius))
    padded = np.pad(alpha, r)
    out = np.zeros_like(alpha)
    h, w = alpha.shape
    for dy in range(-r, r + 1):
        for dx in range(-r, r + 1):
            if dx * dx + dy * dy <= radius * radius:
                out = np.maximum(out, padded[r + dy: r + dy + h, r + dx: r + dx + w])
    return out


def icon(path, name, scale):
    """An ordinary icon at `scale`: the glyph in its colour over a white halo, as uint8 RGBA."""
    glyph = rsvg(path, scale)[..., 3]
    hi = 4
    halo = downsample(dilate(rsvg(path, scale * hi)[..., 3], HALO * scale * hi), hi)
    if halo.shape != glyph.shape:
        sys.exit(f"error: {path}: renderings at {scale}x and {scale * hi}x differ in size")
    colour = np.array([int(COLOURS[name][i: i + 2], 16) / 255.0 for i in (1, 3, 5)])
    alpha = glyph + halo * (1 - glyph)
    rgb = (colour * glyph[..., None] + 1.0 * (halo * (1 - glyph))[..., None]) / np.maximum(alpha, 1e-9)[..., None]
    out = np.concatenate([rgb, alpha[..., None]], axis=2)
    return np.round(np.clip(out, 0, 1) * 255).astype(np.uint8)


def sdf(path, scale):
    """A signed-distance-field icon at `scale` (see the module's docstring), as uint8 RGBA."""
    hi = 8
    inside = rsvg(path, scale * hi)[..., 3] >= 0.5
    # Outline points: midpoints between horizontally or vertically adjacent pixels on either side.
    ys, xs = np.nonzero(inside[:, 1:] != inside[:, :-1])
    points = [np.stack([xs + 1.0, ys + 0.5], axis=1)]
    ys, xs = np.nonzero(inside[1:, :] != inside[:-1, :])
    points.append(np.stack([xs + 0.5, ys + 1.0], axis=1))
    outline = np.concatenate(points) / hi  # in pixels of the sheet
    h, w = inside.shape[0] // hi, inside.shape[1] // hi
    cy, cx = np.mgrid[0:h, 0:w] + 0.5
    centres = np.stack([cx.ravel(), cy.ravel()], axis=1)
    distance = np.sqrt(((centres[:, None, :] - outline[None, :, :]) ** 2).sum(axis=2)).min(axis=1).reshape(h, w)
    centre_inside = inside[(cy * hi).astype(int), (cx * hi).astype(int)]
    signed = np.where(centre_inside, -distance, distance)
    alpha = np.clip(SDF_EDGE - signed / SDF_PX, 0, 1)
    out = np.zeros((h, w, 4))
    out[..., 3] = alpha
    return np.round(out * 255).astype(np.uint8)


PATTERN = "pattern"  # the kind of the images in src/pattern/ (neither an icon nor an SDF)


def sources():
    """(name, path, is_sdf) of every source SVG, sorted by name."""
    found = []
    for folder, is_sdf in ((SRC, False), (os.path.join(SRC, "sdf"), True), (os.path.join(SRC, "pattern"), PATTERN)):
        for entry in sorted(os.listdir(folder)):
            if entry.endswith(".svg"):
                found.append((entry[:-4], os.path.join(folder, entry), is_sdf))
    names = [n for n, _, _ in found]
    if len(set(names)) != len(names):
        sys.exit("error: two source SVGs have the same name")
    plain = {n for n, _, s in found if s is False}
    if plain != set(COLOURS):
        sys.exit(f"error: icons without a colour: {sorted(plain - set(COLOURS))}; colours without an icon: "
                 f"{sorted(set(COLOURS) - plain)}")
    return found


def pack(sizes):
    """Shelf packing of {name: (w, h)} at 1x: {name: (x, y)} and the sheet's (width, height)."""
    order = sorted(sizes, key=lambda n: (-sizes[n][1], -sizes[n][0], n))
    x = y = shelf = 0
    places = {}
    for name in order:
        w, h = sizes[name]
        if w > SHEET_WIDTH:
            sys.exit(f"error: image {name} is wider than the sheet ({SHEET_WIDTH})")
        if x + w > SHEET_WIDTH:
            x, y, shelf = 0, y + shelf + GAP, 0
        places[name] = (x, y)
        x += w + GAP
        shelf = max(shelf, h)
    return places, (SHEET_WIDTH, y + shelf)


def build(scale, found, places, sheet_size):
    sheet = np.zeros((sheet_size[1] * scale, sheet_size[0] * scale, 4), dtype=np.uint8)
    index = {}
    for name, path, is_sdf in found:
        if is_sdf is PATTERN:
            # Patterns (`fill-pattern`): the SVG's own colours, no halo; drawn inside their cell so they tile.
            image = np.round(rsvg(path, scale) * 255).astype(np.uint8)
        else:
            image = sdf(path, scale) if is_sdf else icon(path, name, scale)
        w, h = svg_size(path)
        if image.shape[:2] != (h * scale, w * scale):
            sys.exit(f"error: {path}: rendered {image.shape[1]}x{image.shape[0]} at {scale}x, expected "
                     f"{w * scale}x{h * scale}")
        x, y = places[name][0] * scale, places[name][1] * scale
        sheet[y: y + h * scale, x: x + w * scale] = image
        entry = {"x": x, "y": y, "width": w * scale, "height": h * scale, "pixelRatio": scale}
        if is_sdf is True:
            entry["sdf"] = True
        for key, value in NINE_PATCH.get(name, {}).items():
            entry[key] = json.loads(json.dumps(value), parse_int=lambda t: int(t) * scale)
        index[name] = entry
    return sheet, index


def write(scale, sheet, index):
    suffix = "" if scale == 1 else f"@{scale}x"
    png = os.path.join(SPRITES, f"streets{suffix}.png")
    Image.fromarray(sheet, "RGBA").save(png, optimize=False, compress_level=9)
    with open(os.path.join(SPRITES, f"streets{suffix}.json"), "w", encoding="utf-8") as f:
        json.dump(index, f, indent=1, sort_keys=True)
        f.write("\n")
    print(f"wrote {png} ({sheet.shape[1]}x{sheet.shape[0]}, {len(index)} images) and its JSON")


def preview(path, sheets, indexes):
    """Every image 4x (from the 2x sheet, 2x enlarged) with its name, on three backgrounds."""
    sheet, index = sheets[2], indexes[2]
    names = sorted(index)
    cell_w, cell_h, cols = 150, 78, 6
    rows = (len(names) + cols - 1) // cols
    out = Image.new("RGBA", (cols * cell_w, rows * cell_h), (255, 255, 255, 255))
    draw = ImageDraw.Draw(out)
    image = Image.fromarray(sheet, "RGBA")
    for k, name in enumerate(names):
        e = index[name]
        crop = image.crop((e["x"], e["y"], e["x"] + e["width"], e["y"] + e["height"]))
        if e.get("sdf"):  # tint as icon-color would: colour where alpha passes the edge, antialiased
            a = np.asarray(crop, dtype=np.float64)[..., 3] / 255.0
            cover = np.clip((a - SDF_EDGE) / 0.1 + 0.5, 0, 1)
            tinted = np.zeros(a.shape + (4,))
            tinted[..., :3] = np.array([0.85, 0.35, 0.2])
            tinted[..., 3] = cover
            crop = Image.fromarray(np.round(tinted * 255).astype(np.uint8), "RGBA")
        crop = crop.resize((crop.width * 2, crop.height * 2), Image.NEAREST)
        x0, y0 = (k % cols) * cell_w, (k // cols) * cell_h
        for j, bg in enumerate([(255, 255, 255), (244, 240, 232), (90, 90, 90)]):
            bx = x0 + 4 + j * 48
            out.paste(bg + (255,), (bx, y0 + 4, bx + 46, y0 + 64))
            out.alpha_composite(crop, (bx + (46 - crop.width) // 2, y0 + 4 + (60 - crop.height) // 2))
        draw.text((x0 + 4, y0 + 65), name, fill=(0, 0, 0, 255))
    out.save(path)
    print("wrote", path)


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--preview", help="also write a contact sheet of every image, 4x, to this PNG")
    args = parser.parse_args()
    if shutil.which("rsvg-convert") is None:
        sys.exit("error: rsvg-convert not found: install Debian's librsvg2-bin (Scripts/install-system-deps.sh)")
    found = sources()
    places, sheet_size = pack({name: svg_size(path) for name, path, _ in found})
    sheets, indexes = {}, {}
    for scale in (1, 2):
        sheets[scale], indexes[scale] = build(scale, found, places, sheet_size)
        write(scale, sheets[scale], indexes[scale])
    if args.preview:
        preview(args.preview, sheets, indexes)


if __name__ == "__main__":
    main()
