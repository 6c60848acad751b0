#!/usr/bin/env python3
"""Glyph ranges served by `mapraster serve` (issue #26's acceptance figure): how long a range of
"Noto Sans Regular,Open Sans Regular" takes to make on first request and once cached, whether two server runs
give the same bytes, and whether the bytes follow MapLibre's glyphs.proto (read here by a hand-written
protocol-buffers reader that shares no code with MapRaster).

    Benchmarks/glyphs/serve-glyphs.py [MAPRASTER]      # default .build/release/mapraster

Prints one line per measure, then the spec checks; exits 1 when a check fails. Times are wall-clock medians
of fresh server runs (the machine is shared: see the load average printed first).
"""
import os
import socket
import statistics
import subprocess
import sys
import time
import urllib.request

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
BINARY = sys.argv[1] if len(sys.argv) > 1 else os.path.join(ROOT, ".build/release/mapraster")
STACK = "Noto%20Sans%20Regular,Open%20Sans%20Regular"
RANGES = ["0-255", "256-511", "1024-1279", "8192-8447"]
RUNS = 5


def free_port():
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


class Server:
    def __init__(self):
        self.port = free_port()
        self.process = subprocess.Popen(
            [BINARY, "serve", "--port", str(self.port), "--quiet"], stdout=subprocess.DEVNULL, stderr=subprocess.PIPE)
        for _ in range(300):
            try:
                self.get("/health")
                return
            except OSError:
                time.sleep(0.05)
        raise SystemExit("the server did not start")

    def cpu_ms(self):
        """CPU time the server's threads have run, in ms (schedstat: nanoseconds, unlike the 10 ms ticks of stat)."""
        total = 0
        folder = f"/proc/{self.process.pid}/task"
        for task in os.listdir(folder):
            try:
                with open(f"{folder}/{task}/schedstat") as f:
                    total += int(f.read().split()[0])
            except OSError:
                pass
        return total / 1e6

    def get(self, path):
        """The body, its type and the wall-clock ms of one request."""
        body, kind, ms, _ = self.timed(path)
        return body, kind, ms

    def timed(self, path):
        """As get, with the server's CPU ms for the request too."""
        cpu = self.cpu_ms()
        start = time.perf_counter()
        with urllib.request.urlopen(f"http://127.0.0.1:{self.port}{path}", timeout=30) as reply:
            body = reply.read()
            kind = reply.headers.get("Content-Type")
        return body, kind, (time.perf_counter() - start) * 1000, self.cpu_ms() - cpu

    def stop(self):
        self.process.terminate()
        self.process.wait(timeout=30)


# --- an independent reader of the protocol-buffers wire format -------------------------------------------------

def varint(data, i):
    value = shift = 0
    while True:
        if i >= len(data):
            raise ValueError("varint runs past the end")
        byte = data[i]
        i += 1
        value |= (byte & 0x7F) << shift
        shift += 7
        if byte < 0x80:
            return value, i
        if shift > 63:
            raise ValueError("varint too long")


def fields(data):
    """(field number, wire type, value) of one message; value is an int (varint) or bytes (length-delimited)."""
    i = 0
    out = []
    while i < len(data):
        key, i = varint(data, i)
        number, wire = key >> 3, key & 7
        if wire == 0:
            value, i = varint(data, i)
        elif wire == 2:
            length, i = varint(data, i)
            if i + length > len(data):
                raise ValueError("a length-delimited field runs past the end")
            value, i = data[i:i + length], i + length
        else:
            raise ValueError(f"wire type {wire} is not used by glyphs.proto")
        out.append((number, wire, value))
    return out


def zigzag(n):
    return (n >> 1) ^ -(n & 1)


