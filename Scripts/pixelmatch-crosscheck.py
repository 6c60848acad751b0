#!/usr/bin/env python3
"""Writes fixtures/diff/: a corpus of image pairs and the differing-pixel counts of PyPI pixelmatch.

Pinned versions (the counts are pixelmatch's; the corpus bytes also depend on Pillow and mapraster):
  - pixelmatch 0.4.0 (PyPI, pure-Python port of mapbox/pixelmatch; checked at start, other versions refused)
  - Pillow 13.0.0 (image I/O, variant drawing; another version only warns: the counts always describe the
    corpus files written in the same run, but LANCZOS/PNG bytes of a re-made corpus may differ)
  - Python 3.11
  - mapraster: the debug CLI built from this repository (`swift build`), which renders the base images.
  Install: pip install pixelmatch==0.4.0 pillow==13.0.0

What it does:
  1. Renders base maps with .build/debug/mapraster (world at zoom 1, a Europe bbox, two scene files under
     fixtures/diff/scenes/), and re-renders some of them with the view moved by a fraction of a pixel.
  2. Makes variants with Pillow (identical copy, 1-pixel roll and crop shifts, graded recolouring,
     anti-aliased shapes drawn at 4x and downsampled with LANCZOS, semi-transparent and fully transparent
     regions in both images, alpha-0 pixels over random RGB, seeded JPEG-like noise, a handful of changed
     pixels, stamped patterns of blend-equal semi-transparent greys) and saves every image as 8-bit RGBA PNG
     under fixtures/diff/corpus/<case>-a.png / <case>-b.png; fixtures/diff/pairs.json describes each pair.
  3. Runs pixelmatch.pixelmatch(a, b, w, h, threshold=t, includeAA=aa) on the flat RGBA byte lists for
     t in {0, 0.05, 0.1, 0.2, 0.5} x includeAA in {False, True} (alpha 0.1, default colours), and for two
     pairs also writes the diff image (default; diff_mask=True; alpha=0.5) under
     fixtures/diff/expected-output/. The output buffer starts as all zero bytes (transparent black), so with
     diff_mask=True the pixels pixelmatch does not draw stay (0,0,0,0).
  4. Writes fixtures/diff/expected.json (stable order and ids; one case per line).

Usage (from anywhere):
  python3 Scripts/pixelmatch-crosscheck.py                 # re-render, re-make the corpus, recount
  python3 Scripts/pixelmatch-crosscheck.py --from-corpus   # keep the committed corpus PNGs, recount only
  options: --mapraster PATH (default .build/debug/mapraster), --jobs N (worker processes, default 2)

Deterministic: fixed render arguments, a seeded generator (random.Random(7), only .random() is used),
no timestamps in the PNGs. Running it twice gives byte-identical files (checked), and --from-corpus
reproduces expected.json and expected-output/ byte for byte. Takes ~40 s on 2 cores (pure-Python
pixelmatch: ~1.6 M pixels x 10 option sets).
"""

import argparse
import importlib.metadata
import json
import multiprocessing
import os
import random
import shutil
import subprocess
import sys
import tempfile

from PIL import Image, ImageChops, ImageDraw

import pixelmatch
from pixelmatch import utils as pmutils

PIXELMATCH_VERSION = "0.4.0"
PILLOW_VERSION = "13.0.0"

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
OUT = os.path.join(ROOT, "fixtures", "diff")
CORPUS = os.path.join(OUT, "corpus")
OUTPUTS = os.path.join(OUT, "expected-output")
SCENES = os.path.join(OUT, "scenes")

THRESHOLDS = [0, 0.05, 0.1, 0.2, 0.5]
INCLUDE_AA = [False, True]
ALPHA = 0.1
# The pairs whose diff image is written too (threshold 0.1, AA excluded), once per variant.
OUTPUT_PAIRS = ["la-edited", "eu-alpha"]
OUTPUT_VARIANTS = [
    ("default", {"alpha": 0.1, "diff_mask": False}),
    ("mask", {"alpha": 0.1, "diff_mask": True}),
    ("alpha0.5", {"alpha": 0.5, "diff_mask": False}),
]


# --- Rendering ------------------------------------------------------------------------------------------


def render(mapraster, workdir, name, args):
    """Renders with the CLI and returns the image as RGBA."""
    path = os.path.join(workdir, name + ".png")
    subprocess.run([mapraster, "render", *args, "-o", path], check=True, stdout=subprocess.DEVNULL)
    return Image.open(path).convert("RGBA")


