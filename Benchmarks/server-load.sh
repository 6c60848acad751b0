#!/usr/bin/env bash
# Load test of `mapraster serve` with wrk (Debian), on loopback (issue 14). Not run by CI (timings).
#
#   Benchmarks/server-load.sh [SECONDS] [--soak SOAK_SECONDS]
#
# Builds release `mapraster` and `ServerBenchmark`, then in one run:
#   1. a 600x400@2x static map with 10 markers and a path (Benchmarks/server/load-scene.json, POST /render
#      with ?style=$STYLE, default standard): in-process req/s at 2 threads (ServerBenchmark, cache off) vs
#      wrk with 2 connections (cache off): the server's overhead;
#   2. uncached tiles z12-16 over Monaco (every request renders): 1 worker vs 2 workers, wrk 4 connections;
#   3. cached tiles: one tile, 32 connections;
#   4. with --soak: SOAK_SECONDS at saturation (64 connections, mixed tiles, queue 32), errors other than 503
#      and resident memory after warm-up vs at the end.
# Prints req/s, p50/p99 latency and the server's CPU (user+system seconds per wall second).
# ONLY=soak runs the soak alone (with --soak). SERVER_STYLE=ID=PATH adds a style (e.g. streets=styles/streets.json) and STYLE=ID picks it.
set -euo pipefail
cd "$(dirname "$0")/.."
seconds=${1:-15}
soak=0
if [ "${2:-}" = "--soak" ]; then soak=${3:-600}; fi
style=${STYLE:-standard}
command -v wrk >/dev/null || { echo "install wrk (apt-get install wrk)" >&2; exit 1; }
swift build -c release --product mapraster >/dev/null
swift build -c release --product ServerBenchmark >/dev/null
bin=.build/release
extra=()
if [ -n "${SERVER_STYLE:-}" ]; then extra=(--style "$SERVER_STYLE"); fi

work=$(mktemp -d)
trap 'kill ${server:-0} 2>/dev/null || true; rm -rf "$work"' EXIT
python3 - "$work/tiles.txt" "$style" <<'PY'
import math, sys
out, style = sys.argv[1], sys.argv[2]
def tile(lat, lon, z):
    n = 1 << z
    x = int((lon + 180) / 360 * n)
    y = int((1 - math.log(math.tan(math.radians(lat)) + 1 / math.cos(math.radians(lat))) / math.pi) / 2 * n)
    return x, y
paths = []
for z in range(12, 17):
    x0, y0 = tile(43.752, 7.405, z)
    x1, y1 = tile(43.723, 7.440, z)
    for x in range(x0, x1 + 1):
        for y in range(y0, y1 + 1):
            paths.append(f"/styles/{style}/{z}/{x}/{y}.png")
open(out, "w").write("\n".join(paths) + "\n")
print(f"{len(paths)} tiles z12-16 over Monaco", file=sys.stderr)
PY

start_server() {  # workers cache_bytes queue [more serve options]
    local workers=$1 cache=$2 queue=$3; shift 3
    "$bin/mapraster" serve --port 0 --quiet --workers "$workers" --cache-bytes "$cache" --queue "$queue" "${extra[@]}" \
        "$@" >"$work/banner" 2>&1 &
    server=$!
    for _ in $(seq 1 200); do
        port=$(sed -n 's|.*serving http://127.0.0.1:\([0-9]*\)/.*|\1|p' "$work/banner")
        [ -n "$port" ] && return 0
        sleep 0.05
    done
    echo "server did not start: $(cat "$work/banner")" >&2; exit 1
}
stop_server() { kill "$server"; wait "$server" 2>/dev/null || true; }
cpu() { awk '{print $14 + $15}' "/proc/$server/stat"; }
run_wrk() {  # label connections [wrk args...]
    local label=$1 connections=$2; shift 2
    local before after
    before=$(cpu)
    local t0; t0=$(date +%s.%N)
    wrk -t2 -c"$connections" -d"${seconds}s" --latency "$@" >"$work/wrk.txt"
    local t1; t1=$(date +%s.%N)
    after=$(cpu)
    local rps p50 p99 non2xx
    rps=$(awk '/Requests\/sec/ {print $2}' "$work/wrk.txt")
    p50=$(awk '$1 == "50%" {print $2}' "$work/wrk.txt")
    p99=$(awk '$1 == "99%" {print $2}' "$work/wrk.txt")
    non2xx=$(awk '/Non-2xx/ {print $5}' "$work/wrk.txt")
    local ticks; ticks=$(getconf CLK_TCK)
    printf "%-48s %10s req/s  p50 %8s  p99 %8s  CPU %.2f  non-2xx %s\n" "$label" "$rps" "$p50" "$p99" \
        "$(echo "($after - $before) / $ticks / ($t1 - $t0)" | bc -l)" "${non2xx:-0}" >&2
    echo "$rps"
}

