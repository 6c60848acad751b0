#!/usr/bin/env python3
"""Writes fixtures/geometry/truth.json: expected values for MapGeometry, computed independently.

The truth comes from libraries that do not share code with the Swift module:

- pyproj (PROJ) for the projection: Transformer EPSG:4326 -> EPSG:3857 and back;
- pyproj's Geod on the sphere a = b = 6378137 m for distances, meridian steps and parallel circles;
- mercantile 1.2.1 for XYZ tiles.

EPSG:3857 meters are turned into MapKit map points here (world = 2^28 map points, origin north-west,
y growing south). MapKit semantics that no library has (latitude clamping at the poles' limit, the
viewport's fitting rule) are written out from first principles below, with pyproj doing the projecting.

Usage: python3 Scripts/make-geometry-truth.py [output path]   (run from anywhere)
Needs: pip install pyproj "mercantile==1.2.1"
The output is deterministic for given tool versions: fixed inputs, a seeded generator, sorted keys and
Python's shortest round-trip float repr.
"""

import json
import math
import os
import random
import sys

import mercantile
import pyproj
from pyproj import Geod, Transformer

# --- Constants -----------------------------------------------------------------------------------------

HALF = 20037508.342789244  # EPSG:3857 half world, pi * 6378137 m
CIRCUMFERENCE = 40075016.68557849  # EPSG:3857 world width, 2 * pi * 6378137 m
WORLD = float(2**28)  # MapKit map points across the world
RADIUS = 6378137.0

TO_MERC = Transformer.from_crs("EPSG:4326", "EPSG:3857", always_xy=True)
GEOD = Geod(a=RADIUS, b=RADIUS)

# The latitude where the square Web Mercator world ends, as PROJ computes it: the inverse of Y = HALF.
LAT_LIMIT = TO_MERC.transform(0.0, HALF, direction="INVERSE")[1]
assert abs(LAT_LIMIT - 85.0511287798) < 1e-9, LAT_LIMIT

# --- Projection helpers (pyproj does the math) ----------------------------------------------------------


def meters_to_map_point(X, Y):
    return ((X + HALF) / CIRCUMFERENCE * WORLD, (HALF - Y) / CIRCUMFERENCE * WORLD)


def map_point_to_meters(x, y):
    return (x / WORLD * CIRCUMFERENCE - HALF, HALF - y / WORLD * CIRCUMFERENCE)


def clamp_lat(lat):
    return max(-LAT_LIMIT, min(LAT_LIMIT, lat))


def project(lat, lon):
    """MapKit's MKMapPointForCoordinate: latitude clamped to the limit, longitude not wrapped.

    PROJ wraps longitudes into -180...180, so longitudes outside are shifted by whole turns and the
    map-point x is shifted back by whole worlds.
    """
    turns = 0
    while lon - 360 * turns > 180:
        turns += 1
    while lon - 360 * turns < -180:
        turns -= 1
    X, Y = TO_MERC.transform(lon - 360 * turns, clamp_lat(lat))
    assert math.isfinite(X) and math.isfinite(Y)
    x, y = meters_to_map_point(X, Y)
    return (x + turns * WORLD, y)


def unproject(x, y):
    """MapKit's MKCoordinateForMapPoint for y inside the world: (lat, lon), lon in -180...180 (PROJ wraps)."""
    X, Y = map_point_to_meters(x, y)
    lon, lat = TO_MERC.transform(X, Y, direction="INVERSE")
    assert -180 <= lon <= 180, lon
    return (lat, lon)


def unproject_lat_clamped(y):
    """Latitude of a map-point y, with y outside the world taken at the world's edge."""
    return unproject(WORLD / 2, max(0.0, min(WORLD, y)))[0]


# --- Case collection ------------------------------------------------------------------------------------

CASES = []
IDS = set()


def add(kind, name, inputs, expected):
    case_id = f"{kind}:{name}"
    assert case_id not in IDS, case_id
    IDS.add(case_id)
    for v in list(inputs.values()) + list(expected.values()):
        if isinstance(v, float):
            assert math.isfinite(v), (case_id, inputs, expected)
    CASES.append({"id": case_id, "kind": kind, "input": inputs, "expected": expected})


def num(v):
    """A compact name fragment for a number."""
    return repr(v).replace("e-0", "e-").replace("e+", "e")


