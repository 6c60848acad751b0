#!/usr/bin/env python3
"""Runs MapLibre's render tests (/work/shared/maplibre-render-tests) through `mapraster render` and scores them.

For every case `tests/<group>/[<sub>/]<case>/style.json` with its `expected.png`:
  1. skips it when the style has `metadata.test.operations` (runtime operations MapRaster has no
     equivalent for), or `metadata.test.debug` / `collisionDebug` (MapLibre's debug overlays, tile borders
     and collision boxes, which the copy of the tests meant to leave out), or when the case has no
     `expected.png` (only platform-specific images, left out of the copy): counted as skipped;
  2. writes a temporary copy of the style with every `local://...` string turned into the absolute path
     of ASSETS/... (the folder next to `tests/`);
  3. runs `mapraster render --style COPY --center LAT,LON --zoom Z+1 --size WxH --scale R
     --no-attribution -o OUT` (MapLibre zoom z is MapRaster zoom z + 1: MapLibre counts 512-point
     tiles; W, H default 512, R is `metadata.test.pixelRatio`, default 1; center and zoom from the style,
     default 0,0 / 0), with `--bearing B --pitch P` when the style's root `bearing` or `pitch` is not 0
     and `--no-cross-source-collisions` when `metadata.test.crossSourceCollisions` is false;
     a non-zero exit is `unsupported`, with the first error line kept;
  4. scores like MapLibre's harness: PyPI pixelmatch (threshold `metadata.test.threshold`, default
     0.1285, anti-aliased pixels not counted) against expected.png; `pass` when differing pixels /
     (width x height in device pixels) <= `metadata.test.allowed` (default 0.00025), else `fail`
     (an image of another size than expected.png fails outright).

Prints a table per group (pass / fail / unsupported / skipped, pass % of the non-skipped cases), then one
per family (the group name before its first '-': background, fill, line, circle, ...), and the most
common refusal messages. `--write-results PATH` also writes that report as Markdown to PATH: the
committed Benchmarks/maplibre-render-tests/results.md is made this way. `--json PATH` writes every case's result; `--sheet DIR` writes
expected | actual | diff PNGs side by side for failing cases
(over a grey checkerboard, so transparency shows; images under 128 px enlarged 2x or more).

`--placement` also scores the text groups (`text-*`, and `symbol-*` cases whose style has a
`text-field`) by label placement, since MapRaster's glyphs cannot match MapLibre's signed-distance glyphs
pixel for pixel: it renders the case a second time without its symbol layers (the background-only image;
the image's most common colour when that render fails), finds the label boxes in expected.png and in
MapRaster's image (connected components of the pixels that differ from the background-only image by more
than 24 of 255 in a channel, grown by PLACEMENT_MERGE (4 across, 2 down) pixels x pixelRatio so that the
glyphs and words of a label join, and lines closer than 5 pixels; components smaller than PLACEMENT_MIN_AREA pixels x pixelRatio^2 dropped), matches them greedily by
IoU, and reports labels expected / found / matched. A case passes placement when every box of each image
is matched (IoU >= 0.5 and centres within 3 pixels x pixelRatio); a case MapRaster refuses finds no
labels. A per-group placement table follows the pixel tables; with `--sheet DIR`, every scored text case
gets DIR/placement__GROUP__CASE.png: expected | MapRaster's image with the boxes drawn (green matched,
red unmatched).

`--camera` runs only the cases whose style has a non-zero root `bearing` or `pitch`; every run ends with the
pass rate of such cases, split into those without text and those with (`text-field` in a layer).

Text masked (always on): an `icon-*` or `symbol-*` case that fails and has a symbol layer with a `text-field`
is rendered a second time with `text-opacity` 0 in every such layer (placement and collisions unchanged,
only the text's pixels go); the text mask is where the two MapRaster renders differ, grown by
TEXT_MASK_GROW (2) pixels x pixelRatio; inside the mask MapRaster's pixels are replaced by expected.png's,
and pixelmatch scores the rest with the case's own threshold and `allowed`. A case that passes so is
reported as `pass (text masked)` in its own column, never in the plain pass count: it says the icons,
lines and fills match and the text sits where MapRaster put it, not that MapLibre's text is matched
(expected text outside the mask, e.g. a label MapRaster does not place, still fails). With `--sheet`,
DIR/masked__GROUP__CASE.png shows expected | actual | actual masked | diff. `--text-font "DejaVu Sans"` replaces every layer's `text-font` (the tests name Open
Sans and Arial Unicode MS), a diagnostic to score placement before those fonts resolve. `--self-test` checks the box finder and the matcher on synthetic images and exits.

`--native` also renders every case that is not skipped with MapLibre Native (PyPI `mapli`, Mesa's
llvmpipe; run with `EGL_PLATFORM=surfaceless`, see ../shared/PEERS.md), from the same style with its
`local://` URLs as file:// URLs (a TileJSON of the assets inlined), the same size, pixel ratio, center,
zoom, bearing and pitch, scored against the same expected.png with the same threshold and `allowed`: one
child process per case, so that a crash of Native fails that case only. The run then ends with both pass
counts, with text and without, and per group with text.

Not a test: never run by `swift test`; the Swift product does not need Python. Needs
`pip install pixelmatch==0.4.0 pillow numpy`.

The placement and text-masked scoring (label boxes, matching, text masks, PLACEMENT_* and TEXT_MASK_GROW)
and the self-test are in Scripts/render_test_scoring.py, beside this script.

Usage: python3 Scripts/maplibre-render-tests.py [--binary PATH] [--tests DIR] [--group PATTERN]
                                               [--jobs N] [--json PATH] [--sheet DIR] [--timeout S]
                                               [--placement] [--no-text-masked] [--self-test]
                                               [--native] [--write-results PATH]

The committed results come from: python3 Scripts/maplibre-render-tests.py --binary .build/debug/mapraster --jobs 2
--placement --write-results Benchmarks/maplibre-render-tests/results.md
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

import numpy as np
from PIL import Image, ImageDraw
from pixelmatch.contrib.PIL import pixelmatch

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from render_test_scoring import (DEFAULT_THRESHOLD, PLACEMENT_CENTRE, PLACEMENT_IOU, TEXT_MASK_GROW,  # noqa: E402
                                 is_text_case, is_text_masked_case, label_boxes, modal_colour,
                                 placement_score, self_test, text_masked_compare, without_text)

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
DEFAULT_TESTS = "/work/shared/maplibre-render-tests"
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


SPRITE_COPIES = {}


def resolve_sprite_stubs(path):
    """The sprite path (without extension) to use for ASSETS sprite `path`: the test copy stores some sprite
    files as git symlink stubs (a file holding a sibling's name, e.g. icon-text-fit-2x.json holds
    'icon-text-fit@2x.json'); such a sprite is read through a temporary folder of links to the real files."""
    if path in SPRITE_COPIES:
        return SPRITE_COPIES[path]
    folder, name = os.path.split(path)
    targets = {}
    for suffix in (".json", ".png", "@2x.json", "@2x.png"):
        file = path + suffix
        if not os.path.isfile(file):
            continue
        target = file
        if os.path.getsize(file) < 256:
            with open(file, "rb") as f:
                text = f.read().decode("utf-8", "replace").strip()
            if "/" not in text and text != os.path.basename(file) and os.path.isfile(os.path.join(folder, text)):
                target = os.path.join(folder, text)
        targets[suffix] = target
    resolved = path
    if any(target != path + suffix for suffix, target in targets.items()):
        copy = tempfile.mkdtemp(prefix="mlrt-sprite-")
        for suffix, target in targets.items():
            os.symlink(target, os.path.join(copy, name + suffix))
        resolved = os.path.join(copy, name)
    SPRITE_COPIES[path] = resolved
    return resolved


def rewrite_local(value, assets):
    """Every string 'local://x/y' becomes ASSETS/x/y (an absolute path), recursively; TileJSON files are
    read through a copy whose tile URLs point into ASSETS too."""
    if isinstance(value, str):
        if not value.startswith("local://"):
            return value
        path = os.path.join(assets, value[len("local://"):])
        if value.startswith("local://tilesets/") and os.path.isfile(path):
            return local_tilejson(path, assets)
        if value.startswith("local://sprites/"):
            return resolve_sprite_stubs(path)
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


def placement_sheet(expected, actual, score, out_path):
    """expected | actual, each with its boxes (green matched, red unmatched)."""
    images = []
    matched = ({i for i, _, _ in score["matches"]}, {j for _, j, _ in score["matches"]})
    for k, (image, boxes) in enumerate(((expected, score["expected_boxes"]), (actual, score["found_boxes"]))):
        image = image.convert("RGBA").copy()
        draw = ImageDraw.Draw(image)
        for n, box in enumerate(boxes):
            colour = (0, 170, 0, 255) if n in matched[k] else (230, 0, 0, 255)
            draw.rectangle((box[0] - 1, box[1] - 1, box[2], box[3]), outline=colour)
        images.append(image)
    side_by_side(images, out_path)


def score_placement(result, style, command, style_path, work, assets, timeout, expected, actual, ratio,
                    sheet_dir):
    """Adds result["placement"]: the label boxes of expected.png and of MapRaster's image (None: refused,
    no labels) against the background-only rendering, and their matching."""
    background_style = dict(style, layers=[l for l in style.get("layers") or [] if l.get("type") != "symbol"])
    background_path = os.path.join(work, "background.json")
    with open(background_path, "w") as f:
        json.dump(rewrite_local(background_style, assets), f)
    background_png = os.path.join(work, "background.png")
    background_command = [background_path if c == style_path else c for c in command]
    background_command[-1] = background_png
    expected_array = np.asarray(expected)
    background = None
    try:
        process = subprocess.run(background_command, capture_output=True, text=True, timeout=timeout)
        if process.returncode == 0 and os.path.exists(background_png):
            image = Image.open(background_png).convert("RGBA")
            if image.size == expected.size:
                background = np.asarray(image)
    except subprocess.TimeoutExpired:
        pass
    source = "background-only rendering"
    if background is None:
        background, source = modal_colour(expected_array), "most common colour"
    expected_boxes = label_boxes(expected_array, background, ratio)
    found_boxes = []
    if actual is not None and actual.size == expected.size:
        actual_array = np.asarray(actual)
        found_boxes = label_boxes(actual_array, background if source != "most common colour"
                                  else modal_colour(actual_array), ratio)
    score = placement_score(expected_boxes, found_boxes, ratio)
    score["background"] = source
    score["refused"] = actual is None
    score["pass"] = score["pass"] and actual is not None  # a refused case passes nothing, even with no labels
    result["placement"] = score
    if sheet_dir:
        name_part = re.sub(r"[^A-Za-z0-9_.-]+", "_", f"placement__{result['group']}__{result['case']}")
        shown = actual
        if shown is None:
            shown = Image.new("RGBA", expected.size, (255, 255, 255, 0))
            ImageDraw.Draw(shown).text((4, 4), "refused: " + result.get("error", "")[:60], fill=(200, 0, 0, 255))
        placement_sheet(expected, shown, score, os.path.join(sheet_dir, name_part + ".png"))
        score["sheet"] = os.path.join(sheet_dir, name_part + ".png")


def score_text_masked(result, style, command, style_path, work, assets, timeout, expected, actual, ratio,
                      threshold, allowed, sheet_dir):
    """Adds result["text_masked"]: the case scored outside MapRaster's text (see the module's docstring)."""
    textless_path = os.path.join(work, "textless.json")
    with open(textless_path, "w") as f:
        json.dump(rewrite_local(without_text(style), assets), f)
    textless_png = os.path.join(work, "textless.png")
    textless_command = [textless_path if c == style_path else c for c in command]
    textless_command[-1] = textless_png
    try:
        process = subprocess.run(textless_command, capture_output=True, text=True, timeout=timeout)
    except subprocess.TimeoutExpired:
        result["text_masked"] = {"status": "fail", "error": "text-less render timed out"}
        return
    if process.returncode != 0 or not os.path.exists(textless_png):
        result["text_masked"] = {"status": "fail", "error": "text-less render failed: "
                                 + first_error_line(process.stderr or process.stdout)}
        return
    textless = Image.open(textless_png).convert("RGBA")
    if textless.size != actual.size:
        result["text_masked"] = {"status": "fail", "error": "text-less render has another size"}
        return
    differing, fraction, masked, diff = text_masked_compare(expected, actual, textless, ratio, threshold)
    share = differing / (expected.width * expected.height)
    result["text_masked"] = {"status": "pass" if share <= allowed else "fail", "differing": differing,
                             "diff": share, "mask": round(fraction, 5)}
    if sheet_dir:
        name_part = re.sub(r"[^A-Za-z0-9_.-]+", "_", f"masked__{result['group']}__{result['case']}")
        side_by_side([expected, actual, masked, diff], os.path.join(sheet_dir, name_part + ".png"))
        result["text_masked"]["sheet"] = os.path.join(sheet_dir, name_part + ".png")


def placement_table(results):
    """Per group: text cases scored, placement passes, refused, labels expected / found / matched."""
    groups = collections.OrderedDict()
    for r in results:
        p = r.get("placement")
        if p is None:
            continue
        g = groups.setdefault(r["group"], collections.Counter())
        g["cases"] += 1
        g["pass"] += p["pass"]
        g["refused"] += p["refused"]
        for key in ("expected", "found", "matched"):
            g[key] += p[key]
    lines = ["| group | text cases | placement pass | refused | labels expected | found | matched | matched % |",
             "|---|---:|---:|---:|---:|---:|---:|---:|"]
    total = collections.Counter()
    for group, g in list(groups.items()) + [("**all**", None)]:
        if g is None:
            g = total
        else:
            total.update(g)
        share = f"{100 * g['matched'] / g['expected']:.1f}" if g["expected"] else "-"
        lines.append(f"| {group} | {g['cases']} | {g['pass']} | {g['refused']} | {g['expected']} | {g['found']} "
                     f"| {g['matched']} | {share} |")
    return lines


def has_camera(style):
    """Whether the style's root bearing or pitch is not 0."""
    return style.get("bearing", 0) != 0 or style.get("pitch", 0) != 0


