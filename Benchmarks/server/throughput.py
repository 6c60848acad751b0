#!/usr/bin/env python3
"""Throughput of `mapraster serve` beside MapLibre Native in the same run (issue 27), loopback only.

    /tmp/mlvenv/bin/python Benchmarks/server/throughput.py MAPRASTER [SECONDS]

The style is the shipped `streets` style without its symbol layers (MapLibre Native needs glyph PBFs for
labels), written with absolute paths into a temporary file and served with `--workers 2`:
1. a cached tile, `wrk -t2 -c256` for SECONDS (default 10): req/s and latency;
2. a 500x200 static map of Monaco (MapRaster zoom 16, tileserver-gl zoom 15), cache off, one request at a time on
   a kept-alive connection, 60 requests, PNG at zlib level 1 (`--compression 1`, MapLibre Native's effort) and at
   the default 6, median of 2 fresh servers each, interleaved: p50 against MapLibre Native's warm in-process render of the same view
   (`mapli`, render + PNG, 60 renders): the ratio;
3. tiles z12-16 over Monaco never drawn before: a fresh server (default caches) whose 4 kept-alive connections fetch
   each tile once (served tiles are cut from metatiles, so a tile's neighbours come with it, as in `mapraster tiles`;
   with the cache off every tile would draw its whole metatile); tiles/s, median of 3 fresh servers, beside MapLibre
   Native's warm `render_tile` tiles/s on the same tiles (one worker, as its render pool runs them in this script).
MapLibre Native (PyPI `mapli`): `python3 -m venv /tmp/mlvenv && /tmp/mlvenv/bin/pip install mapli`; run with
`EGL_PLATFORM=surfaceless`. Without mapli the peer columns are left out.
"""
import http.client
import json
import math
import os
import re
import statistics
import subprocess
import sys
import tempfile
import threading
import time

import serve_process

try:
    import mapli
except ImportError:
    mapli = None

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
STYLES = os.path.join(ROOT, "Sources", "MapBaseMap", "Resources", "styles")
binary = sys.argv[1]
seconds = sys.argv[2] if len(sys.argv) > 2 else "10"
work = tempfile.mkdtemp()


def style_without_labels(file_urls):
    with open(os.path.join(STYLES, "streets.json"), encoding="utf-8") as f:
        style = json.load(f)
    style["layers"] = [layer for layer in style["layers"] if layer["type"] != "symbol"]
    prefix = "file://" if file_urls else ""
    if "sprite" in style:
        style["sprite"] = prefix + os.path.normpath(os.path.join(STYLES, style["sprite"]))
    for source in style["sources"].values():
        if source["type"] == "vector":
            source["url"] = "mbtiles://" + os.path.normpath(os.path.join(STYLES, source["url"][len("mbtiles://"):]))
        else:
            source["data"] = prefix + os.path.normpath(os.path.join(STYLES, source["data"]))
    return style


style_path = os.path.join(work, "streets-nolabels.json")
with open(style_path, "w", encoding="utf-8") as f:
    json.dump(style_without_labels(False), f)


def start(*options):
    return serve_process.start(binary, "--workers", "2", "--style", f"streets={style_path}", *options)


def wrk(url, connections, extra=(), env=None):
    out = subprocess.run(["wrk", "-t2", f"-c{connections}", f"-d{seconds}s", "--latency", *extra, url],
                         capture_output=True, text=True, env=env).stdout
    rate = float(re.search(r"Requests/sec:\s+([\d.]+)", out).group(1))
    p50 = re.search(r"50%\s+([\d.]+\w+)", out).group(1)
    p99 = re.search(r"99%\s+([\d.]+\w+)", out).group(1)
    non2xx = re.search(r"Non-2xx or 3xx responses: (\d+)", out)
    errors = re.search(r"Socket errors: (.*)", out)
    return rate, p50, p99, int(non2xx.group(1)) if non2xx else 0, errors.group(1) if errors else "none"


def tile(lat, lon, z):
    n = 1 << z
    x = int((lon + 180) / 360 * n)
    y = int((1 - math.log(math.tan(math.radians(lat)) + 1 / math.cos(math.radians(lat))) / math.pi) / 2 * n)
    return x, y


monaco = []
for z in range(12, 17):
    x0, y0 = tile(43.752, 7.405, z)
    x1, y1 = tile(43.723, 7.440, z)
    monaco += [(z, x, y) for x in range(x0, x1 + 1) for y in range(y0, y1 + 1)]
