#!/usr/bin/env python3
"""The speed goal of issue 25: published OpenMapTiles styles, MapRaster against MapLibre Native (PyPI `mapli`) in the
same run, one core.

osm-bright and positron (fixtures/styles/openmaptiles, as published) over the shipped OpenMapTiles-schema tiles,
Monaco at MapLibre zoom 16 (MapRaster zoom 17; --views adds others), 1024x768, render + PNG encode, warm and
in-process on both sides:
- MapRaster: `StreetsBenchmark style STYLE openmaptiles=TILES SPRITE ...`, the style read as `mapraster render
  --style STYLE --source openmaptiles=TILES --sprite SPRITE` reads it, without its symbol layers (`nolabels`) and
  with them (`labels`: labels and icons);
- MapLibre Native: one worker, llvmpipe on one thread, the same style without its symbol layers (it needs glyph
  PBFs, which are on the network), tiles by `mbtiles://`, sprite by `file://`.
Goals: without labels <= 1.0x MapLibre Native; with labels <= 1.3x MapLibre Native without labels.

PNG effort: MapLibre Native's PNG writer compresses at zlib's fastest level (the script reads the FLEVEL of its
output's zlib header and prints it), so the goal rows encode MapRaster's PNG at libdeflate level 1, the same
effort (`mapraster render --compression 1`); MapRaster's default level 6 is printed beside them.

Every figure is a median: each round renders ITERATIONS times and keeps its median, the rounds alternate between
the renderers (the machine is shared), and the table shows the median of the rounds. CPU time is the process's
(all threads: MapLibre's render and llvmpipe threads included); the verdicts use CPU time, wall time is printed
beside it.

Setup: `swift build -c release --product StreetsBenchmark`, a venv with mapli, and Mesa's EGL:
    python3 -m venv /tmp/mlvenv && /tmp/mlvenv/bin/pip install mapli
Run:
    taskset -c 0 env EGL_PLATFORM=surfaceless LP_NUM_THREADS=1 /tmp/mlvenv/bin/python \
        Benchmarks/openmaptiles/bench-openmaptiles.py [--bin .build/release] [--rounds 5] [--iterations 10]
"""
import argparse
import json
import os
import statistics
import subprocess
import struct
import time
import zlib

import mapli

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
FIXTURES = os.path.join(ROOT, "fixtures", "styles", "openmaptiles")
TILES = os.path.join(ROOT, "Sources", "MapBaseMap", "Resources", "vectortiles", "osm-omt.mbtiles")
STYLES = ["osm-bright", "positron"]
# name, latitude, longitude, MapLibre zoom (MapRaster's is one more).
VIEWS = {"monaco-z16": (43.7384, 7.4246, 16.0), "monaco-z15": (43.7384, 7.4246, 15.0),
         "andorra-la-vella-z15": (42.5075, 1.5218, 15.0), "helsinki-z15": (60.1699, 24.9436, 15.0)}
WIDTH, HEIGHT = 1024, 768


def maplibre_style(name):
    with open(os.path.join(FIXTURES, name, "style.json"), encoding="utf-8") as f:
        style = json.load(f)
    style["layers"] = [layer for layer in style["layers"] if layer["type"] != "symbol"]
    for source in style["sources"].values():
        if source.get("type") == "vector":
            source.pop("tiles", None)
            source["url"] = "mbtiles://" + TILES
    style["sprite"] = "file://" + os.path.join(FIXTURES, name, "sprite")
    return style


def ours(binary, name, view, iterations, labels, level):
    """(wall ms, CPU ms) medians of `iterations` warm renders in one StreetsBenchmark process, PNG at `level`."""
    lat, lon, zoom = view
    out = subprocess.run([os.path.join(binary, "StreetsBenchmark"), "style", os.path.join(FIXTURES, name, "style.json"),
                          f"openmaptiles={TILES}", os.path.join(FIXTURES, name, "sprite"), str(lat), str(lon),
                          str(zoom + 1), str(WIDTH), str(HEIGHT), str(iterations), "labels" if labels else "nolabels",
                          "1", str(level)],
                         check=True, capture_output=True, text=True)
    wall, cpu = out.stdout.split()
    return float(wall), float(cpu)


def zlib_level(png):
    """The FLEVEL (0 fastest ... 3 maximum) of a PNG's zlib stream header, and whether the stream inflates."""
    pos, idat = 8, b""
    while pos + 8 <= len(png):
        length, kind = struct.unpack(">I4s", png[pos:pos + 8])
        if kind == b"IDAT":
            idat += png[pos + 8:pos + 8 + length]
        pos += 12 + length
    zlib.decompress(idat)
    return idat[1] >> 6