def has_text(style):
    """Whether a layer of the style has a text-field."""
    return any("text-field" in (layer.get("layout") or {}) for layer in style.get("layers") or [])


def camera_summary(results):
    """The pass rate of the cases with a bearing or pitch, without and with text."""
    lines = []
    for label, with_text in (("without text", False), ("with text", True)):
        rows = [r for r in results if r.get("camera") and bool(r.get("text")) == with_text
                and r["status"] != "skipped"]
        passed = sum(r["status"] == "pass" for r in rows)
        share = f"{100 * passed / len(rows):.1f} %" if rows else "-"
        lines.append(f"cases with a bearing or pitch, {label}: {passed} / {len(rows)} pass ({share})")
    return lines


def native_style(value, assets):
    """The style for MapLibre Native: every 'local://x/y' a file:// URL of ASSETS/x/y; a TileJSON of the
    assets inlined with its tile URLs as file:// URLs (Native reads no local:// inside it); sprites through
    the same symlink-stub copies as MapRaster's."""
    if isinstance(value, str):
        if not value.startswith("local://"):
            return value
        path = os.path.join(assets, value[len("local://"):])
        if value.startswith("local://sprites/"):
            path = resolve_sprite_stubs(path)
        return "file://" + path
    if isinstance(value, list):
        return [native_style(v, assets) for v in value]
    if isinstance(value, dict):
        url = value.get("url")
        if isinstance(url, str) and url.startswith("local://tilesets/"):
            path = os.path.join(assets, url[len("local://"):])
            if os.path.isfile(path):
                with open(path) as f:
                    tilejson = json.loads(f.read().replace("http://localhost:2900/", "local://"))
                inlined = {k: v for k, v in value.items() if k != "url"}
                for key in ("tiles", "minzoom", "maxzoom", "bounds", "tileSize", "scheme"):
                    if key in tilejson and key not in inlined:
                        inlined[key] = tilejson[key]
                return native_style(inlined, assets)
        return {k: native_style(v, assets) for k, v in value.items()}
    return value


