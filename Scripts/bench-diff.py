#!/usr/bin/env python3
"""Benchmark: `mapraster diff` against PyPI pixelmatch 0.4.0 on two 2048x2048 map renders.

Not a test; never run by `swift test`. Needs: pip install pixelmatch==0.4.0 pillow (13.0.0 used).

  1. Renders two 2048x2048 px maps with the release CLI: the Europe bbox 5,45,25,60 at 1024x1024 pt, scale 2,
     and the same with the bbox moved by 0.004/0.003 deg (the view moves ~0.26 px east and ~0.49 px
     north: anti-aliasing differences along every edge).
  2. Times pixelmatch.pixelmatch(a, b, 2048, 2048, threshold=0.1, includeAA=False) once (pure Python:
     ~5-6 s here, as most pixels are byte-identical). Decoding the PNGs into flat RGBA lists is timed separately and not counted.
  3. Times `.build/release/mapraster diff A.png B.png --threshold 0.1 --json` several times (median of
     wall-clock runs of the whole process: start-up, PNG decoding and the diff).
  4. Prints both times, both differing-pixel counts (they must be equal) and the speed ratio.

Usage: python3 Scripts/bench-diff.py [--runs 5] [--no-build] [--keep DIR] [--count-key KEY]
  --no-build   use the existing .build/release/mapraster instead of running `swift build -c release` first
  --keep DIR   write the two renders to DIR (default: a temporary directory, removed afterwards)
  --count-key  the --json member holding the differing-pixel count (default: guessed, see find_count)
If the binary has no `diff` command yet, says so and times only Python.
"""

import argparse
import importlib.metadata
import json
import os
import statistics
import subprocess
import sys
import tempfile
import time

from PIL import Image

import pixelmatch

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
BINARY = os.path.join(ROOT, ".build", "release", "mapraster")
THRESHOLD = 0.1
RENDER_A = ["--bbox", "5,45,25,60", "--size", "1024x1024", "--scale", "2"]
RENDER_B = ["--bbox", "5.004,45.003,25.004,60.003", "--size", "1024x1024", "--scale", "2"]
COUNT_KEYS = ["differentPixels", "diffPixels", "differingPixels", "mismatchedPixels", "diffCount", "diff", "count"]


def find_count(report, key=None):
    """The differing-pixel count in the CLI's --json report: `key` if given, else the first of COUNT_KEYS
    found at the top level or one level down, else the only integer member whose name mentions diff."""
    if key:
        return report[key]
    levels = [report] + [v for v in report.values() if isinstance(v, dict)]
    for k in COUNT_KEYS:
        for level in levels:
            if isinstance(level.get(k), int) and not isinstance(level.get(k), bool):
                return level[k]
    ints = {k: v for level in levels for k, v in level.items()
            if isinstance(v, int) and not isinstance(v, bool) and "diff" in k.lower()
            and not any(s in k.lower() for s in ("max", "ratio", "aa"))}
    if len(ints) == 1:
        return next(iter(ints.values()))
    raise KeyError(f"no differing-pixel count found in {report}; pass --count-key")


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--runs", type=int, default=5)
    parser.add_argument("--no-build", action="store_true")
    parser.add_argument("--keep")
    parser.add_argument("--count-key")
    args = parser.parse_args()

    print(f"pixelmatch {importlib.metadata.version('pixelmatch')}, Pillow {importlib.metadata.version('pillow')}, "
          f"Python {sys.version.split()[0]}")
    if not args.no_build:
        print("swift build -c release --product mapraster ...", flush=True)
        subprocess.run(["swift", "build", "-c", "release", "--product", "mapraster"], cwd=ROOT, check=True)
    if not os.path.exists(BINARY):
        sys.exit(f"{BINARY} is missing: run `swift build -c release` (or drop --no-build)")

    if args.keep:
        os.makedirs(args.keep, exist_ok=True)
        bench(args, args.keep)
    else:
        with tempfile.TemporaryDirectory() as workdir:
            bench(args, workdir)


def bench(args, workdir):
    path_a = os.path.join(workdir, "bench-a.png")
    path_b = os.path.join(workdir, "bench-b.png")
    for path, extra in ((path_a, RENDER_A), (path_b, RENDER_B)):
        subprocess.run([BINARY, "render", *extra, "-o", path], check=True, stdout=subprocess.DEVNULL)

    t0 = time.perf_counter()
    img_a = Image.open(path_a).convert("RGBA")
    img_b = Image.open(path_b).convert("RGBA")
    w, h = img_a.size
    assert (w, h) == img_b.size == (2048, 2048), (img_a.size, img_b.size)
    data_a = list(img_a.tobytes())
    data_b = list(img_b.tobytes())
    decode_s = time.perf_counter() - t0
    print(f"renders: {w}x{h} px each ({os.path.getsize(path_a)} and {os.path.getsize(path_b)} bytes)")
    print(f"Python: decode + flatten to lists {decode_s:.2f} s (not counted)", flush=True)

    t0 = time.perf_counter()
    py_count = pixelmatch.pixelmatch(data_a, data_b, w, h, threshold=THRESHOLD, includeAA=False)
    py_s = time.perf_counter() - t0
    print(f"Python pixelmatch 0.4.0 (threshold {THRESHOLD}, AA excluded), 1 run: {py_s:.2f} s, "
          f"{py_count} differing pixels", flush=True)

    probe = subprocess.run([BINARY, "diff", path_a, path_a, "--json"], capture_output=True, text=True)
    if "unknown command" in probe.stderr:
        print(f"mapraster diff: not implemented in this binary ({probe.stderr.strip().splitlines()[0]}); "
              "timed only Python.")
        return

    times, report = [], None
    command = [BINARY, "diff", path_a, path_b, "--threshold", str(THRESHOLD), "--json"]
    for _ in range(args.runs):
        t0 = time.perf_counter()
        run = subprocess.run(command, capture_output=True, text=True)
        times.append(time.perf_counter() - t0)
        if run.returncode not in (0, 1):
            sys.exit(f"mapraster diff failed with exit code {run.returncode}: {run.stderr.strip()}")
        report = json.loads(run.stdout)
    swift_count = find_count(report, args.count_key)
    swift_s = statistics.median(times)
    print(f"mapraster diff (release), median of {args.runs}: {swift_s * 1000:.1f} ms "
          f"(runs: {', '.join(f'{t * 1000:.1f}' for t in times)} ms), {swift_count} differing pixels")
    print(f"  --json: {json.dumps(report)}")
    print(f"counts {'EQUAL' if swift_count == py_count else 'DIFFER'}: Python {py_count}, Swift {swift_count}")
    print(f"speed ratio (Python pixelmatch / mapraster diff): {py_s / swift_s:.0f}x "
          "(the mapraster time includes process start and decoding both PNGs; the Python time does not)")
    if swift_count != py_count:
        sys.exit(1)


if __name__ == "__main__":
    main()
