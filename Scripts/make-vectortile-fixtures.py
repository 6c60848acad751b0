#!/usr/bin/env python3
"""Makes fixtures/vectortiles/: vector tiles encoded by PyPI mapbox-vector-tile, a few real Mapbox Streets
tiles copied from MapLibre's render tests, and truth.json, every tile decoded by mapbox-vector-tile's
decoder (geometry) and Google's protobuf runtime (value types), for MapDataTests' VectorTileTests.

Run with PyPI mapbox-vector-tile==2.2.0 and shapely installed:
    python3 Scripts/make-vectortile-fixtures.py
Reads /work/shared/maplibre-render-tests/assets/tiles (or $MAPLIBRE_RENDER_TESTS/assets/tiles) only to copy.
The output is deterministic.
"""
import json
import os
import shutil

import mapbox_vector_tile
from mapbox_vector_tile.Mapbox import vector_tile_pb2
from shapely.geometry import LineString, MultiLineString, MultiPoint, MultiPolygon, Point, Polygon

ROOT = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "fixtures", "vectortiles")
SHARED = os.environ.get("MAPLIBRE_RENDER_TESTS", "/work/shared/maplibre-render-tests")
REAL = ["7-70-42.mvt", "counties-7-37-48.mvt", "14-4357-6245.mvt", "extent-1024.mvt", "2-1-1.mvt"]


def generated():
    """name -> bytes of tiles written by the Python encoder (then retyped values through protobuf)."""
    tiles = {}
    square = Polygon([(100, 100), (1000, 100), (1000, 1000), (100, 1000)], [[(300, 300), (300, 600), (600, 600), (600, 300)]])
    two = MultiPolygon([square, Polygon([(2000, 2000), (3000, 2000), (2500, 2900)])])
    layers = [
        {"name": "points", "features": [
            {"geometry": Point(10, 20), "properties": {"name": "Café ☕", "rank": 3, "height": 12.5, "open": True}, "id": 1},
            {"geometry": MultiPoint([(0, 0), (4096, 4096), (-64, 4160)]), "properties": {"name": "many", "rank": -7}, "id": 18446744073709551615},
            {"geometry": Point(2048, 2048), "properties": {"closed": False, "big": 9007199254740993}},
        ]},
        {"name": "lines", "features": [
            {"geometry": LineString([(0, 0), (10, 10), (20, 0), (4100, -5)]), "properties": {"class": "primary"}, "id": 7},
            {"geometry": MultiLineString([[(1, 1), (2, 2)], [(300, 300), (200, 250), (100, 400)]]), "properties": {"class": "path", "layer": -1}, "id": 8},
        ]},
        {"name": "polygons", "features": [
            {"geometry": square, "properties": {"kind": "with hole"}, "id": 20},
            {"geometry": two, "properties": {"kind": "two parts"}, "id": 21},
        ]},
    ]
    data = mapbox_vector_tile.encode(layers, default_options={"y_coord_down": True, "extents": 4096})
    tiles["generated-all-types.mvt"] = retype(data)
    small = [{"name": "extent512", "features": [
        {"geometry": Polygon([(0, 0), (512, 0), (512, 512), (0, 512)]), "properties": {"kind": "whole"}, "id": 1},
        {"geometry": LineString([(-32, 256), (544, 256)]), "properties": {"kind": "across"}, "id": 2},
    ]}]
    tiles["generated-extent-512.mvt"] = mapbox_vector_tile.encode(small, default_options={"y_coord_down": True, "extents": 512})
    return tiles


def retype(data):
    """Stores some values as float, uint and sint so that every value type of the specification occurs."""
    tile = vector_tile_pb2.tile()
    tile.ParseFromString(data)
    for layer in tile.layers:
        for value in layer.values:
            if value.HasField("double_value") and value.double_value == 12.5:
                value.ClearField("double_value")
                value.float_value = 12.5
            elif value.HasField("int_value") and value.int_value == 3:
                value.ClearField("int_value")
                value.uint_value = 3
            elif value.HasField("int_value") and value.int_value == -7:
                value.ClearField("int_value")
                value.sint_value = -7
    return tile.SerializeToString(deterministic=True)


VALUE_TYPES = ["string_value", "float_value", "double_value", "int_value", "uint_value", "sint_value", "bool_value"]


def typed(value):
    for field in VALUE_TYPES:
        if value.HasField(field):
            v = getattr(value, field)
            kind = field[: -len("_value")]
            if kind == "bool":
                return [kind, "true" if v else "false"]
            if kind in ("float", "double"):
                return [kind, repr(float(v))]
            return [kind, str(v)]
    raise ValueError("value without a type")


def part_digest(coords):
    """[points, sum x, sum y, sum (k+1)(x + 3y)]: catches lost, moved and reordered points."""
    return [len(coords), sum(c[0] for c in coords), sum(c[1] for c in coords),
            sum((k + 1) * (c[0] + 3 * c[1]) for k, c in enumerate(coords))]


def geometry_digest(geometry):
    kind, coords = geometry["type"], geometry["coordinates"]
    if kind == "Point":
        return {"type": 1, "parts": [part_digest([coords])]}
    if kind == "MultiPoint":
        return {"type": 1, "parts": [part_digest(coords)]}
    if kind == "LineString":
        return {"type": 2, "parts": [part_digest(coords)]}
    if kind == "MultiLineString":
        return {"type": 2, "parts": [part_digest(line) for line in coords]}
    polygons = [coords] if kind == "Polygon" else coords
    # Rings closed (first point repeated at the end), as the Python decoder returns them.
    return {"type": 3, "polygons": [[part_digest(ring) for ring in polygon] for polygon in polygons]}


def truth(data):
    raw = vector_tile_pb2.tile()
    raw.ParseFromString(data)
    decoded = mapbox_vector_tile.decode(data, default_options={"y_coord_down": True})
    layers = []
    for layer in raw.layers:
        out = decoded[layer.name]
        features = []
        for feature, decoded_feature in zip(layer.features, out["features"]):
            properties = {}
            for k, v in zip(feature.tags[::2], feature.tags[1::2]):
                properties[layer.keys[k]] = typed(layer.values[v])
            features.append({
                "id": str(feature.id) if feature.HasField("id") else None,
                "properties": properties,
                "geometry": geometry_digest(decoded_feature["geometry"]),
            })
        layers.append({"name": layer.name, "extent": out["extent"], "version": out["version"], "features": features})
    return {"layers": layers}


def main():
    os.makedirs(ROOT, exist_ok=True)
    tiles = generated()
    for name in REAL:
        with open(os.path.join(SHARED, "assets", "tiles", name), "rb") as f:
            tiles["mapbox-streets-" + name] = f.read()
    result = {}
    for name, data in sorted(tiles.items()):
        with open(os.path.join(ROOT, name), "wb") as f:
            f.write(data)
        result[name] = truth(data)
    with open(os.path.join(ROOT, "truth.json"), "w") as f:
        json.dump(result, f, ensure_ascii=False, sort_keys=True, separators=(",", ":"))
        f.write("\n")
    print("wrote", len(tiles), "tiles and truth.json to", os.path.normpath(ROOT))


if __name__ == "__main__":
    main()
