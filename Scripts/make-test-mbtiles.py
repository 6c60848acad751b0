#!/usr/bin/env python3
"""Writes fixtures/overlays/tiles.mbtiles: a small MBTiles 1.3 file for the tile overlay tests.

Zooms 0...2, 256x256 PNG tiles made with the Python standard library only (zlib + struct): each tile is
one color chosen from its column and XYZ row, with a dark 8-pixel border and a dark 48x48 square in its
north-west corner, so that orientation (TMS rows are stored, counted from the south) shows in a golden.

Usage: python3 Scripts/make-test-mbtiles.py [output path]     Deterministic: same bytes on every run.
"""

import os
import sqlite3
import struct
import sys
import zlib


def png(width, height, pixel):
    raw = bytearray()
    for y in range(height):
        raw.append(0)
        for x in range(width):
            raw.extend(pixel(x, y))

    def chunk(kind, data):
        body = kind + data
        return struct.pack(">I", len(data)) + body + struct.pack(">I", zlib.crc32(body) & 0xFFFFFFFF)

    header = struct.pack(">IIBBBBB", width, height, 8, 2, 0, 0, 0)
    return b"\x89PNG\r\n\x1a\n" + chunk(b"IHDR", header) + chunk(b"IDAT", zlib.compress(bytes(raw), 9)) + chunk(b"IEND", b"")


def tile(z, x, y):
    n = 2 ** z
    color = (int(60 + 180 * x / n), int(200 - 120 * y / n), int(90 + 140 * ((x + y) % 2)))
    dark = (30, 30, 40)

    def pixel(px, py):
        if px < 8 or py < 8 or px >= 248 or py >= 248 or (px < 56 and py < 56):
            return dark
        return color

    return png(256, 256, pixel)


def main():
    out = sys.argv[1] if len(sys.argv) > 1 else os.path.join(
        os.path.dirname(__file__), "..", "fixtures", "overlays", "tiles.mbtiles")
    if os.path.exists(out):
        os.remove(out)
    db = sqlite3.connect(out)
    db.execute("CREATE TABLE metadata (name TEXT, value TEXT)")
    db.execute("CREATE TABLE tiles (zoom_level INTEGER, tile_column INTEGER, tile_row INTEGER, tile_data BLOB)")
    db.execute("CREATE UNIQUE INDEX tile_index ON tiles (zoom_level, tile_column, tile_row)")
    for name, value in [("name", "mapraster test tiles"), ("format", "png"), ("minzoom", "0"), ("maxzoom", "2"),
                        ("bounds", "-180,-85.0511,180,85.0511"), ("type", "overlay"), ("version", "1")]:
        db.execute("INSERT INTO metadata VALUES (?, ?)", (name, value))
    for z in range(3):
        n = 2 ** z
        for x in range(n):
            for y in range(n):
                db.execute("INSERT INTO tiles VALUES (?, ?, ?, ?)", (z, x, n - 1 - y, tile(z, x, y)))
    db.commit()
    db.execute("VACUUM")
    db.close()


if __name__ == "__main__":
    main()