def scene(name):
    return os.path.join(SCENES, name)


# --- Variants -------------------------------------------------------------------------------------------


def add_aa_shapes(img, shapes, factor=4):
    """Composites shapes drawn at `factor`x onto img; coverage masks are downsampled with LANCZOS, so the
    edges are anti-aliased. shapes: (kind, coords in image pixels, RGB, opacity, line width in pixels)."""
    w, h = img.size
    out = img.copy()
    for kind, coords, rgb, opacity, width in shapes:
        mask = Image.new("L", (w * factor, h * factor), 0)
        draw = ImageDraw.Draw(mask)
        big = [c * factor for c in coords]
        value = round(255 * opacity)
        if kind == "line":
            draw.line(big, fill=value, width=round(width * factor), joint="curve")
        elif kind == "ellipse-outline":
            draw.ellipse(big, outline=value, width=round(width * factor))
        elif kind == "ellipse":
            draw.ellipse(big, fill=value)
        else:
            raise ValueError(kind)
        coverage = mask.resize((w, h), Image.LANCZOS)
        layer = Image.new("RGBA", (w, h), tuple(rgb) + (255,))
        out = Image.composite(layer, out, coverage)
    return out


def recolor_graded(img, box, target, band=3):
    """Mixes the pixels of box towards `target`, the mix growing from 2 % to 100 % left to right in
    bands of `band` columns (flat plateaus, so the band borders look like anti-aliasing)."""
    out = img.copy()
    px = out.load()
    x0, y0, x1, y1 = box
    bands = (x1 - x0 + band - 1) // band
    for x in range(x0, x1):
        k = (x - x0) // band
        f = 0.02 + 0.98 * k / max(bands - 1, 1)
        for y in range(y0, y1):
            r, g, b, a = px[x, y]
            px[x, y] = (
                round(r + (target[0] - r) * f),
                round(g + (target[1] - g) * f),
                round(b + (target[2] - b) * f),
                a,
            )
    return out


def jpeg_like_noise(img, rng):
    """Deterministic noise that looks like JPEG damage: a luminance (all-channel) DC offset per 8x8 block
    (-3..3), strong luminance ringing (up to +-40) in blocks that contain an edge, faint (+-2) elsewhere,
    and a little per-channel colour noise (+-6 near edges, +-2 elsewhere)."""
    out = img.copy()
    src = img.load()
    px = out.load()
    w, h = img.size

    def tri(amp):  # triangular in (-amp, amp), arithmetic only
        return (rng.random() + rng.random() - 1.0) * amp

    for by in range(0, h, 8):
        for bx in range(0, w, 8):
            dc = round(tri(3.5))
            lum = [sum(src[x, y][:3]) for y in range(by, min(by + 8, h)) for x in range(bx, min(bx + 8, w))]
            edgy = max(lum) - min(lum) > 90
            ring, chroma = (40.0, 6.0) if edgy else (2.0, 2.0)
            for y in range(by, min(by + 8, h)):
                for x in range(bx, min(bx + 8, w)):
                    r, g, b, a = src[x, y]
                    common = dc + tri(ring)
                    px[x, y] = tuple(min(255, max(0, round(c + common + tri(chroma)))) for c in (r, g, b)) + (a,)
    return out


def alpha_mask(img, extra=None):
    """Both images of eu-alpha: a left band fading from alpha 32 to 255, a fully transparent rectangle
    (whose RGB still differs between the two renders), and optionally a rectangle with another alpha."""
    out = img.copy()
    px = out.load()
    w, h = img.size
    band = w // 3
    for y in range(h):
        for x in range(w):
            r, g, b, a = px[x, y]
            if x < band:
                a = 32 + (223 * x) // band
            if 150 <= x < 200 and 40 <= y < 100:
                a = 0
            if extra and extra[0] <= x < extra[2] and extra[1] <= y < extra[3]:
                a = extra[4]
            px[x, y] = (r, g, b, a)
    return out


def transparent_garbage(img, box, rng):
    """Makes box fully transparent (alpha 0) with seeded random RGB under it, the garbage some encoders
    leave there. pixelmatch blends alpha-0 pixels to white, so their brightness deltas are 0 (they count
    as equal neighbours in its anti-aliasing test) while their bytes differ (has_many_siblings compares
    bytes): a decoder that premultiplies, or a port that compares bytes for the first test or blended
    colours for the second, gets other counts."""
    out = img.copy()
    px = out.load()
    x0, y0, x1, y1 = box
    for y in range(y0, y1):
        for x in range(x0, x1):
            px[x, y] = (int(rng.random() * 256), int(rng.random() * 256), int(rng.random() * 256), 0)
    return out


