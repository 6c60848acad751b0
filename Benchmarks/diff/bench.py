#!/usr/bin/env python3
"""Benchmark: `mapraster diff` (release build) against blazediff 6.x and Python pixelmatch 0.4.0, same run.

Not a test; never run by `swift test`. Needs a venv with: pip install "blazediff>=6,<7" pixelmatch==0.4.0 pillow

Pairs (rendered with `.build/release/mapraster render`, Natural Earth base map, bbox 5,45,25,60, scale 2):
  identical   the same file twice (byte-equal)
  re-encoded  the same pixels, the second file re-saved by Pillow (equal rows, different bytes)
  small       a pin annotation moved by a few points (about 0.05 % of the pixels differ)
  large       a translucent filled polygon added (about 5 % of the pixels differ)
at 4096x4096 (2048x2048 pt) and 1024x1024 (512x512 pt).

Each pair is timed (median of --runs wall-clock runs) with
  mapraster   the whole process: `mapraster diff A B --json` (start-up, reading and decoding both PNGs, diff)
  blazediff   blazediff.compare(A, B) in this Python process (reading and decoding both PNGs, diff; no
              process start-up, which favours blazediff)
on one core (this process and its children pinned to CPU 0 with sched_setaffinity, mapraster --threads 1)
and on all cores. Python pixelmatch (pure Python, single-threaded) is timed once per pair on the pixels
decoded by Pillow (decoding not counted) and gives the reference count; mapraster's count must equal it.
Threshold 0.1, anti-aliased pixels not counted, no diff image written by either tool.

The binary is built as Scripts/install.sh builds it (release, Swift runtime linked statically:
`swift build -c release --product mapraster --static-swift-stdlib`), the way users run it.

Usage: python Benchmarks/diff/bench.py [--runs 5] [--binary PATH | --no-build] [--work DIR] [--sizes 4096,1024]
"""

import argparse
import importlib.metadata
import json
import os
import resource
import shutil
import statistics
import subprocess
import sys
import time

import blazediff
import pixelmatch
from PIL import Image

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
BINARY = os.path.join(ROOT, ".build", "release", "mapraster")
THRESHOLD = 0.1
BBOX = "5,45,25,60"
KINDS = ["identical", "re-encoded", "small", "large"]


def render(out, points, extra):
    cmd = [BINARY, "render", "--bbox", BBOX, "--size", f"{points}x{points}", "--scale", "2", "-o", out, *extra]
    subprocess.run(cmd, check=True, stdout=subprocess.DEVNULL)


def make_pairs(work, pixels):
    points = pixels // 2
    base = os.path.join(work, f"{pixels}-base.png")
    pairs = {}
    if not os.path.exists(base):
        render(base, points, [])
    ident = os.path.join(work, f"{pixels}-identical.png")
    shutil.copyfile(base, ident)
    pairs["identical"] = (base, ident)
    reenc = os.path.join(work, f"{pixels}-re-encoded.png")
    if not os.path.exists(reenc):
        Image.open(base).save(reenc, compress_level=6)
    pairs["re-encoded"] = (base, reenc)
    # small: six pins, each moved ~0.09 deg (4096: ~18 px) east and south in the second image.
    pin_a = os.path.join(work, f"{pixels}-pin-a.png")
    pin_b = os.path.join(work, f"{pixels}-pin-b.png")
    places = [(48.137, 11.575), (52.52, 13.405), (50.11, 8.68), (47.37, 8.54), (48.21, 16.37), (50.08, 14.42)]
    if not os.path.exists(pin_b):
        for out, d in ((pin_a, 0.0), (pin_b, 0.09)):
            spec = "color:red|size:mid|" + "|".join(f"{lat - d:.3f},{lon + d:.3f}" for lat, lon in places)
            render(out, points, ["--marker", spec])
    pairs["small"] = (pin_a, pin_b)
    # large: a translucent blue polygon over the Alps and Bavaria (about 5 % of the image).
    poly = os.path.join(work, f"{pixels}-polygon.png")
    if not os.path.exists(poly):
        render(poly, points, ["--path", "color:0x0000ffff|weight:2|fillcolor:0x0000ff40|"
                              "48.9,8.0|48.9,14.6|45.5,14.6|45.5,8.0|48.9,8.0"])
    pairs["large"] = (base, poly)
    return pairs


def cpu(who):
    usage = resource.getrusage(who)
    return usage.ru_utime + usage.ru_stime


def time_mapraster(a, b, runs, threads):
    """Median wall-clock and CPU (user + system, all threads) seconds of the whole process, and its count."""
    cmd = [BINARY, "diff", a, b, "--threshold", str(THRESHOLD), "--json"]
    if threads:
        cmd += ["--threads", str(threads)]
    times, cpus, count = [], [], None
    for _ in range(runs):
        c0 = cpu(resource.RUSAGE_CHILDREN)
        t0 = time.perf_counter()
        run = subprocess.run(cmd, capture_output=True, text=True)
        times.append(time.perf_counter() - t0)
        cpus.append(cpu(resource.RUSAGE_CHILDREN) - c0)
        if run.returncode not in (0, 1):
            sys.exit(f"mapraster diff failed ({run.returncode}): {run.stderr.strip()}")
        count = json.loads(run.stdout)["differentPixels"]
    return statistics.median(times), statistics.median(cpus), count


def time_blazediff(a, b, runs):
    """Median wall-clock and CPU seconds of blazediff.compare in this process, and its count."""
    times, cpus, count = [], [], None
    for _ in range(runs):
        c0 = cpu(resource.RUSAGE_SELF)
        t0 = time.perf_counter()
        result = blazediff.compare(a, b, None, threshold=THRESHOLD)
        times.append(time.perf_counter() - t0)
        cpus.append(cpu(resource.RUSAGE_SELF) - c0)
        # An identical pair reports match_result and no count.
        count = result.diff_count if result.diff_count is not None else (0 if result.match_result else None)
    return statistics.median(times), statistics.median(cpus), count


