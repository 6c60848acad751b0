#!/usr/bin/env python3
"""Runs MapLibre's render tests (/work/shared/maplibre-render-tests) through `mapraster render` and scores them.

For every case `tests/<group>/[<sub>/]<case>/style.json` with its `expected.png`:
  1. skips it when the style has a `pitch` or `bearing` other than 0, or `metadata.test.operations`
     (runtime operations MapRaster has no equivalent for): counted as skipped;
  2. writes a temporary copy of the style with every `local://...` string turned into the absolute path
     of ASSETS/... (the folder next to `tests/`);
  3. runs `mapraster render --style COPY --center LAT,LON --zoom Z+1 --size WxH --scale R
     --no-attribution -o OUT` (MapLibre zoom z is MapRaster zoom z + 1: MapLibre counts 512-point
     tiles; W, H default 512, R is `metadata.test.pixelRatio`, default 1; center and zoom from the style,
     default 0,0 / 0); a non-zero exit is `unsupported`, with the first error line kept;
  4. scores like MapLibre's harness: PyPI pixelmatch (threshold `metadata.test.threshold`, default
     0.1285, anti-aliased pixels not counted) against expected.png; `pass` when differing pixels /
     (width x height in device pixels) <= `metadata.test.allowed` (default 0.00025), else `fail`
     (an image of another size than expected.png fails outright).

Prints a table per group (pass / fail / unsupported / skipped, pass % of the non-skipped cases), then one
per family (the group name before its first '-': background, fill, line, circle, ...), and the most
common refusal messages. `--json PATH` writes every case's result; `--sheet DIR` writes
expected | actual | diff PNGs side by side for failing cases
(over a grey checkerboard, so transparency shows; images under 128 px enlarged 2x or more).

Not a test: never run by `swift test`; the Swift product does not need Python. Needs
`pip install pixelmatch==0.4.0 pillow`.

Usage: python3 Scripts/maplibre-render-tests.py [--binary PATH] [--tests DIR] [--group PATTERN]
                                               [--jobs N] [--json PATH] [--sheet DIR] [--timeout S]
"""

import argparse
import collections
import concurrent.futures
import datetime
import fnmatch
import json
import os
import re
import shutil
import subprocess
import sys
import tempfile
import time

from PIL import Image
from pixelmatch.contrib.PIL import pixelmatch

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
DEFAULT_TESTS = "/work/shared/maplibre-render-tests"
DEFAULT_THRESHOLD = 0.1285
DEFAULT_ALLOWED = 0.00025
DEFAULT_SIZE = 512


def find_cases(tests_root, pattern):
    """(group, case name, case dir) for every style.json under tests/, sorted; `pattern` matches the group
    (fnmatch, e.g. 'line-*') or, failing that, the case path 'group/case' (fnmatch or substring)."""
    cases = []
    base = os.path.join(tests_root, "tests")
    for directory, _, names in os.walk(base):
        if "style.json" not in names:
            continue
        rel = os.path.relpath(directory, base)
        group = rel.split(os.sep)[0]
        name = "/".join(rel.split(os.sep)[1:])
        if pattern and not (fnmatch.fnmatchcase(group, pattern) or fnmatch.fnmatchcase(rel, pattern)
                            or pattern in rel):
            continue
        cases.append((group, name, directory))
    return sorted(cases)


TILEJSON_COPIES = {}


def local_tilejson(path, assets):
    """A copy of a TileJSON file of the assets whose `http://localhost:2900/` URLs (MapLibre's test server)
    point into ASSETS, so that the case reads the same tiles from files."""
    if path not in TILEJSON_COPIES:
        with open(path) as f:
            text = f.read().replace("http://localhost:2900/", assets.rstrip("/") + "/")
        folder = tempfile.mkdtemp(prefix="mlrt-tilejson-")
        copy = os.path.join(folder, os.path.basename(path))
        with open(copy, "w") as f:
            f.write(text)
        TILEJSON_COPIES[path] = copy
    return TILEJSON_COPIES[path]


def rewrite_local(value, assets):
    """Every string 'local://x/y' becomes ASSETS/x/y (an absolute path), recursively; TileJSON files are
    read through a copy whose tile URLs point into ASSETS too."""
    if isinstance(value, str):
        if not value.startswith("local://"):
            return value
        path = os.path.join(assets, value[len("local://"):])
        if value.startswith("local://tilesets/") and os.path.isfile(path):
            return local_tilejson(path, assets)
        return path
    if isinstance(value, list):
        return [rewrite_local(v, assets) for v in value]
    if isinstance(value, dict):
        return {k: rewrite_local(v, assets) for k, v in value.items()}
    return value


def first_error_line(text):
    for line in text.splitlines():
        line = line.strip()
        if line:
            return line[:300]
    return "(no message)"


