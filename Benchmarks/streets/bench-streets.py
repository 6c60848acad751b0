#!/usr/bin/env python3
"""The speed goals of issues #11 and #12, MapRaster against MapLibre Native (PyPI `mapli`) in the same run, one core.

1. (#11) 1024x768 street views from the shipped vector MBTiles (Monaco zoom 16, Andorra la Vella zoom 15, MapRaster
   zooms): MapRaster warm and in-process (`StreetsBenchmark`, render + PNG) without and with labels, against
   MapLibre Native warm and in-process (one worker, llvmpipe on one thread, render + PNG) without labels.
   Goals: no labels <= 1.0x, labels <= 1.5x.
2. (#11) A pyramid of 256-point tiles, zooms 10-16, over Andorra la Vella, against MapLibre Native's warm
   `render_tile` tile by tile (render + PNG); tiles per second. With labels also against MapLibre Native with labels
   (#26), given the glyph PBFs `mapraster glyphs` writes for the style's fonts (DejaVu Sans Book and Bold). MapRaster warm and in-process as the issue asks
   (`StreetsBenchmark pyramid`: metatiles into a fresh MBTiles file, one thread, the decoded-tile cache emptied
   before each pyramid), at deflate level 6 (MapRaster's default) and level 1: MapLibre Native's PNG writer
   compresses at zlib's fastest level (FLEVEL 0 in every tile's zlib header; the script checks and prints it),
   so level 1 is the same effort (and MapRaster's level-1 tiles are still smaller than MapLibre's). Also the whole
   `mapraster tiles --threads 1` process (start, style, fonts, metatiles, MBTiles) at level 6, and its peak RSS
   for the zooms 10-16 and 10-17 pyramids (139 and 507 tiles; flat memory: the caches and the metatile surface
   fill by z16, so at most 10 % more for 3.6 times the tiles).
   Goal: >= 2x MapLibre Native's tiles/s.
3. (#11) A cold `mapraster render --style standard` process at zoom 16 over Andorra la Vella, 1024x768 (CPU time of
   the process; the `streets` style too). Goal < 150 ms.
4. (#12) Monaco zoom 17, 1024x768 at scale 2: MapRaster with the style's symbol layers (labels and icons) against the
   same view without them (goal: symbols add <= 20 %, issue #26) and against MapLibre Native without labels at pixel
   ratio 2 (goal <= 1.5x). MapRaster's two renders run in turn in one process (`StreetsBenchmark view ... both`:
   each pair measured on the same machine state, whose speed drifts by tens of percent between processes on a
   virtual machine); the symbols verdict takes the median over the rounds of each round's median pair ratio, and the
   table shows the ratio of the medians beside it. Each round's ratio is printed below the table too.
5. (#28) Monaco zoom 16 (MapRaster's), 1024x768, heading 30, pitch 60: MapRaster without labels against MapLibre
   Native without labels (goal <= 1.0x), and with labels against MapLibre Native without (goal <= 1.3x).

Every figure is a median: each round renders ITERATIONS times and keeps its median, the rounds alternate between
the renderers (the machine is shared), and the table shows the median of the rounds. CPU time is the process's
(all threads: MapLibre's render and llvmpipe threads included), wall time is elapsed time; the verdicts use CPU
time, which the other builders' load disturbs least (wall time is printed beside it). MapLibre Native draws no
labels except where a row says so (it needs glyph PBFs: those rows give it the ones `mapraster glyphs` makes).

Setup: `swift build -c release` (StreetsBenchmark and mapraster), a venv with mapli, and Mesa's EGL:
    python3 -m venv /tmp/mlvenv && /tmp/mlvenv/bin/pip install mapli
Run:
    taskset -c 0 env EGL_PLATFORM=surfaceless LP_NUM_THREADS=1 /tmp/mlvenv/bin/python Benchmarks/streets/bench-streets.py
Options: --bin DIR (default .build/release), --rounds N (5), --iterations N (10),
--only views,symbols,camera,pyramid,cold.
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
SYMBOL_VIEW = ("Monaco z17 @2x", 43.7384, 7.4246, 17.0)
CAMERA_VIEW = ("Monaco z16, heading 30, pitch 60", 43.7384, 7.4246, 16.0, 30.0, 60.0)
PYRAMID_BBOX = (1.49, 42.49, 1.55, 42.52)  # west, south, east, north: Andorra la Vella and Escaldes
WIDTH, HEIGHT = 1024, 768

SUMMARY = []  # (goal, MapRaster, MapLibre Native, ratio, goal text, verdict)


def maplibre_style(glyphs=None):
    """The shipped streets style as MapLibre Native reads it offline: without its symbol layers, or with them and
    `glyphs` (a folder of glyph PBFs, `mapraster glyphs` of the style's fonts) when given."""
    with open(os.path.join(STYLES, "streets.json"), encoding="utf-8") as f:
        style = json.load(f)
    if glyphs:
        style["glyphs"] = "file://" + glyphs + "/{fontstack}/{range}.pbf"
    else:
        style["layers"] = [layer for layer in style["layers"] if layer["type"] != "symbol"]
    if "sprite" in style:  # the patterns' sprite, by absolute file URL (MapLibre adds .json / .png)
        style["sprite"] = "file://" + os.path.normpath(os.path.join(STYLES, style["sprite"]))
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


def ours_view(binary, lat, lon, zoom, iterations, labels, scale=1, heading=0.0, pitch=0.0):
    """(wall ms, CPU ms) medians of `iterations` warm renders in one StreetsBenchmark process."""
    camera = [str(6), str(heading), str(pitch)] if heading or pitch else []
    out = subprocess.run([os.path.join(binary, "StreetsBenchmark"), "view", str(lat), str(lon), str(zoom),
                          str(WIDTH), str(HEIGHT), str(iterations), "labels" if labels else "nolabels", str(scale)]
                         + camera, check=True, capture_output=True, text=True)
    wall, cpu = out.stdout.split()
    return float(wall), float(cpu)


def ours_pair(binary, lat, lon, zoom, iterations, scale):
    """MapRaster without and with the symbol layers, rendered in turn in one StreetsBenchmark process: (wall ms, CPU ms)
    medians of each, and the median of each pair's CPU ratio."""
    out = subprocess.run([os.path.join(binary, "StreetsBenchmark"), "view", str(lat), str(lon), str(zoom),
                          str(WIDTH), str(HEIGHT), str(iterations), "both", str(scale)],
                         check=True, capture_output=True, text=True)
    wall, cpu, labelled_wall, labelled_cpu, ratio = (float(v) for v in out.stdout.split())
    return (wall, cpu), (labelled_wall, labelled_cpu), ratio


def theirs_view(pool, lat, lon, zoom, iterations, scale=1, heading=0.0, pitch=0.0, style="streets"):
    def render():
        pool.render(style, lon=lon, lat=lat, zoom=zoom - 1, width=WIDTH, height=HEIGHT, pixel_ratio=scale,
                    bearing=heading, pitch=pitch)

    render()  # warm
    walls, cpus = [], []
    for _ in range(iterations):
        start, cpu = time.perf_counter(), time.process_time()
        render()
        cpus.append((time.process_time() - cpu) * 1000)
        walls.append((time.perf_counter() - start) * 1000)
    return statistics.median(walls), statistics.median(cpus)


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


def ours_pyramid_warm(binary, zooms, labels, level, iterations):
    """(tiles per wall second, tiles per CPU second, tiles) of warm in-process pyramids (StreetsBenchmark)."""
    west, south, east, north = PYRAMID_BBOX
    out = subprocess.run([os.path.join(binary, "StreetsBenchmark"), "pyramid", f"{west},{south},{east},{north}",
                          f"{zooms[0]}-{zooms[-1]}", str(iterations), "labels" if labels else "nolabels", str(level)],
                         check=True, capture_output=True, text=True)
    wall, cpu, count = out.stdout.split()
    return int(count) / (float(wall) / 1000), int(count) / (float(cpu) / 1000), int(count)


def ours_tile_bytes(binary, zooms, level):
    """The mean bytes per tile of MapRaster's label-free pyramid at a deflate level (every tile, duplicates too)."""
    import sqlite3
    style = maplibre_style()
    for source in style["sources"].values():
        if source["type"] == "geojson":
            source["data"] = source["data"][len("file://"):]
    with tempfile.TemporaryDirectory() as tmp:
        path = os.path.join(tmp, "style.json")
        with open(path, "w") as f:
            json.dump(style, f)
        west, south, east, north = PYRAMID_BBOX
        subprocess.run([os.path.join(binary, "mapraster"), "tiles", "-o", os.path.join(tmp, "t.mbtiles"), "--style",
                        path, "--zoom", f"{zooms[0]}-{zooms[-1]}", "--bbox", f"{west},{south},{east},{north}",
                        "--compression", str(level), "--quiet"], check=True)
        db = sqlite3.connect(os.path.join(tmp, "t.mbtiles"))
        (mean,) = db.execute("select avg(length(tile_data)) from tiles").fetchone()
        db.close()
    return mean


def png_effort(data):
    """(zlib FLEVEL of the IDAT stream, filter types used, bytes) of a PNG: how hard its writer compressed."""
    import struct
    import zlib
    i, idat, width, bpp = 8, b"", 0, 4
    while i < len(data):
        length, kind = struct.unpack(">I4s", data[i:i + 8])
        if kind == b"IHDR":
            width, _, _, color = struct.unpack(">IIBB", data[i + 8:i + 18])
            bpp = {6: 4, 2: 3, 0: 1, 4: 2, 3: 1}.get(color, 4)
        if kind == b"IDAT":
            idat += data[i + 8:i + 8 + length]
        i += 12 + length
    raw = zlib.decompress(idat)
    row = width * bpp + 1
    return idat[1] >> 6, sorted({raw[k] for k in range(0, len(raw), row)}), len(data)


def theirs_pyramid(pool, zooms, style="streets"):
    todo = list(tiles(PYRAMID_BBOX, zooms))
    start, cpu = time.perf_counter(), time.process_time()  # the process's CPU time, MapLibre's threads included
    for z, x, y in todo:
        pool.render_tile(style, z=z, x=x, y=y, tile_size=256)
    return len(todo) / (time.perf_counter() - start), len(todo) / (time.process_time() - cpu)


def cold_render(binary, style, runs):
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


def med(pairs, index):
    return statistics.median(p[index] for p in pairs)


def verdict(ok):
    return "met" if ok else "**not met**"


def views(args, pool):
    print(f"## Street views {WIDTH}x{HEIGHT}, ms per render (render + PNG), median of {args.rounds} rounds x "
          f"{args.iterations} renders: CPU (wall)")
    print("| view | MapLibre Native, no labels | MapRaster, no labels | ratio (goal <= 1) "
          "| MapRaster, labels | ratio to MapLibre without labels (goal <= 1.5) |")
    print("|---|---:|---:|---:|---:|---:|")
    for name, lat, lon, zoom in VIEWS:
        plain, theirs, labelled = [], [], []
        for _ in range(args.rounds):
            plain.append(ours_view(args.bin, lat, lon, zoom, args.iterations, False))
            theirs.append(theirs_view(pool, lat, lon, zoom, args.iterations))
            labelled.append(ours_view(args.bin, lat, lon, zoom, args.iterations, True))
        t, p, l = med(theirs, 1), med(plain, 1), med(labelled, 1)
        print(f"| {name} | {t:.1f} ({med(theirs, 0):.1f}) | {p:.1f} ({med(plain, 0):.1f}) | {p / t:.2f} "
              f"({med(plain, 0) / med(theirs, 0):.2f}) | {l:.1f} ({med(labelled, 0):.1f}) | {l / t:.2f} "
              f"({med(labelled, 0) / med(theirs, 0):.2f}) |", flush=True)
        SUMMARY.append((f"1. {name}, no labels", f"{p:.1f} ms", f"{t:.1f} ms", p / t, "<= 1", verdict(p <= t)))
        SUMMARY.append((f"1. {name}, labels", f"{l:.1f} ms", f"{t:.1f} ms (no labels)", l / t, "<= 1.5",
                        verdict(l <= 1.5 * t)))


def symbols(args, pool):
    name, lat, lon, zoom = SYMBOL_VIEW
    print(f"\n## {name}: {WIDTH}x{HEIGHT} points at scale 2, ms per render (render + PNG), median of {args.rounds} "
          f"rounds x {args.iterations} renders: CPU (wall)")
    print("| MapLibre Native, no labels | MapRaster, no symbols | MapRaster, symbols (labels and icons) "
          "| symbols / no symbols (goal <= 1.2) | symbols / MapLibre (goal <= 1.5) "
          "| MapLibre Native, labels (the same glyph PBFs) | its labels / no labels |")
    print("|---:|---:|---:|---:|---:|---:|---:|")
    plain, theirs, labelled, theirs_labelled, pairs = [], [], [], [], []
    for _ in range(args.rounds):
        without, with_symbols, ratio = ours_pair(args.bin, lat, lon, zoom, args.iterations, 2)
        plain.append(without)
        labelled.append(with_symbols)
        pairs.append(ratio)
        theirs.append(theirs_view(pool, lat, lon, zoom, args.iterations, 2))
        theirs_labelled.append(theirs_view(pool, lat, lon, zoom, args.iterations, 2, style="streets-labels"))
    t, p, l, tl = med(theirs, 1), med(plain, 1), med(labelled, 1), med(theirs_labelled, 1)
    # MapRaster's ratio: the median of the rounds' median pair ratios (its two renders in turn in one process).
    ours = statistics.median(pairs)
    print(f"| {t:.1f} ({med(theirs, 0):.1f}) | {p:.1f} ({med(plain, 0):.1f}) | {l:.1f} ({med(labelled, 0):.1f}) "
          f"| {ours:.3f} (ratio of the medians {l / p:.2f}) | {l / t:.2f} ({med(labelled, 0) / med(theirs, 0):.2f}) "
          f"| {tl:.1f} ({med(theirs_labelled, 0):.1f}) | {tl / t:.2f} ({med(theirs_labelled, 0) / med(theirs, 0):.2f}) |",
          flush=True)
    # Each round's ratio: MapRaster's its median pair ratio, MapLibre Native's its two renders back to back.
    ours_rounds = sorted(pairs)
    theirs_rounds = sorted(b[1] / a[1] for a, b in zip(theirs, theirs_labelled))
    print(f"\nPer round, CPU: MapRaster symbols / no symbols {', '.join(f'{r:.3f}' for r in ours_rounds)} "
          f"(median {statistics.median(ours_rounds):.3f}); MapLibre Native labels / no labels "
          f"{', '.join(f'{r:.2f}' for r in theirs_rounds)} (median {statistics.median(theirs_rounds):.2f})", flush=True)
    SUMMARY.append((f"4. {name}, symbols over no symbols", f"{l:.1f} ms / {p:.1f} ms (median pair ratio)",
                    f"{tl:.1f} ms / {t:.1f} ms = {tl / t:.2f}", ours, "<= 1.2", verdict(ours <= 1.2)))
    SUMMARY.append((f"4. {name}, symbols", f"{l:.1f} ms", f"{t:.1f} ms (no labels)", l / t, "<= 1.5",
                    verdict(l <= 1.5 * t)))


def camera(args, pool):
    name, lat, lon, zoom, heading, pitch = CAMERA_VIEW
    print(f"\n## {name}: {WIDTH}x{HEIGHT}, ms per render (render + PNG), median of {args.rounds} rounds x "
          f"{args.iterations} renders: CPU (wall)")
    print("| MapLibre Native, no labels | MapRaster, no labels | ratio (goal <= 1) | MapRaster, labels "
          "| ratio to MapLibre without labels (goal <= 1.3) |")
    print("|---:|---:|---:|---:|---:|")
    plain, theirs, labelled = [], [], []
    for _ in range(args.rounds):
        plain.append(ours_view(args.bin, lat, lon, zoom, args.iterations, False, 1, heading, pitch))
        theirs.append(theirs_view(pool, lat, lon, zoom, args.iterations, 1, heading, pitch))
        labelled.append(ours_view(args.bin, lat, lon, zoom, args.iterations, True, 1, heading, pitch))
    t, p, l = med(theirs, 1), med(plain, 1), med(labelled, 1)
    print(f"| {t:.1f} ({med(theirs, 0):.1f}) | {p:.1f} ({med(plain, 0):.1f}) | {p / t:.2f} "
          f"({med(plain, 0) / med(theirs, 0):.2f}) | {l:.1f} ({med(labelled, 0):.1f}) | {l / t:.2f} "
          f"({med(labelled, 0) / med(theirs, 0):.2f}) |", flush=True)
    SUMMARY.append((f"5. {name}, no labels", f"{p:.1f} ms", f"{t:.1f} ms", p / t, "<= 1", verdict(p <= t)))
    SUMMARY.append((f"5. {name}, labels", f"{l:.1f} ms", f"{t:.1f} ms (no labels)", l / t, "<= 1.3",
                    verdict(l <= 1.3 * t)))


def pyramid(args, pool):
    zooms = list(range(10, 17))
    print(f"\n## Pyramid z10-16 of 256-point tiles over {PYRAMID_BBOX} (west, south, east, north), one core")
    todo = list(tiles(PYRAMID_BBOX, zooms))
    efforts = [png_effort(pool.render_tile("streets", z=z, x=x, y=y, tile_size=256)) for z, x, y in todo]
    levels = sorted({e[0] for e in efforts})
    filters = sorted({f for e in efforts for f in e[1]})
    print(f"MapLibre Native's tiles: zlib FLEVEL {levels} (0 = fastest, 2 = default), PNG filters {filters}, "
          f"{statistics.mean(e[2] for e in efforts):.0f} bytes per tile on average; MapRaster's (no labels): "
          + ", ".join(f"level {level} {ours_tile_bytes(args.bin, zooms, level):.0f}" for level in (1, 6)))
    print("tiles/s by CPU time (and by wall time), medians of the rounds; MapLibre Native: `render_tile` tile by "
          "tile, warm, no labels; MapRaster warm in-process: `StreetsBenchmark pyramid` (metatiles, MBTiles, the "
          "decoded-tile cache emptied before each pyramid); MapRaster process: `mapraster tiles --threads 1`, "
          "start-up included")
    print("| MapRaster style | tiles | MapLibre Native | MapRaster warm, level 6 | ratio | MapRaster warm, level 1 "
          "| ratio (goal >= 2) | MapRaster process, level 6 | ratio | MapRaster peak RSS, z10-16 / z10-17 |")
    print("|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|")
    # MapRaster's copy of the label-free style: the same, with plain paths for the GeoJSON files.
    plain = maplibre_style()
    for source in plain["sources"].values():
        if source["type"] == "geojson":
            source["data"] = source["data"][len("file://"):]
    with tempfile.NamedTemporaryFile("w", suffix=".json", delete=False) as f:
        json.dump(plain, f)
        nolabels = f.name
    sizes = {}
    for label, style, labels in [("streets, no labels", nolabels, False), ("streets, labels", "streets", True)]:
        warm6, warm1, process, theirs, theirs_labels, rss = [], [], [], [], [], 0
        for _ in range(args.rounds):
            wall, cpu, rss, count = ours_pyramid(args.bin, zooms, style)
            process.append((wall, cpu))
            theirs.append(theirs_pyramid(pool, zooms))
            if labels:
                theirs_labels.append(theirs_pyramid(pool, zooms, "streets-labels"))
            warm6.append(ours_pyramid_warm(args.bin, zooms, labels, 6, 3)[:2])
            warm1.append(ours_pyramid_warm(args.bin, zooms, labels, 1, 3)[:2])
        _, _, rss_big, count_big = ours_pyramid(args.bin, list(range(10, 18)), style)
        t, w6, w1, p = med(theirs, 1), med(warm6, 1), med(warm1, 1), med(process, 1)
        print(f"| {label} | {count} | {t:.0f} ({med(theirs, 0):.0f}) | {w6:.0f} ({med(warm6, 0):.0f}) | {w6 / t:.2f} "
              f"| {w1:.0f} ({med(warm1, 0):.0f}) | {w1 / t:.2f} | {p:.0f} ({med(process, 0):.0f}) | {p / t:.2f} "
              f"| {rss / 1024:.0f} MiB ({count} tiles) / {rss_big / 1024:.0f} MiB ({count_big} tiles) |", flush=True)
        SUMMARY.append((f"2. pyramid z10-16, {label}, warm, level 1 (MapLibre's effort)", f"{w1:.0f} tiles/s",
                        f"{t:.0f} tiles/s (no labels)", w1 / t, ">= 2", verdict(w1 >= 2 * t)))
        SUMMARY.append((f"2. pyramid z10-16, {label}, warm, level 6", f"{w6:.0f} tiles/s",
                        f"{t:.0f} tiles/s (no labels)", w6 / t, ">= 2", verdict(w6 >= 2 * t)))
        SUMMARY.append((f"2. pyramid z10-16, {label}, whole process, level 6", f"{p:.0f} tiles/s",
                        f"{t:.0f} tiles/s (no labels)", p / t, ">= 2", verdict(p >= 2 * t)))
        if labels:
            tl = med(theirs_labels, 1)
            print(f"| streets, labels, against MapLibre Native with labels (the same glyph PBFs) | {count} "
                  f"| {tl:.0f} ({med(theirs_labels, 0):.0f}) | {w6:.0f} | {w6 / tl:.2f} | {w1:.0f} | {w1 / tl:.2f} "
                  f"| {p:.0f} | {p / tl:.2f} | |", flush=True)
            SUMMARY.append(("2. pyramid z10-16, streets, labels, warm, level 1, against Native with labels",
                            f"{w1:.0f} tiles/s", f"{tl:.0f} tiles/s (labels)", w1 / tl, ">= 2", verdict(w1 >= 2 * tl)))
        SUMMARY.append((f"2. pyramid memory z10-16 / z10-17, {label}", f"{rss / 1024:.0f} / {rss_big / 1024:.0f} MiB",
                        "", rss_big / rss, "flat (<= 1.1)", verdict(rss_big <= 1.1 * rss)))
    os.unlink(nolabels)


def cold(args):
    runs = max(7, args.rounds)
    print(f"\n## Cold `mapraster render` processes, Andorra la Vella zoom 16, 1024x768 (goal < 150 ms CPU), {runs} runs")
    for style in ["standard", "streets"]:
        times, cpus = cold_render(args.bin, style, runs)
        c = statistics.median(cpus)
        print(f"{style}: CPU median {c:.0f} ms, best {min(cpus):.0f} ms; wall median {statistics.median(times):.0f} ms, "
              f"best {min(times):.0f} ms", flush=True)
        if style == "standard":
            SUMMARY.append(("3. cold `render --style standard` z16", f"{c:.0f} ms", "", c / 150, "< 150 ms",
                            verdict(c < 150)))


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--bin", default=os.path.join(ROOT, ".build", "release"))
    parser.add_argument("--rounds", type=int, default=5)
    parser.add_argument("--iterations", type=int, default=10)
    parser.add_argument("--only", default="views,symbols,camera,pyramid,cold")
    args = parser.parse_args()
    only = set(args.only.split(","))
    pool = mapli.RenderPool(workers=1)
    pool.register_style("streets", json=maplibre_style())
    pool.render("streets", lon=1.52, lat=42.5, zoom=3, width=64, height=64)  # loads the style
    # MapLibre Native with the style's labels, from the glyph PBFs `mapraster glyphs` makes of its fonts (the same
    # distance fields MapRaster draws the labels with when a style names no glyphs).
    glyphs = tempfile.mkdtemp()
    subprocess.run([os.path.join(args.bin, "mapraster"), "glyphs", "DejaVu Sans Book", "DejaVu Sans Bold", "-o", glyphs],
                   check=True, capture_output=True)
    pool.register_style("streets-labels", json=maplibre_style(glyphs))
    pool.render("streets-labels", lon=1.52, lat=42.5, zoom=3, width=64, height=64)
    print(f"{time.strftime('%Y-%m-%d %H:%M UTC', time.gmtime())}, load average {os.getloadavg()[0]:.1f}\n")
    if "views" in only:
        views(args, pool)
    if "symbols" in only:
        symbols(args, pool)
    if "camera" in only:
        camera(args, pool)
    if "pyramid" in only:
        pyramid(args, pool)
    if "cold" in only:
        cold(args)
    print(f"\n## Summary (CPU time), load average at the end {os.getloadavg()[0]:.1f}")
    print("| goal | MapRaster | MapLibre Native, same run | ratio | goal | verdict |")
    print("|---|---:|---:|---:|---|---|")
    for goal, ours, theirs, ratio, target, result in SUMMARY:
        print(f"| {goal} | {ours} | {theirs} | {ratio:.2f} | {target} | {result} |")


if __name__ == "__main__":
    main()
