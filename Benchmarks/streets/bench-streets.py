#!/usr/bin/env python3
"""Issue #11's speed goals, MapRaster against MapLibre Native (PyPI `mapli`) in the same run, one core each.

1. 1024x768 street views from the shipped vector MBTiles (Monaco zoom 16, Andorra la Vella zoom 15, MapRaster
   zooms): MapRaster warm and in-process (`StreetsBenchmark`, render + PNG) without and with labels, against
   MapLibre Native warm and in-process (one worker, llvmpipe on one thread, render + PNG) without labels.
   Goals: no labels <= 1.0x, labels <= 1.5x.
2. A pyramid of 256-point tiles, zooms 10-16, over Andorra la Vella: `mapraster tiles --threads 1` (the whole
   process, metatiles) against MapLibre Native's `render_tile` tile by tile; tiles per second, and
   MapRaster's peak RSS for the zooms 10-14 and 10-16 pyramids (flat memory: about the same).
   Goal: >= 2x MapLibre Native's tiles/s.
3. A cold `mapraster render` process at zoom 16 over Andorra la Vella (streets and standard, 1024x768), wall and
   CPU time. Goal < 150 ms.

Rounds alternate between the two renderers and the best round of each counts (the machine is shared).
Labels are left out for MapLibre Native (it needs glyph PBFs).

Setup: `swift build -c release` (StreetsBenchmark and mapraster), a venv with mapli, and Mesa's EGL:
    python3 -m venv /tmp/mlvenv && /tmp/mlvenv/bin/pip install mapli
Run:
    taskset -c 0 env EGL_PLATFORM=surfaceless LP_NUM_THREADS=1 /tmp/mlvenv/bin/python Benchmarks/streets/bench-streets.py
Options: --bin DIR (default .build/release), --rounds N (3), --iterations N (10).
"""
import argparse
import json
import math
import os
import resource
import statistics
import subprocess
import tempfile
import time

import mapli

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
STYLES = os.path.join(ROOT, "Sources", "MapBaseMap", "Resources", "styles")

VIEWS = [("Monaco z16", 43.7384, 7.4246, 16.0), ("Andorra la Vella z15", 42.5075, 1.5218, 15.0)]
PYRAMID_BBOX = (1.49, 42.49, 1.55, 42.52)  # west, south, east, north: Andorra la Vella and Escaldes
WIDTH, HEIGHT = 1024, 768


def maplibre_style():
    with open(os.path.join(STYLES, "streets.json"), encoding="utf-8") as f:
        style = json.load(f)
    style["layers"] = [layer for layer in style["layers"] if layer["type"] != "symbol"]
    for source in style["sources"].values():
        if source["type"] == "vector":
            source["url"] = "mbtiles://" + os.path.normpath(os.path.join(STYLES, source["url"][len("mbtiles://"):]))
        else:
            source["data"] = "file://" + os.path.normpath(os.path.join(STYLES, source["data"]))
    return style


def tiles(bbox, zooms):
    west, south, east, north = bbox
    for z in zooms:
        n = 2 ** z

        def tx(lon):
            return min(n - 1, int((lon + 180) / 360 * n))

        def ty(lat):
            r = math.radians(lat)
            return min(n - 1, int((1 - math.log(math.tan(r) + 1 / math.cos(r)) / math.pi) / 2 * n))

        for x in range(tx(west), tx(east) + 1):
            for y in range(ty(north), ty(south) + 1):
                yield z, x, y


def ours_view(binary, lat, lon, zoom, iterations, labels):
    out = subprocess.run([os.path.join(binary, "StreetsBenchmark"), "view", str(lat), str(lon), str(zoom),
                          str(WIDTH), str(HEIGHT), str(iterations), "labels" if labels else "nolabels"],
                         check=True, capture_output=True, text=True)
    return float(out.stdout.strip())


def theirs_view(pool, lat, lon, zoom, iterations):
    pool.render("streets", lon=lon, lat=lat, zoom=zoom - 1, width=WIDTH, height=HEIGHT)  # warm
    start = time.perf_counter()
    for _ in range(iterations):
        pool.render("streets", lon=lon, lat=lat, zoom=zoom - 1, width=WIDTH, height=HEIGHT)
    return (time.perf_counter() - start) / iterations * 1000


def child_cpu():
    usage = resource.getrusage(resource.RUSAGE_CHILDREN)
    return usage.ru_utime + usage.ru_stime


def ours_pyramid(binary, zooms, style="streets"):
    """Tiles per wall second, tiles per CPU second and peak RSS (KiB) of one `mapraster tiles --threads 1`."""
    with tempfile.TemporaryDirectory() as tmp:
        west, south, east, north = PYRAMID_BBOX
        args = ["/usr/bin/time", "-f", "%M", os.path.join(binary, "mapraster"), "tiles", "-o",
                os.path.join(tmp, "t.mbtiles"), "--style", style, "--zoom", f"{zooms[0]}-{zooms[-1]}",
                "--bbox", f"{west},{south},{east},{north}", "--threads", "1", "--quiet"]
        start, cpu = time.perf_counter(), child_cpu()
        run = subprocess.run(args, check=True, capture_output=True, text=True)
        elapsed, cpu = time.perf_counter() - start, child_cpu() - cpu
        rss = int(run.stderr.strip().splitlines()[-1])
    count = sum(1 for _ in tiles(PYRAMID_BBOX, zooms))
    return count / elapsed, count / cpu, rss, count