def native_case(directory, assets):
    """Renders one case with MapLibre Native (PyPI mapli, in this process) and scores it as MapRaster's
    images are scored; prints {"status", "diff"} as JSON. Run in a child process per case, so that a crash
    of Native fails that case only."""
    import io
    import mapli
    with open(os.path.join(directory, "style.json")) as f:
        style = json.load(f)
    test = (style.get("metadata") or {}).get("test") or {}
    lon, lat = (style.get("center") or [0, 0])[:2]
    pool = mapli.RenderPool(workers=1)
    pool.register_style("case", json=native_style(style, assets))
    data = pool.render("case", lon=lon, lat=lat, zoom=style.get("zoom", 0), width=test.get("width", DEFAULT_SIZE),
                       height=test.get("height", DEFAULT_SIZE), pixel_ratio=test.get("pixelRatio", 1),
                       bearing=style.get("bearing", 0), pitch=style.get("pitch", 0))
    actual = Image.open(io.BytesIO(data)).convert("RGBA")
    expected = Image.open(os.path.join(directory, "expected.png")).convert("RGBA")
    if actual.size != expected.size:
        print(json.dumps({"status": "fail", "diff": 1.0, "error": f"size {actual.width}x{actual.height}"}))
        return
    differing = pixelmatch(actual, expected, Image.new("RGBA", expected.size),
                           threshold=test.get("threshold", DEFAULT_THRESHOLD))
    fraction = differing / (expected.width * expected.height)
    print(json.dumps({"status": "pass" if fraction <= test.get("allowed", DEFAULT_ALLOWED) else "fail",
                      "diff": fraction}))