# Four semi-transparent greys (c, c, c, alpha) whose colours blended with white have float-identical
# brightness in pixelmatch's arithmetic (255 + (c - 255) * (alpha / 255), then rgb2y): different bytes,
# brightness delta exactly 0.
BLEND_EQUAL = [(141, 146), (27, 73), (36, 76), (179, 219)]


def blend_equal_stamps(img, centres):
    """Stamps, around each centre P, a pattern on which pixelmatch's anti-aliasing test hinges on "equal
    neighbour" meaning "brightness delta 0", not "same bytes" (rows from y-2 to y+1, columns x-1..x+1):
        D D D        D = opaque black (also at x-2 and x+2 in rows y-2, y-1)
        D D D
        G1 P G2      P, G1, G2, G3 = the four BLEND_EQUAL greys: 3 equal neighbours -> not anti-aliasing
        G3 W W       W = opaque white
    Comparing bytes instead, P has darker and brighter neighbours and would be taken for anti-aliasing.
    Returns (a, b); b has every P replaced by black, so the pair differs in exactly len(centres) pixels."""
    a = img.copy()
    pa = a.load()
    grey = [(c, c, c, al) for c, al in BLEND_EQUAL]
    for x, y in centres:
        for dx in range(-2, 3):
            pa[x + dx, y - 2] = pa[x + dx, y - 1] = (0, 0, 0, 255)
        pa[x - 1, y], pa[x, y], pa[x + 1, y] = grey[1], grey[0], grey[2]
        pa[x - 1, y + 1], pa[x, y + 1], pa[x + 1, y + 1] = grey[3], (255, 255, 255, 255), (255, 255, 255, 255)
    b = a.copy()
    pb = b.load()
    for x, y in centres:
        pb[x, y] = (0, 0, 0, 255)
    return a, b


