#!/usr/bin/env bash
# Peak resident memory of every mapraster subcommand on big and hostile inputs (issue #16: memory of every
# command bounded and stated): Scripts/measure-memory.sh [BINARY]   (default .build/release/mapraster)
# Prints a Markdown table: command | peak RSS (MiB) | wall s | exit code. Uses /usr/bin/time -v; makes its
# inputs in a temporary folder (a 1,000,000-row CSV, 8192x8192 PNGs, a world z0-6 MBTiles in two shards,
# hostile styles). Takes a few minutes on 2 cores.
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
exe=$(realpath "${1:-$root/.build/release/mapraster}")
work=$(mktemp -d /tmp/mapraster-memory.XXXXXX)
trap 'rm -rf "$work"' EXIT
cd "$work"

measure() { # LABEL ARGS...
    local label=$1
    shift
    local code=0
    /usr/bin/time -v -o time.txt "$exe" "$@" >/dev/null 2>err.txt || code=$?
    local rss wall
    rss=$(awk -F': ' '/Maximum resident set size/ {printf "%.0f", $2 / 1024}' time.txt)
    wall=$(awk -F': ' '/Elapsed \(wall clock\)/ {print $2}' time.txt)
    echo "| $label | $rss | $wall | $code |"
}

# Inputs.
python3 - <<'PY'
import random
random.seed(1)
with open("points.csv", "w") as f:
    f.write("id,lat,lon\n")
    for i in range(1_000_000):
        f.write(f"{i},{random.uniform(-60, 70):.5f},{random.uniform(-180, 180):.5f}\n")
with open("wide.json", "w") as f:
    f.write('{"version": 8, "sources": {"ne": {"type": "geojson", "data": "NE"}}, "layers": ['
            '{"id": "bg", "type": "background", "paint": {"background-color": "#fff"}},'
            '{"id": "l", "type": "line", "source": "ne", "layout": {"line-join": "round"},'
            ' "paint": {"line-color": "#f00", "line-width": 1000, "line-gap-width": 1000}}]}')
PY
ne=$(find "$root/Sources/MapBaseMap/Resources/naturalearth" -name 'ne_50m_countries.geojson' | head -1)
sed -i "s|\"NE\"|\"$ne\"|" wide.json
truncate -s 300M big.json

echo "| command | peak RSS (MiB) | wall | exit |"
echo "|---|---|---|---|"
measure "version" version
measure "render 512x512 (default)" -o a.png
measure "render 4096x4096 scale 2 (8192x8192 px)" --size 4096x4096 --scale 2 -o big1.png
measure "render 8192x8192 scale 2 (16384x16384 px, the largest image)" --size 8192x8192 --scale 2 -o huge.png
rm -f huge.png
measure "render 4096x4096 scale 2, zoom 3" --size 4096x4096 --scale 2 --center 50,10 --zoom 3 -o big2.png
measure "render, style with 1000-pt line and gap widths (Natural Earth 50m, 512x512)" --style wide.json -o w.png
measure "render --scene of 300 MiB (refused)" --scene big.json -o x.png
measure "diff 8192x8192 PNGs (the largest accepted)" diff big1.png big2.png
measure "tiles world z0-6 shard 1/2, all cores, MBTiles" tiles -o w1.mbtiles --zoom 0-6 --shard 1/2 --quiet
measure "tiles world z0-6 shard 2/2, metatile 16, 512@2x (largest metatile)" tiles -o w2.mbtiles --zoom 0-6 --shard 2/2 --metatile 16 --tile-size 512 --scale 2 --quiet
measure "tiles world z0-6 into a folder" tiles -o folder --zoom 0-6 --quiet
"$exe" tiles -o w3.mbtiles --zoom 0-6 --shard 2/2 --quiet
measure "mbtiles merge of two shards" mbtiles merge m.mbtiles w1.mbtiles w3.mbtiles
measure "tiles --zoom 0-22 (refused: count)" tiles -o z.mbtiles --zoom 0-22
measure "geocode --reverse" geocode --reverse 60.17,24.94
measure "geocode a place name" geocode Helsinki
measure "geocode --input of 1,000,000 CSV rows" geocode --input points.csv -o out.csv
