#!/usr/bin/env python3
"""Resident memory of `mapraster serve` under bursts of large renders (issue 27), loopback only.

    Benchmarks/server/memory-bursts.py MAPRASTER [BURSTS] [CONCURRENT] [WORKERS] [CACHE_BYTES]

Starts `MAPRASTER serve --port 0 --workers WORKERS (2) --cache-bytes CACHE_BYTES (67108864) --queue 64`, then
BURSTS (10) times sends CONCURRENT (30) static maps of 1024x1024@2x at once (each a different center, so none is
a cache hit), waits for all, lets the server's idle tick return freed memory (2 s), and prints the server's RSS
after each burst, its ratio to the first burst's, the same less the bytes its caches hold (`mapraster_cache_bytes`,
`mapraster_metatile_cache_bytes` and `mapraster_decoded_tile_bytes` from /metrics: a cache filling toward its bound is growth by design, a leak or
a heap that keeps freed memory is not), and the peak RSS seen during the bursts (sampled every 50 ms).
"""
import sys
import threading
import time
import urllib.request

from serve_process import cached_mb as serve_cached_mb, rss_mb as serve_rss_mb, start

binary = sys.argv[1]
bursts = int(sys.argv[2]) if len(sys.argv) > 2 else 10
concurrent = int(sys.argv[3]) if len(sys.argv) > 3 else 30
workers = sys.argv[4] if len(sys.argv) > 4 else "2"
cache_bytes = int(sys.argv[5]) if len(sys.argv) > 5 else 64 << 20
server, port = start(binary, "--workers", workers, "--cache-bytes", str(cache_bytes), "--queue", "64")


def rss_mb():
    return serve_rss_mb(server.pid)


peak = 0.0
sampling = True


def sample():
    global peak
    while sampling:
        peak = max(peak, rss_mb())
        time.sleep(0.05)


threading.Thread(target=sample, daemon=True).start()
statuses = {}


def cached_mb():
    return serve_cached_mb(port)


def fetch(url):
    try:
        with urllib.request.urlopen(url, timeout=300) as response:
            response.read()
            code = response.status
    except urllib.error.HTTPError as error:
        code = error.code
    statuses[code] = statuses.get(code, 0) + 1


print(f"RSS at start {rss_mb():.0f} MB ({workers} workers, cache {cache_bytes / (1 << 20):.0f} MiB)")
after = []
uncached = []
for burst in range(bursts):
    threads = []
    started = time.monotonic()
    for i in range(concurrent):
        lon = 7.40 + 0.001 * (burst * concurrent + i)
        url = f"http://127.0.0.1:{port}/styles/standard/static/{lon:.4f},43.735,14/1024x1024@2x.png"
        threads.append(threading.Thread(target=fetch, args=(url,)))
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    took = time.monotonic() - started
    time.sleep(2)
    after.append(rss_mb())
    uncached.append(after[-1] - cached_mb())
    print(f"burst {burst + 1}: {took:.1f} s, RSS after {after[-1]:.0f} MB "
          f"({after[-1] / after[0]:.3f} of the first burst's), less the caches {uncached[-1]:.0f} MB "
          f"({uncached[-1] / uncached[0]:.3f}), peak so far {peak:.0f} MB")
sampling = False
print(f"statuses: {statuses}")
print(f"after each burst: {', '.join(f'{value:.0f}' for value in after)} MB; "
      f"largest / first {max(after) / after[0]:.3f}; less the caches: {', '.join(f'{value:.0f}' for value in uncached)} MB, "
      f"largest / first {max(uncached) / uncached[0]:.3f}; peak {peak:.0f} MB")
server.terminate()
server.wait(timeout=60)
