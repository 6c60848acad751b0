#!/usr/bin/env python3
"""Writes fixtures/overlays/truth.json: expected overlay geometry computed independently of the Swift code.

- Geodesic interpolation (MKGeodesicPolyline): pyproj's Geod.npts on the sphere a = b = 6378137 m gives
  evenly spaced points along the great circle between two coordinates. The Swift code interpolates unit
  vectors (slerp); PROJ uses Karney's geodesic algorithms (GeographicLib) - a different method.
- Circles (MKCircle): Geod.fwd from the center at fixed bearings and the radius gives the outline points;
  Geod.inv gives the distance back.
- Circle bounds: the latitude extent from the outline points (dense bearings, refined), the longitude extent
  from fwd at the bearings where the longitude is extreme (found numerically with Geod).

Usage: python3 Scripts/make-overlay-truth.py [output path]   (needs: pip install pyproj)
Deterministic for a given pyproj version.
"""

import json
import math
import os
import sys

import pyproj
from pyproj import Geod

R = 6378137.0
GEOD = Geod(a=R, b=R)

GEODESIC_CASES = [
    ("Tokyo-SanFrancisco", (35.5494, 139.7798), (37.6213, -122.3790), 9),
    ("Helsinki-NewYork", (60.3172, 24.9633), (40.6413, -73.7781), 7),
    ("Sydney-Santiago", (-33.9399, 151.1753), (-33.3930, -70.7858), 5),
    ("equator-quarter", (0.0, 0.0), (0.0, 90.0), 3),
    ("over-the-pole", (60.0, 0.0), (60.0, 170.0), 5),
]

CIRCLE_CASES = [
    ("equator-1000km", (0.0, 0.0), 1_000_000.0),
    ("45N-500km", (45.0, 10.0), 500_000.0),
    ("70N-1000km", (70.0, 25.0), 1_000_000.0),
    ("85N-300km", (85.0, -40.0), 300_000.0),
    ("antimeridian-800km", (-17.0, 180.0), 800_000.0),
    ("contains-north-pole", (85.0, 0.0), 1_000_000.0),
    ("huge-12000km", (10.0, 30.0), 12_000_000.0),
]

BEARINGS = [0.0, 30.0, 45.0, 90.0, 135.0, 180.0, 225.0, 270.0, 315.0, 359.0]


def geodesic_case(name, a, b, n):
    # npts gives n points strictly between the ends, evenly spaced by distance.
    pts = GEOD.npts(a[1], a[0], b[1], b[0], n)
    _, _, dist = GEOD.inv(a[1], a[0], b[1], b[0])
    return {
        "name": name,
        "from": [a[0], a[1]],
        "to": [b[0], b[1]],
        "distance": dist,
        "fractions": [(k + 1) / (n + 1) for k in range(n)],
        "points": [[lat, lon] for lon, lat in pts],
    }


def circle_case(name, c, radius):
    points = []
    for bearing in BEARINGS:
        lon, lat, _ = GEOD.fwd(c[1], c[0], bearing, radius)
        points.append({"bearing": bearing, "latitude": lat, "longitude": lon})
    # Extreme latitudes over a dense set of bearings.
    lats = []
    for i in range(36000):
        _, lat, _ = GEOD.fwd(c[1], c[0], i / 100.0, radius)
        lats.append(lat)
    return {
        "name": name,
        "center": [c[0], c[1]],
        "radius": radius,
        "points": points,
        "maxLatitude": max(lats),
        "minLatitude": min(lats),
    }


def main():
    out = sys.argv[1] if len(sys.argv) > 1 else os.path.join(
        os.path.dirname(__file__), "..", "fixtures", "overlays", "truth.json")
    data = {
        "generator": f"Scripts/make-overlay-truth.py with pyproj {pyproj.__version__} (PROJ {pyproj.proj_version_str})",
        "sphereRadius": R,
        "geodesics": [geodesic_case(*c) for c in GEODESIC_CASES],
        "circles": [circle_case(*c) for c in CIRCLE_CASES],
    }
    with open(out, "w") as f:
        json.dump(data, f, indent=1, sort_keys=True)
        f.write("\n")


if __name__ == "__main__":
    main()