def check_spec(body, range_name):
    """Checks a glyph PBF against glyphs.proto: one fontstack {name, range, glyphs...}; each glyph has id (in the
    range), width, height, left, top, advance, and a bitmap of (width + 6) x (height + 6) bytes when it has ink.
    Returns the glyphs by id."""
    problems = []
    stacks = [v for n, w, v in fields(body) if n == 1 and w == 2]
    if len(stacks) != 1:
        problems.append(f"{len(stacks)} fontstack messages, expected 1")
    start, end = map(int, range_name.split("-"))
    glyphs = {}
    for stack in stacks:
        members = fields(stack)
        names = [v.decode() for n, w, v in members if n == 1 and w == 2]
        ranges = [v.decode() for n, w, v in members if n == 2 and w == 2]
        if len(names) != 1 or len(ranges) != 1 or ranges[0] != range_name:
            problems.append(f"fontstack name {names} / range {ranges}, expected one name and range {range_name}")
        previous = -1
        for n, w, v in members:
            if n != 3:
                continue
            g = {}
            for gn, gw, gv in fields(v):
                g[gn] = (gw, gv)
            for required in (1, 3, 4, 5, 6, 7):
                if required not in g or g[required][0] != 0:
                    problems.append(f"glyph without varint field {required}: {g.get(1)}")
            gid = g[1][1]
            width, height, advance = g[3][1], g[4][1], g[7][1]
            left, top = zigzag(g[5][1]), zigzag(g[6][1])
            if not start <= gid <= end:
                problems.append(f"glyph {gid} outside {range_name}")
            if gid <= previous:
                problems.append(f"glyph {gid} after {previous}: not in ascending order")
            previous = gid
            bitmap = g.get(2, (2, b""))[1]
            expected = (width + 6) * (height + 6) if width and height else 0
            if len(bitmap) != expected:
                problems.append(f"glyph {gid}: bitmap of {len(bitmap)} bytes, expected {expected}")
            if not (width <= 255 and height <= 255 and advance <= 255 and -128 <= left <= 127 and -128 <= top <= 127):
                problems.append(f"glyph {gid}: metrics out of MapLibre's ranges")
            glyphs[gid] = (width, height, left, top, advance, bitmap)
    return glyphs, problems


def main():
    print(f"load average: {os.getloadavg()[0]:.2f} {os.getloadavg()[1]:.2f} {os.getloadavg()[2]:.2f}")
    first, warm_fonts, cached = [], {r: [] for r in RANGES[1:]}, []
    first_cpu, warm_cpu = [], {r: [] for r in RANGES[1:]}
    bodies = []
    for run in range(RUNS):
        server = Server()
        try:
            body, kind, ms, cpu = server.timed(f"/fonts/{STACK}/0-255.pbf")
            first.append(ms)
            first_cpu.append(cpu)
            assert kind == "application/x-protobuf", kind
            cached.append(statistics.median(server.get(f"/fonts/{STACK}/0-255.pbf")[2] for _ in range(5)))
            run_bodies = {"0-255": body}
            for name in RANGES[1:]:
                b, _, ms, cpu = server.timed(f"/fonts/{STACK}/{name}.pbf")
                warm_fonts[name].append(ms)
                warm_cpu[name].append(cpu)
                run_bodies[name] = b
            bodies.append(run_bodies)
        finally:
            server.stop()
    print(f"0-255, first request of a fresh server (fonts loaded then): median {statistics.median(first):.1f} ms "
          f"wall, {statistics.median(first_cpu):.1f} ms server CPU (wall runs: {', '.join(f'{m:.1f}' for m in first)})")
    for name, times in warm_fonts.items():
        print(f"{name}, first request (fonts already loaded): median {statistics.median(times):.1f} ms wall, "
              f"{statistics.median(warm_cpu[name]):.1f} ms server CPU")
    print(f"0-255 cached: median {statistics.median(cached):.2f} ms")
    identical = all(b == bodies[0] for b in bodies)
    print(f"bytes identical across {RUNS} server runs: {identical}")
    failed = not identical
    for name in RANGES:
        glyphs, problems = check_spec(bodies[0][name], name)
        inked = sum(1 for g in glyphs.values() if g[0] and g[1])
        print(f"{name}: {len(bodies[0][name])} bytes, {len(glyphs)} glyphs ({inked} with a bitmap), "
              f"spec: {'ok' if not problems else '; '.join(problems[:5])}")
        failed |= bool(problems)
    latin, _ = check_spec(bodies[0]["0-255"], "0-255")
    a = latin.get(65)
    print(f"'A': width {a[0]}, height {a[1]}, left {a[2]}, top {a[3]}, advance {a[4]}")
    sys.exit(1 if failed else 0)


if __name__ == "__main__":
    main()
