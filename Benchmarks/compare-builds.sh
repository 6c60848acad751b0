#!/usr/bin/env bash
# Compares two release builds of MapRaster on every benchmark, in one run, interleaved.
#
#   Benchmarks/compare-builds.sh BASE_DIR NEW_DIR [--rounds N] [--only tiles,style,overlay,scene] [--no-mapnik-tiles]
#
# BASE_DIR and NEW_DIR are folders holding release binaries (mapraster, StyleBenchmark, OverlayBenchmarks,
# AnnotationBenchmarks) with their resource bundles (*.resources) next to them, e.g. a copy of
# .build/release made before a change (see Benchmarks/README.md) and .build/release itself. Both are copied
# to a temporary folder first, so a rebuild during the run does not change what is measured.
#
# Every benchmark runs A/B/A/B... (base, new, base, new; --rounds N pairs, default 3) so that a change in
# machine load hits both builds alike, and the median of each side is shown:
#   - tiles: `mapraster tiles` of the world z0-6 (5461 tiles) with Benchmarks/tiles/bench-tiles.py's style,
#     png and png8, --threads 1 and 2, --quiet, into MBTiles: wall and CPU seconds of the whole process;
#     Mapnik 3.1 (the peer of bench-tiles.py, python3-mapnik) renders the same png pyramid on one core
#     right after each MapRaster png one-core run;
#   - StyleBenchmark: ms per render of MapRaster and of its Mapnik peer (Scripts/bench-mapnik.py);
#   - OverlayBenchmarks: the 1,000,000-point polyline (scale 1 and 2, pipeline and naive peer), the
#     world-long line, the PEERS scene and its base map alone;
#   - AnnotationBenchmarks: `process`, the static scene as a whole `mapraster render` process against the
#     pycairo peer (Scripts/peer-static-map.py, medians of 15 inside each run), then the CPU time of 5
#     `mapraster render --scene` processes of that scene; `query`, `reuse` and `layout`.
# Prints one table: benchmark | base | new | new/base | spread (max-min over median, base / new). Lower is
# better everywhere; "!" marks a row whose new runs are all slower than every base run. Rows named
# "peer" are the same program in both columns: their new/base is the noise of this run. Rows "A / B"
# divide each run's figure by its peer's from the same minute (the ratios the benchmarks' goals are set
# in); with the tiles' CPU rows they are the steadiest when the machine is busy.
#
# Needs Debian's python3-mapnik (/usr/bin/python3) for the Mapnik rows and pycairo in the `python3` on
# PATH for the pycairo rows (pip install pycairo); without them those rows are left out. Run time with the
# default 3 rounds: 11 minutes on 2 cores at load 5-6 (other builds running), 16 at load 8.
set -euo pipefail
HERE="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
REPO="$(dirname "$HERE")"
if [ $# -lt 2 ]; then
    sed -n '2,/^set -euo/p' "${BASH_SOURCE[0]}" | grep '^#' | sed 's/^# \{0,1\}//'
    exit 64
fi
PYTHON=/usr/bin/python3
[ -x "$PYTHON" ] || PYTHON=python3
exec "$PYTHON" - "$REPO" "$@" <<'PY'
import argparse
import importlib.util
import os
import re
import shutil
import sqlite3
import statistics
import subprocess
import sys
import tempfile
import time

repo = sys.argv[1]
parser = argparse.ArgumentParser(prog="compare-builds.sh")
parser.add_argument("base")
parser.add_argument("new")
parser.add_argument("--rounds", type=int, default=3, help="A/B pairs per benchmark (default 3)")
parser.add_argument("--only", default="tiles,style,overlay,scene", help="comma-separated subset")
parser.add_argument("--no-mapnik-tiles", action="store_true", help="leave out the Mapnik tile peer runs")
parser.add_argument("--max-zoom", type=int, default=6, help="tile pyramid z0..N (default 6)")
args = parser.parse_args(sys.argv[2:])
only = set(args.only.split(","))
if not only <= {"tiles", "style", "overlay", "scene"}:
    sys.exit(f"error: --only {args.only}: use a comma-separated subset of tiles,style,overlay,scene")
if args.rounds < 1:
    sys.exit(f"error: --rounds {args.rounds} is invalid: use 1 or more")
BINARIES = {"tiles": "mapraster", "style": "StyleBenchmark", "overlay": "OverlayBenchmarks",
            "scene": "AnnotationBenchmarks"}


START = time.perf_counter()


def log(text):
    print(f"[{time.perf_counter() - START:5.0f} s] {text}", file=sys.stderr, flush=True)


work = tempfile.mkdtemp(prefix="compare-builds-")


def private_copy(source, label):
    """Copies the executables and resource bundles of `source` into work/label; returns that folder."""
    if not os.path.isdir(source):
        sys.exit(f"error: {source} is not a folder of release binaries")
    target = os.path.join(work, label)
    os.makedirs(target)
    wanted = {BINARIES[k] for k in only} | {"mapraster"}
    for name in sorted(wanted):
        path = os.path.join(source, name)
        if not os.access(path, os.X_OK):
            sys.exit(f"error: {path} is missing: build with `swift build -c release` and copy the binaries "
                     "and *.resources folders of .build/release")
        shutil.copy2(path, target)
    bundles = [n for n in os.listdir(source) if n.endswith(".resources")]
    if not bundles:
        sys.exit(f"error: {source} has no *.resources folder: the binaries need theirs next to them")
    for name in bundles:
        shutil.copytree(os.path.join(source, name), os.path.join(target, name))
    return target


def describe(folder):
    stamp = os.path.getmtime(os.path.join(folder, "mapraster"))
    return time.strftime("%Y-%m-%d %H:%M UTC", time.gmtime(stamp))


sides = {}
results = {}  # row -> {"base": [...], "new": [...]}
order = []


def record(row, side, value):
    if value is None:
        return
    if row not in results:
        results[row] = {"base": [], "new": []}
        order.append(row)
    results[row][side].append(value)


def run(command, env=None):
    """Runs a command; returns (wall s, CPU s = user + system of it and its children, max RSS MiB, stdout)."""
    out_path, err_path = os.path.join(work, "stdout.txt"), os.path.join(work, "stderr.txt")
    with open(out_path, "w") as out, open(err_path, "w") as err:
        start = time.perf_counter()
        process = subprocess.Popen(command, stdin=subprocess.DEVNULL, stdout=out, stderr=err, env=env, cwd=work)
        _, status, usage = os.wait4(process.pid, 0)
        wall = time.perf_counter() - start
        process.returncode = os.waitstatus_to_exitcode(status)
    stdout, stderr = open(out_path).read(), open(err_path).read()
    if process.returncode != 0:
        sys.exit(f"error: {' '.join(command)} failed ({process.returncode}):\n{stderr[-2000:]}{stdout[-2000:]}")
    return wall, usage.ru_utime + usage.ru_stime, usage.ru_maxrss / 1024, stdout


try:
    for side, folder in (("base", args.base), ("new", args.new)):
        sides[side] = private_copy(os.path.abspath(folder), side)
    load_before = os.getloadavg()

    # ---------------------------------------------------------------------------------------------- tiles
    if "tiles" in only:
        spec = importlib.util.spec_from_file_location("bench_tiles", os.path.join(repo, "Benchmarks/tiles/bench-tiles.py"))
        bench_tiles = importlib.util.module_from_spec(spec)
        spec.loader.exec_module(bench_tiles)
        xml_path, style_path = bench_tiles.prepare_styles(repo, work)
        total = bench_tiles.tile_count(args.max_zoom)
        mapnik = not args.no_mapnik_tiles and subprocess.run(
            ["/usr/bin/python3", "-c", "import mapnik"], capture_output=True).returncode == 0
        if not mapnik and not args.no_mapnik_tiles:
            log("note: /usr/bin/python3 has no mapnik module (apt-get install python3-mapnik): no Mapnik tile rows")
        for r in range(args.rounds):
            for fmt in ("png", "png8"):
                for threads in (1, 2):
                    for side in ("base", "new"):
                        log(f"round {r + 1}/{args.rounds}: tiles {fmt} {threads} thread(s), {side}")
                        out = os.path.join(work, "tiles.mbtiles")
                        wall, cpu, rss, _ = run([os.path.join(sides[side], "mapraster"), "tiles", "-o", out,
                                                 "--zoom", f"0-{args.max_zoom}", "--format", fmt, "--style",
                                                 style_path, "--quiet", "--threads", str(threads)])
                        db = sqlite3.connect(out)
                        count = db.execute("SELECT count(*) FROM tiles").fetchone()[0]
                        db.close()
                        os.remove(out)
                        if count != total:
                            sys.exit(f"error: {side} wrote {count} tiles, expected {total}")
                        label = f"tiles z0-{args.max_zoom} {fmt}, {threads} thread{'s' if threads > 1 else ''}"
                        record(f"{label}: wall s", side, wall)
                        record(f"{label}: CPU s", side, cpu)
                        if threads == 1 and fmt == "png":
                            record(f"{label}: peak RSS MiB", side, rss)
                        if mapnik and threads == 1 and fmt == "png":
                            log(f"round {r + 1}/{args.rounds}: peer Mapnik tiles {fmt} 1 process ({side} slot)")
                            out = os.path.join(work, "mapnik.sqlite")
                            wall, cpu, _, _ = run(["/usr/bin/python3", os.path.join(repo, "Benchmarks/tiles/bench-tiles.py"),
                                                   "--mapnik-run", xml_path, str(args.max_zoom), fmt, "1", out])
                            os.remove(out)
                            record(f"peer Mapnik tiles {fmt}, 1 process: wall s", side, wall)
                            # MapRaster's time over Mapnik's right after it: steadier under load than either.
                            record(f"{label}: MapRaster / Mapnik wall", side, results[f"{label}: wall s"][side][-1] / wall)

    # ---------------------------------------------------------------------------------------------- style
    if "style" in only:
        for r in range(args.rounds):
            for side in ("base", "new"):
                log(f"round {r + 1}/{args.rounds}: StyleBenchmark, {side}")
                _, _, _, out = run([os.path.join(sides[side], "StyleBenchmark")])
                for line in out.splitlines():
                    fields = [f.strip() for f in line.split("|")]
                    if len(fields) == 4 and re.match(r"^[\d.]+$", fields[1]):
                        name = fields[0].split(",")[0].split(" 1024")[0]
                        record(f"StyleBenchmark {name}: ms/render", side, float(fields[1]))
                        if re.match(r"^[\d.]+$", fields[2]):
                            record(f"peer Mapnik StyleBenchmark {name}: ms/render", side, float(fields[2]))
                            record(f"StyleBenchmark {name}: MapRaster / Mapnik", side, float(fields[1]) / float(fields[2]))

    # -------------------------------------------------------------------------------------------- overlay
    if "overlay" in only:
        patterns = [
            (r"make 1,000,000 coordinates.*?: ([\d.]+) s", ["overlay: make 1M coordinates + Polyline: s"]),
            (r"scale 1: pipeline ([\d.]+) s.*?peak RSS (\d+) MB \| naive peer ([\d.]+) s",
             ["overlay 1M-point polyline scale 1: s", "overlay 1M-point polyline scale 1: peak RSS MB",
              "peer naive 1M-point polyline scale 1 (same binary): s"]),
            (r"scale 2: pipeline ([\d.]+) s.*?peak RSS (\d+) MB \| naive peer ([\d.]+) s",
             ["overlay 1M-point polyline scale 2: s", None, "peer naive 1M-point polyline scale 2 (same binary): s"]),
            (r"world-long line at street zoom \(clipped\): ([\d.]+) s", ["overlay world-long line, street zoom: s"]),
            (r"PEERS scene without pins .*?: ([\d.]+) s; the same base map alone ([\d.]+) s",
             ["overlay PEERS scene (base map + overlays): s", "overlay PEERS scene, base map alone: s"]),
        ]
        for r in range(args.rounds):
            for side in ("base", "new"):
                log(f"round {r + 1}/{args.rounds}: OverlayBenchmarks, {side}")
                _, _, _, out = run([os.path.join(sides[side], "OverlayBenchmarks")])
                for pattern, rows in patterns:
                    match = re.search(pattern, out)
                    if not match:
                        log(f"note: OverlayBenchmarks printed no line matching {pattern!r}")
                        continue
                    for row, value in zip(rows, match.groups()):
                        if row:
                            record(row, side, float(value))
                    if "naive peer" in pattern:
                        scale = "1" if "scale 1" in pattern else "2"
                        record(f"overlay 1M-point polyline scale {scale}: pipeline / naive", side,
                               float(match.group(1)) / float(match.group(3)))

    # ---------------------------------------------------------------------------------------------- scene
    if "scene" in only:
        for r in range(args.rounds):
            for side in ("base", "new"):
                log(f"round {r + 1}/{args.rounds}: AnnotationBenchmarks query reuse process layout, {side}")
                env = dict(os.environ, TMPDIR=work)
                _, _, _, out = run([os.path.join(sides[side], "AnnotationBenchmarks"), "query", "reuse", "process", "layout"],
                                  env=env)
                for pattern, rows in (
                    (r"index build \(first query\): ([\d.]+) ms", ["annotations(in:) on 1,000,000: index build ms"]),
                    (r"annotations\(in:\) ([\d.]+) ms", ["annotations(in:) on 1,000,000: query ms"]),
                    (r"linear scan of precomputed map points ([\d.]+) ms",
                     ["peer linear scan of 1,000,000 map points (same binary): ms"]),
                    (r"collision \(all low priority\): ([\d.]+) ms", ["layout 100,000 pins, collisions: ms"]),
                    (r"clustering: ([\d.]+) ms", ["layout 100,000 pins, clustering: ms"]),
                ):
                    match = re.search(pattern, out)
                    if match:
                        record(rows[0], side, float(match.group(1)))
                match = re.search(r"mapraster render ([\d.]+) ms, pycairo \(.*?\) ([\d.]+) ms", out)
                if match:
                    record("static scene, whole `mapraster render` process: ms", side, float(match.group(1)))
                    record("peer pycairo static scene, whole process: ms", side, float(match.group(2)))
                    record("static scene: mapraster / pycairo", side, float(match.group(1)) / float(match.group(2)))
                elif r == 0 and side == "base":
                    log("note: no static-scene figures (is pycairo installed for `python3`?):\n" + out)
                # The same scene file (AnnotationBenchmarks wrote it into TMPDIR): CPU time of 5 processes.
                scene = os.path.join(work, "mapraster-bench-scene.json")
                if os.path.exists(scene):
                    cpus = [run([os.path.join(sides[side], "mapraster"), "render", "--scene", scene, "--no-base-map",
                                 "--no-attribution", "-o", os.path.join(work, "scene.png")])[1] for _ in range(5)]
                    record("static scene, `mapraster render` process: CPU ms (median of 5)", side,
                           statistics.median(cpus) * 1000)
                match = re.search(r"snapshot with reuse ([\d.]+) ms, without ([\d.]+) ms", out)
                if match:
                    record("annotations: 1,000 pins with bitmap reuse: ms", side, float(match.group(1)))
                    record("annotations: 1,000 pins without reuse: ms", side, float(match.group(2)))

    load_after = os.getloadavg()
    # ---------------------------------------------------------------------------------------------- table
    print(f"compare-builds: base {args.base} (mapraster built {describe(sides['base'])}), "
          f"new {args.new} (built {describe(sides['new'])})")
    print(f"{args.rounds} A/B rounds, medians; load average before {load_before[0]:.2f} {load_before[1]:.2f}, "
          f"after {load_after[0]:.2f} {load_after[1]:.2f}; {time.strftime('%Y-%m-%d %H:%M UTC', time.gmtime())}")
    print(f"took {time.perf_counter() - START:.0f} s. Lower is better everywhere. '!' = every new run slower than "
          "every base run (by chance alone 1 row in 20 at 3 rounds).")
    print("'peer' rows run the same program in both columns: their new/base is this run's noise. 'A / B' rows "
          "divide each run's figure by its peer's, measured alternately in the same minute: the steadiest under load, "
          "with the tiles' CPU rows.")
    if max(load_before[0], load_after[0]) > 0.75 * (os.cpu_count() or 1):
        print(f"WARNING: the machine was busy (load {max(load_before[0], load_after[0]):.1f} on {os.cpu_count()} "
              "cores): wall times swing by tens of percent; judge by the CPU and '/ peer' rows, or run again when idle.")
    print()

    def fmt(v):
        return f"{v:.1f}" if v >= 100 else f"{v:.3f}" if v < 1 else f"{v:.2f}"

    width = max(len(r) for r in order) if order else 10
    print(f"| {'benchmark':{width}} | {'base':>9} | {'new':>9} | new/base | spread base / new |")
    print(f"|{'-' * (width + 2)}|{'-' * 10}:|{'-' * 10}:|---------:|------------------:|")
    for row in order:
        a, b = results[row]["base"], results[row]["new"]
        if not a or not b:
            continue
        ma, mb = statistics.median(a), statistics.median(b)
        ratio = mb / ma if ma else float("nan")
        flag = " !" if args.rounds >= 3 and min(b) > max(a) else "  "
        spread = f"{(max(a) - min(a)) / ma:.0%} / {(max(b) - min(b)) / mb:.0%}" if ma and mb else "-"
        print(f"| {row:{width}} | {fmt(ma):>9} | {fmt(mb):>9} | {ratio:6.3f}{flag} | {spread:>17} |")
finally:
    shutil.rmtree(work, ignore_errors=True)
PY
