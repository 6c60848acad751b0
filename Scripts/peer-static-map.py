#!/usr/bin/env python3
"""The benchmark peer: a hand-written pycairo program drawing a MapRaster scene's shapes.

Usage: peer-static-map.py SCENE.json OUT.png

Reads the scene that Benchmarks/AnnotationBenchmarks writes (a bbox, a size and GeoJSON Points, Points with a
radius, LineStrings and Polygons), projects to Web Mercator, fits the bbox to the image as MapRaster does, and
draws pins (needle, head, rim, shine), polylines, circles and polygons with pycairo, then writes a PNG.
Only for benchmarks: never used by the product or by `swift test`. Needs `pip install pycairo`.
"""
import json
import math
import sys

import cairo

R = 6378137.0


def merc(lon, lat):
    x = (lon + 180.0) / 360.0
    s = math.sin(math.radians(lat))
    y = 0.5 - math.log((1 + s) / (1 - s)) / (4 * math.pi)
    return x, y


def main():
    scene = json.load(open(sys.argv[1]))
    width, height = scene["size"]
    w, s, e, n = scene["bbox"]
    x0, y1 = merc(w, s)
    x1, y0 = merc(e, n)
    per = max((x1 - x0) / width, (y1 - y0) / height)
    cx, cy = (x0 + x1) / 2, (y0 + y1) / 2
    ox, oy = cx - width / 2 * per, cy - height / 2 * per

    def project(lon, lat):
        x, y = merc(lon, lat)
        return (x - ox) / per, (y - oy) / per

    surface = cairo.ImageSurface(cairo.FORMAT_ARGB32, width, height)
    ctx = cairo.Context(surface)
    ctx.set_line_join(cairo.LINE_JOIN_ROUND)
    ctx.set_line_cap(cairo.LINE_CAP_ROUND)
    pins = []
    for f in scene["features"]["features"]:
        g = f["geometry"]
        p = f["properties"]
        if g["type"] == "Point" and "radius" in p:
            lon, lat = g["coordinates"]
            x, y = project(lon, lat)
            meters_per_px = per * 2 * math.pi * R * math.cos(math.radians(lat))
            ctx.arc(x, y, p["radius"] / meters_per_px, 0, 2 * math.pi)
            ctx.set_source_rgba(0.87, 0, 0, 0.2)
            ctx.fill_preserve()
            ctx.set_source_rgb(0.87, 0, 0)
            ctx.set_line_width(2)
            ctx.stroke()
        elif g["type"] == "Point":
            pins.append(project(*g["coordinates"]))
        elif g["type"] == "LineString":
            for i, (lon, lat) in enumerate(g["coordinates"]):
                x, y = project(lon, lat)
                (ctx.move_to if i == 0 else ctx.line_to)(x, y)
            ctx.set_source_rgb(0.12, 0.44, 0.92)
            ctx.set_line_width(2)
            ctx.stroke()
        elif g["type"] == "Polygon":
            for ring in g["coordinates"]:
                for i, (lon, lat) in enumerate(ring):
                    x, y = project(lon, lat)
                    (ctx.move_to if i == 0 else ctx.line_to)(x, y)
                ctx.close_path()
            ctx.set_source_rgba(0.13, 0.67, 0.47, 0.3)
            ctx.fill_preserve()
            ctx.set_source_rgb(0.13, 0.67, 0.47)
            ctx.set_line_width(2)
            ctx.stroke()
    # Pins north to south, as MapKit stacks them.
    for x, y in sorted(pins, key=lambda q: q[1]):
        top = y - 36
        hx, hy, r = x, top + 9.5, 8.5
        ctx.move_to(hx, hy + r - 1)
        ctx.line_to(hx, y)
        ctx.set_line_width(2)
        ctx.set_source_rgb(0.43, 0.43, 0.45)
        ctx.stroke()
        ctx.arc(hx, hy, r, 0, 2 * math.pi)
        ctx.set_source_rgb(1.0, 0.23, 0.19)
        ctx.fill_preserve()
        ctx.set_line_width(1)
        ctx.set_source_rgb(0.6, 0.14, 0.11)
        ctx.stroke()
        ctx.arc(hx - r * 0.45, hy - r * 0.45, 2.6, 0, 2 * math.pi)
        ctx.set_source_rgba(1, 1, 1, 0.75)
        ctx.fill()
    surface.write_to_png(sys.argv[2])


if __name__ == "__main__":
    main()