echo "== mapraster serve under wrk, $(date -u +%FT%TZ), $(nproc) cores, ${seconds}s per run, style $style"
if [ "${ONLY:-}" != soak ]; then
echo "-- 1. static map 600x400@2x, 10 markers + a path (POST /render), cache off"
inproc=$(SERVER_STYLE=${SERVER_STYLE:-} "$bin/ServerBenchmark" render Benchmarks/server/load-scene.json "$style" 2 "$seconds")
echo "$inproc"
start_server 2 0 32
http=$(SCENE=Benchmarks/server/load-scene.json QUERY="?style=$style" run_wrk "HTTP, 2 connections, 2 workers" 2 \
    -s Benchmarks/server/post.lua "http://127.0.0.1:$port" | tail -1)
stop_server
in_rps=$(echo "$inproc" | sed -n 's/.*= \([0-9.]*\) req\/s.*/\1/p')
echo "server overhead at 2 clients: $(echo "(1 - $http / $in_rps) * 100" | bc -l | xargs printf "%.1f") % (goal <= 10 %)"

echo "-- 2. uncached tiles z12-16 over Monaco (cache off): 1 worker vs 2 workers, 4 connections"
start_server 1 0 64
one=$(TILES=$work/tiles.txt run_wrk "1 worker" 4 -s Benchmarks/server/tiles.lua "http://127.0.0.1:$port" | tail -1)
stop_server
start_server 2 0 64
two=$(TILES=$work/tiles.txt run_wrk "2 workers" 4 -s Benchmarks/server/tiles.lua "http://127.0.0.1:$port" | tail -1)
stop_server
echo "2 workers / 1 worker: $(echo "$two / $one" | bc -l | xargs printf "%.2f")x (goal >= 1.8x)"

echo "-- 3. cached tiles: one tile, 32 connections"
start_server 2 $((64 << 20)) 32
first=$(head -1 "$work/tiles.txt")
curl -s -o /dev/null "http://127.0.0.1:$port$first"
run_wrk "cached tile" 32 "http://127.0.0.1:$port$first" >/dev/null
stop_server
# The same with the access log on (Common Log Format to a file), as a deployment runs it.
start_server 2 $((64 << 20)) 32 --access-log common
sleep 0.2
curl -s -o /dev/null "http://127.0.0.1:$port$first"
run_wrk "cached tile, access log on" 32 "http://127.0.0.1:$port$first" >/dev/null
stop_server

fi

if [ "$soak" -gt 0 ]; then
    echo "-- 4. soak: ${soak}s at saturation (64 connections, tiles, 2 workers, queue 32, cache 64 MiB, render"
    echo "   deadline 1 s so that every answer comes within wrk's 2 s timeout)"
    start_server 2 $((64 << 20)) 32 --render-timeout 1
    TILES=$work/tiles.txt timeout $((soak + 30)) wrk -t2 -c64 -d"${soak}s" --latency -s Benchmarks/server/tiles.lua \
        "http://127.0.0.1:$port" >"$work/soak.txt" &
    load=$!
    sleep 60
    warm=$(awk '/VmRSS/ {print $2}' "/proc/$server/status")
    wait "$load"
    end=$(awk '/VmRSS/ {print $2}' "/proc/$server/status")
    grep -E "Requests/sec|Non-2xx|Socket errors" "$work/soak.txt" || true
    echo "answers by status, and 503s by reason (the server's /metrics):"
    curl -s "http://127.0.0.1:$port/metrics" | awk '/^mapraster_http_requests_total/ {
        match($0, /status="[0-9]+"/); s = substr($0, RSTART + 8, RLENGTH - 9); n[s] += $2 }
        /^mapraster_rejected_total/ { print "  " $0 }
        END { for (s in n) print "  status " s ": " n[s] }'
    echo "resident memory: ${warm} kB after 60 s, ${end} kB at the end: $(echo "($end - $warm) * 100 / $warm" | bc -l | xargs printf "%.1f") % (goal < 5 %)"
    stop_server
fi
