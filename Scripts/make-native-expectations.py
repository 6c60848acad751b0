#!/usr/bin/env python3
"""Writes `fixtures/maplibre/native/<group>/<case>/expected.png`: what MapLibre Native (PyPI `mapli`) draws
for each `style.json` there, a style in MapLibre's render-test format (`metadata.test.width`/`height`,
`center`, `zoom`). These cases test what MapLibre's own render tests at pitch 0 leave out (fill-extrusion
seen from straight above: perspective, lighting, the two-pass translucency), so their truth is MapLibre
Native's image. `Tests/MapBaseMapTests/MapLibreConformanceTests.swift` scores MapRaster against them as
MapLibre's harness scores.

Setup as in `Scripts/maplibre-native-side-by-side.py`; run:
    EGL_PLATFORM=surfaceless /tmp/mlvenv/bin/python Scripts/make-native-expectations.py
"""
import glob
import json
import os

import mapli

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))


def main():
    pool = mapli.RenderPool(workers=1)
    for path in sorted(glob.glob(os.path.join(ROOT, "fixtures", "maplibre", "native", "*", "*", "style.json"))):
        with open(path, encoding="utf-8") as f:
            style = json.load(f)
        test = style.get("metadata", {}).get("test", {})
        name = os.path.relpath(os.path.dirname(path), ROOT)
        pool.register_style(name, json=style)
        lon, lat = style.get("center", [0, 0])
        png = pool.render(name, lon=lon, lat=lat, zoom=style.get("zoom", 0), width=test.get("width", 512),
                          height=test.get("height", 512))
        with open(os.path.join(os.path.dirname(path), "expected.png"), "wb") as f:
            f.write(png)
        print("wrote", os.path.join(name, "expected.png"))


if __name__ == "__main__":
    main()
