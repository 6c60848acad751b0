#!/usr/bin/env python3
"""Renders the six published OpenMapTiles styles (fixtures/styles/openmaptiles) with MapRaster and with MapLibre
Native (PyPI `mapli`) at the views of issue 25's acceptance, and prints the table of their differences.

MapRaster renders each style as its README says: `mapraster render --style STYLE --source openmaptiles=TILES
--sprite fixtures/styles/openmaptiles/NAME/sprite --center LAT,LON --zoom Z --size 1024x768`. MapLibre Native gets
the same style with its TileJSON URL replaced by `mbtiles://TILES` and its sprite URL by the same sprite files
(`file://`), as it reads them offline.

1. Non-symbol layers: both renderers draw a derived style without the `symbol` layers (written to OUT/styles;
   MapRaster gets it with the same `--source` and `--sprite`), compared with pixelmatch (threshold 0.1,
   anti-aliased pixels not counted, as MapLibre's harness counts them). Pass: at most 0.5 % of the pixels differ.
   OUT/NAME/VIEW-maplibre.png, -mapraster.png and -diff.png (pixelmatch's diff: red = differing) are written.
2. The published style as it is, labels and icons included, rendered by MapRaster only: its exit code, the
   number of warning lines on stderr, and OUT/NAME/VIEW-labels.png.
3. With --glyph-pbfs (issue 26), instead of 1 and 2: each style as published, labels included, by both
   renderers given the same glyph PBFs: `mapraster glyphs` writes the OpenMapTiles fonts that are installed
   (Noto Sans Regular, Bold, Italic, ...) into OUT/glyphs, every stack the style names gets a folder of the first
   of its fonts that has one (as tileserver-gl combines a stack's fonts per glyph), and the style's `glyphs`
   becomes `file://OUT/glyphs/{fontstack}/{range}.pbf` for both. Views monaco-z16 and helsinki-z15 unless
   --views says otherwise; pass: at most 1 % of the pixels differ. OUT/NAME/VIEW-glyphs-board.png is MapLibre
   | MapRaster | pixelmatch's diff.
4. With --bisect, for every failing cell: every non-symbol layer that draws something at the view (MapLibre's
   render of the style's background layers plus that layer differs from the background alone) is rendered
   alone over the background in both renderers ("solo"), and the style's layers up to it ("prefix"); the
   table lists the layers whose solo render differs or whose prefix adds differing pixels, with their type and
   paint and layout properties (OUT/bisect.md). Layers are counted by pixelmatch over the same views.

Zoom: MapLibre counts 512-point tiles, MapRaster 256-point tiles (as MapKit does), so MapLibre zoom z is
MapRaster `--zoom z+1` (the MapLibre render tests' README says the same); the views below are MapLibre zooms.

Setup (once):
    python3 -m venv /tmp/mlvenv && /tmp/mlvenv/bin/pip install mapli pixelmatch pillow numpy
    apt-get install libegl1 libegl-mesa0 libgles2 libgl1-mesa-dri     # Mesa's llvmpipe, no display needed
Usage:
    EGL_PLATFORM=surfaceless /tmp/mlvenv/bin/python Scripts/compare-openmaptiles.py \
        [--binary .build/release/mapraster] [--out /tmp/omt-compare] [--styles osm-bright,positron]
        [--views monaco-z15,...] [--bisect] [--no-labels] [--glyph-pbfs]
"""
import argparse
import io
import json
import os
import subprocess
import sys
import tempfile
import time

import mapli
import numpy as np
from PIL import Image
from pixelmatch.contrib.PIL import pixelmatch

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
FIXTURES = os.path.join(ROOT, "fixtures", "styles", "openmaptiles")
TILES = os.path.join(ROOT, "Sources", "MapBaseMap", "Resources", "vectortiles", "osm-omt.mbtiles")
STYLES = ["osm-bright", "positron", "dark-matter", "maptiler-basic", "maptiler-toner", "maptiler-3d"]
# name, latitude, longitude, MapLibre zoom (MapRaster's --zoom is one more).
VIEWS = [
    ("monaco-z15", 43.7384, 7.4246, 15.0),
    ("monaco-z16", 43.7384, 7.4246, 16.0),
    ("andorra-la-vella-z14", 42.5075, 1.5218, 14.0),
    ("andorra-la-vella-z15", 42.5075, 1.5218, 15.0),
    ("helsinki-z15", 60.1699, 24.9436, 15.0),
]
WIDTH, HEIGHT = 1024, 768
THRESHOLD = 0.1  # pixelmatch's colour threshold
PASS = 0.5  # per cent of differing pixels, at most