print(time.strftime("%Y-%m-%d %H:%M UTC", time.gmtime()), f"load average {os.getloadavg()[0]:.1f}")

server, port = start("--max-connections", "2000")
base = f"http://127.0.0.1:{port}"
subprocess.run(["curl", "-s", "-o", "/dev/null", base + "/styles/streets/14/8529/5974.png"], check=True)
rate, p50, p99, non2xx, errors = wrk(base + "/styles/streets/14/8529/5974.png", 256)
print(f"1. cached tile, 256 connections: {rate:,.0f} req/s, p50 {p50}, p99 {p99}, non-2xx {non2xx}, "
      f"socket errors {errors} (goal >= 20,000 req/s)")
server.terminate()
server.wait()

path = "/styles/streets/static/7.4246,43.7384,15/500x200.png"


def static_p50(*options):
    """p50 in ms of 60 static maps (after one) from a fresh server with the response cache off."""
    server, port = start("--cache-bytes", "0", *options)
    connection = http.client.HTTPConnection("127.0.0.1", port)
    times = []
    for i in range(61):
        started = time.perf_counter()
        connection.request("GET", path)
        response = connection.getresponse()
        response.read()
        if response.status != 200:
            sys.exit(f"static map: status {response.status}")
        if i:
            times.append((time.perf_counter() - started) * 1000)
    server.terminate()
    server.wait()
    return statistics.median(times)


# PNG at zlib level 6 (the server's default) and at level 1 (MapLibre Native's effort), interleaved.
level6, level1 = [], []
for _ in range(2):
    level6.append(static_p50())
    level1.append(static_p50("--compression", "1"))
ours6, ours = statistics.median(level6), statistics.median(level1)
line = f"2. 500x200 static map, no cache, one client: p50 {ours:.1f} ms at PNG level 1 ({ours6:.1f} ms at level 6)"
if mapli:
    pool = mapli.RenderPool(workers=1)
    pool.register_style("streets", json=style_without_labels(True))
    pool.render("streets", lon=7.4246, lat=43.7384, zoom=15, width=500, height=200)
    theirs = []
    for _ in range(60):
        started = time.perf_counter()
        pool.render("streets", lon=7.4246, lat=43.7384, zoom=15, width=500, height=200)
        theirs.append((time.perf_counter() - started) * 1000)
    peer = statistics.median(theirs)
    line += (f"; MapLibre Native warm in-process {peer:.1f} ms; ratio {ours / peer:.2f}x at level 1, "
             f"{ours6 / peer:.2f}x at level 6 (goal <= 0.4x)")
print(line)


def fetch_all_once(port, paths, clients=4):
    """Wall seconds for `clients` kept-alive connections to fetch every path once (a shared queue)."""
    queue = list(reversed(paths))
    lock = threading.Lock()
    failures = []

    def client():
        connection = http.client.HTTPConnection("127.0.0.1", port, timeout=120)
        while True:
            with lock:
                if not queue:
                    return
                path = queue.pop()
            connection.request("GET", path)
            response = connection.getresponse()
            response.read()
            if response.status != 200:
                failures.append((path, response.status))

    started = time.perf_counter()
    threads = [threading.Thread(target=client) for _ in range(clients)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    if failures:
        sys.exit(f"tiles: {failures[:3]}")
    return time.perf_counter() - started


paths = [f"/styles/streets/{z}/{x}/{y}.png" for z, x, y in monaco]
rates = []
for _ in range(3):
    server, port = start()  # default caches: every tile is drawn once, with its metatile's neighbours
    subprocess.run(["curl", "-s", "-o", "/dev/null", f"http://127.0.0.1:{port}/styles/streets/1/0/0.png"], check=True)
    rates.append(len(paths) / fetch_all_once(port, paths))
    server.terminate()
    server.wait()
line = (f"3. tiles z12-16 over Monaco ({len(monaco)} tiles) never drawn before, each fetched once by 4 connections from a "
        f"fresh server (default caches; metatiles): median of 3 servers {statistics.median(rates):.1f} tiles/s")
if mapli:
    started = time.perf_counter()
    for z, x, y in monaco:
        pool.render_tile("streets", z=z, x=x, y=y, tile_size=256)
    line += f"; MapLibre Native warm render_tile, one worker: {len(monaco) / (time.perf_counter() - started):.1f} tiles/s"
print(line)
