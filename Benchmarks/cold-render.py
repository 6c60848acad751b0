#!/usr/bin/env python3
"""Cold `mapraster render` processes (issue #11: a cold render under 150 ms), one or two builds in the same run.

For each view, runs `mapraster render --style STYLE ...` as a whole new process N times per binary, the
binaries alternating (base, new, base, new, ...), and prints the median and best CPU time (user + sys of the
process, from wait4) and wall time, and new/base of the CPU medians. With --callgrind it also counts the
instructions of one run per binary and view under `valgrind --tool=callgrind` (stable on a busy machine,
where CPU times swing 10-20 %), and checks that the two builds write byte-identical PNGs (always, when two are given).

Views (1024x768): world (zoom 0 and 1: the 1:110m and 1:50m land), Andorra la Vella zoom 16 (vector tiles
over the 1:50m land), Helsinki zoom 14 (the shipped city GeoJSON), Monaco zoom 15 (vector tiles).

    swift build -c release --product mapraster
    python3 Benchmarks/cold-render.py --new .build/release/mapraster [--base /tmp/cold-base/.build/release/mapraster]
        [--runs 15] [--style standard] [--callgrind]

The binary finds its resources next to itself (`*.resources`), so pass binaries inside their build folder.
Needs only Python 3 (and valgrind for --callgrind).
"""
import argparse
import os
import re
import statistics
import subprocess
import tempfile
import time

VIEWS = [
    ("world z0", ["--center", "20,0", "--zoom", "0"]),
    ("world z1", ["--center", "20,0", "--zoom", "1"]),
    ("Andorra la Vella z16", ["--center", "42.5075,1.5218", "--zoom", "16"]),
    ("Helsinki z14", ["--center", "60.1699,24.9384", "--zoom", "14"]),
    ("Monaco z15", ["--center", "43.7384,7.4246", "--zoom", "15"]),
]


def command(binary, style, view_args, out):
    return [binary, "render", "--style", style, *view_args, "--size", "1024x768", "-o", out]


def run_once(cmd):
    """CPU ms (user + sys of the child alone) and wall ms of one process."""
    start = time.perf_counter()
    proc = subprocess.Popen(cmd, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE)
    _, status, usage = os.wait4(proc.pid, 0)
    wall = (time.perf_counter() - start) * 1000
    err = proc.stderr.read().decode(errors="replace")
    proc.stderr.close()
    if os.waitstatus_to_exitcode(status) != 0:
        raise SystemExit(f"{' '.join(cmd)} failed: {err.strip()}")
    return (usage.ru_utime + usage.ru_stime) * 1000, wall


def instructions(cmd, tmp):
    out = os.path.join(tmp, "callgrind.out")
    subprocess.run(["valgrind", "--tool=callgrind", f"--callgrind-out-file={out}", *cmd], check=True,
                   capture_output=True)
    with open(out, encoding="utf-8", errors="replace") as f:
        text = f.read()
    os.unlink(out)
    match = re.search(r"^summary:\s*(\d+)", text, re.M) or re.search(r"^totals:\s*(\d+)", text, re.M)
    return int(match.group(1))


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--new", required=True, help="mapraster binary to measure")
    parser.add_argument("--base", help="a second binary to compare with, in the same run")
    parser.add_argument("--runs", type=int, default=15)
    parser.add_argument("--style", default="standard")
    parser.add_argument("--callgrind", action="store_true")
    args = parser.parse_args()
    binaries = [("base", args.base), ("new", args.new)] if args.base else [("new", args.new)]

    print(f"## Cold `mapraster render --style {args.style}` 1024x768, {args.runs} runs per binary, alternating")
    head = "| view | " + " | ".join(f"{name} CPU ms median (best) | {name} wall ms median" for name, _ in binaries)
    if args.base:
        head += " | new/base CPU | PNG identical"
    if args.callgrind:
        head += " | " + " | ".join(f"{name} instructions" for name, _ in binaries)
        if args.base:
            head += " | new/base instructions"
    head += " |"
    print(head)
    print("|---" * (head.count("|") - 1) + "|")
    with tempfile.TemporaryDirectory() as tmp:
        for label, view_args in VIEWS:
            cpu = {name: [] for name, _ in binaries}
            wall = {name: [] for name, _ in binaries}
            for name, binary in binaries:  # warm the page cache once
                run_once(command(binary, args.style, view_args, os.path.join(tmp, f"{name}.png")))
            for _ in range(args.runs):
                for name, binary in binaries:
                    c, w = run_once(command(binary, args.style, view_args, os.path.join(tmp, f"{name}.png")))
                    cpu[name].append(c)
                    wall[name].append(w)
            row = f"| {label} | " + " | ".join(
                f"{statistics.median(cpu[n]):.0f} ({min(cpu[n]):.0f}) | {statistics.median(wall[n]):.0f}"
                for n, _ in binaries)
            if args.base:
                with open(os.path.join(tmp, "base.png"), "rb") as a, open(os.path.join(tmp, "new.png"), "rb") as b:
                    same = a.read() == b.read()
                row += f" | {statistics.median(cpu['new']) / statistics.median(cpu['base']):.2f} | {'yes' if same else 'NO'}"
            if args.callgrind:
                counts = {n: instructions(command(b, args.style, view_args, os.path.join(tmp, f"{n}.png")), tmp)
                          for n, b in binaries}
                row += " | " + " | ".join(f"{counts[n] / 1e6:.0f} M" for n, _ in binaries)
                if args.base:
                    row += f" | {counts['new'] / counts['base']:.3f}"
            print(row + " |", flush=True)


if __name__ == "__main__":
    main()