def handful(img):
    """Changes a handful of pixels: the four corners, two edge midpoints and one flat interior pixel get
    a distinct colour (always counted); three pixels on anti-aliased edges are pulled half-way towards
    their darkest neighbour (pixelmatch calls them anti-aliasing, so only includeAA counts them)."""
    w, h = img.size
    out = img.copy()
    px = out.load()
    src = img.load()
    colour = (30, 120, 200, 255)
    fixed = [(0, 0), (w - 1, 0), (0, h - 1), (w - 1, h - 1), (w // 2, 0), (0, h // 2)]
    # the first flat pixel (3x3 uniform) scanning rows from (40, 40)
    flat = next(
        (x, y)
        for y in range(40, h - 1)
        for x in range(40, w - 1)
        if all(src[x + dx, y + dy] == src[x, y] for dx in (-1, 0, 1) for dy in (-1, 0, 1))
    )
    fixed.append(flat)
    for x, y in fixed:
        px[x, y] = colour

    a_data = list(img.tobytes())
    b_data = list(out.tobytes())
    max_delta = 35215 * 0.2 * 0.2
    chosen = []
    for y in range(2, h - 2, 3):
        for x in range(2, w - 2):
            if len(chosen) == 3:
                break
            if any(abs(x - cx) < 40 and abs(y - cy) < 40 for cx, cy in chosen + fixed):
                continue
            if not pmutils.antialiased(a_data, x, y, w, h, a_data):
                continue
            neighbours = [(x + dx, y + dy) for dx in (-1, 0, 1) for dy in (-1, 0, 1) if dx or dy]
            nx, ny = min(neighbours, key=lambda p: (pmutils.rgb2y(*src[p][:3]), p))
            new = tuple(round((c + d) / 2) for c, d in zip(src[x, y], src[nx, ny]))
            pos = (y * w + x) * 4
            old = b_data[pos : pos + 4]
            b_data[pos : pos + 4] = list(new)
            if pmutils.color_delta(a_data, b_data, pos, pos) > max_delta and (
                pmutils.antialiased(a_data, x, y, w, h, b_data) or pmutils.antialiased(b_data, x, y, w, h, a_data)
            ):
                chosen.append((x, y))
                px[x, y] = new
            else:
                b_data[pos : pos + 4] = old
    assert len(chosen) == 3, chosen
    return out


# --- The corpus -----------------------------------------------------------------------------------------


def make_corpus(mapraster):
    """Returns [(case, description, a, b)] in a fixed order."""
    rng = random.Random(7)
    pairs = []
    with tempfile.TemporaryDirectory() as tmp:
        # World at zoom 1, cropped to 320x240, with the attribution box.
        world = render(mapraster, tmp, "world", ["--center", "20,0", "--zoom", "1", "--size", "320x240"])
        pairs.append(("world-identical", "world z1 320x240; b is an exact copy", world, world.copy()))
        pairs.append(
            ("world-roll1px", "world z1; b rolled 1 px right (the last column wraps to x=0)",
             world, ImageChops.offset(world, 1, 0))
        )
        shapes = [
            ("line", [20.3, 200.6, 140.2, 60.4, 300.7, 120.1], (200, 30, 30), 1.0, 2.2),
            ("ellipse-outline", [210.5, 30.25, 290.75, 95.5], (20, 60, 200), 1.0, 1.6),
            ("ellipse", [60.3, 150.4, 110.6, 190.2], (20, 140, 60), 0.55, 0),
        ]
        pairs.append(
            ("world-aa-shapes", "world z1; b has an anti-aliased polyline, ring and half-opaque disc",
             world, add_aa_shapes(world, shapes))
        )

        # Europe bbox, 256x192, no attribution; b from a moved bbox (measured with --metadata: the view moves
        # ~0.11 px east and ~0.23 px north and zooms in by 0.035 %).
        eu = render(mapraster, tmp, "eu", ["--bbox", "5,45,25,60", "--size", "256x192", "--no-attribution"])
        eu_moved = render(
            mapraster, tmp, "eu-moved", ["--bbox", "5.02,45.015,25.02,60.015", "--size", "256x192", "--no-attribution"]
        )
        pairs.append(
            ("eu-subpixel",
             "Europe bbox 256x192; b re-rendered from a bbox moved 0.02/0.015 deg: the view moves ~0.11 px east, "
             "~0.23 px north, 0.035 % zoom",
             eu, eu_moved)
        )
        pairs.append(
            ("eu-recolor", "Europe; b has a rectangle mixed towards (200,60,160), 2 %..100 % in 3-px bands",
             eu, recolor_graded(eu, (60, 50, 200, 130), (200, 60, 160)))
        )
        pairs.append(("eu-noise", "Europe; b has seeded JPEG-like noise (8x8 DC offsets, ringing at edges)",
                      eu, jpeg_like_noise(eu, rng)))
        pairs.append(
            ("eu-alpha",
             "eu-subpixel pair, both with a fading alpha band (32..255) and an alpha-0 rectangle; "
             "b alone has alpha 70 in x 95..125, y 5..30 (a: 255)",
             alpha_mask(eu), alpha_mask(eu_moved, extra=(95, 5, 125, 30, 70)))
        )

        garbage_box = (40, 100, 180, 170)
        eu_shapes = [
            ("line", [20.3, 180.6, 120.2, 110.4, 240.7, 150.1], (30, 30, 160), 1.0, 2.0),
            ("ellipse-outline", [90.5, 120.25, 150.75, 165.5], (190, 40, 40), 1.0, 1.5),
        ]
        pairs.append(
            ("eu-transparent-garbage",
             "eu-subpixel pair, both with an alpha-0 rectangle (x 40..180, y 100..170) over random RGB "
             "(different in a and b); b also has an anti-aliased line and ring drawn across it (Image.composite, "
             "so their edge pixels inside the rectangle are partly transparent)",
             transparent_garbage(eu, garbage_box, rng),
             add_aa_shapes(transparent_garbage(eu_moved, garbage_box, rng), eu_shapes))
        )

        # Europe route scene at scale 2 (384x288 px).
        route_big = render(mapraster, tmp, "route-big", ["--scene", scene("eu-route.json"), "--size", "193x145"])
        pairs.append(
            ("eu-route-crop1px", "eu-route scene at 193x145 pt @2x; a = crop at (0,0), b = crop at (1,1), 384x288",
             route_big.crop((0, 0, 384, 288)), route_big.crop((1, 1, 385, 289)))
        )
        route = render(mapraster, tmp, "route", ["--scene", scene("eu-route.json")])
        route_moved = render(
            mapraster, tmp, "route-moved", ["--scene", scene("eu-route.json"), "--bbox", "5.016,45.012,25.016,60.012"]
        )
        pairs.append(
            ("eu-route-subpixel",
             "eu-route scene @2x; b from a bbox moved 0.016/0.012 deg: ~0.13 px east, ~0.28 px north, 0.028 % zoom",
             route, route_moved)
        )

        # Los Angeles scene at scale 2 (384x384 px) with pins, lines, a circle and a polygon.
        la = render(mapraster, tmp, "la", ["--scene", scene("la-overlays.json")])
        la_moved = render(
            mapraster, tmp, "la-moved",
            ["--scene", scene("la-overlays.json"), "--center", "34.0528928,-118.2434171", "--meters", "804.672"],
        )
        la_edited = render(mapraster, tmp, "la-edited", ["--scene", scene("la-overlays-edited.json")])
        pairs.append(("la-subpixel", "la-overlays scene @2x; b with the center moved ~0.37 px east, ~0.29 px north",
                      la, la_moved))
        pairs.append(("la-edited", "la-overlays vs la-overlays-edited (circle 150 -> 162 m, small pin moved)",
                      la, la_edited))
        la_shapes = [
            ("line", [30.4, 40.7, 350.2, 20.3], (120, 40, 160), 1.0, 3.0),
            ("ellipse-outline", [40.5, 60.25, 170.75, 190.5], (0, 120, 200), 1.0, 2.5),
        ]
        pairs.append(("la-aa-shapes", "la-overlays; b has an anti-aliased line and ring added",
                      la, add_aa_shapes(la, la_shapes)))
        pairs.append(
            ("la-handful",
             "la-overlays; b differs in 10 pixels: 4 corners, 2 edge midpoints, 1 flat interior pixel, "
             "3 anti-aliased edge pixels",
             la, handful(la))
        )
        stamped_a, stamped_b = blend_equal_stamps(la, [(x, y) for y in (150, 185, 220) for x in (290, 330)])
        pairs.append(
            ("la-blend-equal",
             "la-overlays with 6 stamped 5x4 patterns of semi-transparent greys whose blended brightness is "
             "identical (see blend_equal_stamps); b has the 6 pattern centres turned black",
             stamped_a, stamped_b)
        )
    return pairs


def save_corpus(pairs):
    if os.path.isdir(CORPUS):
        shutil.rmtree(CORPUS)
    os.makedirs(CORPUS)
    for case, _, a, b in pairs:
        assert a.mode == "RGBA" and b.mode == "RGBA" and a.size == b.size, case
        a.save(os.path.join(CORPUS, case + "-a.png"), compress_level=9)
        b.save(os.path.join(CORPUS, case + "-b.png"), compress_level=9)


def load_corpus(names):
    pairs = []
    for case in names:
        a = Image.open(os.path.join(CORPUS, case + "-a.png"))
        b = Image.open(os.path.join(CORPUS, case + "-b.png"))
        assert a.mode == "RGBA" and b.mode == "RGBA", case
        pairs.append((case, "", a.copy(), b.copy()))
    return pairs


CASE_ORDER = [
    "world-identical", "world-roll1px", "world-aa-shapes",
    "eu-subpixel", "eu-recolor", "eu-noise", "eu-alpha", "eu-transparent-garbage",
    "eu-route-crop1px", "eu-route-subpixel",
    "la-subpixel", "la-edited", "la-aa-shapes", "la-handful", "la-blend-equal",
]


# --- Counting -------------------------------------------------------------------------------------------


def count_job(job):
    """One pixelmatch call; job = (case, threshold, includeAA, alpha, diffMask, outputName or None)."""
    case, threshold, include_aa, alpha, diff_mask, output_name = job
    a = Image.open(os.path.join(CORPUS, case + "-a.png"))
    b = Image.open(os.path.join(CORPUS, case + "-b.png"))
    w, h = a.size
    # Flat [R, G, B, A, R, G, ...] lists of ints, the way pixelmatch expects its input
    # (same as list(itertools.chain(*img.getdata())) for mode RGBA).
    da = list(a.tobytes())
    db = list(b.tobytes())
    output = [0] * len(da) if output_name else None
    n = pixelmatch.pixelmatch(
        da, db, w, h, output, threshold=threshold, includeAA=include_aa, alpha=alpha, diff_mask=diff_mask
    )
    if output_name:
        Image.frombytes("RGBA", (w, h), bytes(output)).save(os.path.join(OUTPUTS, output_name), compress_level=9)
    return n


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--from-corpus", action="store_true", help="reuse fixtures/diff/corpus/, recount only")
    parser.add_argument("--mapraster", default=os.path.join(ROOT, ".build", "debug", "mapraster"))
    parser.add_argument("--jobs", type=int, default=2)
    args = parser.parse_args()

    version = importlib.metadata.version("pixelmatch")
    if version != PIXELMATCH_VERSION:
        sys.exit(f"pixelmatch {version} is installed; this script needs {PIXELMATCH_VERSION}: "
                 f"pip install pixelmatch=={PIXELMATCH_VERSION}")
    pillow = importlib.metadata.version("pillow")
    if pillow != PILLOW_VERSION:
        print(f"warning: Pillow {pillow}, not {PILLOW_VERSION}: a re-made corpus may differ in bytes "
              "(the counts written still describe it)", file=sys.stderr)

    if args.from_corpus:
        pairs = load_corpus(CASE_ORDER)
        descriptions = None
    else:
        if not os.path.exists(args.mapraster):
            print("building mapraster (swift build --product mapraster) ...", file=sys.stderr)
            subprocess.run(["swift", "build", "--product", "mapraster"], cwd=ROOT, check=True)
        pairs = make_corpus(args.mapraster)
        assert [p[0] for p in pairs] == CASE_ORDER
        save_corpus(pairs)
        descriptions = {case: desc for case, desc, _, _ in pairs}
        with open(os.path.join(OUT, "pairs.json"), "w") as f:
            json.dump({case: descriptions[case] for case in CASE_ORDER}, f, indent=2)
            f.write("\n")

    if os.path.isdir(OUTPUTS):
        shutil.rmtree(OUTPUTS)
    os.makedirs(OUTPUTS)

    sizes = {case: a.size for case, _, a, _ in pairs}
    cases, jobs = [], []
    for case in CASE_ORDER:
        for t in THRESHOLDS:
            for aa in INCLUDE_AA:
                cases.append({"id": f"{case}/t{t}/{'includeAA' if aa else 'excludeAA'}", "case": case,
                              "threshold": t, "includeAA": aa, "alpha": ALPHA, "diffMask": False, "output": None})
        if case in OUTPUT_PAIRS:
            for suffix, opts in OUTPUT_VARIANTS:
                name = f"{case}-{suffix}.png"
                cases.append({"id": f"{case}/output-{suffix}", "case": case, "threshold": 0.1, "includeAA": False,
                              "alpha": opts["alpha"], "diffMask": opts["diff_mask"],
                              "output": "expected-output/" + name})
    for c in cases:
        out = os.path.basename(c["output"]) if c["output"] else None
        jobs.append((c["case"], c["threshold"], c["includeAA"], c["alpha"], c["diffMask"], out))

    # Results come back in job order whatever the number of workers.
    with multiprocessing.Pool(args.jobs) as pool:
        counts = pool.map(count_job, jobs, chunksize=1)

    records = []
    for c, n in zip(cases, counts):
        w, h = sizes[c["case"]]
        records.append({
            "id": c["id"],
            "a": f"corpus/{c['case']}-a.png",
            "b": f"corpus/{c['case']}-b.png",
            "width": w,
            "height": h,
            "threshold": c["threshold"],
            "includeAA": c["includeAA"],
            "alpha": c["alpha"],
            "diffMask": c["diffMask"],
            "diff": n,
            "output": c["output"],
        })

    with open(os.path.join(OUT, "expected.json"), "w") as f:
        f.write("{\n")
        f.write(f'  "pixelmatch": "{PIXELMATCH_VERSION}",\n')
        f.write('  "generator": "Scripts/pixelmatch-crosscheck.py",\n')
        f.write('  "aaColor": [255, 255, 0],\n  "diffColor": [255, 0, 0],\n')
        f.write('  "cases": [\n')
        f.write(",\n".join("    " + json.dumps(r) for r in records))
        f.write("\n  ]\n}\n")

    # Summary: threshold 0.1, AA excluded / included.
    by_id = {r["id"]: r["diff"] for r in records}
    print(f"{'case':24} {'size':>9} {'t0.1 excl':>10} {'t0.1 incl':>10} {'t0 incl':>9}")
    for case in CASE_ORDER:
        w, h = sizes[case]
        print(f"{case:24} {w:4}x{h:<4} {by_id[f'{case}/t0.1/excludeAA']:10} {by_id[f'{case}/t0.1/includeAA']:10}"
              f" {by_id[f'{case}/t0/includeAA']:9}")
    total = sum(os.path.getsize(os.path.join(CORPUS, f)) for f in os.listdir(CORPUS))
    print(f"{len(records)} cases; corpus {total} bytes")


if __name__ == "__main__":
    main()