rng = random.Random(20240611)


def rnd(lo, hi, digits=6):
    return round(rng.uniform(lo, hi), digits)


# --- project --------------------------------------------------------------------------------------------

special_lats = [0.0, 1e-9, -1e-9, 45.0, -45.0, 60.0, 85.0, -85.0, LAT_LIMIT, -LAT_LIMIT,
                85.0511287798, -85.0511287798, 85.06, -85.06, 89.0, -89.0, 90.0, -90.0]
special_lons = [0.0, 180.0, -180.0, 1e-9, 179.999999, -179.999999]
for lat in special_lats:
    for lon in ([0.0, 180.0, -180.0] if abs(lat) >= 85 else [0.0, 179.999999]):
        x, y = project(lat, lon)
        add("project", f"lat={num(lat)},lon={num(lon)}", {"latitude": lat, "longitude": lon}, {"x": x, "y": y})
for lon in special_lons[3:] + [90.0, -90.0, 13.404954, -122.419416, 151.209295]:
    x, y = project(12.5, lon)
    add("project", f"lat=12.5,lon={num(lon)}", {"latitude": 12.5, "longitude": lon}, {"x": x, "y": y})
for i in range(30):
    lat, lon = rnd(-85, 85), rnd(-180, 180)
    x, y = project(lat, lon)
    add("project", f"random-{i:02d}", {"latitude": lat, "longitude": lon}, {"x": x, "y": y})

# --- unproject ------------------------------------------------------------------------------------------

special_points = [
    ("origin", 0.0, 0.0), ("center", WORLD / 2, WORLD / 2), ("east-edge", WORLD, WORLD / 2),
    ("south-east-corner", WORLD, WORLD), ("north-edge", WORLD / 4, 0.0), ("south-edge", WORLD * 0.75, WORLD),
    ("east-of-world", WORLD + 1000.0, WORLD / 3), ("west-of-world", -1000.0, WORLD / 3),
    ("three-and-a-half-worlds-east", WORLD * 3.5, WORLD * 0.4), ("two-and-a-quarter-worlds-west", -WORLD * 2.25, WORLD * 0.6),
    ("one-point-from-origin", 1.0, 1.0), ("tiny-offset-from-center", WORLD / 2 + 1e-3, WORLD / 2 - 1e-3),
]
for name, x, y in special_points:
    lat, lon = unproject(x, y)
    add("unproject", name, {"x": x, "y": y}, {"latitude": lat, "longitude": lon})
for i in range(30):
    x, y = round(rng.uniform(0, WORLD), 3), round(rng.uniform(0, WORLD), 3)
    lat, lon = unproject(x, y)
    add("unproject", f"random-{i:02d}", {"x": x, "y": y}, {"latitude": lat, "longitude": lon})

# --- pointsPerMeter -------------------------------------------------------------------------------------


def points_per_meter(lat):
    """Map points per meter from the projected y across a geodesic north-south step on the sphere.

    Central differences of y(s), s = meters along the meridian, with steps d and 2d combined by
    Richardson extrapolation (error O(d^4)). The map is conformal, so this is also the east-west scale.
    """

    def central(d):
        _, lat_n, _ = GEOD.fwd(0.0, lat, 0.0, d)
        _, lat_s, _ = GEOD.fwd(0.0, lat, 180.0, d)
        # Unclamped: PROJ computes y slightly beyond the limit for the step at the limit itself.
        y_n = meters_to_map_point(*TO_MERC.transform(0.0, lat_n))[1]
        y_s = meters_to_map_point(*TO_MERC.transform(0.0, lat_s))[1]
        return (y_s - y_n) / (2 * d)

    d = 100.0
    value = (4 * central(d) - central(2 * d)) / 3
    closed_form = WORLD / (2 * math.pi * RADIUS * math.cos(math.radians(lat)))
    assert abs(value / closed_form - 1) < 1e-9, (lat, value, closed_form)
    return value


for lat in [0.0, 1e-6, 10.0, -10.0, 30.0, 45.0, -45.0, 51.477928, 60.0, -60.0, 75.0, 80.0, -80.0,
            84.0, 85.0, -85.0, LAT_LIMIT, -LAT_LIMIT, 37.774929, -33.868820]:
    add("pointsPerMeter", f"lat={num(lat)}", {"latitude": lat}, {"pointsPerMeter": points_per_meter(lat)})

