#!/usr/bin/env python3
"""Folder acceptance run of `mapraster diff EXPECTED_DIR ACTUAL_DIR`: 500 goldens, 20 changed by a style edit.

Not a test; never run by `swift test`. Needs: pip install junitparser; Debian's chromium for the screenshot
(installed when missing, as Scripts/browser-test.sh does; --no-browser skips it).

  1. `mapraster tiles` renders a pyramid (bbox -60,20,70,75, zoom 0-6: 623 tiles, standard style) into WORK/goldens and,
     with the style's `lakes` fill colour changed from #aad3df to #4a7fd0 (a style edit), into WORK/edited.
  2. The first 500 tiles in (z, x, y) order are kept. Of those that the edit changed (their files differ),
     20 spread evenly over them are copied over the goldens into WORK/actual; the other 480 are the goldens'
     files, so exactly 20 images differ.
  3. `mapraster diff WORK/goldens WORK/actual --report WORK/report --junit WORK/junit.xml --json` must exit 1,
     its JSON must list 500 images, 20 changed and 480 passed, and junitparser must read 500 test cases with
     20 failures (the changed paths) and no errors.
  4. Headless Chromium opens WORK/report/index.html from the disk (no server, no network) and writes
     WORK/report.png (1280x5200: the list and the first cards): look at it.

Usage: python Benchmarks/diff/folder-acceptance.py [--binary .build/release/mapraster] [--work DIR] [--no-browser]
"""

import argparse
import filecmp
import json
import os
import shutil
import subprocess
import sys
import time

import junitparser

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
TILES = ["--bbox", "-60,20,70,75", "--zoom", "0-6", "--quiet"]
IMAGES = 500
CHANGED = 20


def tiles_in(folder):
    found = []
    for dirpath, _, files in os.walk(folder):
        for f in files:
            if f.endswith(".png"):
                rel = os.path.relpath(os.path.join(dirpath, f), folder)
                z, x, y = rel[:-4].split(os.sep)
                found.append((int(z), int(x), int(y), rel))
    return [rel for *_, rel in sorted(found)]


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--binary", default=os.path.join(ROOT, ".build", "release", "mapraster"))
    parser.add_argument("--work", default=os.path.join(ROOT, ".build", "diff-acceptance"))
    parser.add_argument("--no-browser", action="store_true")
    args = parser.parse_args()
    work = args.work
    if os.path.isdir(work):
        shutil.rmtree(work)
    os.makedirs(work)
    styles = os.path.join(ROOT, "Sources", "MapBaseMap", "Resources", "styles")
    style = json.load(open(os.path.join(styles, "standard.json")))
    lakes = [layer for layer in style["layers"] if layer["id"] == "lakes"]
    assert lakes and lakes[0]["paint"]["fill-color"] == "#aad3df", "the standard style's lakes layer changed"
    lakes[0]["paint"]["fill-color"] = "#4a7fd0"
    # The edited copy lives in WORK: its relative paths (sources, sprite) become absolute ones into the
    # shipped resources.
    for source in style["sources"].values():
        for key in ("data", "url"):
            value = source.get(key)
            if isinstance(value, str) and "../" in value:
                scheme, _, path = value.rpartition("://")
                absolute = os.path.normpath(os.path.join(styles, path))
                source[key] = (scheme + "://" if scheme else "") + absolute
    if isinstance(style.get("sprite"), str) and not style["sprite"].startswith("/"):
        style["sprite"] = os.path.join(styles, style["sprite"])
    edited_style = os.path.join(work, "edited-style.json")
    with open(edited_style, "w") as f:
        json.dump(style, f)
    for name, extra in (("goldens", []), ("edited", ["--style", edited_style])):
        t0 = time.perf_counter()
        subprocess.run([args.binary, "tiles", "-o", os.path.join(work, name), *TILES, *extra], check=True)
        print(f"rendered {name}: {time.perf_counter() - t0:.1f} s")

    goldens, edited, actual = (os.path.join(work, n) for n in ("goldens", "edited", "actual"))
    all_tiles = tiles_in(goldens)
    assert len(all_tiles) >= IMAGES, f"only {len(all_tiles)} tiles"
    keep = all_tiles[:IMAGES]
    for rel in all_tiles[IMAGES:]:
        os.remove(os.path.join(goldens, rel))
    for extra in ("metadata.json", "tiles.json"):
        if os.path.exists(os.path.join(goldens, extra)):
            os.remove(os.path.join(goldens, extra))
    changed_by_edit = [rel for rel in keep
                       if not filecmp.cmp(os.path.join(goldens, rel), os.path.join(edited, rel), shallow=False)]
    assert len(changed_by_edit) >= CHANGED, f"the style edit changed only {len(changed_by_edit)} tiles"
    step = len(changed_by_edit) / CHANGED
    chosen = [changed_by_edit[int(i * step)] for i in range(CHANGED)]
    shutil.copytree(goldens, actual)
    for rel in chosen:
        shutil.copyfile(os.path.join(edited, rel), os.path.join(actual, rel))
    print(f"{IMAGES} goldens; the style edit changed {len(changed_by_edit)} of them; {CHANGED} copied into actual/")

    report = os.path.join(work, "report")
    junit = os.path.join(work, "junit.xml")
    t0 = time.perf_counter()
    run = subprocess.run([args.binary, "diff", goldens, actual, "--report", report, "--junit", junit, "--json"],
                         capture_output=True, text=True)
    seconds = time.perf_counter() - t0
    if run.returncode != 1:
        sys.exit(f"mapraster diff exited {run.returncode} (expected 1): {run.stderr}")
    result = json.loads(run.stdout)
    summary = result["summary"]
    print(f"mapraster diff: {seconds:.2f} s, exit 1, summary {summary}")
    assert summary["images"] == IMAGES and summary["changed"] == CHANGED and summary["passed"] == IMAGES - CHANGED

    xml = junitparser.JUnitXml.fromfile(junit)
    cases = [case for suite in xml for case in suite]
    failures = [case for case in cases if any(isinstance(r, junitparser.Failure) for r in case.result)]
    errors = [case for case in cases if any(isinstance(r, junitparser.Error) for r in case.result)]
    print(f"junitparser {junitparser.version if hasattr(junitparser, 'version') else ''}: {len(cases)} test cases, "
          f"{len(failures)} failures, {len(errors)} errors")
    assert len(cases) == IMAGES and len(failures) == CHANGED and not errors
    assert sorted(c.name for c in failures) == sorted(r.replace(os.sep, "/") for r in chosen)
    print("first three failures:", [(c.name, c.result[0].message) for c in failures][:3])

    if not args.no_browser:
        if shutil.which("chromium") is None:
            subprocess.run(["apt-get", "install", "-y", "-q", "chromium"], check=True, stdout=subprocess.DEVNULL)
        shot = os.path.join(work, "report.png")
        # Tall enough for the worst-first list and the first cards (side by side, overlay slider).
        flags = ["--headless", "--no-sandbox", "--disable-gpu", "--window-size=1280,5200",
                 "--virtual-time-budget=10000", "--allow-file-access-from-files"]
        subprocess.run(["timeout", "300", "chromium", *flags, f"--screenshot={shot}",
                        "file://" + os.path.join(report, "index.html")],
                       check=True, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
        print(f"screenshot: {shot} ({os.path.getsize(shot)} bytes): look at it")
    print("folder acceptance: passed")


if __name__ == "__main__":
    main()
