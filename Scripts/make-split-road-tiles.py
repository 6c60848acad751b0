#!/usr/bin/env python3
"""Makes fixtures/vectortiles/split-road/: one long road with gentle bends named "Long Split Road" cut into zoom-14 vector
tiles (extent 4096, a 64-unit buffer, as tippecanoe cuts), and the same road as one GeoJSON feature
(road.geojson, its vertices on the same grid), for MapBaseMapTests' cross-tile line-label test: a label
along the road must land where it lands on the uncut feature.

Run with PyPI mapbox-vector-tile==2.2.0 and shapely: python3 Scripts/make-split-road-tiles.py
The output is deterministic.
"""
import json
import math
import os

import mapbox_vector_tile
from shapely.geometry import LineString, box

ROOT = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "fixtures", "vectortiles", "split-road")
Z = 14
EXTENT = 4096
BUFFER = 64
N = 1 << Z


def world(lon, lat):
    """Web Mercator in zoom-14 tile units (x east, y south)."""
    x = (lon + 180) / 360 * N
    y = (1 - math.log(math.tan(math.radians(lat)) + 1 / math.cos(math.radians(lat))) / math.pi) / 2 * N
    return x, y


def lonlat(x, y):
    lon = x / N * 360 - 180
    lat = math.degrees(math.atan(math.sinh(math.pi * (1 - 2 * y / N))))
    return lon, lat


def main():
    # A road of a few long straight stretches with gentle bends across three tiles east of (0, 0), vertices
    # on the extent-4096 grid of zoom 14 (long stretches: no simplification changes the uncut line).
    x0, y0 = world(0.002, 0.012)
    bends = [(0, 0), (0.5, 0.12), (1.1, 0.05), (1.7, 0.2), (2.2, 0.1), (2.6, 0.16)]
    points = [(round((x0 + dx) * EXTENT) / EXTENT, round((y0 + dy) * EXTENT) / EXTENT) for dx, dy in bends]
    road = LineString(points)
    os.makedirs(ROOT, exist_ok=True)
    with open(os.path.join(ROOT, "road.geojson"), "w") as f:
        json.dump({"type": "FeatureCollection", "features": [{
            "type": "Feature", "id": 1, "properties": {"name": "Long Split Road", "class": "primary"},
            "geometry": {"type": "LineString", "coordinates": [list(lonlat(x, y)) for x, y in points]}}]}, f)
    minx, miny, maxx, maxy = road.bounds
    for tx in range(int(minx), int(maxx) + 1):
        for ty in range(int(miny), int(maxy) + 1):
            b = BUFFER / EXTENT
            piece = road.intersection(box(tx - b, ty - b, tx + 1 + b, ty + 1 + b))
            if piece.is_empty:
                continue
            local = [[((x - tx) * EXTENT, (y - ty) * EXTENT) for x, y in line.coords]
                     for line in getattr(piece, "geoms", [piece])]
            geometry = LineString(local[0]) if len(local) == 1 else {"type": "MultiLineString", "coordinates": local}
            data = mapbox_vector_tile.encode(
                [{"name": "transportation_name", "features": [{
                    "geometry": geometry if isinstance(geometry, dict) else geometry.wkt, "id": 1,
                    "properties": {"name": "Long Split Road", "class": "primary"}}]}],
                default_options={"y_coord_down": True, "extents": EXTENT})
            folder = os.path.join(ROOT, str(Z), str(tx))
            os.makedirs(folder, exist_ok=True)
            with open(os.path.join(folder, f"{ty}.pbf"), "wb") as f:
                f.write(data)
            print(f"{Z}/{tx}/{ty}: {sum(len(l) for l in local)} points")


if __name__ == "__main__":
    main()