# --- distance -------------------------------------------------------------------------------------------

distance_pairs = [
    ("same-point", (10.0, 20.0), (10.0, 20.0)),
    ("one-degree-along-equator", (0.0, 0.0), (0.0, 1.0)),
    ("one-degree-along-meridian", (0.0, 0.0), (1.0, 0.0)),
    ("antipodes-on-equator", (0.0, 0.0), (0.0, 180.0)),
    ("pole-to-pole", (90.0, 0.0), (-90.0, 0.0)),
    ("equator-to-north-pole", (0.0, 45.0), (90.0, 0.0)),
    ("near-antipodes", (0.5, 0.0), (-0.3, 179.6)),
    ("across-180", (10.0, 179.5), (10.0, -179.5)),
    ("across-180-south", (-60.0, -179.9), (-61.0, 179.9)),
    ("one-centimeter", (48.858370, 2.294481), (48.858370, 2.294481 + 0.01 / (RADIUS * math.cos(math.radians(48.858370))) * 180 / math.pi)),
    ("tiny-1e-7-degrees", (-33.0, 151.0), (-33.0000001, 151.0000001)),
    ("helsinki-tokyo", (60.169856, 24.938379), (35.676192, 139.650311)),
    ("san-francisco-new-york", (37.774929, -122.419416), (40.712776, -74.005974)),
    ("at-the-limit", (LAT_LIMIT, -180.0), (-LAT_LIMIT, 180.0)),
]
for name, a, b in distance_pairs:
    _, _, meters = GEOD.inv(a[1], a[0], b[1], b[0])
    add("distance", name, {"latitude1": a[0], "longitude1": a[1], "latitude2": b[0], "longitude2": b[1]},
        {"meters": meters})
for i in range(20):
    a = (rnd(-89, 89), rnd(-180, 180))
    b = (rnd(-89, 89), rnd(-180, 180))
    _, _, meters = GEOD.inv(a[1], a[0], b[1], b[0])
    add("distance", f"random-{i:02d}", {"latitude1": a[0], "longitude1": a[1], "latitude2": b[0], "longitude2": b[1]},
        {"meters": meters})

# --- regionWithDistance ---------------------------------------------------------------------------------

QUARTER_MERIDIAN = GEOD.inv(0.0, 0.0, 0.0, 90.0)[2]


def latitude_delta(meters):
    """Degrees of latitude spanned by `meters` along a meridian: half north and half south of the equator."""
    if meters / 2 > QUARTER_MERIDIAN:
        return 180.0  # more than pole to pole: capped at the whole globe
    _, north, _ = GEOD.fwd(0.0, 0.0, 0.0, meters / 2)
    _, south, _ = GEOD.fwd(0.0, 0.0, 180.0, meters / 2)
    return north - south


def parallel_radius(lat):
    """The radius of the parallel circle at `lat`, from the geodesic chord of a 90-degree arc of it.

    Two points 90 degrees of longitude apart on the parallel are theta = d / a apart on the great circle,
    and the parallel's radius r satisfies sin(theta / 2) * a = r * sin(45 degrees).
    """
    d = GEOD.inv(0.0, lat, 90.0, lat)[2]
    return RADIUS * math.sin(d / RADIUS / 2) / math.sin(math.pi / 4)


def longitude_delta(lat, meters):
    r = parallel_radius(lat)
    assert abs(r / (RADIUS * math.cos(math.radians(lat))) - 1) < 1e-11, lat
    return min(360.0, meters / (2 * math.pi * r) * 360)


region_centers = [("equator", 0.0, 0.0), ("helsinki", 60.169856, 24.938379), ("sydney", -33.868820, 151.209295),
                  ("lat-80", 80.0, -170.0), ("lat-minus-85", -85.0, 10.0)]
region_meters = [(804.672, 804.672), (1.0, 1.0), (0.01, 0.02), (1000.0, 5000.0), (1.0e6, 2.0e6), (2.0e7, 1.0e7),
                 (4.1e7, 3.0e7)]
for cname, lat, lon in region_centers:
    for lat_m, lon_m in region_meters:
        add("regionWithDistance", f"{cname},{num(lat_m)}x{num(lon_m)}m",
            {"latitude": lat, "longitude": lon, "latitudinalMeters": lat_m, "longitudinalMeters": lon_m},
            {"latitudeDelta": latitude_delta(lat_m), "longitudeDelta": longitude_delta(lat, lon_m)})