def score_native(result, directory, tests_root, timeout):
    """Adds result["native"]: MapLibre Native's status on the same case (see native_case)."""
    command = [sys.executable, os.path.abspath(__file__), "--tests", tests_root, "--native-case", directory]
    env = dict(os.environ, EGL_PLATFORM=os.environ.get("EGL_PLATFORM", "surfaceless"),
               LP_NUM_THREADS=os.environ.get("LP_NUM_THREADS", "1"))
    try:
        process = subprocess.run(command, capture_output=True, text=True, timeout=timeout, env=env)
        lines = [line for line in process.stdout.splitlines() if line.startswith("{")]
        result["native"] = (json.loads(lines[-1]) if process.returncode == 0 and lines else
                            {"status": "unsupported", "error": first_error_line(process.stderr)})
    except subprocess.TimeoutExpired:
        result["native"] = {"status": "fail", "error": f"timed out after {timeout} s"}


def native_summary(results):
    """MapRaster's and MapLibre Native's passes on the same cases (those Native was run on), with text and
    without, and per group with text."""
    rows = [r for r in results if "native" in r]
    if not rows:
        return []
    lines = ["", "MapLibre Native (PyPI mapli, llvmpipe) on the same cases, the same conversion and scoring:"]
    for label, with_text in (("with text", True), ("without text", False)):
        chosen = [r for r in rows if bool(r.get("text")) == with_text]
        ours = sum(r["status"] == "pass" for r in chosen)
        theirs = sum(r["native"].get("status") == "pass" for r in chosen)
        lines.append(f"cases {label}: MapRaster {ours} / {len(chosen)}, MapLibre Native {theirs} / {len(chosen)}")
    lines += ["", "| group (cases with text) | cases | MapRaster pass | MapLibre Native pass |", "|---|---:|---:|---:|"]
    groups = collections.OrderedDict()
    for r in rows:
        if r.get("text"):
            groups.setdefault(r["group"], []).append(r)
    for group, chosen in groups.items():
        ours = sum(r["status"] == "pass" for r in chosen)
        theirs = sum(r["native"].get("status") == "pass" for r in chosen)
        lines.append(f"| {group} | {len(chosen)} | {ours} | {theirs} |")
    return lines


