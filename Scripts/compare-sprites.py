#!/usr/bin/env python3
"""Builds the OpenMapTiles styles' sprites with `mapraster sprite` and compares them with the published ones.

The published sprites (each repository's gh-pages branch, built there by spritezero-cli 2.x with mapnik) are
in fixtures/styles/openmaptiles/<style>/sprite*; the SVG icon folders come from git clones of the style
repositories, read at the commit that fixtures/styles/openmaptiles/README.md names:

    git clone https://github.com/openmaptiles/osm-bright-gl-style clones/osm-bright-gl-style   # and the others
    swift build && Scripts/compare-sprites.py --clones clones --board /tmp/sprite-board.png

For each style and pixel ratio it prints: the image names (built / published / in common), how many have the
same size and the same position, whether the JSON index is byte-identical, and the per-icon pixel difference
by pixelmatch (PyPI `pixelmatch`, threshold 0.1, anti-aliased pixels not counted): icons with any differing
pixel, the differing pixels of all icons over their area, and the worst icon. `--board` writes every icon
side by side, published above built, on a light and a dark background, to look at.

A clone may also be named one by one: --clone osm-bright=PATH (a work tree or a bare repository).
With --spreet CLONE (github.com/flother/spreet) the SDF images are checked too: its test icons built with
`--sdf --retina --recursive` against spreet's own committed output (tests/fixtures/output/sdf@2x.*): names,
sizes, and the alpha (distance) difference per icon.
Exit status 0 when every style has the same names and sizes as its published sprite, 1 otherwise.
"""

import argparse
import io
import json
import os
import re
import subprocess
import sys
import tarfile
import tempfile

from PIL import Image, ImageDraw
from pixelmatch.contrib.PIL import pixelmatch

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
FIXTURES = os.path.join(ROOT, "fixtures", "styles", "openmaptiles")
STYLES = ["osm-bright", "positron", "dark-matter", "maptiler-basic", "maptiler-toner"]
RATIOS = [("1x", ""), ("2x", "@2x")]


def pinned_commits():
    """style -> the style.json commit of the fixtures' README table."""
    commits = {}
    with open(os.path.join(FIXTURES, "README.md"), encoding="utf-8") as f:
        for line in f:
            m = re.match(r"\| `([a-z0-9-]+)` \| github\.com/openmaptiles/([a-z0-9-]+) \| ([0-9a-f]{40}) \|", line)
            if m:
                commits[m.group(1)] = (m.group(2), m.group(3))
    return commits


def extract_icons(clone, commit, into):
    """The icons/ folder of `clone` at `commit`, unpacked under `into`; returns its path."""
    data = subprocess.run(
        ["git", "-C", clone, "archive", commit, "icons"], check=True, capture_output=True
    ).stdout
    with tarfile.open(fileobj=io.BytesIO(data)) as tar:
        tar.extractall(into, filter="data")
    return os.path.join(into, "icons")


def crop(image, entry):
    return image.crop((entry["x"], entry["y"], entry["x"] + entry["width"], entry["y"] + entry["height"]))


def compare(style, built_prefix, threshold):
    """Rows of the table for one style, and the icon pairs for the board."""
    rows, pairs = [], []
    for label, suffix in RATIOS:
        pub_json = os.path.join(FIXTURES, style, f"sprite{suffix}.json")
        new_json = f"{built_prefix}{suffix}.json"
        with open(pub_json, "rb") as f:
            pub_bytes = f.read()
        with open(new_json, "rb") as f:
            new_bytes = f.read()
        pub, new = json.loads(pub_bytes), json.loads(new_bytes)
        pub_sheet = Image.open(os.path.join(FIXTURES, style, f"sprite{suffix}.png")).convert("RGBA")
        new_sheet = Image.open(f"{built_prefix}{suffix}.png").convert("RGBA")
        common = sorted(set(pub) & set(new))
        same_size = [n for n in common if (pub[n]["width"], pub[n]["height"]) == (new[n]["width"], new[n]["height"])]
        same_place = [n for n in same_size if (pub[n]["x"], pub[n]["y"]) == (new[n]["x"], new[n]["y"])]
        differing, diff_pixels, area, worst = 0, 0, 0, ("", 0.0)
        for name in same_size:
            a, b = crop(pub_sheet, pub[name]), crop(new_sheet, new[name])
            count = pixelmatch(a, b, None, threshold=threshold, includeAA=False)
            pixels = a.width * a.height
            differing += count > 0
            diff_pixels += count
            area += pixels
            if count / pixels > worst[1]:
                worst = (name, count / pixels)
            pairs.append((label, name, a, b, count))
        rows.append({
            "style": style, "ratio": label, "built": len(new), "published": len(pub), "common": len(common),
            "same_size": len(same_size), "same_place": len(same_place), "json_identical": pub_bytes == new_bytes,
            "sheet": f"{new_sheet.width}x{new_sheet.height}",
            "sheet_published": f"{pub_sheet.width}x{pub_sheet.height}",
            "differing": differing, "diff_pixels": diff_pixels, "area": area, "worst": worst,
        })
    return rows, pairs