# --- regionForMapRect -----------------------------------------------------------------------------------


def region_for_map_rect(x, y, w, h):
    lat, lon = unproject(x + w / 2, y + h / 2)
    north = unproject_lat_clamped(y)
    south = unproject_lat_clamped(y + h)
    return {"latitude": lat, "longitude": lon, "latitudeDelta": north - south, "longitudeDelta": w / WORLD * 360}


map_rects = [
    ("world", 0.0, 0.0, WORLD, WORLD),
    ("north-west-quarter", 0.0, 0.0, WORLD / 2, WORLD / 2),
    ("tile-10-550-335", 550 * WORLD / 1024, 335 * WORLD / 1024, WORLD / 1024, WORLD / 1024),
    ("one-map-point", 1.4e8, 9.1e7, 1.0, 1.0),
    ("tiny", 1.0e8, 1.2e8, 1e-3, 2e-3),
    ("wide-flat", 1.0e7, 1.3e8, 2.0e8, 1.0e5),
    ("tall-thin", 1.3e8, 1.0e6, 10.0, 2.6e8),
    ("crossing-180-east", WORLD - 5.0e6, 6.0e7, 1.0e7, 4.0e6),
    ("centered-east-of-world", WORLD + 1.0e6, 6.0e7, 2.0e6, 2.0e6),
]
for i in range(11):
    w = rng.uniform(1, WORLD / 4)
    h = rng.uniform(1, WORLD / 4)
    map_rects.append((f"random-{i:02d}", round(rng.uniform(0, WORLD - w), 3), round(rng.uniform(0, WORLD - h), 3),
                      round(w, 3), round(h, 3)))
for name, x, y, w, h in map_rects:
    add("regionForMapRect", name, {"x": x, "y": y, "width": w, "height": h}, region_for_map_rect(x, y, w, h))

# --- viewportRegion -------------------------------------------------------------------------------------


def fitted_rect(width, height, lat, lon, d_lat, d_lon):
    """MKMapView's fitting of a region to an image, from first principles with pyproj projecting.

    The region's center stays at the image's center; the half-height is the larger of the projected
    distances from the center to the north and south edges (Mercator stretches north of the center);
    the rect has the image's aspect ratio and is just large enough for both the width and the height.
    """
    cx, cy = project(lat, lon)
    nx, ny = project(lat + d_lat / 2, lon - d_lon / 2)
    sx, sy = project(lat - d_lat / 2, lon + d_lon / 2)
    min_y, max_y = min(ny, sy), max(ny, sy)
    half_w = d_lon / 360 * WORLD / 2
    half_h = max(cy - min_y, max_y - cy)
    per_point = max(2 * half_w / width, 2 * half_h / height)
    rect_w, rect_h = width * per_point, height * per_point
    return {"x": cx - rect_w / 2, "y": cy - rect_h / 2, "width": rect_w, "height": rect_h,
            "zoomLevel": 20 + math.log2(width / rect_w)}


image_sizes = [(256, 256), (800, 600), (600, 800), (1024, 128), (1, 1), (4000, 3000)]
viewport_regions = [
    ("equator-10x10", 0.0, 0.0, 10.0, 10.0),
    ("helsinki-city", 60.169856, 24.938379, 0.05, 0.1),
    ("san-francisco", 37.774929, -122.419416, 0.2, 0.2),
    ("sydney-tiny", -33.868820, 151.209295, 1e-6, 1e-6),
    ("whole-world", 0.0, 0.0, 170.0, 360.0),
    ("centered-on-180", 0.0, 180.0, 20.0, 40.0),
    ("north-edge-beyond-limit", 80.0, -170.0, 20.0, 30.0),
    ("crossing-180-east", -45.0, 170.0, 10.0, 30.0),
]
for (width, height) in image_sizes:
    for j, (rname, lat, lon, d_lat, d_lon) in enumerate(viewport_regions):
        scales = [1, 2, 3] if j in (0, 1) else [[1, 2, 3][(j + width) % 3]]
        for scale in scales:
            add("viewportRegion", f"{width}x{height}@{scale}x,{rname}",
                {"width": float(width), "height": float(height), "scale": float(scale), "latitude": lat,
                 "longitude": lon, "latitudeDelta": d_lat, "longitudeDelta": d_lon},
                fitted_rect(width, height, lat, lon, d_lat, d_lon))

