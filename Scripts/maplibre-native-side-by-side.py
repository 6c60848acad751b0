#!/usr/bin/env python3
"""Renders five views of the shipped `streets` style with MapLibre Native (PyPI `mapli`) and with MapRaster
(`mapraster render`), on the same style and the same tiles, and writes side-by-side images and diff ratios.

Labels are left out for both (MapLibre Native needs glyph PBFs, which the project does not ship): every
`symbol` layer is dropped from the style. Paths in the style are made absolute (`mbtiles:///...` and
`file:///...` for MapLibre Native, plain paths for MapRaster).

For each view the output folder gets `<view>.png`: MapLibre Native | MapRaster | pixelmatch diff (red:
differing pixels, threshold 0.1, anti-aliased pixels not counted, as MapLibre's harness scores), and
`results.md`, a table of differing pixels and their ratio.

Setup (once):
    python3 -m venv /tmp/mlvenv && /tmp/mlvenv/bin/pip install mapli==<any> pixelmatch pillow
    apt-get install libegl1 libegl-mesa0 libgles2 libgl1-mesa-dri     # Mesa's llvmpipe, no display needed
Usage:
    EGL_PLATFORM=surfaceless LP_NUM_THREADS=1 /tmp/mlvenv/bin/python Scripts/maplibre-native-side-by-side.py \
        [--binary .build/debug/mapraster] [--out /tmp/streets-side-by-side]
"""
import argparse
import io
import json
import os
import subprocess
import sys

import mapli
from PIL import Image, ImageDraw
from pixelmatch.contrib.PIL import pixelmatch

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
STYLES = os.path.join(ROOT, "Sources", "MapBaseMap", "Resources", "styles")

# name, latitude, longitude, MapLibre zoom (MapRaster's --zoom is one more), what the view shows.
VIEWS = [
    ("andorra-la-vella-z15", 42.5075, 1.5218, 15.0, "Andorra la Vella: streets, river, bridges, buildings"),
    ("monaco-z15", 43.7384, 7.4246, 15.0, "Monaco: dense streets, tunnels, the sea"),
    ("helsinki-z15", 60.1699, 24.9436, 15.0, "central Helsinki: rail, trams, harbour"),
    ("andorra-z11.5", 42.545, 1.58, 11.5, "Andorra's valleys: woods, rock, main roads, borders"),
    ("europe-z4", 47.0, 8.0, 4.0, "world zoom: Natural Earth land, lakes, rivers, borders"),
]
WIDTH, HEIGHT = 800, 600


def absolute(path):
    return os.path.normpath(os.path.join(STYLES, path))


def styles():
    """The streets style without symbol layers, once with file:// and mbtiles:// URLs, once with paths."""
    with open(os.path.join(STYLES, "streets.json"), encoding="utf-8") as f:
        style = json.load(f)
    style["layers"] = [layer for layer in style["layers"] if layer["type"] != "symbol"]
    maplibre = json.loads(json.dumps(style))
    ours = json.loads(json.dumps(style))
    if "sprite" in style:  # the pattern fills' sprite: a file URL for MapLibre Native (it adds .json / .png)
        maplibre["sprite"] = "file://" + absolute(style["sprite"])
        ours["sprite"] = absolute(style["sprite"])
    for sid, source in style["sources"].items():
        if source["type"] == "vector":
            path = absolute(source["url"][len("mbtiles://"):])
            maplibre["sources"][sid]["url"] = "mbtiles://" + path
            ours["sources"][sid]["url"] = "mbtiles://" + path
        else:
            maplibre["sources"][sid]["data"] = "file://" + absolute(source["data"])
            ours["sources"][sid]["data"] = absolute(source["data"])
    return maplibre, ours


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--binary", default=os.path.join(ROOT, ".build", "debug", "mapraster"))
    parser.add_argument("--out", default="/tmp/streets-side-by-side")
    args = parser.parse_args()
    os.makedirs(args.out, exist_ok=True)
    maplibre_style, our_style = styles()
    style_path = os.path.join(args.out, "streets-nolabels.json")
    with open(style_path, "w", encoding="utf-8") as f:
        json.dump(our_style, f, indent=1, ensure_ascii=False)
    pool = mapli.RenderPool(workers=1)
    pool.register_style("streets", json=maplibre_style)
    rows = []
    for name, lat, lon, zoom, what in VIEWS:
        theirs = Image.open(io.BytesIO(pool.render(
            "streets", lon=lon, lat=lat, zoom=zoom, width=WIDTH, height=HEIGHT))).convert("RGBA")
        ours_path = os.path.join(args.out, f"{name}-mapraster.png")
        subprocess.run([args.binary, "render", "--style", style_path, "--center", f"{lat},{lon}",
                        "--zoom", f"{zoom + 1}", "--size", f"{WIDTH}x{HEIGHT}", "--no-attribution",
                        "-o", ours_path], check=True, stdout=subprocess.DEVNULL)
        ours = Image.open(ours_path).convert("RGBA")
        theirs.save(os.path.join(args.out, f"{name}-maplibre.png"))
        diff = Image.new("RGBA", (WIDTH, HEIGHT))
        count = pixelmatch(theirs, ours, diff, threshold=0.1, includeAA=False)
        # A stricter count too: pixels that differ by more than 8 of 255 in any channel.
        strict = sum(1 for a, b in zip(theirs.getdata(), ours.getdata())
                     if max(abs(x - y) for x, y in zip(a, b)) > 8)
        board = Image.new("RGBA", (WIDTH * 3 + 20, HEIGHT + 24), (255, 255, 255, 255))
        for i, (image, label) in enumerate([(theirs, "MapLibre Native"), (ours, "MapRaster"),
                                            (diff, f"pixelmatch 0.1: {count} px")]):
            board.paste(image, (i * (WIDTH + 10), 24))
            ImageDraw.Draw(board).text((i * (WIDTH + 10) + 4, 6), f"{label} - {name}", fill=(0, 0, 0, 255))
        board.convert("RGB").save(os.path.join(args.out, f"{name}.png"))
        rows.append((name, what, count, count / (WIDTH * HEIGHT), strict / (WIDTH * HEIGHT)))
        print(f"{name}: {count} differing pixels ({count / (WIDTH * HEIGHT):.2%}), "
              f"{strict / (WIDTH * HEIGHT):.2%} differ by more than 8/255", flush=True)
    with open(os.path.join(args.out, "results.md"), "w", encoding="utf-8") as f:
        f.write(f"# streets style, labels left out: MapLibre Native vs MapRaster, {WIDTH}x{HEIGHT}\n\n")
        f.write("| view | what | differing pixels (pixelmatch 0.1, AA not counted) | ratio "
                "| pixels differing by more than 8/255 in a channel |\n|---|---|---:|---:|---:|\n")
        for name, what, count, ratio, strict in rows:
            f.write(f"| {name} | {what} | {count:,} | {ratio:.2%} | {strict:.2%} |\n")
    print("wrote", args.out, file=sys.stderr)


if __name__ == "__main__":
    main()
