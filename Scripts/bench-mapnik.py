#!/usr/bin/python3
"""Mapnik 3.1 peer for Benchmarks/StyleBenchmark: renders the same view with the same layers and colors.

Usage: bench-mapnik.py europe|helsinki WIDTH HEIGHT MINX MINY MAXX MAXY ITERATIONS DATA_DIR
Prints the mean milliseconds per render (after one warm-up render) on standard output.
Needs Debian's python3-mapnik. Not used by the product or by `swift test`.
"""
import os
import sys
import time

import mapnik

kind, w, h, minx, miny, maxx, maxy, iterations, data = sys.argv[1:10]
w, h, iterations = int(w), int(h), int(iterations)
MERC = "+proj=merc +a=6378137 +b=6378137 +lat_ts=0 +lon_0=0 +x_0=0 +y_0=0 +k=1 +units=m +nadgrids=@null +no_defs"
WGS = "+proj=longlat +datum=WGS84 +no_defs"

m = mapnik.Map(w, h, MERC)


def layer(name, path, rules):
    style = mapnik.Style()
    for symbolizers, filt in rules:
        r = mapnik.Rule()
        if filt:
            r.filter = mapnik.Expression(filt)
        for s in symbolizers:
            r.symbols.append(s)
        style.rules.append(r)
    m.append_style(name, style)
    lyr = mapnik.Layer(name, WGS)
    lyr.datasource = mapnik.Datasource(type="geojson", file=os.path.join(data, path))
    lyr.styles.append(name)
    m.layers.append(lyr)


def fill(color, outline=None):
    s = mapnik.PolygonSymbolizer()
    s.fill = mapnik.Color(color)
    out = [s]
    if outline:
        ls = mapnik.LineSymbolizer()
        ls.stroke = mapnik.Color(outline)
        ls.stroke_width = 1
        out.append(ls)
    return out


def line(color, width, join="miter", cap="butt"):
    s = mapnik.LineSymbolizer()
    s.stroke = mapnik.Color(color)
    s.stroke_width = width
    s.stroke_linejoin = getattr(mapnik.stroke_linejoin, join.upper() + "_JOIN")
    s.stroke_linecap = getattr(mapnik.stroke_linecap, cap.upper() + "_CAP")
    return [s]


if kind == "europe":
    m.background = mapnik.Color("#aad3df")
    layer("land", "naturalearth/ne_50m_countries.geojson", [(fill("#f2efe9"), None)])
    layer("lakes", "naturalearth/ne_50m_lakes.geojson", [(fill("#aad3df"), None)])
    layer("rivers", "naturalearth/ne_50m_rivers.geojson", [(line("#aad3df", 1), None)])
    layer("borders", "naturalearth/ne_50m_countries.geojson", [(line("#9b8c96", 1, "round"), None)])
else:
    m.background = mapnik.Color("#f2efe9")
    layer("landuse", "helsinki/landuse.geojson", [(fill("#c8facc"), None)])
    layer("water", "helsinki/water.geojson", [(fill("#aad3df"), None)])
    layer("buildings", "helsinki/buildings.geojson", [(fill("#d9d0c9", "#c4b6ab"), None)])
    layer("railways", "helsinki/railways.geojson", [(line("#707070", 1.5), None)])
    layer("roads", "helsinki/roads.geojson", [(line("#ffffff", 6, "round", "round"), None)])
    # Street names along the roads, as MapRaster's symbol layer with symbol-placement line.
    mapnik.load_map_from_string(m, f"""<Map srs="{MERC}">
      <Style name="names"><Rule><Filter>[name] != null</Filter>
        <TextSymbolizer face-name="DejaVu Sans Book" size="11" fill="#333333" halo-fill="#ffffff" halo-radius="1.5"
          placement="line" spacing="300" max-char-angle-delta="30">[name]</TextSymbolizer></Rule></Style>
      <Layer name="names" srs="{WGS}"><StyleName>names</StyleName>
        <Datasource><Parameter name="type">geojson</Parameter>
          <Parameter name="file">{os.path.join(data, "helsinki/roads.geojson")}</Parameter></Datasource></Layer>
    </Map>""")

m.zoom_to_box(mapnik.Box2d(float(minx), float(miny), float(maxx), float(maxy)))
image = mapnik.Image(w, h)
mapnik.render(m, image)  # warm-up: loads and indexes the datasources
start = time.perf_counter()
for _ in range(iterations):
    image = mapnik.Image(w, h)
    mapnik.render(m, image)
print((time.perf_counter() - start) / iterations * 1000)
if os.environ.get("MAPNIK_BENCH_PNG"):
    image.save(os.environ["MAPNIK_BENCH_PNG"], "png")