def native_level(pool, name, view):
    lat, lon, zoom = view
    return zlib_level(pool.render(name, lon=lon, lat=lat, zoom=zoom, width=WIDTH, height=HEIGHT))


def theirs(pool, name, view, iterations):
    lat, lon, zoom = view

    def render():
        pool.render(name, lon=lon, lat=lat, zoom=zoom, width=WIDTH, height=HEIGHT)

    render()  # warm
    walls, cpus = [], []
    for _ in range(iterations):
        start, cpu = time.perf_counter(), time.process_time()
        render()
        cpus.append((time.process_time() - cpu) * 1000)
        walls.append((time.perf_counter() - start) * 1000)
    return statistics.median(walls), statistics.median(cpus)


def med(pairs, index):
    return statistics.median(p[index] for p in pairs)


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--bin", default=os.path.join(ROOT, ".build", "release"))
    parser.add_argument("--rounds", type=int, default=5)
    parser.add_argument("--iterations", type=int, default=10)
    parser.add_argument("--styles", default=",".join(STYLES))
    parser.add_argument("--views", default="monaco-z16", help=f"comma-separated, of {', '.join(VIEWS)}")
    args = parser.parse_args()
    pool = mapli.RenderPool(workers=1)
    names = args.styles.split(",")
    for name in names:
        pool.register_style(name, json=maplibre_style(name))
    print(f"{time.strftime('%Y-%m-%d %H:%M UTC', time.gmtime())}, load average {os.getloadavg()[0]:.1f}, "
          f"CPUs allowed {sorted(os.sched_getaffinity(0))}, LP_NUM_THREADS={os.environ.get('LP_NUM_THREADS')}\n")
    print(f"## {WIDTH}x{HEIGHT}, ms per render (render + PNG), median of {args.rounds} rounds x {args.iterations} "
          "renders: CPU (wall); views at MapLibre zooms (MapRaster's is one more)")
    levels = sorted({native_level(pool, name, VIEWS[v]) for name in names for v in args.views.split(",")})
    print(f"MapLibre Native's PNGs: zlib FLEVEL {levels} (0 = fastest); MapRaster's at level 1 (goal rows) and 6\n")
    print("| style | view | MapLibre Native, no labels | MapRaster, no labels, level 1 | ratio (goal <= 1.0) "
          "| MapRaster, no labels, level 6 | ratio | MapRaster, labels, level 1 "
          "| ratio to MapLibre without labels (goal <= 1.3) |")
    print("|---|---|---:|---:|---:|---:|---:|---:|---:|", flush=True)
    summary = []
    for view_name in args.views.split(","):
        view = VIEWS[view_name]
        for name in names:
            plain, plain6, native, labelled = [], [], [], []
            for _ in range(args.rounds):
                plain.append(ours(args.bin, name, view, args.iterations, False, 1))
                native.append(theirs(pool, name, view, args.iterations))
                labelled.append(ours(args.bin, name, view, args.iterations, True, 1))
                plain6.append(ours(args.bin, name, view, args.iterations, False, 6))
            t, p, p6, l = med(native, 1), med(plain, 1), med(plain6, 1), med(labelled, 1)
            tw = med(native, 0)
            print(f"| {name} | {view_name} | {t:.1f} ({tw:.1f}) | {p:.1f} ({med(plain, 0):.1f}) "
                  f"| {p / t:.2f} ({med(plain, 0) / tw:.2f}) | {p6:.1f} ({med(plain6, 0):.1f}) "
                  f"| {p6 / t:.2f} ({med(plain6, 0) / tw:.2f}) | {l:.1f} ({med(labelled, 0):.1f}) "
                  f"| {l / t:.2f} ({med(labelled, 0) / tw:.2f}) |", flush=True)
            summary.append((f"{name} {view_name}, no labels", p / t, 1.0))
            summary.append((f"{name} {view_name}, labels", l / t, 1.3))
    print(f"\n## Summary (CPU time), load average at the end {os.getloadavg()[0]:.1f}")
    print("| goal | ratio to MapLibre Native without labels | goal | verdict |\n|---|---:|---|---|")
    for goal, ratio, target in summary:
        print(f"| {goal} | {ratio:.2f} | <= {target} | {'met' if ratio <= target else '**not met**'} |")


if __name__ == "__main__":
    main()
