#!/usr/bin/env bash
# Runs one libFuzzer target for a number of seconds: Scripts/fuzz.sh TARGET SECONDS [libFuzzer options]
#   TARGET: json, geojson, scene, style, png, image, mbtiles, mvt, pmtiles, server, staticmap or glyphs (the Fuzz/ package's Fuzz<Name> executables).
# Builds the Fuzz/ package (which depends on this one by path) with -sanitize=fuzzer, seeds the corpus from
# fixtures/, and stops at the first crash, at an input running over 5 s, or at one using over 1 GB.
# Crashing inputs land in Fuzz/.artifacts/TARGET/; turn each into a regression test in the normal suite.
# The growing corpus is kept in Fuzz/.corpus/TARGET/ (not committed). Fuzz/Dictionaries/TARGET.dict, when present,
# is passed as the libFuzzer dictionary.
set -euo pipefail

if [[ $# -lt 2 ]]; then
    echo "usage: $0 TARGET SECONDS [libFuzzer options]; TARGET is json, geojson, scene, style, png, image, mbtiles, mvt, pmtiles, server, staticmap or glyphs" >&2
    exit 64
fi
target=$1
seconds=$2
shift 2
root=$(cd "$(dirname "$0")/.." && pwd)

case $target in
json) product=FuzzJSON; seeds=$(find "$root/fixtures" -name '*.json' -size -256k; find "$root/fixtures" -name '*.geojson' -size -256k) ;;
geojson) product=FuzzGeoJSON; seeds=$(find "$root/fixtures" -name '*.geojson' -size -512k) ;;
scene) product=FuzzScene; seeds=$(find "$root/fixtures/scenes" "$root/fixtures/annotations" "$root/fixtures/diff/scenes" -name '*.json' -size -256k) ;;
png) product=FuzzPNG; seeds=$(find "$root/fixtures/graphics" "$root/fixtures/annotations" -name '*.png' -size -64k) ;;
image) product=FuzzImage; seeds=$(find "$root/fixtures/images" \( -name '*.jpg' -o -name '*.webp' \) -size -64k) ;;
mbtiles) product=FuzzMBTiles; seeds=$(find "$root/fixtures" -name '*.mbtiles' -size -1024k) ;;
style) product=FuzzStyle; seeds=$(find "$root/styles" "$root/fixtures" -name '*.json' -path '*style*' -size -256k) ;;
mvt) product=FuzzMVT; seeds=$(find "$root/fixtures" \( -name '*.mvt' -o -name '*.pbf' \) -size -256k) ;;
pmtiles) product=FuzzPMTiles; seeds=$(find "$root/fixtures" -name '*.pmtiles' -size -1024k) ;;
server) product=FuzzServer; seeds=$(find "$root/fixtures/server" -name 'request-*.txt') ;;
staticmap) product=FuzzStaticMap; seeds=$(find "$root/fixtures/staticmaps" -name '*.txt') ;;
glyphs) product=FuzzGlyphs; seeds=$(find "$root/fixtures" -path '*glyphs*' -name '*.pbf' -size -1024k) ;;
*)
    echo "$0: unknown target '$target': use json, geojson, scene, style, png, image, mbtiles, mvt, pmtiles, server, staticmap or glyphs" >&2
    exit 64
    ;;
esac

cd "$root/Fuzz"
swift build --product "$product" -Xswiftc -sanitize=fuzzer -Xswiftc -use-ld=lld >&2
binary=$(swift build --product "$product" -Xswiftc -sanitize=fuzzer -Xswiftc -use-ld=lld --show-bin-path)/$product

corpus=$root/Fuzz/.corpus/$target
artifacts=$root/Fuzz/.artifacts/$target
mkdir -p "$corpus" "$artifacts"
# Seeds written for a target (Fuzz/Seeds/TARGET/: inputs that reach what the fixtures do not) join them.
if [[ -d "$root/Fuzz/Seeds/$target" ]]; then seeds="$seeds $(find "$root/Fuzz/Seeds/$target" -type f)"; fi
for seed in $seeds; do cp -n "$seed" "$corpus/" 2>/dev/null || true; done

# The Swift backtracer would stall on every crash libFuzzer provokes on purpose.
export SWIFT_BACKTRACE=enable=no
# A target's dictionary (Fuzz/Dictionaries/TARGET.dict: its grammar's words), when it has one.
dictionary=()
if [[ -f "$root/Fuzz/Dictionaries/$target.dict" ]]; then dictionary=(-dict="$root/Fuzz/Dictionaries/$target.dict"); fi
exec "$binary" "$corpus" -max_total_time="$seconds" -timeout=5 -rss_limit_mb=1024 -max_len=65536 \
    -artifact_prefix="$artifacts/" -print_final_stats=1 "${dictionary[@]}" "$@"