def load(name):
    with open(os.path.join(FIXTURES, name, "style.json"), encoding="utf-8") as f:
        return json.load(f)


def sprite(name):
    """The style's gh-pages sprite prefix, or None (maptiler-3d has none)."""
    prefix = os.path.join(FIXTURES, name, "sprite")
    return prefix if os.path.exists(prefix + ".json") else None


def for_maplibre(style, name, tiles):
    """The style as MapLibre Native reads it offline: the tiles by mbtiles:// URL, the sprite by file:// URL."""
    style = json.loads(json.dumps(style))
    for source in style["sources"].values():
        if source.get("type") == "vector":
            source.pop("tiles", None)
            source["url"] = "mbtiles://" + tiles
    if sprite(name):
        style["sprite"] = "file://" + sprite(name)
    else:
        style.pop("sprite", None)
    return style


def with_layers(style, keep):
    style = json.loads(json.dumps(style))
    style["layers"] = [layer for i, layer in enumerate(style["layers"]) if i in keep]
    return style


REGISTERED = [0]


def render_maplibre(pool, key, style, view):
    """MapLibre Native's render; every call registers the style under a new id (mapli keeps the first style
    registered under an id and ignores later ones)."""
    _, lat, lon, zoom = view
    REGISTERED[0] += 1
    key = f"{key}-{REGISTERED[0]}"
    pool.register_style(key, json=style)
    data = pool.render(key, lon=lon, lat=lat, zoom=zoom, width=WIDTH, height=HEIGHT)
    return Image.open(io.BytesIO(data)).convert("RGBA")


def render_mapraster(binary, style_path, name, tiles, view, output):
    """(exit code, stderr, seconds) of one `mapraster render` as the fixtures' README gives it."""
    _, lat, lon, zoom = view
    command = [binary, "render", "--style", style_path, "--source", f"openmaptiles={tiles}",
               "--center", f"{lat},{lon}", "--zoom", f"{zoom + 1:g}", "--size", f"{WIDTH}x{HEIGHT}",
               "--no-attribution", "-o", output]
    if sprite(name):
        command[4:4] = ["--sprite", sprite(name)]
    start = time.perf_counter()
    run = subprocess.run(command, capture_output=True, text=True)
    return run.returncode, run.stderr, time.perf_counter() - start


def mismatch(a, b, diff=None):
    """pixelmatch's differing-pixel count (threshold 0.1, AA not counted). Without a diff image, only the box
    around the pixels that differ at all is scanned (3 pixels of margin: pixelmatch's anti-aliasing test looks
    2 pixels around a pixel, so the count is the same)."""
    if diff is not None:
        return pixelmatch(a, b, diff, threshold=THRESHOLD, includeAA=False)
    x, y = np.asarray(a), np.asarray(b)
    rows, cols = np.nonzero(np.any(x != y, axis=2))
    if len(rows) == 0:
        return 0
    box = (max(0, cols.min() - 3), max(0, rows.min() - 3), min(WIDTH, cols.max() + 4), min(HEIGHT, rows.max() + 4))
    return pixelmatch(a.crop(box), b.crop(box), None, threshold=THRESHOLD, includeAA=False)


def percent(count):
    return 100 * count / (WIDTH * HEIGHT)


def warning_lines(stderr):
    return sum(1 for line in stderr.splitlines() if line.strip())


def compare_cell(args, pool, name, style, view, work):
    """Non-symbol layers of one style at one view: (differing pixels, MapRaster exit code, MapRaster stderr)."""
    keep = {i for i, layer in enumerate(style["layers"]) if layer["type"] != "symbol"}
    derived = with_layers(style, keep)
    path = os.path.join(args.out, "styles", f"{name}-nosymbols.json")
    with open(path, "w", encoding="utf-8") as f:
        json.dump(derived, f, indent=1, ensure_ascii=False)
    folder = os.path.join(args.out, name)
    theirs = render_maplibre(pool, f"{name}-nosymbols", for_maplibre(derived, name, args.tiles), view)
    theirs.save(os.path.join(folder, f"{view[0]}-maplibre.png"))
    ours_path = os.path.join(folder, f"{view[0]}-mapraster.png")
    code, stderr, _ = render_mapraster(args.binary, path, name, args.tiles, view, ours_path)
    if code != 0:
        return None, code, stderr
    ours = Image.open(ours_path).convert("RGBA")
    diff = Image.new("RGBA", (WIDTH, HEIGHT))
    count = mismatch(theirs, ours, diff)
    diff.save(os.path.join(folder, f"{view[0]}-diff.png"))
    return count, code, stderr