# --- tileBounds -----------------------------------------------------------------------------------------

tiles_for_bounds = [(0, 0, 0), (1, 0, 0), (1, 1, 1), (2, 1, 1), (2, 3, 0), (3, 7, 7), (10, 550, 335),
                    (12, 2331, 1185), (16, 37231, 18955), (20, 0, 1048575), (24, 8388608, 8388607),
                    (30, 2**30 - 1, 2**30 - 1), (30, 0, 0), (30, 536870912, 536870911)]
for i in range(12):
    z = rng.randint(0, 22)
    tiles_for_bounds.append((z, rng.randrange(2**z), rng.randrange(2**z)))
for z, x, y in tiles_for_bounds:
    west, south, east, north = mercantile.bounds(x, y, z)
    left, bottom, right, top = mercantile.xy_bounds(x, y, z)
    mx0, my0 = meters_to_map_point(left, top)
    mx1, my1 = meters_to_map_point(right, bottom)
    # Cross-check mercantile's degrees with PROJ's inverse of mercantile's meters.
    lon_w, lat_n = TO_MERC.transform(left, top, direction="INVERSE")
    assert abs(lat_n - north) < 1e-9 and (abs(lon_w - west) < 1e-9 or abs(abs(west) - 180) < 1e-9), (z, x, y)
    add("tileBounds", f"{z}/{x}/{y}", {"z": z, "x": x, "y": y},
        {"west": west, "south": south, "east": east, "north": north,
         "mapX": mx0, "mapY": my0, "mapWidth": mx1 - mx0, "mapHeight": my1 - my0})

# --- tilesCovering --------------------------------------------------------------------------------------


def unit_xy(lon, lat):
    x, y = project(lat, lon)
    return x / WORLD, y / WORLD


def check_off_edges(west, south, east, north, z):
    """Asserts that no bbox edge lies within 1e-6 tile of a tile edge (unless outside the world)."""
    n = 2**z
    for lon in (west, east):
        if abs(lon) < 180:
            f = unit_xy(lon, 0.0)[0] * n
            assert 1e-6 < f - math.floor(f) < 1 - 1e-6, ("lon on a tile edge", lon, z)
    for lat in (south, north):
        if abs(lat) < LAT_LIMIT:
            f = unit_xy(0.0, lat)[1] * n
            assert 1e-6 < f - math.floor(f) < 1 - 1e-6, ("lat on a tile edge", lat, z)


bboxes = [
    ("berlin", (13.088345, 52.338261, 13.761161, 52.675454), [0, 1, 5, 10, 12]),
    ("san-francisco-bay", (-122.614, 37.2, -121.75, 38.05), [3, 8, 11]),
    ("tiny-in-one-tile", (2.2945, 48.8583, 2.2946, 48.8584), [0, 7, 14, 18]),
    ("south-america", (-81.4, -55.9, -34.7, 12.5), [2, 4, 6]),
    ("almost-whole-world", (-179.9, -84.9, 179.9, 84.9), [0, 1, 2, 3]),
    ("whole-world-beyond-limits", (-180.0, -89.0, 180.0, 89.0), [0, 2, 4]),
    ("arctic-beyond-limit", (-20.3, 70.1, 40.7, 89.5), [3, 5]),
    ("antarctic-beyond-limit", (100.3, -90.0, 170.2, -70.1), [2, 4]),
    ("east-edge-at-180", (170.3, -20.7, 180.0, -5.3), [3, 6]),
    ("west-edge-at-minus-180", (-180.0, 5.3, -170.3, 20.7), [3, 6]),
    ("equator-strip", (-10.3, -0.7, 10.3, 0.7), [4, 8]),
    # Beyond the brief's plain boxes: west > east crosses the 180th meridian; mercantile splits such a box
    # in two at 180 and MapGeometry wraps the columns of a rect extending east of the world.
    ("fiji-crossing-180", (176.3, -19.7, -178.2, -15.3), [3, 6, 9]),
    ("bering-crossing-180", (160.7, 50.2, -150.9, 70.1), [2, 4]),
]
for name, (west, south, east, north), zooms in bboxes:
    for z in zooms:
        check_off_edges(west, south, east, north, z)
        tiles = sorted(mercantile.tiles(west, south, east, north, [z]), key=lambda t: (t.z, t.y, t.x))
        assert 0 < len(tiles) <= 1000, (name, z, len(tiles))
        add("tilesCovering", f"{name},z={z}", {"west": west, "south": south, "east": east, "north": north, "zoom": z},
            {"tiles": [f"{t.z}/{t.x}/{t.y}" for t in tiles]})

