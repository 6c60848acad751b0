#!/usr/bin/env python3
"""Where a turned and tilted view puts coordinates, against MapLibre Native (issue 28's acceptance: 200 random
coordinates in a heading 37, pitch 55 view land within 0.25 px of where MapLibre Native draws a circle at them).

Both renderers draw the same style (white background, a GeoJSON source of points, a black circle layer of
radius 4 with MapLibre's default circle-pitch-alignment viewport, circle-pitch-scale map or, with
`--pitch-scale viewport`, every circle 4 px) at the same view:
MapLibre Native (PyPI `mapli`) in-process, MapRaster with `mapraster render --bearing 37 --pitch 55`. Each
circle's centre is the darkness-weighted centroid of the pixels in a window around it (anti-aliased edges
included: a disc's centroid is its centre whatever its coverage), and the script prints the distance between
the two renderers' centroids: maximum, median, 95th percentile, and the worst points.

The coordinates are drawn at random (seeded) near the view's centre and kept when MapLibre's projection
matrix (Scripts/camera-projection-fixture.py, written from MapLibre Native's TransformState) puts them inside
the image, 16 px from its edges; that matrix only chooses the points and the windows, the figures compare the
two drawings. The points are split into batches whose circles lie at least 26 px apart, one image per batch
and renderer, so that each window holds one circle.

Usage (MapRaster built: swift build -c release --product mapraster):
    EGL_PLATFORM=surfaceless LP_NUM_THREADS=1 /tmp/mlvenv/bin/python Scripts/camera-circles-vs-maplibre.py \
        [--binary .build/release/mapraster] [--count 200] [--keep DIR]
"""
import argparse
import importlib.util
import io
import json
import os
import random
import subprocess
import sys
import tempfile

import mapli
import numpy as np
from PIL import Image

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(HERE)
spec = importlib.util.spec_from_file_location("fixture", os.path.join(HERE, "camera-projection-fixture.py"))
fixture = importlib.util.module_from_spec(spec)
spec.loader.exec_module(fixture)

WIDTH, HEIGHT = 800, 600
LAT, LON, ZOOM = 43.7384, 7.4246, 13.0  # MapLibre's zoom; MapRaster's is one more
BEARING, PITCH = 37.0, 55.0
RADIUS = 4
MARGIN = 16
SEPARATION = 26
WINDOW = 9  # half-width of the centroid window, px
PITCH_SCALE = "map"  # set by --pitch-scale


def style(points):
    features = [{"type": "Feature", "geometry": {"type": "Point", "coordinates": [lon, lat]}, "properties": {}}
                for lat, lon in points]
    return {
        "version": 8,
        "sources": {"points": {"type": "geojson", "data": {"type": "FeatureCollection", "features": features}}},
        "layers": [
            {"id": "background", "type": "background", "paint": {"background-color": "#ffffff"}},
            {"id": "circles", "type": "circle", "source": "points",
             "paint": {"circle-radius": RADIUS, "circle-color": "#000000", "circle-pitch-scale": PITCH_SCALE}},
        ],
    }


def choose_points(count, rng):
    m, world = fixture.proj_matrix(WIDTH, HEIGHT, LAT, LON, ZOOM, BEARING, PITCH)
    span = 360 / 2 ** ZOOM
    points = []
    while len(points) < count:
        lat = LAT + rng.uniform(-1.5, 1.5) * span
        lon = LON + rng.uniform(-1.5, 1.5) * span
        x, y, depth = fixture.project(m, world, WIDTH, HEIGHT, lat, lon)
        if depth > 0 and MARGIN <= x <= WIDTH - MARGIN and MARGIN <= y <= HEIGHT - MARGIN:
            points.append((lat, lon, x, y))
    return points


def batches(points):
    out = []
    for p in points:
        for batch in out:
            if all((p[2] - q[2]) ** 2 + (p[3] - q[3]) ** 2 >= SEPARATION ** 2 for q in batch):
                batch.append(p)
                break
        else:
            out.append([p])
    return out


def centroid(darkness, x, y):
    """Darkness-weighted centroid (pixel centres at i + 0.5) in the window around (x, y)."""
    x0, x1 = max(0, int(x) - WINDOW), min(WIDTH, int(x) + WINDOW + 1)
    y0, y1 = max(0, int(y) - WINDOW), min(HEIGHT, int(y) + WINDOW + 1)
    w = darkness[y0:y1, x0:x1]
    total = w.sum()
    if total <= 0:
        return None
    ys, xs = np.mgrid[y0:y1, x0:x1]
    return float((w * (xs + 0.5)).sum() / total), float((w * (ys + 0.5)).sum() / total)