FONTS = ["Noto Sans Regular", "Noto Sans Bold", "Noto Sans Italic", "Noto Sans Bold Italic", "Nunito Regular",
         "Nunito Bold", "Nunito Semi Bold", "Nunito Extra Bold", "Metropolis Regular", "Metropolis Light",
         "Metropolis Medium Italic", "Metropolis Light Italic", "Klokantech Noto Sans Regular",
         "Klokantech Noto Sans Bold"]


def make_glyphs(args):
    """OUT/glyphs with a folder per installed font of FONTS (`mapraster glyphs`, one font at a time so that
    a font not installed is skipped); returns the folder."""
    folder = os.path.join(args.out, "glyphs")
    os.makedirs(folder, exist_ok=True)
    for font in FONTS:
        if not os.path.isdir(os.path.join(folder, font)):
            subprocess.run([args.binary, "glyphs", font, "-o", folder], capture_output=True)
    return folder


def font_stacks(style):
    """Every text-font stack a style names (literals, legacy stops and expressions' literal arrays)."""
    stacks = set()

    def visit(value):
        if isinstance(value, list) and value and all(isinstance(v, str) for v in value) and value[0] != "literal":
            if not (value[0] in ("get", "step", "match", "case", "coalesce", "interpolate", "zoom")):
                stacks.add(tuple(value))
        if isinstance(value, list):
            for v in value:
                visit(v)
        elif isinstance(value, dict):
            for v in value.values():
                visit(v)
    for layer in style["layers"]:
        if "text-font" in layer.get("layout", {}):
            visit(layer["layout"]["text-font"])
    return stacks


def with_glyphs(style, folder):
    """The style with its glyphs in `folder`: a folder per stack, linked to its first font that has one."""
    for stack in font_stacks(style):
        name = ",".join(stack)
        target = os.path.join(folder, name)
        first = next((f for f in stack if os.path.isdir(os.path.join(folder, f))), None)
        if first is None:
            # A stack of fonts none of which is installed: the fallback MapRaster warns about (Noto Sans).
            first = "Noto Sans Bold" if "Bold" in name else "Noto Sans Regular"
        if not os.path.exists(target):
            os.symlink(first, target)
    style = json.loads(json.dumps(style))
    style["glyphs"] = "file://" + folder + "/{fontstack}/{range}.pbf"
    return style


def compare_labelled(args, pool, name, view, glyphs):
    """The published style with its labels, both renderers given the same glyph PBFs: differing pixels."""
    style = with_glyphs(load(name), glyphs)
    path = os.path.join(args.out, "styles", f"{name}-glyphs.json")
    with open(path, "w", encoding="utf-8") as f:
        json.dump(style, f, indent=1, ensure_ascii=False)
    folder = os.path.join(args.out, name)
    theirs = render_maplibre(pool, f"{name}-glyphs", for_maplibre(style, name, args.tiles), view)
    ours_path = os.path.join(folder, f"{view[0]}-glyphs-mapraster.png")
    code, stderr, _ = render_mapraster(args.binary, path, name, args.tiles, view, ours_path)
    if code != 0:
        return None, stderr
    ours = Image.open(ours_path).convert("RGBA")
    diff = Image.new("RGBA", (WIDTH, HEIGHT))
    count = mismatch(theirs, ours, diff)
    board = Image.new("RGBA", (3 * WIDTH, HEIGHT))
    for i, image in enumerate((theirs, ours, diff)):
        board.paste(image, (i * WIDTH, 0))
    board.save(os.path.join(folder, f"{view[0]}-glyphs-board.png"))
    return count, stderr


