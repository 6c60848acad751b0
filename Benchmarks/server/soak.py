#!/usr/bin/env python3
"""A soak of `mapraster serve` with random tiles and static maps (issue 27), loopback only.

    Benchmarks/server/soak.py MAPRASTER [SECONDS] [CLIENTS] [WORKERS] [CACHE_BYTES]

Starts `MAPRASTER serve --port 0 --workers WORKERS (2) --cache-bytes CACHE_BYTES (67108864)` with the shipped
styles, then for SECONDS (600) keeps CLIENTS (4) kept-alive clients busy, each sending, at random (a seeded
generator per client, so a run is repeatable): a tile of `standard` or `streets` at zoom 10-16 anywhere over
Monaco and the Côte d'Azur around it (the shipped data; far more tiles than the cache holds, so most requests
render), @1x or @2x, or a static map of a random centre, zoom, size (100-1024 a side) and scale. Every 30 s it
prints the server's RSS, the bytes its caches hold (`/metrics`: responses, metatiles, decoded vector tiles), requests so far and the statuses seen; at the
end, RSS at the first sample after the first minute against the last, the same less the caches, and every
status that was not 200. A flat soak: no 5xx, no connection error, RSS less caches within 10 % of the first
minute's.
"""
import http.client
import random
import sys
import threading
import time

from serve_process import cached_mb, rss_mb as serve_rss_mb, start

binary = sys.argv[1]
seconds = float(sys.argv[2]) if len(sys.argv) > 2 else 600
clients = int(sys.argv[3]) if len(sys.argv) > 3 else 4
workers = sys.argv[4] if len(sys.argv) > 4 else "2"
cache_bytes = int(sys.argv[5]) if len(sys.argv) > 5 else 64 << 20
server, port = start(binary, "--workers", workers, "--cache-bytes", str(cache_bytes))


def rss_mb():
    return serve_rss_mb(server.pid)


def cache_mb():
    return cached_mb(port)


lock = threading.Lock()
statuses = {}
errors = []
count = 0
deadline = time.monotonic() + seconds


def request_path(rng):
    if rng.random() < 0.7:
        import math
        z = rng.randint(10, 16)
        lat = rng.uniform(43.55, 43.85)
        lon = rng.uniform(7.2, 7.6)
        n = 1 << z
        x = int((lon + 180) / 360 * n)
        y = int((1 - math.log(math.tan(math.radians(lat)) + 1 / math.cos(math.radians(lat))) / math.pi) / 2 * n)
        style = rng.choice(("standard", "streets"))
        return f"/styles/{style}/{z}/{x}/{y}{rng.choice(('', '@2x'))}.png"
    lat = rng.uniform(43.70, 43.76)
    lon = rng.uniform(7.38, 7.45)
    zoom = rng.uniform(12, 16.5)
    width, height = rng.randint(100, 1024), rng.randint(100, 1024)
    scale = rng.choice(("", "@2x"))
    return f"/styles/{rng.choice(('standard', 'streets'))}/static/{lon:.5f},{lat:.5f},{zoom:.2f}/{width}x{height}{scale}.png"


def client(seed):
    global count
    rng = random.Random(seed)
    connection = http.client.HTTPConnection("127.0.0.1", port, timeout=60)
    while time.monotonic() < deadline:
        path = request_path(rng)
        try:
            connection.request("GET", path)
            response = connection.getresponse()
            response.read()
            status = response.status
        except Exception as error:  # noqa: BLE001 - every failure is reported
            with lock:
                errors.append(f"{path}: {error!r}")
            connection.close()
            connection = http.client.HTTPConnection("127.0.0.1", port, timeout=60)
            continue
        with lock:
            statuses[status] = statuses.get(status, 0) + 1
            count += 1


threads = [threading.Thread(target=client, args=(seed,), daemon=True) for seed in range(clients)]
for thread in threads:
    thread.start()
print(time.strftime("%Y-%m-%d %H:%M UTC", time.gmtime()), f"soak {seconds:.0f} s, {clients} clients, "
      f"{workers} workers, cache {cache_bytes >> 20} MiB")
samples = []
started = time.monotonic()
while time.monotonic() < deadline:
    time.sleep(min(30, max(0.1, deadline - time.monotonic())))
    rss, caches = rss_mb(), cache_mb()
    samples.append((time.monotonic() - started, rss, caches))
    with lock:
        print(f"{samples[-1][0]:6.0f} s  RSS {rss:6.1f} MB  caches {caches:5.1f} MB  less caches {rss - caches:6.1f} MB"
              f"  requests {count}  statuses {dict(sorted(statuses.items()))}", flush=True)
for thread in threads:
    thread.join(timeout=90)
server.terminate()
server.wait()
after_minute = next((s for s in samples if s[0] >= 60), samples[0])
last = samples[-1]
print(f"RSS after the first minute {after_minute[1]:.1f} MB, at the end {last[1]:.1f} MB "
      f"({last[1] / after_minute[1]:.2f}x); less caches {after_minute[1] - after_minute[2]:.1f} -> "
      f"{last[1] - last[2]:.1f} MB ({(last[1] - last[2]) / (after_minute[1] - after_minute[2]):.2f}x)")
print(f"requests {count}; statuses {dict(sorted(statuses.items()))}; connection errors {len(errors)}")
for line in errors[:10]:
    print("  ", line)
bad = sum(n for s, n in statuses.items() if s >= 500) + len(errors)
sys.exit(1 if bad else 0)
