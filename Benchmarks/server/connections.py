#!/usr/bin/env python3
"""Idle connections and slow-loris sockets against `mapraster serve` (issue 27), loopback only.

    Benchmarks/server/connections.py MAPRASTER [IDLE] [SLOW] [SECONDS]

Starts `MAPRASTER serve --port 0 --max-connections IDLE+SLOW+500 --head-timeout $HOLD --keep-alive-timeout $HOLD`
(HOLD default 120 s, so that the server really holds every socket for the whole run: the worst case; with
HOLD=10 it closes the slow ones at the default head timeout; 256 connections per client address, the default,
so the sockets come from 127.0.0.2... in groups of 250),
opens IDLE silent connections (default 10000) and SLOW slow-loris sockets (default 1000) that send one byte of a
request head per second (reopened when the server closes them, as an attacker would), then for SECONDS
(default 30) measures from another client, one request at a time on a kept-alive connection: /health and one
cached tile. Prints p50/p99/max latency, how many slow sockets the server closed (head timeout), and what a
client over the connection limit gets (a 503 or a closed connection, or a hang). Every loop is bounded in count
and time. Needs RLIMIT_NOFILE above IDLE+SLOW+600 (the script raises its soft limit to the hard one).
"""
import os
import re
import resource
import selectors
import socket
import sys
import time

from serve_process import rss_mb as serve_rss_mb, start

binary = sys.argv[1]
idle_count = int(sys.argv[2]) if len(sys.argv) > 2 else 10000
slow_count = int(sys.argv[3]) if len(sys.argv) > 3 else 1000
seconds = float(sys.argv[4]) if len(sys.argv) > 4 else 30
soft, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
resource.setrlimit(resource.RLIMIT_NOFILE, (hard, hard))
limit = idle_count + slow_count + 500
hold = os.environ.get("HOLD", "120")
server, port = start(binary, "--max-connections", str(limit), "--head-timeout", hold, "--keep-alive-timeout", hold)


def rss_mb():
    return serve_rss_mb(server.pid)


def connect(index):
    """A socket from 127.0.0.(2 + index / 250): under the default 256 connections per client address."""
    s = socket.socket(socket.AF_INET, socket.SOCK_STREAM)
    s.bind((f"127.0.0.{2 + index // 250}", 0))
    s.setblocking(False)
    s.connect_ex(("127.0.0.1", port))
    return s


def timed_requests(path, count, budget):
    """`count` requests one at a time on one kept-alive connection (at most `budget` seconds): latencies in ms."""
    s = socket.create_connection(("127.0.0.1", port), timeout=120)
    request = f"GET {path} HTTP/1.1\r\nHost: x\r\n\r\n".encode()
    latencies = []
    end = time.monotonic() + budget
    for _ in range(count):
        if time.monotonic() > end:
            break
        start = time.perf_counter()
        s.sendall(request)
        data = b""
        while b"\r\n\r\n" not in data:
            data += s.recv(65536)
        head, _, body = data.partition(b"\r\n\r\n")
        length = int(re.search(rb"Content-Length: (\d+)", head, re.I).group(1))
        while len(body) < length:
            body += s.recv(65536)
        latencies.append((time.perf_counter() - start) * 1000)
        if not head.startswith(b"HTTP/1.1 200"):
            print("unexpected:", head[:60])
    s.close()
    return sorted(latencies)


def summary(name, latencies):
    if not latencies:
        return f"{name}: no answers"
    p = lambda q: latencies[min(len(latencies) - 1, int(q * len(latencies)))]
    return f"{name}: {len(latencies)} requests, p50 {p(0.5):.2f} ms, p99 {p(0.99):.2f} ms, max {latencies[-1]:.2f} ms"


tile = "/styles/standard/3/4/2.png"
timed_requests(tile, 1, 60)  # render it once: later requests are cache hits
baseline_health = timed_requests("/health", 2000, 10)
baseline_tile = timed_requests(tile, 2000, 10)
print(summary("before, /health", baseline_health))
print(summary("before, cached tile", baseline_tile))
rss_before = rss_mb()

idle = []
opened = time.monotonic()
for i in range(idle_count):
    idle.append(connect(i))
slow = [connect(idle_count + i) for i in range(slow_count)]
head = b"GET /health HTTP/1.1\r\nHost: x\r\nX-Slow: " + b"a" * 10000
slow_sent = [0] * slow_count
closed_slow = 0
time.sleep(1)
print(f"{idle_count} idle and {slow_count} slow-loris sockets opened in {time.monotonic() - opened:.1f} s; "
      f"server RSS {rss_mb():.0f} MB (before {rss_before:.0f} MB)")


def drip():
    """One byte on every slow socket; reopen those the server closed."""
    global closed_slow
    for i, s in enumerate(slow):
        try:
            s.send(head[slow_sent[i]:slow_sent[i] + 1])
            slow_sent[i] += 1
        except (BlockingIOError, InterruptedError):
            pass
        except OSError:
            closed_slow += 1
            s.close()
            slow[i] = connect(idle_count + i)
            slow_sent[i] = 0


health, tiles = [], []
end = time.monotonic() + seconds
while time.monotonic() < end:
    drip()
    health += timed_requests("/health", 200, 0.45)
    tiles += timed_requests(tile, 200, 0.45)
health.sort()
tiles.sort()
print(summary(f"with {idle_count} idle + {slow_count} slow, /health", health))
print(summary(f"with {idle_count} idle + {slow_count} slow, cached tile", tiles))
print(f"slow-loris sockets closed by the server (head timeout) and reopened: {closed_slow}")

# Over the limit: fill to it, then ask once more.
extra = [connect(idle_count + slow_count + i) for i in range(500)]
time.sleep(1)
over = socket.socket()
over.bind(("127.0.0.250", 0))
over.settimeout(10)
try:
    over.connect(("127.0.0.1", port))
    over.sendall(b"GET /health HTTP/1.1\r\nHost: x\r\n\r\n")
    answer = over.recv(200)
    print("a client over the connection limit gets:", answer.split(b"\r\n")[0].decode() or "a closed connection",
          "| Retry-After" if b"Retry-After: 1" in answer else "")
except socket.timeout:
    print("a client over the connection limit gets: NO ANSWER (a hang)")
except OSError as error:
    print("a client over the connection limit gets: a refused/reset connection", error)
print(f"server RSS {rss_mb():.0f} MB with {idle_count + slow_count + 500} connections")
for s in idle + slow + extra:
    s.close()
server.terminate()
server.wait(timeout=30)
