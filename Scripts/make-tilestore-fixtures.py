#!/usr/bin/env python3
"""Makes fixtures/tilestores/ for MapStorageTests: tile stores written by the peers' own tools, with truth.

    /tmp/vt/bin/python Scripts/make-tilestore-fixtures.py   # PyPI cubao-tippecanoe==0.0.4, pmtiles==3.8.1

- tippecanoe.mbtiles: tippecanoe (gzipped vector tiles, zooms 0-6) over a few hand-made features
- tippecanoe.pmtiles: the same tiles, converted by pmtiles' mbtiles_to_pmtiles
- leaves.pmtiles: 12,000 tiny tiles at scattered zoom-12 ids written by pmtiles' Writer, so large that the
  writer splits the directory into leaf directories; plus 300 consecutive identical tiles (one run-length entry)
- no-tiles-table.mbtiles: an SQLite file with a metadata table and no tiles table
- truth.json: per store, tiles as [z, x, y, inflated length, CRC-32 of the inflated bytes] (Python's zlib),
  tiles that must be absent, and PMTiles tile ids from pmtiles.tile.zxy_to_tileid
Deterministic (fixed seed, no timestamps).
"""
import gzip
import json
import os
import random
import sqlite3
import subprocess
import tempfile
import zlib

import cubao_tippecanoe
from pmtiles.convert import mbtiles_to_pmtiles
from pmtiles.reader import MmapSource, Reader
from pmtiles.tile import Compression, TileType, tileid_to_zxy, zxy_to_tileid
from pmtiles.writer import Writer

OUT = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "fixtures", "tilestores")


def crc(data):
    return zlib.crc32(data) & 0xFFFFFFFF


def tippecanoe_store(work):
    features = [
        {"type": "Feature", "properties": {"name": "Monaco harbour", "kind": "point"},
         "geometry": {"type": "Point", "coordinates": [7.4246, 43.7384]}},
        {"type": "Feature", "properties": {"name": "a line", "lanes": 2},
         "geometry": {"type": "LineString", "coordinates": [[1.45, 42.45], [7.42, 43.73], [24.94, 60.17]]}},
        {"type": "Feature", "properties": {"kind": "area"},
         "geometry": {"type": "Polygon", "coordinates": [[[1.4, 42.4], [1.8, 42.4], [1.8, 42.7], [1.4, 42.7], [1.4, 42.4]]]}},
    ]
    with open(os.path.join(work, "features.geojson"), "w") as f:
        json.dump({"type": "FeatureCollection", "features": features}, f)
    exe = os.path.join(os.path.dirname(cubao_tippecanoe.__file__), "__cubao_tippecanoe_tippecanoe.exe")
    subprocess.run([exe, "-o", "tippecanoe.mbtiles", "-Z0", "-z6", "-r1", "-l", "features", "-n", "fixture",
                    "-A", "© OpenStreetMap contributors", "--quiet", "--force", "features.geojson"], check=True, cwd=work)
    mbtiles = os.path.join(OUT, "tippecanoe.mbtiles")
    os.replace(os.path.join(work, "tippecanoe.mbtiles"), mbtiles)
    with sqlite3.connect(mbtiles) as db:
        db.execute("UPDATE metadata SET value = '(removed)' WHERE name = 'generator_options'")
        db.commit()
        db.execute("VACUUM")
        rows = db.execute("SELECT zoom_level, tile_column, tile_row, tile_data FROM tiles ORDER BY 1, 2, 3").fetchall()
    pmtiles_path = os.path.join(OUT, "tippecanoe.pmtiles")
    mbtiles_to_pmtiles(mbtiles, pmtiles_path, 6)
    tiles = []
    for z, x, tms, data in rows:
        y = (1 << z) - 1 - tms
        raw = gzip.decompress(data) if data[:2] == b"\x1f\x8b" else data
        tiles.append([z, x, y, len(raw), crc(raw)])
    present = {(t[0], t[1], t[2]) for t in tiles}
    absent = [[z, x, y] for z in range(0, 8) for x in range(0, 1 << min(z, 3)) for y in range(0, 1 << min(z, 3))
              if (z, x, y) not in present][:40]
    # The PMTiles file as pmtiles' own reader sees it: every tile must match.
    with open(pmtiles_path, "rb") as f:
        reader = Reader(MmapSource(f))
        for z, x, y, length, checksum in tiles:
            data = reader.get(z, x, y)
            assert crc(gzip.decompress(data)) == checksum
    return {"tiles": tiles, "absent": absent}


