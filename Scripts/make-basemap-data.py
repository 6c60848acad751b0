#!/usr/bin/env python3
"""Copies and slims the base map's data from the workplace's shared data into the repository.

Run from the package root: python3 Scripts/make-basemap-data.py /path/to/shared/data
Only the Python standard library is used. The output is deterministic (same input, same bytes).

Product data (SwiftPM resources of MapRender):
  naturalearth/ne_50m_countries.geojson   copied unchanged except for an RFC 7946 "bbox" member in every
                                       feature, right after its "type" (the renderer decodes only the
                                       countries whose bbox meets the view)
  naturalearth/ne_50m_lakes.geojson, ne_50m_rivers.geojson   copied unchanged (Marble's NE 1:50m)
  naturalearth/ne_10m_admin1.geojson   NE 1:10m admin-1 (QGIS generalization), properties name, adm0_a3,
                                       rings simplified (Douglas-Peucker, 0.01 degrees: under 2 points up to
                                       MapRaster zoom 8) and rounded to 3 decimals; rings left with fewer
                                       than 4 points dropped
  geonames/cities_100k.geojson         GeoNames cities >= 100k: name, name_ja_guess, country, population
  helsinki/*.geojson                   the OSM extract of central Helsinki, copied unchanged except for an
                                       RFC 7946 "bbox" member written before "features" (the renderer
                                       skips a file whose bbox is away from the view without parsing it)
  bluemarble/bmng_2700x1350.png        NASA Blue Marble NG, equirectangular, copied unchanged
Test fixtures:
  fixtures/render/styles/raster/bands.png   a 72x36 synthetic equirectangular image for the raster layer
  fixtures/data/ne_10m_countries_east_asia.geojson   NE 1:10m countries whose bbox meets 115..155 E,
                                       20..55 N: NAME, NAME_JA, ADM0_A3, LABELRANK, POP_EST; 4 decimals
"""
import json
import os
import shutil
import struct
import sys
import zlib

SRC = sys.argv[1] if len(sys.argv) > 1 else "/work/shared/data"
RES = "Sources/MapBaseMap/Resources"


def dump(obj, path):
    os.makedirs(os.path.dirname(path), exist_ok=True)
    with open(path, "w", encoding="utf-8") as f:
        json.dump(obj, f, ensure_ascii=False, separators=(",", ":"))


def round_positions(coords, ndigits):
    if isinstance(coords[0], (int, float)):
        return [round(coords[0], ndigits), round(coords[1], ndigits)]
    out = [round_positions(c, ndigits) for c in coords]
    if out and isinstance(out[0][0], (int, float)):
        dedup = [out[0]]
        for p in out[1:]:
            if p != dedup[-1]:
                dedup.append(p)
        out = dedup
    return out


def douglas_peucker(points, tolerance):
    """Simplifies an open or closed list of [lon, lat] keeping the end points (iterative, stdlib only)."""
    if len(points) < 3:
        return points
    keep = [False] * len(points)
    keep[0] = keep[-1] = True
    stack = [(0, len(points) - 1)]
    while stack:
        a, b = stack.pop()
        ax, ay = points[a]
        bx, by = points[b]
        dx, dy = bx - ax, by - ay
        norm = (dx * dx + dy * dy) ** 0.5
        best, index = -1.0, -1
        for i in range(a + 1, b):
            px, py = points[i]
            if norm == 0:
                d = ((px - ax) ** 2 + (py - ay) ** 2) ** 0.5
            else:
                d = abs(dy * px - dx * py + bx * ay - by * ax) / norm
            if d > best:
                best, index = d, i
        if best > tolerance:
            keep[index] = True
            stack.append((a, index))
            stack.append((index, b))
    return [p for p, k in zip(points, keep) if k]


def simplify_rings(coords, tolerance):
    if isinstance(coords[0][0], (int, float)):
        ring = douglas_peucker(coords, tolerance)
        return ring if len(ring) >= 4 else coords[:1] * 0
    out = [simplify_rings(c, tolerance) for c in coords]
    return [c for c in out if c]


def slim(src, dst, keep, ndigits=None, select=None, simplify=None):
    with open(src, encoding="utf-8") as f:
        data = json.load(f)
    features = []
    for feature in data["features"]:
        if select and not select(feature):
            continue
        props = {k: feature["properties"].get(k) for k in keep}
        geometry = feature["geometry"]
        if ndigits is not None and geometry:
            coordinates = geometry["coordinates"]
            if simplify:
                coordinates = simplify_rings(coordinates, simplify)
                if not coordinates:
                    continue
            geometry = {"type": geometry["type"], "coordinates": round_positions(coordinates, ndigits)}
        features.append({"type": "Feature", "properties": props, "geometry": geometry})
    dump({"type": "FeatureCollection", "features": features}, dst)


def bbox(coords, box):
    if isinstance(coords[0], (int, float)):
        box[0] = min(box[0], coords[0]); box[1] = min(box[1], coords[1])
        box[2] = max(box[2], coords[0]); box[3] = max(box[3], coords[1])
    else:
        for c in coords:
            bbox(c, box)
    return box


def east_asia(feature):
    b = bbox(feature["geometry"]["coordinates"], [999, 999, -999, -999])
    return b[2] >= 115 and b[0] <= 155 and b[3] >= 20 and b[1] <= 55