def compare_spreet(clone, mapraster, tmp):
    """Rows (name, spreet size, built size, sdf flag, max and mean alpha difference) for spreet's SDF test."""
    import numpy as np

    root = os.path.join(tmp, "spreet")
    os.makedirs(root)
    data = subprocess.run(["git", "-C", clone, "archive", "HEAD", "tests/fixtures"], check=True,
                          capture_output=True).stdout
    with tarfile.open(fileobj=io.BytesIO(data)) as tar:
        tar.extractall(root, filter="data")
    fixtures = os.path.join(root, "tests", "fixtures")
    prefix = os.path.join(root, "sdf")
    subprocess.run([mapraster, "sprite", os.path.join(fixtures, "svgs"), "-o", prefix, "--sdf", "--retina",
                    "--recursive"], check=True, capture_output=True)
    with open(os.path.join(fixtures, "output", "sdf@2x.json")) as f:
        theirs = json.load(f)
    with open(prefix + "@2x.json") as f:
        ours = json.load(f)
    a_sheet = np.array(Image.open(os.path.join(fixtures, "output", "sdf@2x.png")).convert("RGBA")).astype(int)
    b_sheet = np.array(Image.open(prefix + "@2x.png").convert("RGBA")).astype(int)
    rows = []
    for name in sorted(set(theirs) | set(ours)):
        a, b = theirs.get(name), ours.get(name)
        if not a or not b or (a["width"], a["height"]) != (b["width"], b["height"]):
            rows.append((name, a and (a["width"], a["height"]), b and (b["width"], b["height"]), None, None, None))
            continue
        pa = a_sheet[a["y"]:a["y"] + a["height"], a["x"]:a["x"] + a["width"], 3]
        pb = b_sheet[b["y"]:b["y"] + b["height"], b["x"]:b["x"] + b["width"], 3]
        d = abs(pa - pb)
        rows.append((name, (a["width"], a["height"]), (b["width"], b["height"]), b.get("sdf"), d.max(), d.mean()))
    return rows


def board(pairs_by_style, path):
    """Every icon of every style, published above built, on light and dark grey, 2x icons as they are and 1x
    icons doubled (nearest neighbour), so that both can be looked at pixel by pixel."""
    pad, label_h = 4, 12
    strips = []
    for style, pairs in pairs_by_style:
        for ratio in ("1x", "2x"):
            items = [(n, a, b, c) for (r, n, a, b, c) in pairs if r == ratio]
            if not items:
                continue
            scale = 2 if ratio == "1x" else 1
            cells = []
            for name, a, b, count in items:
                a2 = a.resize((a.width * scale, a.height * scale), Image.NEAREST)
                b2 = b.resize((b.width * scale, b.height * scale), Image.NEAREST)
                cells.append((name, a2, b2, count))
            # Wrap into rows of at most 1200 px.
            rows, row, width = [], [], 0
            for cell in cells:
                w = cell[1].width + pad
                if row and width + w > 1200:
                    rows.append(row)
                    row, width = [], 0
                row.append(cell)
                width += w
            rows.append(row)
            for k, row in enumerate(rows):
                w = sum(c[1].width + pad for c in row) + pad
                h = max(c[1].height for c in row)
                strip = Image.new("RGBA", (max(w, 720), label_h + 4 * h + 5 * pad), (255, 255, 255, 255))
                draw = ImageDraw.Draw(strip)
                title = f"{style} {ratio}" + (f" (cont. {k + 1})" if k else "") + \
                    ": rows = published, built on light grey; published, built on dark grey; red frame = pixelmatch > 0"
                draw.text((pad, 0), title, fill=(0, 0, 0, 255))
                x = pad
                for name, a2, b2, count in row:
                    for i, (img, bg) in enumerate([(a2, 220), (b2, 220), (a2, 60), (b2, 60)]):
                        y = label_h + pad + i * (h + pad)
                        back = Image.new("RGBA", img.size, (bg, bg, bg, 255))
                        back.alpha_composite(img)
                        strip.paste(back, (x, y))
                        if count and i == 1:
                            draw.rectangle((x - 1, y - 1, x + img.width, y + img.height), outline=(255, 0, 0, 255))
                    x += a2.width + pad
                strips.append(strip)
    width = max(s.width for s in strips)
    height = sum(s.height for s in strips)
    out = Image.new("RGBA", (width, height), (255, 255, 255, 255))
    y = 0
    for s in strips:
        out.paste(s, (0, y))
        y += s.height
    out.save(path)


