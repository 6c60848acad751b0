#!/usr/bin/env bash
# Browser test of `mapraster serve` (issue 14): headless Chromium (Debian's `chromium`, installed here when
# missing) opens the viewer page, lets it load for 20 s of virtual time, and
#   1. the page's tile counter (Leaflet's tileload/tileerror events) must show tiles loaded and none failed;
#   2. a screenshot is written to ${BROWSER_SCREENSHOT:-.build/browser-test/viewer.png} (look at it) and must
#      not be blank (a blank page's PNG is a few KB).
# Usage: Scripts/browser-test.sh [path/to/mapraster]   (default: the debug build, built if missing)
set -euo pipefail
cd "$(dirname "$0")/.."
binary=${1:-.build/debug/mapraster}
[ -x "$binary" ] || swift build --product mapraster
if ! command -v chromium >/dev/null 2>&1; then
    echo "browser-test: installing Debian's chromium" >&2
    if [ "$(id -u)" = 0 ]; then apt-get install -y -q chromium >/dev/null; else sudo apt-get install -y -q chromium >/dev/null; fi
fi
out=${BROWSER_SCREENSHOT:-.build/browser-test/viewer.png}
mkdir -p "$(dirname "$out")"
log=$(mktemp)
"$binary" serve --port 0 --quiet >"$log" 2>&1 &
server=$!
trap 'kill $server 2>/dev/null || true; rm -f "$log"' EXIT
# Synchronised on the banner (printed once the server listens, with the port the system chose), not on a
# fixed number of tries: on a loaded machine a debug build takes as long as it takes; a server that dies stops it.
port=""
while kill -0 "$server" 2>/dev/null; do
    port=$(sed -n 's|.*serving http://127.0.0.1:\([0-9]*\)/.*|\1|p' "$log")
    [ -n "$port" ] && break
    sleep 0.1
done
[ -n "$port" ] || { echo "browser-test: the server did not start: $(cat "$log")" >&2; exit 1; }
url="http://127.0.0.1:$port/"
# `timeout 900` guards against a hung browser only: the page's own work is bounded by Chromium's virtual time.
flags=(--headless --no-sandbox --disable-gpu --window-size=1024,768 --virtual-time-budget=20000)
status=$(timeout 900 chromium "${flags[@]}" --dump-dom "$url" 2>/dev/null | grep -o 'id="status" data-loaded="[0-9]*" data-failed="[0-9]*"' || true)
loaded=$(echo "$status" | sed -n 's/.*data-loaded="\([0-9]*\)".*/\1/p')
failed=$(echo "$status" | sed -n 's/.*data-failed="\([0-9]*\)".*/\1/p')
echo "browser-test: $url: ${loaded:-0} tiles loaded, ${failed:-?} failed"
[ "${loaded:-0}" -gt 0 ] && [ "${failed:-1}" -eq 0 ] || { echo "browser-test: tiles did not load" >&2; exit 1; }
timeout 900 chromium "${flags[@]}" --screenshot="$out" "$url" >/dev/null 2>&1
size=$(stat -c %s "$out")
echo "browser-test: screenshot $out ($size bytes)"
[ "$size" -gt 10000 ] || { echo "browser-test: the screenshot looks blank" >&2; exit 1; }
echo "browser-test: passed"