def run_case(job):
    """Runs and scores one case; returns its result dict. Runs in a worker process."""
    group, name, directory, binary, assets, sheet_dir, timeout, placement, text_font, masked, native = job
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
    result["camera"] = has_camera(style)
    result["text"] = has_text(style)
    if test.get("operations"):
        skip.append("operations")
    for overlay in ("debug", "collisionDebug"):
        if test.get(overlay):
            skip.append(overlay)
    if not os.path.exists(os.path.join(directory, "expected.png")):
        skip.append("no expected.png")  # MapLibre's platform-specific images were left out of the copy
    if skip:
        result.update(status="skipped", reason=", ".join(skip))
        return result
    if text_font:
        for layer in style.get("layers") or []:
            if "text-font" in (layer.get("layout") or {}):
                layer["layout"]["text-font"] = text_font
        result["text_font"] = text_font

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
        if result["camera"]:
            command[-2:-2] = ["--bearing", f"{style.get('bearing', 0):g}", "--pitch", f"{style.get('pitch', 0):g}"]
        if test.get("crossSourceCollisions") is False:
            command[-2:-2] = ["--no-cross-source-collisions"]
        result["command"] = " ".join(command[1:])
        try:
            process = subprocess.run(command, capture_output=True, text=True, timeout=timeout)
        except subprocess.TimeoutExpired:
            result.update(status="fail", error=f"timed out after {timeout} s")
            return result
        scored_text = placement and is_text_case(group, style)
        if process.returncode != 0 or not os.path.exists(out):
            message = first_error_line(process.stderr or process.stdout).replace(style_path, "style.json")
            if message.startswith("mapraster: error: "):
                message = message[len("mapraster: error: "):]
            result.update(status="unsupported", exit=process.returncode, error=message)
            if scored_text:
                expected = Image.open(os.path.join(directory, "expected.png")).convert("RGBA")
                score_placement(result, style, command, style_path, work, assets, timeout, expected, None,
                                ratio, sheet_dir)
            if native:
                score_native(result, directory, os.path.dirname(assets), timeout)
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
        if masked and result["status"] == "fail" and diff_image is not None and is_text_masked_case(group, style):
            score_text_masked(result, style, command, style_path, work, assets, timeout, expected, actual, ratio,
                              threshold, allowed, sheet_dir)
        if scored_text:
            score_placement(result, style, command, style_path, work, assets, timeout, expected, actual, ratio,
                            sheet_dir)
        if native:
            score_native(result, directory, os.path.dirname(assets), timeout)
        return result
    except Exception as error:  # a broken case must not stop the run
        result.update(status="fail", error=f"runner error: {type(error).__name__}: {error}")
        return result
    finally:
        result["seconds"] = round(time.perf_counter() - started, 3)
        shutil.rmtree(work, ignore_errors=True)