def main():
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--clones", help="folder with the style repositories cloned under their GitHub names")
    parser.add_argument("--clone", action="append", default=[], help="STYLE=PATH of one clone (repeatable)")
    parser.add_argument("--mapraster", default=os.path.join(ROOT, ".build", "debug", "mapraster"))
    parser.add_argument("--threshold", type=float, default=0.1, help="pixelmatch threshold (default 0.1)")
    parser.add_argument("--board", help="write the board of every icon, published and built, to this PNG")
    parser.add_argument("--spreet", help="a clone of flother/spreet: also compare the SDF images with its output")
    args = parser.parse_args()

    commits = pinned_commits()
    clones = dict(item.split("=", 1) for item in args.clone)
    all_rows, all_pairs, ok = [], [], True
    with tempfile.TemporaryDirectory() as tmp:
        for style in STYLES:
            repo, commit = commits[style]
            clone = clones.get(style) or (os.path.join(args.clones, repo) if args.clones else None)
            if not clone or not os.path.exists(clone):
                print(f"{style}: no clone of {repo} (give --clones DIR or --clone {style}=PATH)", file=sys.stderr)
                ok = False
                continue
            icons = extract_icons(clone, commit, os.path.join(tmp, style))
            prefix = os.path.join(tmp, style, "sprite")
            run = subprocess.run(
                [args.mapraster, "sprite", icons, "-o", prefix, "--retina"], capture_output=True, text=True)
            sys.stderr.write(run.stderr)
            if run.returncode != 0:
                print(f"{style}: mapraster sprite failed ({run.returncode})", file=sys.stderr)
                ok = False
                continue
            rows, pairs = compare(style, prefix, args.threshold)
            all_rows += rows
            all_pairs.append((style, pairs))
        spreet_rows = compare_spreet(args.spreet, args.mapraster, tmp) if args.spreet else []

    print("| style | ratio | names built / published / common | same size | same place | JSON identical | "
          "sheet built / published | icons differing | differing px / icon px | worst icon |")
    print("|---|---|---|---|---|---|---|---|---|---|")
    for r in all_rows:
        share = 100 * r["diff_pixels"] / r["area"] if r["area"] else 0
        worst = f"{r['worst'][0]} {100 * r['worst'][1]:.1f} %" if r["worst"][0] else "-"
        print(f"| {r['style']} | {r['ratio']} | {r['built']} / {r['published']} / {r['common']} | "
              f"{r['same_size']} | {r['same_place']} | {'yes' if r['json_identical'] else 'no'} | "
              f"{r['sheet']} / {r['sheet_published']} | {r['differing']} | "
              f"{r['diff_pixels']} / {r['area']} ({share:.2f} %) | {worst} |")
        ok = ok and r["built"] == r["published"] == r["common"] == r["same_size"]
    if spreet_rows:
        print("\n| spreet --sdf --retina --recursive (sdf@2x) | spreet size | built size | sdf | alpha max diff | "
              "alpha mean diff |")
        print("|---|---|---|---|---|---|")
        for name, a, b, sdf, dmax, dmean in spreet_rows:
            same = dmax is not None
            print(f"| {name} | {a} | {b} | {sdf} | {dmax if same else '-'} | {f'{dmean:.2f}' if same else '-'} |")
            ok = ok and same and sdf is True
    if args.board and all_pairs:
        board(all_pairs, args.board)
        print(f"board: {args.board}")
    return 0 if ok else 1


if __name__ == "__main__":
    sys.exit(main())