def main_glyphs(args, names, pool):
    glyphs = make_glyphs(args)
    views = [v for v in VIEWS if v[0] in (args.views.split(",") if args.views_given else ["monaco-z16", "helsinki-z15"])]
    print("| style | view | labelled, same glyph PBFs: differing pixels | % | pass (<= 1 %) |")
    print("|---|---|---:|---:|---|", flush=True)
    passed = total = 0
    for name in names:
        for view in views:
            count, stderr = compare_labelled(args, pool, name, view, glyphs)
            total += 1
            if count is None:
                print(f"| {name} | {view[0]} | MapRaster failed | | **fail** |", flush=True)
                print(f"  {stderr.strip()[:300]}", file=sys.stderr)
                continue
            ok = percent(count) <= 1
            passed += ok
            print(f"| {name} | {view[0]} | {count:,} | {percent(count):.3f} | {'pass' if ok else '**fail**'} |",
                  flush=True)
    print(f"\n{passed} of {total} labelled cells pass; boards in {args.out}/NAME/VIEW-glyphs-board.png", flush=True)


def describe(layer):
    """A layer's type, zoom range and paint/layout property names (values of the pattern/outline/dash ones)."""
    parts = [layer["type"]]
    if "minzoom" in layer or "maxzoom" in layer:
        parts.append(f"z{layer.get('minzoom', 0)}-{layer.get('maxzoom', 24)}")
    for group in ("paint", "layout"):
        for key, value in sorted(layer.get(group, {}).items()):
            text = json.dumps(value, ensure_ascii=False)
            parts.append(f"{key}={text if len(text) <= 60 else text[:57] + '...'}")
    return ", ".join(parts)