STATUSES = ("pass", "fail", "unsupported", "skipped")


def table(title, rows, masked=False):
    """rows: list of (label, Counter). Prints a Markdown table; returns its lines. With `masked`, two more
    columns: the failing cases that pass with the text masked, and the pass % counting them."""
    if masked:
        lines = [f"| {title} | pass | fail | unsupported | skipped | pass % | of the fails: pass (text masked) "
                 "| pass % with text masked |", "|---|---:|---:|---:|---:|---:|---:|---:|"]
    else:
        lines = [f"| {title} | pass | fail | unsupported | skipped | pass % |", "|---|---:|---:|---:|---:|---:|"]
    total = collections.Counter()
    for label, counts in rows:
        total.update(counts)
        lines.append(row(label, counts, masked))
    lines.append(row("**all**", total, masked))
    return lines


def row(label, counts, masked=False):
    considered = counts["pass"] + counts["fail"] + counts["unsupported"]
    share = f"{100 * counts['pass'] / considered:.1f}" if considered else "-"
    line = (f"| {label} | {counts['pass']} | {counts['fail']} | {counts['unsupported']} | {counts['skipped']} "
            f"| {share} |")
    if masked:
        both = counts["pass"] + counts["masked"]
        line += f" {counts['masked']} | {f'{100 * both / considered:.1f}' if considered else '-'} |"
    return line