# --- tms ------------------------------------------------------------------------------------------------


def tms_row(lat, z):
    """The TMS row (counted from the south) from the projected Y in meters, independent of mercantile.

    A point on a tile edge belongs to the tile south of it, as in the XYZ scheme (rows there are
    half-open towards the south), hence ceil - 1 rather than floor.
    """
    n = 2**z
    Y = TO_MERC.transform(0.0, clamp_lat(lat))[1]
    return max(0, min(n - 1, math.ceil((Y + HALF) / (CIRCUMFERENCE / n)) - 1))


tms_points = [("null-island", 0.0, 0.0), ("helsinki", 60.169856, 24.938379), ("sydney", -33.868820, 151.209295),
              ("lon-180", 10.0, 180.0), ("lon-minus-180", -10.0, -180.0), ("lat-89", 89.0, 12.3),
              ("lat-minus-89", -89.0, -12.3), ("lon-90", 30.0, 90.0)]
for name, lat, lon in tms_points:
    for z in [0, 1, 3, 10, 18, 30]:
        t = mercantile.tile(lon, lat, z)
        ux, uy = unit_xy(lon, lat)
        # Exactly on an edge is fine, 1e-14 off it is not (mercantile's epsilon); outside the world both clamp.
        for f, inside in ((ux * 2**z, abs(lon) < 180), (uy * 2**z, abs(lat) < LAT_LIMIT)):
            assert not inside or f == math.floor(f) or 1e-6 < f - math.floor(f) < 1 - 1e-6, (name, z, f)
        tms_y = tms_row(lat, z)
        assert tms_y == 2**z - 1 - t.y, (name, z, tms_y, t)
        add("tms", f"{name},z={z}", {"latitude": lat, "longitude": lon, "zoom": z},
            {"z": t.z, "x": t.x, "y": t.y, "tmsY": tms_y})

# --- destination (extra: WebMercator.destination) -------------------------------------------------------

destinations = [("north-from-equator", 0.0, 0.0, 0.0, 1.0e6), ("east-along-equator", 0.0, 10.0, 90.0, 5.0e5),
                ("south-west-from-helsinki", 60.169856, 24.938379, 225.0, 1234.5),
                ("east-across-180", 10.0, 179.0, 90.0, 3.0e5), ("one-meter-north-east", 45.0, -120.0, 45.0, 1.0)]
for i in range(10):
    destinations.append((f"random-{i:02d}", rnd(-70, 70), rnd(-180, 180), rnd(0, 360), rnd(1, 5.0e6, 3)))
for name, lat, lon, bearing, meters in destinations:
    lon2, lat2, _ = GEOD.fwd(lon, lat, bearing, meters)
    add("destination", name, {"latitude": lat, "longitude": lon, "bearing": bearing, "meters": meters},
        {"latitude": lat2, "longitude": lon2})

# --- Output ---------------------------------------------------------------------------------------------

document = {
    "about": "Expected values for MapGeometry, computed by Scripts/make-geometry-truth.py; see README.md.",
    "tools": {"pyproj": pyproj.__version__, "proj": pyproj.proj_version_str, "mercantile": mercantile.__version__},
    "constants": {"worldMapPoints": WORLD, "earthRadius": RADIUS, "latitudeLimit": LAT_LIMIT},
    "cases": CASES,
}
root = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
out = sys.argv[1] if len(sys.argv) > 1 else os.path.join(root, "fixtures", "geometry", "truth.json")
os.makedirs(os.path.dirname(out), exist_ok=True)
text = json.dumps(document, sort_keys=True, indent=1, allow_nan=False) + "\n"
with open(out, "w", encoding="utf-8", newline="\n") as f:
    f.write(text)
counts = {}
for case in CASES:
    counts[case["kind"]] = counts.get(case["kind"], 0) + 1
print(f"wrote {len(CASES)} cases to {out}: " + ", ".join(f"{k} {v}" for k, v in sorted(counts.items())))