def bisect(args, pool, name, style, view, work):
    """Rows (index, id, solo pixels, prefix pixels added, description) of the layers that differ."""
    layers = style["layers"]
    background = {i for i, layer in enumerate(layers) if layer["type"] == "background"}
    candidates = [i for i, layer in enumerate(layers) if layer["type"] not in ("symbol", "background")]

    def both(keep, tag):
        derived = with_layers(style, keep)
        path = os.path.join(work, f"{name}-{tag}.json")
        with open(path, "w", encoding="utf-8") as f:
            json.dump(derived, f, ensure_ascii=False)
        theirs = render_maplibre(pool, f"{name}-bisect", for_maplibre(derived, name, args.tiles), view)
        out = os.path.join(work, f"{name}-{tag}.png")
        code, stderr, _ = render_mapraster(args.binary, path, name, args.tiles, view, out)
        ours = Image.open(out).convert("RGBA") if code == 0 else None
        return theirs, ours, code, stderr

    base_theirs, base_ours, _, _ = both(background, "background")
    base_count = mismatch(base_theirs, base_ours) if base_ours else None
    rows = [(min(background, default=-1), "(background layers)", base_count, base_count, "background")]
    previous = base_count or 0
    prefix = set(background)
    for i in candidates:
        prefix.add(i)
        solo_theirs, solo_ours, code, stderr = both(background | {i}, "solo")
        if solo_theirs.tobytes() == base_theirs.tobytes() and (solo_ours is None or
                                                               solo_ours.tobytes() == base_ours.tobytes()):
            continue  # draws nothing here in either renderer
        solo = mismatch(solo_theirs, solo_ours) if solo_ours else None
        pre_theirs, pre_ours, _, _ = both(prefix, "prefix")
        count = mismatch(pre_theirs, pre_ours) if pre_ours else None
        added = None if count is None else count - previous
        previous = count if count is not None else previous
        if code != 0:
            rows.append((i, layers[i]["id"], None, added, f"MapRaster exit {code}: {stderr.strip()[:200]}"))
        elif solo or (added or 0) > 0:
            rows.append((i, layers[i]["id"], solo, added, describe(layers[i])))
        print(f"    {name} {view[0]} layer {i} {layers[i]['id']}: solo {solo}, prefix {count}", flush=True)
    return rows


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--binary", default=os.path.join(ROOT, ".build", "release", "mapraster"))
    parser.add_argument("--tiles", default=TILES, help="the OpenMapTiles-schema tiles (.mbtiles)")
    parser.add_argument("--out", default="/tmp/omt-compare")
    parser.add_argument("--styles", default=",".join(STYLES))
    parser.add_argument("--views", default=",".join(v[0] for v in VIEWS))
    parser.add_argument("--bisect", action="store_true", help="find the layers of every failing cell")
    parser.add_argument("--no-labels", action="store_true", help="skip the labelled MapRaster renders")
    parser.add_argument("--glyph-pbfs", action="store_true",
                        help="compare the labelled styles, both renderers given the same glyph PBFs (issue 26)")
    args = parser.parse_args()
    args.views_given = any(a.startswith("--views") for a in sys.argv[1:])
    args.tiles = os.path.abspath(args.tiles)
    names = [s for s in args.styles.split(",") if s]
    views = [v for v in VIEWS if v[0] in args.views.split(",")]
    for name in names:
        os.makedirs(os.path.join(args.out, name), exist_ok=True)
    os.makedirs(os.path.join(args.out, "styles"), exist_ok=True)
    pool = mapli.RenderPool(workers=1)
    if args.glyph_pbfs:
        main_glyphs(args, names, pool)
        return
    rows, failing = [], []
    print("| style | view | non-symbol layers: differing pixels | % | pass (<= 0.5 %) | labelled render: exit "
          "| warning lines | seconds |")
    print("|---|---|---:|---:|---|---:|---:|---:|", flush=True)
    with tempfile.TemporaryDirectory() as work:
        for name in names:
            style = load(name)
            for view in views:
                count, code, stderr = compare_cell(args, pool, name, style, view, work)
                labelled = ("", "", "")
                if not args.no_labels:
                    out = os.path.join(args.out, name, f"{view[0]}-labels.png")
                    lcode, lerr, seconds = render_mapraster(
                        args.binary, os.path.join(FIXTURES, name, "style.json"), name, args.tiles, view, out)
                    labelled = (lcode, warning_lines(lerr), f"{seconds:.2f}")
                    with open(os.path.join(args.out, name, f"{view[0]}-labels.stderr"), "w") as f:
                        f.write(lerr)
                if count is None:
                    cells = ("MapRaster exit " + str(code), "", "**fail**")
                    print(f"  {name} {view[0]}: {stderr.strip()[:300]}", file=sys.stderr)
                else:
                    ok = percent(count) <= PASS
                    cells = (f"{count:,}", f"{percent(count):.3f}", "pass" if ok else "**fail**")
                    if not ok:
                        failing.append((name, view))
                row = (name, view[0]) + cells + labelled
                rows.append(row)
                print("| " + " | ".join(str(c) for c in row) + " |", flush=True)
        with open(os.path.join(args.out, "results.md"), "w", encoding="utf-8") as f:
            f.write(f"# OpenMapTiles styles: MapRaster against MapLibre Native ({mapli_version()}), {WIDTH}x{HEIGHT}\n\n")
            f.write("| style | view (MapLibre zoom) | non-symbol layers: differing pixels (pixelmatch 0.1) | % "
                    "| pass (<= 0.5 %) | labelled render: exit | warning lines | seconds |\n")
            f.write("|---|---|---:|---:|---|---:|---:|---:|\n")
            for row in rows:
                f.write("| " + " | ".join(str(c) for c in row) + " |\n")
        passed = sum(1 for r in rows if r[4] == "pass")
        print(f"\n{passed} of {len(rows)} cells pass; wrote {args.out}", flush=True)
        if args.bisect and failing:
            with open(os.path.join(args.out, "bisect.md"), "w", encoding="utf-8") as f:
                f.write("# Layers of the failing cells (solo: background + the layer; prefix: pixels the layer adds "
                        "to the style's layers before it)\n")
                for name, view in failing:
                    print(f"\nbisecting {name} {view[0]}", flush=True)
                    found = bisect(args, pool, name, load(name), view, work)
                    f.write(f"\n## {name} {view[0]}\n\n| # | layer | solo px | prefix adds px | type and properties |\n"
                            "|---:|---|---:|---:|---|\n")
                    for i, lid, solo, added, what in found:
                        f.write(f"| {i} | {lid} | {solo} | {added} | {what} |\n")
                        print(f"| {i} | {lid} | {solo} | {added} | {what} |", flush=True)
                    f.flush()


def mapli_version():
    try:
        from importlib.metadata import version
        return "mapli " + version("mapli")
    except Exception:  # noqa: BLE001 (the version is only printed)
        return "mapli"


if __name__ == "__main__":
    main()
