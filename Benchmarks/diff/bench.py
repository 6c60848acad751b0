#!/usr/bin/env python3
"""Benchmark: `mapraster diff` (release build) against blazediff 6.x and Python pixelmatch 0.4.0, same run.

Not a test; never run by `swift test`. Needs a venv with: pip install "blazediff>=6,<7" pixelmatch==0.4.0 pillow

Pairs (rendered with `.build/release/mapraster render`, Natural Earth base map, bbox 5,45,25,60, scale 2):
  identical   the same file twice (byte-equal)
  re-encoded  the same pixels, the second file re-saved by Pillow (equal rows, different bytes)
  small       a pin annotation moved by a few points (about 0.05 % of the pixels differ)
  large       a translucent filled polygon added (about 5 % of the pixels differ)
at 4096x4096 (2048x2048 pt) and 1024x1024 (512x512 pt).

Two comparisons of like with like, both printed; the goal of issue 29 (<= 1.0x) is judged on the first:

  in-process  MapRaster's library against blazediff's library, each called in its own process with no
              process start-up counted: `DiffBenchmark A B` (Benchmarks/DiffBenchmark: what `mapraster diff`
              does after start-up, with the same MapDiff and MapGraphics calls) against blazediff.compare(A, B)
              in a Python worker process. Both read the two files, decode both PNGs and count. blazediff 6 on
              PyPI is only this: a PyO3 module (Rust, rayon threads, spng or its own PNG codec), no CLI binary
              (its CLI is `cargo install blazediff`, from crates.io).
  process     `mapraster diff A B --json` as a whole process against the nearest blazediff process PyPI
              offers, `python -c "import blazediff; blazediff.compare(A, B)"`, whose interpreter start-up and
              import (printed) are in its time as mapraster's start-up is in mapraster's.

Each figure is the median of --rounds rounds (mapraster and blazediff alternating within a round); an
in-process round is the median of --runs calls after one warm-up call, a process round one process.
"1 core": this script and every child pinned to CPU 0 (sched_setaffinity before they start, so blazediff's
rayon pool has one thread; RAYON_NUM_THREADS=1 too) and mapraster with --threads 1; "all cores": no pin,
mapraster --threads 0 (one per core). Python pixelmatch (pure Python, single-threaded) is timed once per pair
on the pixels decoded by Pillow (decoding not counted) and gives the reference count; mapraster's count must
equal it. Threshold 0.1, anti-aliased pixels not counted, no diff image written by either tool.

The `mapraster` binary is built as Scripts/install.sh builds it (release, Swift runtime linked statically:
`swift build -c release --product mapraster --static-swift-stdlib`), the way users run it; DiffBenchmark with
`swift build -c release --product DiffBenchmark`.

Usage: python Benchmarks/diff/bench.py [--runs 5] [--rounds 3] [--no-build] [--binary PATH] [--work DIR]
       [--sizes 4096,1024] [--no-pixelmatch]
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

import pixelmatch
from PIL import Image

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
BINARY = os.path.join(ROOT, ".build", "release", "mapraster")
IN_PROCESS = os.path.join(ROOT, ".build", "release", "DiffBenchmark")
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


def blazediff_count(result):
    # An identical pair reports match_result and no count.
    return result.diff_count if result.diff_count is not None else (0 if result.match_result else None)


def blazediff_worker(a, b, runs):
    """In a fresh process (so rayon's pool follows this process's CPUs): median wall and CPU seconds of
    blazediff.compare after one warm-up call, and its count, as one JSON line."""
    import blazediff
    blazediff.compare(a, b, None, threshold=THRESHOLD)
    times, cpus, count = [], [], None
    for _ in range(runs):
        c0 = cpu(resource.RUSAGE_SELF)
        t0 = time.perf_counter()
        result = blazediff.compare(a, b, None, threshold=THRESHOLD)
        times.append(time.perf_counter() - t0)
        cpus.append(cpu(resource.RUSAGE_SELF) - c0)
        count = blazediff_count(result)
    print(json.dumps({"wall": statistics.median(times), "cpu": statistics.median(cpus), "differentPixels": count}))


def child_env(threads):
    env = dict(os.environ)
    if threads == 1:
        env["RAYON_NUM_THREADS"] = "1"
    else:
        env.pop("RAYON_NUM_THREADS", None)
    return env


def run_json(cmd, threads):
    run = subprocess.run(cmd, capture_output=True, text=True, env=child_env(threads))
    if run.returncode not in (0, 1):
        sys.exit(f"{' '.join(cmd)} failed ({run.returncode}): {run.stderr.strip()}")
    return json.loads(run.stdout)


def timed_process(cmd, threads):
    """Wall-clock and CPU (user + system, all threads) seconds of one whole process, and its stdout."""
    c0 = cpu(resource.RUSAGE_CHILDREN)
    t0 = time.perf_counter()
    run = subprocess.run(cmd, capture_output=True, text=True, env=child_env(threads))
    wall = time.perf_counter() - t0
    if run.returncode not in (0, 1):
        sys.exit(f"{' '.join(cmd)} failed ({run.returncode}): {run.stderr.strip()}")
    return wall, cpu(resource.RUSAGE_CHILDREN) - c0, run.stdout


BLAZEDIFF_PROCESS = ("import sys, blazediff; r = blazediff.compare(sys.argv[1], sys.argv[2], None, threshold={t}); "
                     "print(r.diff_count if r.diff_count is not None else (0 if r.match_result else None))")


def measure(a, b, runs, rounds, threads):
    """Medians over rounds of: in-process (mapraster, blazediff) and process (mapraster, blazediff) wall and CPU."""
    m_in, b_in, m_proc, b_proc = [], [], [], []
    counts = {}
    for _ in range(rounds):
        m = run_json([IN_PROCESS, "--runs", str(runs), "--threads", str(threads), a, b], threads)
        m_in.append((m["wall"], m["cpu"]))
        counts["mapraster in-process"] = m["differentPixels"]
        z = run_json([sys.executable, os.path.abspath(__file__), "--blazediff-worker", a, b, str(runs)], threads)
        b_in.append((z["wall"], z["cpu"]))
        counts["blazediff"] = z["differentPixels"]
        wall, c, out = timed_process([BINARY, "diff", a, b, "--threshold", str(THRESHOLD), "--json"]
                                     + (["--threads", str(threads)] if threads else []), threads)
        m_proc.append((wall, c))
        counts["mapraster"] = json.loads(out)["differentPixels"]
        wall, c, out = timed_process([sys.executable, "-c", BLAZEDIFF_PROCESS.format(t=THRESHOLD), a, b], threads)
        b_proc.append((wall, c))
        counts["blazediff process"] = None if out.strip() == "None" else int(out)

    def med(values):
        return statistics.median(v[0] for v in values), statistics.median(v[1] for v in values)
    return med(m_in), med(b_in), med(m_proc), med(b_proc), counts


def python_pixelmatch(a, b):
    ia = Image.open(a).convert("RGBA")
    ib = Image.open(b).convert("RGBA")
    w, h = ia.size
    # bytes index to ints, as the flat lists the package documents (memory: 1 byte a channel, not 8).
    da, db = ia.tobytes(), ib.tobytes()
    t0 = time.perf_counter()
    n = pixelmatch.pixelmatch(da, db, w, h, threshold=THRESHOLD, includeAA=False)
    return time.perf_counter() - t0, n


def start_ups(runs):
    """Median wall and CPU seconds of `mapraster version` and of `python -c "import blazediff"`."""
    out = {}
    for name, cmd in (("mapraster version", [BINARY, "version"]),
                      ("python -c 'import blazediff'", [sys.executable, "-c", "import blazediff"])):
        samples = [timed_process(cmd, 0)[:2] for _ in range(runs)]
        out[name] = (statistics.median(s[0] for s in samples), statistics.median(s[1] for s in samples))
    return out


def main():
    if len(sys.argv) == 5 and sys.argv[1] == "--blazediff-worker":
        blazediff_worker(sys.argv[2], sys.argv[3], int(sys.argv[4]))
        return
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--runs", type=int, default=5)
    parser.add_argument("--rounds", type=int, default=3)
    parser.add_argument("--no-build", action="store_true", help="use the binaries as they are")
    parser.add_argument("--binary", help="a mapraster binary to time (implies --no-build)")
    parser.add_argument("--work", default=os.path.join(ROOT, ".build", "bench-diff"))
    parser.add_argument("--sizes", default="4096,1024")
    parser.add_argument("--no-pixelmatch", action="store_true", help="skip Python pixelmatch (counts unchecked)")
    args = parser.parse_args()
    global BINARY
    if args.binary:
        BINARY = os.path.abspath(args.binary)
    elif not args.no_build:
        for build in (["swift", "build", "-c", "release", "--product", "mapraster", "--static-swift-stdlib"],
                      ["swift", "build", "-c", "release", "--product", "DiffBenchmark"]):
            print(" ".join(build), "...", flush=True)
            subprocess.run(build, cwd=ROOT, check=True)
    os.makedirs(args.work, exist_ok=True)
    versions = {p: importlib.metadata.version(p) for p in ("blazediff", "pixelmatch", "pillow")}
    mapraster_version = subprocess.run([BINARY, "version"], capture_output=True, text=True).stdout.strip()
    all_cpus = sorted(os.sched_getaffinity(0))
    print(f"{mapraster_version}; blazediff {versions['blazediff']}, pixelmatch {versions['pixelmatch']}, "
          f"Pillow {versions['pillow']}, Python {sys.version.split()[0]}; {len(all_cpus)} CPUs; "
          f"median of {args.rounds} rounds ({args.runs} calls a round in-process); threshold {THRESHOLD}, "
          f"anti-aliased pixels not counted; load average {' '.join(f'{x:.1f}' for x in os.getloadavg())}")
    for name, (wall, c) in start_ups(args.runs).items():
        print(f"start-up, {name}: {wall * 1000:.0f} ms wall, {c * 1000:.0f} ms CPU")

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
                m_in, b_in, m_proc, b_proc, counts = measure(
                    a, b, args.runs, args.rounds, 1 if cores == "1 core" else 0)
                rows.append((f"{pixels}x{pixels}", kind, cores, m_in, b_in, m_proc, b_proc, py_s, counts, py_n))
            os.sched_setaffinity(0, set(all_cpus))

    def ratio(x, y):
        return x / y if y > 0 else float("nan")

    print()
    print(f"{'size':9} {'pair':10} {'cores':9} | in-process: {'mapraster':>9} {'blazediff':>9} {'ratio':>6} "
          f"{'CPU ratio':>9} | process: {'mapraster':>9} {'blazediff':>9} {'ratio':>6} {'CPU ratio':>9} | "
          f"{'pixelmatch':>10} | "
          f"count: {'mapraster':>9} {'blazediff':>9} {'pixelmatch':>10} equal")
    worst_in = worst_proc = 0.0
    mismatches = 0
    for size, kind, cores, m_in, b_in, m_proc, b_proc, py_s, counts, py_n in rows:
        r_in, r_cpu, r_proc = ratio(m_in[0], b_in[0]), ratio(m_in[1], b_in[1]), ratio(m_proc[0], b_proc[0])
        r_proc_cpu = ratio(m_proc[1], b_proc[1])
        worst_in = max(worst_in, r_in)
        worst_proc = max(worst_proc, r_proc)
        n = counts["mapraster"]
        consistent = counts["mapraster in-process"] == n
        equal = "n/a" if py_n is None else ("yes" if n == py_n and consistent else "NO")
        mismatches += equal == "NO" or not consistent
        print(f"{size:9} {kind:10} {cores:9} | {m_in[0] * 1000:19.1f}ms {b_in[0] * 1000:7.1f}ms {r_in:5.2f}x "
              f"{r_cpu:8.2f}x | {m_proc[0] * 1000:16.0f}ms {b_proc[0] * 1000:7.0f}ms {r_proc:5.2f}x {r_proc_cpu:8.2f}x | "
              f"{py_s:9.1f}s | {n:16} {counts['blazediff']!s:>9} {py_n if py_n is not None else '-':>10} {equal}")
    print(f"\nratio = mapraster / blazediff (<= 1.00: as fast or faster). Worst in-process wall ratio {worst_in:.2f}x "
          f"(the goal), worst process wall ratio {worst_proc:.2f}x. CPU = user + system of all threads (the process's "
          f"CPU ratio includes both start-ups). Counts equal to pixelmatch's: "
          f"{'all' if mismatches == 0 else f'{mismatches} differ'}")
    if mismatches:
        sys.exit(1)


if __name__ == "__main__":
    main()