def side_by_side(paths_or_images, out_path):
    images = [Image.open(p).convert("RGBA") if isinstance(p, str) else p.convert("RGBA") for p in paths_or_images]
    # Small cases (64x64 is common) are enlarged with nearest-neighbour sampling, so pixels can be seen.
    factor = max(1, 256 // max(max(i.width, i.height) for i in images))
    if factor > 1:
        images = [i.resize((i.width * factor, i.height * factor), Image.NEAREST) for i in images]
    width = sum(i.width for i in images) + 4 * (len(images) - 1)
    height = max(i.height for i in images)
    # A checkerboard shows transparency.
    sheet = Image.new("RGBA", (width, height), (255, 255, 255, 255))
    for y in range(0, height, 8):
        for x in range(0, width, 8):
            if (x // 8 + y // 8) % 2:
                sheet.paste((204, 204, 204, 255), (x, y, min(x + 8, width), min(y + 8, height)))
    x = 0
    for image in images:
        sheet.alpha_composite(image, (x, 0))
        x += image.width + 4
    sheet.save(out_path)


def run_case(job):
    """Runs and scores one case; returns its result dict. Runs in a worker process."""
    group, name, directory, binary, assets, sheet_dir, timeout = job
    result = {"group": group, "case": name, "status": None}
    started = time.perf_counter()
    try:
        with open(os.path.join(directory, "style.json")) as f:
            style = json.load(f)
    except (OSError, ValueError) as error:
        result.update(status="unsupported", error=f"style.json unreadable: {error}")
        return result
    test = (style.get("metadata") or {}).get("test") or {}
    skip = []
    if style.get("pitch", 0) != 0:
        skip.append(f"pitch {style['pitch']}")
    if style.get("bearing", 0) != 0:
        skip.append(f"bearing {style['bearing']}")
    if test.get("operations"):
        skip.append("operations")
    if skip:
        result.update(status="skipped", reason=", ".join(skip))
        return result

    width = test.get("width", DEFAULT_SIZE)
    height = test.get("height", DEFAULT_SIZE)
    ratio = test.get("pixelRatio", 1)
    allowed = test.get("allowed", DEFAULT_ALLOWED)
    threshold = test.get("threshold", DEFAULT_THRESHOLD)
    lon, lat = (style.get("center") or [0, 0])[:2]
    zoom = style.get("zoom", 0)
    result.update(width=width, height=height, pixelRatio=ratio, allowed=allowed, threshold=threshold,
                  center=[lon, lat], zoom=zoom)

    work = tempfile.mkdtemp(prefix="mlrt-")
    try:
        style_path = os.path.join(work, "style.json")
        with open(style_path, "w") as f:
            json.dump(rewrite_local(style, assets), f)
        out = os.path.join(work, "actual.png")
        command = [binary, "render", "--style", style_path, "--center", f"{lat},{lon}", "--zoom", f"{zoom + 1:g}",
                   "--size", f"{width}x{height}", "--scale", f"{ratio:g}", "--no-attribution", "-o", out]
        result["command"] = " ".join(command[1:])
        try:
            process = subprocess.run(command, capture_output=True, text=True, timeout=timeout)
        except subprocess.TimeoutExpired:
            result.update(status="fail", error=f"timed out after {timeout} s")
            return result
        if process.returncode != 0 or not os.path.exists(out):
            message = first_error_line(process.stderr or process.stdout).replace(style_path, "style.json")
            if message.startswith("mapraster: error: "):
                message = message[len("mapraster: error: "):]
            result.update(status="unsupported", exit=process.returncode, error=message)
            return result
        expected = Image.open(os.path.join(directory, "expected.png")).convert("RGBA")
        actual = Image.open(out).convert("RGBA")
        result["size"] = [actual.width, actual.height]
        if actual.size != expected.size:
            result.update(status="fail", error=f"size {actual.width}x{actual.height}, expected "
                          f"{expected.width}x{expected.height}", diff=1.0)
            differing = None
            diff_image = None
        else:
            diff_image = Image.new("RGBA", expected.size)
            differing = pixelmatch(actual, expected, diff_image, threshold=threshold)
            fraction = differing / (expected.width * expected.height)
            result.update(differing=differing, diff=fraction,
                          status="pass" if fraction <= allowed else "fail")
        if result["status"] == "fail" and sheet_dir:
            name_part = re.sub(r"[^A-Za-z0-9_.-]+", "_", f"{group}__{name}")
            parts = [expected, actual] + ([diff_image] if diff_image is not None else [])
            side_by_side(parts, os.path.join(sheet_dir, name_part + ".png"))
            result["sheet"] = os.path.join(sheet_dir, name_part + ".png")
        return result
    except Exception as error:  # a broken case must not stop the run
        result.update(status="fail", error=f"runner error: {type(error).__name__}: {error}")
        return result
    finally:
        result["seconds"] = round(time.perf_counter() - started, 3)
        shutil.rmtree(work, ignore_errors=True)


STATUSES = ("pass", "fail", "unsupported", "skipped")


def table(title, rows):
    """rows: list of (label, Counter). Prints a Markdown table; returns its lines."""
    lines = [f"| {title} | pass | fail | unsupported | skipped | pass % |", "|---|---:|---:|---:|---:|---:|"]
    total = collections.Counter()
    for label, counts in rows:
        total.update(counts)
        lines.append(row(label, counts))
    lines.append(row("**all**", total))
    return lines


def row(label, counts):
    considered = counts["pass"] + counts["fail"] + counts["unsupported"]
    share = f"{100 * counts['pass'] / considered:.1f}" if considered else "-"
    return (f"| {label} | {counts['pass']} | {counts['fail']} | {counts['unsupported']} | {counts['skipped']} "
            f"| {share} |")


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--binary", default=os.path.join(ROOT, ".build", "release", "mapraster"),
                        help="mapraster executable (default: .build/release/mapraster)")
    parser.add_argument("--tests", default=DEFAULT_TESTS, help=f"render-test folder (default {DEFAULT_TESTS})")
    parser.add_argument("--group", help="only groups (or group/case paths) matching this fnmatch pattern")
    parser.add_argument("--jobs", type=int, default=os.cpu_count() or 1, help="cases run in parallel")
    parser.add_argument("--json", help="write every case's result to this JSON file")
    parser.add_argument("--sheet", help="write expected | actual | diff PNGs of failing cases into this folder")
    parser.add_argument("--timeout", type=float, default=60, help="seconds per render (default 60)")
    args = parser.parse_args()

    binary = os.path.abspath(args.binary)
    if not os.access(binary, os.X_OK):
        sys.exit(f"error: no mapraster executable at {binary}: build with `swift build -c release` or pass --binary")
    assets = os.path.join(os.path.abspath(args.tests), "assets")
    if not os.path.isdir(os.path.join(args.tests, "tests")) or not os.path.isdir(assets):
        sys.exit(f"error: {args.tests} has no tests/ and assets/ folders (see its README.md)")
    if args.jobs < 1:
        sys.exit(f"error: --jobs {args.jobs} is invalid: use 1 or more")
    cases = find_cases(os.path.abspath(args.tests), args.group)
    if not cases:
        sys.exit(f"error: no case matches --group {args.group!r}")
    if args.sheet:
        os.makedirs(args.sheet, exist_ok=True)

    jobs = [(g, n, d, binary, assets, args.sheet, args.timeout) for g, n, d in cases]
    started = time.perf_counter()
    results = []
    with concurrent.futures.ProcessPoolExecutor(max_workers=args.jobs) as pool:
        for k, result in enumerate(pool.map(run_case, jobs, chunksize=1), 1):
            results.append(result)
            if sys.stderr.isatty():
                print(f"\r{k}/{len(jobs)} cases", end="", file=sys.stderr, flush=True)
    if sys.stderr.isatty():
        print(file=sys.stderr)
    elapsed = time.perf_counter() - started

    by_group = collections.OrderedDict()
    by_family = collections.OrderedDict()
    for r in results:
        by_group.setdefault(r["group"], collections.Counter())[r["status"]] += 1
        by_family.setdefault(r["group"].split("-")[0], collections.Counter())[r["status"]] += 1
    commit = subprocess.run(["git", "-C", ROOT, "describe", "--always", "--dirty"], capture_output=True,
                            text=True).stdout.strip() or "?"
    print(f"MapLibre render tests ({args.tests}), {len(results)} cases, binary {binary}, "
          f"runner checkout {commit}, {datetime.datetime.now(datetime.timezone.utc):%Y-%m-%d %H:%M} UTC, {elapsed:.0f} s")
    print("pass % = pass / (pass + fail + unsupported); skipped: pitch, bearing or operations.")
    print()
    print("\n".join(table("group", list(by_group.items()))))
    print()
    print("\n".join(table("family", sorted(by_family.items()))))
    refusals = collections.Counter(
        re.sub(r"\d+", "N", r.get("error", "")) for r in results if r["status"] == "unsupported")
    if refusals:
        print()
        print("Most common refusals (first error line, digits as N):")
        for message, count in refusals.most_common(12):
            print(f"  {count:4}  {message}")
    if args.json:
        with open(args.json, "w") as f:
            json.dump({"binary": binary, "checkout": commit, "tests": os.path.abspath(args.tests),
                       "results": results}, f, indent=1)


if __name__ == "__main__":
    main()