def leaves_store():
    rng = random.Random(11)
    path = os.path.join(OUT, "leaves.pmtiles")
    chosen = sorted(rng.sample(range(1 << 24), 12000))  # zoom-12 tiles as y * 4096 + x
    entries = []
    with open(path, "wb") as f:
        writer = Writer(f)
        records = {}
        for index in chosen:
            z, x, y = 12, index % 4096, index // 4096
            data = bytes([rng.randrange(256) for _ in range(rng.randrange(1, 12))])
            records[zxy_to_tileid(z, x, y)] = (z, x, y, data)
        # 300 consecutive zoom-13 ids with equal bytes: the writer stores them as one run-length entry.
        for tileid in range(zxy_to_tileid(13, 0, 0) + 1000, zxy_to_tileid(13, 0, 0) + 1300):
            z, x, y = tileid_to_zxy(tileid)
            records[tileid] = (z, x, y, b"same tile")
        for tileid in sorted(records):
            z, x, y, data = records[tileid]
            writer.write_tile(tileid, data)
        writer.finalize({
            "tile_type": TileType.UNKNOWN, "tile_compression": Compression.NONE,
            "min_zoom": 12, "max_zoom": 13, "min_lon_e7": -1800000000, "min_lat_e7": -850000000,
            "max_lon_e7": 1800000000, "max_lat_e7": 850000000, "center_zoom": 12, "center_lon_e7": 0, "center_lat_e7": 0,
        }, {"name": "leaves", "attribution": "made by MapRaster's fixture script"})
    with open(path, "rb") as f:
        data = f.read()
    root_length = int.from_bytes(data[16:24], "little")
    leaves_length = int.from_bytes(data[48:56], "little")
    assert leaves_length > 0, "expected leaf directories"
    sample = rng.sample(sorted(records), 400) + list(range(zxy_to_tileid(13, 0, 0) + 1000, zxy_to_tileid(13, 0, 0) + 1300, 37))
    tiles = [[records[t][0], records[t][1], records[t][2], len(records[t][3]), crc(records[t][3])] for t in sample]
    absent = []
    while len(absent) < 100:
        x, y = rng.randrange(4096), rng.randrange(4096)
        if zxy_to_tileid(12, x, y) not in records:
            absent.append([12, x, y])
    return {"tiles": tiles, "absent": absent, "rootLength": root_length, "leavesLength": leaves_length}


def main():
    os.makedirs(OUT, exist_ok=True)
    with tempfile.TemporaryDirectory() as work:
        truth = {"tippecanoe": tippecanoe_store(work), "leaves": leaves_store()}
    empty = os.path.join(OUT, "no-tiles-table.mbtiles")
    if os.path.exists(empty):
        os.remove(empty)
    with sqlite3.connect(empty) as db:
        db.execute("CREATE TABLE metadata (name TEXT, value TEXT)")
        db.execute("INSERT INTO metadata VALUES ('name', 'no tiles table'), ('format', 'pbf')")
    rng = random.Random(5)
    ids = [[0, 0, 0], [1, 1, 0], [2, 3, 1], [12, 2047, 1361], [14, 8529, 5974], [20, 524287, 349525], [30, 0, (1 << 30) - 1]]
    ids += [[z, rng.randrange(1 << z), rng.randrange(1 << z)] for z in range(1, 31) for _ in range(3)]
    truth["tileIDs"] = [[z, x, y, str(zxy_to_tileid(z, x, y))] for z, x, y in ids]
    with open(os.path.join(OUT, "truth.json"), "w") as f:
        json.dump(truth, f, sort_keys=True, separators=(",", ":"))
        f.write("\n")
    for name in sorted(os.listdir(OUT)):
        print(name, os.path.getsize(os.path.join(OUT, name)))


if __name__ == "__main__":
    main()