RESULTS_FILE = "Benchmarks/maplibre-render-tests/results.md"


def write_results(path, report, results, measured):
    """Writes the report as the Markdown results file: a title, how it was made and how to make it again,
    then the report printed above, with the list of refusals fenced so that Markdown keeps its columns."""
    command = " ".join(["python3", "Scripts/maplibre-render-tests.py"]
                       + [a if not os.path.isabs(a) else os.path.relpath(a, ROOT) if a.startswith(ROOT) else a
                          for a in sys.argv[1:]])
    counts = collections.Counter(r["status"] for r in results)
    lines = ["# MapLibre render tests: current results", "",
             f"Measured {measured:%Y-%m-%d} with `{command}`; {counts['pass']} of {len(results)} cases pass, "
             f"{counts['fail']} fail, {counts['unsupported']} are refused (unsupported), {counts['skipped']} skipped.",
             "",
             f"This file is written by `Scripts/maplibre-render-tests.py --write-results {RESULTS_FILE}` "
             "(see the script's header for the scoring); regenerate it rather than editing it, and commit it "
             "with the change that moved the figures. What the differences are and why: "
             "`Notes/maplibre-conformance.md`.", ""]
    fenced = False
    for line in report:
        if line.startswith("  ") and not fenced:
            lines.append("```")
            fenced = True
        lines.append(line)
    if fenced:
        lines.append("```")
    with open(path, "w") as f:
        f.write("\n".join(lines) + "\n")


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
    parser.add_argument("--placement", action="store_true",
                        help="also score text groups by label placement (boxes found and matched)")
    parser.add_argument("--text-font", help="replace every layer's text-font by this comma-separated stack "
                        "(a diagnostic while the fonts the tests name, Open Sans, are not available)")
    parser.add_argument("--no-text-masked", action="store_true",
                        help="do not score failing icon-*/symbol-* cases with their text masked")
    parser.add_argument("--camera", action="store_true",
                        help="only the cases whose style has a non-zero root bearing or pitch")
    parser.add_argument("--self-test", action="store_true", help="check the placement matcher and exit")
    parser.add_argument("--native", action="store_true",
                        help="also render every scored case with MapLibre Native (PyPI mapli) and print both "
                             "pass counts (needs EGL_PLATFORM=surfaceless, see ../shared/PEERS.md)")
    parser.add_argument("--native-case", metavar="DIR", help=argparse.SUPPRESS)
    parser.add_argument("--write-results", metavar="PATH",
                        help=f"also write the report as Markdown to PATH (the committed one: {RESULTS_FILE})")
    args = parser.parse_args()
    if args.native_case:
        native_case(os.path.abspath(args.native_case), os.path.join(os.path.abspath(args.tests), "assets"))
        return
    if args.self_test:
        sys.exit(0 if self_test() else 1)

    binary = os.path.abspath(args.binary)
    if not os.access(binary, os.X_OK):
        sys.exit(f"error: no mapraster executable at {binary}: build with `swift build -c release` or pass --binary")
    assets = os.path.join(os.path.abspath(args.tests), "assets")
    if not os.path.isdir(os.path.join(args.tests, "tests")) or not os.path.isdir(assets):
        sys.exit(f"error: {args.tests} has no tests/ and assets/ folders (see its README.md)")
    if args.jobs < 1:
        sys.exit(f"error: --jobs {args.jobs} is invalid: use 1 or more")
    cases = find_cases(os.path.abspath(args.tests), args.group)
    if args.camera:
        def camera_case(directory):
            try:
                with open(os.path.join(directory, "style.json")) as f:
                    return has_camera(json.load(f))
            except (OSError, ValueError):
                return False
        cases = [(g, n, d) for g, n, d in cases if camera_case(d)]
    if not cases:
        sys.exit(f"error: no case matches --group {args.group!r}")
    if args.sheet:
        os.makedirs(args.sheet, exist_ok=True)

    text_font = [f.strip() for f in args.text_font.split(",")] if args.text_font else None
    jobs = [(g, n, d, binary, assets, args.sheet, args.timeout, args.placement, text_font,
             not args.no_text_masked, args.native) for g, n, d in cases]
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
        if (r.get("text_masked") or {}).get("status") == "pass":  # counted apart, never as a plain pass
            by_group[r["group"]]["masked"] += 1
            by_family[r["group"].split("-")[0]]["masked"] += 1
    masked = any("text_masked" in r for r in results)
    commit = subprocess.run(["git", "-C", ROOT, "describe", "--always", "--dirty"], capture_output=True,
                            text=True).stdout.strip() or "?"
    measured = datetime.datetime.now(datetime.timezone.utc)
    report = [f"MapLibre render tests ({args.tests}), {len(results)} cases, binary {binary}, "
              f"runner checkout {commit}, {measured:%Y-%m-%d %H:%M} UTC, {elapsed:.0f} s",
              "pass % = pass / (pass + fail + unsupported); skipped: operations, debug overlays or no expected.png.",
              ""]
    if masked:
        report.append("text masked: a failing icon-*/symbol-* case with text scored again outside MapRaster's text "
                      f"(grown {TEXT_MASK_GROW} px x pixelRatio), same threshold and allowed; counted apart from pass.")
        report.append("")
    report += table("group", list(by_group.items()), masked)
    report.append("")
    report += table("family", sorted(by_family.items()), masked)
    if args.placement:
        report += ["", "Placement of the text cases (labels: boxes of pixels that differ from the background-only "
                   f"image; matched: IoU >= {PLACEMENT_IOU}, centres within {PLACEMENT_CENTRE:g} px x pixelRatio; "
                   "a case passes when every box of both images is matched; refused: MapRaster refused the style):",
                   ""]
        report += placement_table(results)
    refusals = collections.Counter(
        re.sub(r"\d+", "N", r.get("error", "")) for r in results if r["status"] == "unsupported")
    if refusals:
        report += ["", "Most common refusals (first error line, digits as N):"]
        report += [f"  {count:4}  {message}" for message, count in refusals.most_common(12)]
    report += [""] + camera_summary(results)
    report += native_summary(results)
    print("\n".join(report))
    if args.write_results:
        write_results(args.write_results, report, results, measured)
    if args.json:
        with open(args.json, "w") as f:
            json.dump({"binary": binary, "checkout": commit, "tests": os.path.abspath(args.tests),
                       "results": results}, f, indent=1)


if __name__ == "__main__":
    main()