def darkness(png_bytes):
    image = np.asarray(Image.open(io.BytesIO(png_bytes)).convert("RGB"), dtype=np.float64)
    return 1 - (0.2126 * image[..., 0] + 0.7152 * image[..., 1] + 0.0722 * image[..., 2]) / 255


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--binary", default=os.path.join(ROOT, ".build", "release", "mapraster"))
    parser.add_argument("--count", type=int, default=200)
    parser.add_argument("--seed", type=int, default=28)
    parser.add_argument("--keep", help="a folder to keep the images and styles in")
    parser.add_argument("--pitch-scale", choices=["map", "viewport"], default="map",
                        help="circle-pitch-scale: map (MapLibre's default: far circles drawn smaller) or viewport "
                             "(every circle 4 px, so that far ones are not a few pixels' blur)")
    args = parser.parse_args()
    global PITCH_SCALE
    PITCH_SCALE = args.pitch_scale
    rng = random.Random(args.seed)
    points = choose_points(args.count, rng)
    folder = args.keep or tempfile.mkdtemp(prefix="camera-circles-")
    os.makedirs(folder, exist_ok=True)
    pool = mapli.RenderPool(workers=1)
    distances = []
    for index, batch in enumerate(batches(points)):
        s = style([(lat, lon) for lat, lon, _, _ in batch])
        style_path = os.path.join(folder, f"batch{index}.json")
        with open(style_path, "w") as f:
            json.dump(s, f)
        pool.register_style(f"batch{index}", json=s)
        theirs = pool.render(f"batch{index}", lon=LON, lat=LAT, zoom=ZOOM, width=WIDTH, height=HEIGHT,
                             bearing=BEARING, pitch=PITCH)
        ours_path = os.path.join(folder, f"batch{index}-mapraster.png")
        subprocess.run([args.binary, "render", "--style", style_path, "--center", f"{LAT},{LON}",
                        "--zoom", f"{ZOOM + 1}", "--bearing", f"{BEARING}", "--pitch", f"{PITCH}",
                        "--size", f"{WIDTH}x{HEIGHT}", "--no-attribution", "-o", ours_path],
                       check=True, stdout=subprocess.DEVNULL)
        with open(os.path.join(folder, f"batch{index}-maplibre.png"), "wb") as f:
            f.write(theirs)
        with open(ours_path, "rb") as f:
            ours = f.read()
        d_theirs, d_ours = darkness(theirs), darkness(ours)
        for lat, lon, x, y in batch:
            a, b = centroid(d_theirs, x, y), centroid(d_ours, x, y)
            if a is None or b is None:
                print(f"no circle near ({x:.1f}, {y:.1f}) for {lat:.6f},{lon:.6f}: "
                      f"{'MapLibre' if a is None else 'MapRaster'} drew none", file=sys.stderr)
                distances.append((float("inf"), lat, lon, x, y))
                continue
            distances.append((((a[0] - b[0]) ** 2 + (a[1] - b[1]) ** 2) ** 0.5, lat, lon, a, b))
    values = np.array([d[0] for d in distances])
    print(f"{len(values)} coordinates, view {WIDTH}x{HEIGHT} at {LAT},{LON}, MapLibre zoom {ZOOM} "
          f"(MapRaster {ZOOM + 1}), bearing {BEARING}, pitch {PITCH}, circle-pitch-scale {PITCH_SCALE}; "
          f"{len(batches(points))} images per renderer")
    print(f"distance MapRaster - MapLibre Native circle centroids: max {values.max():.3f} px, "
          f"median {np.median(values):.3f} px, 95th percentile {np.percentile(values, 95):.3f} px")
    print(f"within 0.25 px: {(values <= 0.25).sum()} of {len(values)}")
    for d in sorted(distances, key=lambda d: -d[0])[:5]:
        print(f"  {d[0]:.3f} px at {d[1]:.6f},{d[2]:.6f}: MapLibre {d[3]}, MapRaster {d[4]}")
    if args.keep:
        print("images in", folder, file=sys.stderr)


if __name__ == "__main__":
    main()
