#!/usr/bin/env python3
"""Writes fixtures/camera/projection.json: where MapLibre's camera puts coordinates on the image, for views with
a bearing and a pitch, as the independent truth for MapViewport's conversions (Tests/MapGeometryTests).

The matrix is built the way MapLibre Native's TransformState::getProjMatrix builds it (gl-matrix's column-major
mat4 operations written out with numpy, not MapRaster's formulas): perspective(fov = 0.6435011087932844, aspect
W/H, near 1, far = cameraToCenterDistance / (1 - tan(fov/2) tan(pitch)) * 1.01), scale(1, -1, 1), translate(0, 0,
-cameraToCenterDistance), rotate_x(pitch), rotate_z(-bearing), translate(centerPx - W/2, centerPy - H/2, 0) with
the world 512 x 2^zoom pixels (MapLibre's zoom, MapRaster's minus one); a world pixel then goes to clip space,
is divided by w and mapped to the image (x right, y down). Run: python3 Scripts/camera-projection-fixture.py
"""

import json
import math
import random

import numpy as np

FOV = 0.6435011087932844


def perspective(fovy, aspect, near, far):
    f = 1.0 / math.tan(fovy / 2)
    nf = 1 / (near - far)
    m = np.zeros((4, 4))
    m[0, 0] = f / aspect
    m[1, 1] = f
    m[2, 2] = (far + near) * nf
    m[3, 2] = -1
    m[2, 3] = 2 * far * near * nf
    return m


def translate(m, x, y, z):
    t = np.identity(4)
    t[0:3, 3] = [x, y, z]
    return m @ t


def scale(m, x, y, z):
    return m @ np.diag([x, y, z, 1.0])


def rotate_x(m, a):
    c, s = math.cos(a), math.sin(a)
    r = np.identity(4)
    r[1, 1], r[1, 2], r[2, 1], r[2, 2] = c, -s, s, c
    return m @ r


def rotate_z(m, a):
    c, s = math.cos(a), math.sin(a)
    r = np.identity(4)
    r[0, 0], r[0, 1], r[1, 0], r[1, 1] = c, -s, s, c
    return m @ r


def world_pixel(lat, lon, world):
    x = (lon + 180) / 360 * world
    s = math.sin(math.radians(lat))
    y = (0.5 - math.log((1 + s) / (1 - s)) / (4 * math.pi)) * world
    return x, y


def proj_matrix(w, h, lat, lon, zoom, bearing, pitch):
    world = 512 * 2 ** zoom
    dist = 0.5 * h / math.tan(FOV / 2)
    p = math.radians(pitch)
    far = dist / (1 - math.tan(FOV / 2) * math.tan(p)) * 1.01
    m = perspective(FOV, w / h, 1, far)
    m = scale(m, 1, -1, 1)
    m = translate(m, 0, 0, -dist)
    m = rotate_x(m, p)
    m = rotate_z(m, -math.radians(bearing))
    cx, cy = world_pixel(lat, lon, world)
    m = translate(m, -cx, -cy, 0)
    return m, world


def project(m, world, w, h, lat, lon, height_px=0.0):
    x, y = world_pixel(lat, lon, world)
    clip = m @ np.array([x, y, height_px, 1.0])
    ndc = clip[:3] / clip[3]
    return (ndc[0] + 1) / 2 * w, (1 - ndc[1]) / 2 * h, clip[3]


def main():
    rng = random.Random(28)
    views = [
        (512, 512, 0, 0, 2, 45, 0),
        (800, 600, 60.17, 24.94, 13.5, 37, 55),
        (640, 480, 43.7384, 7.4246, 15, 30, 60),
        (300, 700, -33.86, 151.21, 10.25, 200, 20),
        (512, 512, 37.78, -122.42, 16, 0, 60),
        (400, 300, 51.5, -0.12, 12, 90, 0),
    ]
    cases = []
    for (w, h, lat, lon, zoom, bearing, pitch) in views:
        m, world = proj_matrix(w, h, lat, lon, zoom, bearing, pitch)
        points = []
        while len(points) < 40:
            # Random image points, unprojected by bisection-free algebra would use MapRaster's formulas; pick
            # coordinates near the center instead and keep those MapLibre puts in front of the camera.
            span = 360 / 2 ** zoom
            qlat = lat + rng.uniform(-0.6, 0.6) * span * math.cos(math.radians(lat))
            qlon = lon + rng.uniform(-0.8, 0.8) * span
            px, py, depth = project(m, world, w, h, qlat, qlon)
            if depth <= 0 or not (-w <= px <= 2 * w and -h <= py <= 2 * h):
                continue
            points.append({"latitude": qlat, "longitude": qlon, "x": px, "y": py})
        cases.append({
            "width": w, "height": h, "latitude": lat, "longitude": lon,
            "zoomMapLibre": zoom, "bearing": bearing, "pitch": pitch, "points": points,
        })
    with open("fixtures/camera/projection.json", "w") as f:
        json.dump({"source": "Scripts/camera-projection-fixture.py (MapLibre Native's projection matrix)",
                   "cases": cases}, f, indent=1)
        f.write("\n")


if __name__ == "__main__":
    main()