def write_bands_png(path):
    """A 72x36 equirectangular test image (5 degrees per pixel): warm colors north of the equator, cool
    south, a darker column every 30 degrees of longitude."""
    w, h = 72, 36
    rows = []
    for row in range(h):
        lat = 90 - (row + 0.5) * 5
        line = bytearray([0])
        for col in range(w):
            lon = -180 + (col + 0.5) * 5
            r, g, b = (230, 160, 60) if lat > 0 else (60, 130, 220)
            if int(abs(lat)) // 30 % 2 == 1:
                r, g, b = r * 3 // 4, g * 3 // 4, b * 3 // 4
            if col % 6 == 0:
                r, g, b = r // 2, g // 2, b // 2
            line += bytes([r, g, b])
        rows.append(bytes(line))
    def chunk(kind, data):
        return struct.pack(">I", len(data)) + kind + data + struct.pack(">I", zlib.crc32(kind + data) & 0xFFFFFFFF)
    png = b"\x89PNG\r\n\x1a\n" + chunk(b"IHDR", struct.pack(">IIBBBBB", w, h, 8, 2, 0, 0, 0))
    png += chunk(b"IDAT", zlib.compress(b"".join(rows), 9)) + chunk(b"IEND", b"")
    with open(path, "wb") as f:
        f.write(png)


def copy_with_bbox(src, dst):
    """Copies a FeatureCollection byte for byte, with its RFC 7946 bbox [west, south, east, north] (the
    smallest and largest longitude and latitude of all its positions) as a member right after "type"."""
    with open(src, "rb") as f:
        data = f.read()
    lons, lats = [], []

    def positions(c):
        if c and isinstance(c[0], (int, float)):
            lons.append(c[0])
            lats.append(c[1])
        else:
            for item in c:
                positions(item)

    def geometry(g):
        if g is None:
            return
        if g["type"] == "GeometryCollection":
            for item in g["geometries"]:
                geometry(item)
        else:
            positions(g["coordinates"])

    for feature in json.loads(data)["features"]:
        geometry(feature["geometry"])
    head = b'{"type":"FeatureCollection",'
    assert data.startswith(head) and b'"bbox"' not in data[:200], src
    bbox = json.dumps([min(lons), min(lats), max(lons), max(lats)], separators=(",", ":")).encode()
    with open(dst, "wb") as f:
        f.write(head + b'"bbox":' + bbox + b"," + data[len(head):])


def copy_with_feature_bboxes(src, dst):
    """Copies a FeatureCollection byte for byte, with an RFC 7946 bbox [west, south, east, north] (the smallest
    and largest longitude and latitude of its positions) in every feature with a geometry, right after the
    feature's "type": the renderer decodes only the features whose bbox meets the view."""
    with open(src, "rb") as f:
        data = f.read()
    head = b'{"type":"Feature",'
    features = json.loads(data)["features"]
    assert data.count(head) == len(features) and b'"bbox"' not in data, src
    parts = data.split(head)
    out = [parts[0]]
    for feature, rest in zip(features, parts[1:]):
        lons, lats = [], []

        def positions(c):
            if c and isinstance(c[0], (int, float)):
                lons.append(c[0])
                lats.append(c[1])
            else:
                for item in c:
                    positions(item)

        g = feature["geometry"]
        assert g is None or g["type"] != "GeometryCollection", src
        if g is not None:
            positions(g["coordinates"])
        out.append(head)
        if lons:
            bbox = [min(lons), min(lats), max(lons), max(lats)]
            out.append(b'"bbox":' + json.dumps(bbox, separators=(",", ":")).encode() + b",")
        out.append(rest)
    with open(dst, "wb") as f:
        f.write(b"".join(out))


def main():
    w = os.path.join(SRC, "world")
    copy_with_feature_bboxes(os.path.join(w, "ne_50m_countries.geojson"), f"{RES}/naturalearth/ne_50m_countries.geojson")
    shutil.copyfile(os.path.join(w, "ne_50m_lakes_marble.geojson"), f"{RES}/naturalearth/ne_50m_lakes.geojson")
    shutil.copyfile(
        os.path.join(w, "ne_50m_rivers_lake_centerlines_marble.geojson"), f"{RES}/naturalearth/ne_50m_rivers.geojson")
    slim(os.path.join(w, "ne_10m_admin1_qgis.geojson"), f"{RES}/naturalearth/ne_10m_admin1.geojson",
         ["name", "adm0_a3"], ndigits=3, simplify=0.01)
    slim(os.path.join(w, "geonames_cities_100k.geojson"), f"{RES}/geonames/cities_100k.geojson",
         ["name", "name_ja_guess", "country", "population"])
    os.makedirs(f"{RES}/helsinki", exist_ok=True)
    for name in ["roads", "railways", "buildings", "water", "waterways", "landuse", "places", "pois"]:
        copy_with_bbox(os.path.join(SRC, "helsinki", f"helsinki_{name}.geojson"), f"{RES}/helsinki/{name}.geojson")
    os.makedirs(f"{RES}/bluemarble", exist_ok=True)
    shutil.copyfile(os.path.join(SRC, "raster", "bmng_2700x1350.png"), f"{RES}/bluemarble/bmng_2700x1350.png")
    slim(os.path.join(w, "ne_10m_countries_deu.geojson"), "fixtures/data/ne_10m_countries_east_asia.geojson",
         ["NAME", "NAME_JA", "ADM0_A3", "LABELRANK", "POP_EST"], ndigits=4, select=east_asia)
    write_bands_png("fixtures/render/styles/raster/bands.png")


if __name__ == "__main__":
    main()
