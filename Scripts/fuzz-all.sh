#!/usr/bin/env bash
# Runs every libFuzzer target for SECONDS each (default 15): the short fixed budget CI gives them.
# Usage: Scripts/fuzz-all.sh [SECONDS]. Exits non-zero at the first target that finds a crash, a timeout
# over 5 s or an input over 1 GB (its input is in Fuzz/.artifacts/TARGET/). Long local runs: Scripts/fuzz.sh.
set -euo pipefail
seconds=${1:-15}
cd "$(dirname "$0")/.."
for target in json geojson scene style png image mbtiles mvt pmtiles server staticmap glyphs; do
    echo "== fuzz $target for $seconds s"
    log=$(mktemp)
    status=0
    Scripts/fuzz.sh "$target" "$seconds" > "$log" 2>&1 || status=$?
    grep -E "^(stat::number_of_executed_units|stat::peak_rss_mb)|ERROR|SUMMARY|crash-|timeout-|oom-" "$log" || true
    if [ "$status" -ne 0 ]; then
        tail -40 "$log" >&2
        rm -f "$log"
        echo "fuzz-all: target $target failed (exit $status); see Fuzz/.artifacts/$target/" >&2
        exit 1
    fi
    rm -f "$log"
done
echo "fuzz-all: every target ran $seconds s with no crash"