def python_pixelmatch(a, b):
    ia = Image.open(a).convert("RGBA")
    ib = Image.open(b).convert("RGBA")
    w, h = ia.size
    # bytes index to ints, as the flat lists the package documents (memory: 1 byte a channel, not 8).
    da, db = ia.tobytes(), ib.tobytes()
    t0 = time.perf_counter()
    n = pixelmatch.pixelmatch(da, db, w, h, threshold=THRESHOLD, includeAA=False)
    return time.perf_counter() - t0, n


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--runs", type=int, default=5)
    parser.add_argument("--no-build", action="store_true", help="use --binary as it is")
    parser.add_argument("--binary", help="a mapraster binary to time (implies --no-build)")
    parser.add_argument("--work", default=os.path.join(ROOT, ".build", "bench-diff"))
    parser.add_argument("--sizes", default="4096,1024")
    parser.add_argument("--no-pixelmatch", action="store_true", help="skip Python pixelmatch (counts unchecked)")
    args = parser.parse_args()
    global BINARY
    if args.binary:
        BINARY = os.path.abspath(args.binary)
    elif not args.no_build:
        build = ["swift", "build", "-c", "release", "--product", "mapraster", "--static-swift-stdlib"]
        print(" ".join(build), "...", flush=True)
        subprocess.run(build, cwd=ROOT, check=True)
    os.makedirs(args.work, exist_ok=True)
    versions = {p: importlib.metadata.version(p) for p in ("blazediff", "pixelmatch", "pillow")}
    mapraster_version = subprocess.run([BINARY, "version"], capture_output=True, text=True).stdout.strip()
    all_cpus = sorted(os.sched_getaffinity(0))
    print(f"{mapraster_version}; blazediff {versions['blazediff']}, pixelmatch {versions['pixelmatch']}, "
          f"Pillow {versions['pillow']}, Python {sys.version.split()[0]}; {len(all_cpus)} CPUs; "
          f"median of {args.runs} runs; threshold {THRESHOLD}, anti-aliased pixels not counted")

    walls, cpus = [], []
    for _ in range(args.runs):
        c0 = cpu(resource.RUSAGE_CHILDREN)
        t0 = time.perf_counter()
        subprocess.run([BINARY, "version"], capture_output=True, check=True)
        walls.append(time.perf_counter() - t0)
        cpus.append(cpu(resource.RUSAGE_CHILDREN) - c0)
    print(f"mapraster start-up (`mapraster version`): {statistics.median(walls) * 1000:.0f} ms wall, "
          f"{statistics.median(cpus) * 1000:.0f} ms CPU")

    rows = []
    for pixels in [int(s) for s in args.sizes.split(",")]:
        pairs = make_pairs(args.work, pixels)
        for kind in KINDS:
            a, b = pairs[kind]
            if args.no_pixelmatch:
                py_s, py_n = float("nan"), None
            else:
                py_s, py_n = python_pixelmatch(a, b)
            for cores in ("1 core", "all cores"):
                os.sched_setaffinity(0, {all_cpus[0]} if cores == "1 core" else set(all_cpus))
                m_s, m_cpu, m_n = time_mapraster(a, b, args.runs, 1 if cores == "1 core" else 0)
                b_s, b_cpu, b_n = time_blazediff(a, b, args.runs)
                rows.append((f"{pixels}x{pixels}", kind, cores, m_s, b_s, m_cpu, b_cpu, py_s, m_n, b_n, py_n))
            os.sched_setaffinity(0, set(all_cpus))

    print()
    print(f"{'size':9} {'pair':10} {'cores':9} | {'wall: mapraster':>15} {'blazediff':>9} {'ratio':>6} | "
          f"{'CPU: mapraster':>14} {'blazediff':>9} {'ratio':>6} | {'pixelmatch':>10} | "
          f"{'count: mapraster':>16} {'blazediff':>9} {'pixelmatch':>10} equal")
    worst_wall = worst_cpu = 0.0
    mismatches = 0
    for size, kind, cores, m_s, b_s, m_cpu, b_cpu, py_s, m_n, b_n, py_n in rows:
        wall = m_s / b_s
        cpu_ratio = m_cpu / b_cpu if b_cpu > 0 else float("nan")
        worst_wall = max(worst_wall, wall)
        worst_cpu = max(worst_cpu, cpu_ratio)
        equal = "n/a" if py_n is None else ("yes" if m_n == py_n else "NO")
        mismatches += equal == "NO"
        print(f"{size:9} {kind:10} {cores:9} | {m_s * 1000:13.0f}ms {b_s * 1000:7.0f}ms {wall:5.2f}x | "
              f"{m_cpu * 1000:12.0f}ms {b_cpu * 1000:7.0f}ms {cpu_ratio:5.2f}x | {py_s:9.1f}s | "
              f"{m_n:16} {b_n:9} {py_n if py_n is not None else '-':>10} {equal}")
    print(f"\nratio = mapraster / blazediff (<= 1.00: as fast or faster); worst wall {worst_wall:.2f}x, worst CPU "
          f"{worst_cpu:.2f}x. mapraster is a whole process (start-up included), blazediff a call in this process. "
          f"Counts equal to pixelmatch's: {'all' if mismatches == 0 else f'{mismatches} differ'}")
    if mismatches:
        sys.exit(1)


if __name__ == "__main__":
    main()
