#!/usr/bin/env python3
"""Times PyPI reverse_geocoder (mode 1: one process, scipy k-d tree, nearest GeoNames place, no polygons) on the
points that Benchmarks/GeocodingBenchmark writes (CPU time: the machine may be shared) (little-endian float64 pairs lat, lon). Prints key=value lines;
the benchmark prints the ratio. Run by the benchmark, or alone: bench-reverse-geocoder.py POINTS.f64"""
import sys
import time

import numpy as np
import reverse_geocoder as rg

points = np.fromfile(sys.argv[1], dtype="<f8").reshape(-1, 2)
coords = [tuple(p) for p in points.tolist()]
t0 = time.process_time()
geocoder = rg.RGeocoder(mode=1, verbose=False)
t1 = time.process_time()
w1 = time.perf_counter()
results = geocoder.query(coords)
t2 = time.process_time()
w2 = time.perf_counter()
print(f"reverse_geocoder mode 1: load {t1 - t0:.3f} s CPU, {len(results)} points in {t2 - t1:.3f} s CPU, "
      f"{w2 - w1:.3f} s wall ({(t2 - t1) / len(results) * 1e6:.2f} µs each)")
print(f"query_seconds={t2 - t1:.6f}")