def theirs_pyramid(pool, zooms):
    todo = list(tiles(PYRAMID_BBOX, zooms))
    start, cpu = time.perf_counter(), time.process_time()  # the process's CPU time, MapLibre's threads included
    for z, x, y in todo:
        pool.render_tile("streets", z=z, x=x, y=y, tile_size=256)
    return len(todo) / (time.perf_counter() - start), len(todo) / (time.process_time() - cpu)


def cold_render(binary, style, runs=7):
    times, cpus = [], []
    with tempfile.TemporaryDirectory() as tmp:
        for _ in range(runs):
            start, cpu = time.perf_counter(), child_cpu()
            subprocess.run([os.path.join(binary, "mapraster"), "render", "--style", style, "--center",
                            "42.5075,1.5218", "--zoom", "16", "--size", "1024x768", "-o", os.path.join(tmp, "a.png")],
                           check=True, capture_output=True)
            times.append((time.perf_counter() - start) * 1000)
            cpus.append((child_cpu() - cpu) * 1000)
    return times, cpus


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--bin", default=os.path.join(ROOT, ".build", "release"))
    parser.add_argument("--rounds", type=int, default=3)
    parser.add_argument("--iterations", type=int, default=10)
    args = parser.parse_args()
    pool = mapli.RenderPool(workers=1)
    pool.register_style("streets", json=maplibre_style())
    pool.render("streets", lon=1.52, lat=42.5, zoom=3, width=64, height=64)  # loads the style

    print(f"## Street views {WIDTH}x{HEIGHT}, ms per render (render + PNG), best of {args.rounds} rounds")
    print("| view | MapLibre Native, no labels | MapRaster, no labels | ratio (goal <= 1) "
          "| MapRaster, labels | ratio to MapLibre without labels (goal <= 1.5) |")
    print("|---|---:|---:|---:|---:|---:|")
    for name, lat, lon, zoom in VIEWS:
        theirs, plain, labelled = math.inf, math.inf, math.inf
        for _ in range(args.rounds):
            plain = min(plain, ours_view(args.bin, lat, lon, zoom, args.iterations, False))
            theirs = min(theirs, theirs_view(pool, lat, lon, zoom, args.iterations))
            labelled = min(labelled, ours_view(args.bin, lat, lon, zoom, args.iterations, True))
        print(f"| {name} | {theirs:.1f} | {plain:.1f} | {plain / theirs:.2f} | {labelled:.1f} "
              f"| {labelled / theirs:.2f} |", flush=True)

    zooms = list(range(10, 17))
    print(f"\n## Pyramid z10-16 of 256-point tiles over {PYRAMID_BBOX} (west, south, east, north), one core")
    print("tiles/s by wall time (and by CPU time); MapRaster: `mapraster tiles --threads 1`, the whole process "
          "(start, metatiles, MBTiles); MapLibre Native: `render_tile` tile by tile, no labels")
    print("| MapRaster style | tiles | MapLibre Native | MapRaster | ratio (goal >= 2) | MapRaster peak RSS, z10-14 / z10-16 |")
    print("|---|---:|---:|---:|---:|---:|")
    # MapRaster's copy of the label-free style: the same, with plain paths for the GeoJSON files.
    plain = maplibre_style()
    for source in plain["sources"].values():
        if source["type"] == "geojson":
            source["data"] = source["data"][len("file://"):]
    with tempfile.NamedTemporaryFile("w", suffix=".json", delete=False) as f:
        json.dump(plain, f)
        nolabels = f.name
    for label, style in [("streets, no labels", nolabels), ("streets, labels", "streets")]:
        theirs, theirs_cpu, ours, ours_cpu, rss = 0.0, 0.0, 0.0, 0.0, 0
        for _ in range(args.rounds):
            rate, rate_cpu, rss, count = ours_pyramid(args.bin, zooms, style)
            ours, ours_cpu = max(ours, rate), max(ours_cpu, rate_cpu)
            rate, rate_cpu = theirs_pyramid(pool, zooms)
            theirs, theirs_cpu = max(theirs, rate), max(theirs_cpu, rate_cpu)
        _, _, rss_small, count_small = ours_pyramid(args.bin, list(range(10, 15)), style)
        print(f"| {label} | {count} | {theirs:.0f} ({theirs_cpu:.0f}) | {ours:.0f} ({ours_cpu:.0f}) "
              f"| {ours / theirs:.2f} ({ours_cpu / theirs_cpu:.2f}) "
              f"| {rss_small / 1024:.0f} MiB ({count_small} tiles) / {rss / 1024:.0f} MiB ({count} tiles) |", flush=True)
    os.unlink(nolabels)

    print("\n## Cold `mapraster render` processes, Andorra la Vella zoom 16, 1024x768 (goal < 150 ms)")
    for style in ["streets", "standard"]:
        times, cpus = cold_render(args.bin, style)
        print(f"{style}: wall median {statistics.median(times):.0f} ms, best {min(times):.0f} ms; "
              f"CPU median {statistics.median(cpus):.0f} ms, best {min(cpus):.0f} ms ({len(times)} runs)")

if __name__ == "__main__":
    main()
