#!/usr/bin/env bash
# Installs the Debian packages MapRaster builds and renders with, and only those that are missing.
# Idempotent: when everything is there it prints nothing and exits 0.
set -euo pipefail

PACKAGES=(
    pkg-config          # finds the C libraries for SwiftPM's systemLibrary targets
    libcairo2-dev       # Cairo 1.16: drawing and PNG encoding
    libfreetype-dev     # FreeType: glyph outlines
    libharfbuzz-dev     # HarfBuzz: text shaping
    libicu-dev          # ICU: Arabic shaping and bidirectional text of glyph-PBF labels, as MapLibre Native
    libspng-dev         # libspng: exact straight-alpha PNG decoding for the diff tool
    libpixman-1-dev     # pixman: Cairo's rasterizer (version report)
    libpng-dev          # libpng: Cairo's PNG writer (version report)
    libsqlite3-dev      # SQLite: MBTiles output and MBTiles tile overlays
    libimagequant-dev   # libimagequant: palette (png8) tiles
    libdeflate-dev      # libdeflate: fast zlib streams for PNG encoding
    libmicrohttpd-dev   # libmicrohttpd: the HTTP/1.1 server of `mapraster serve`
    libjs-leaflet       # Leaflet, served locally by `mapraster serve` for its viewer page
    libturbojpeg0-dev   # libjpeg-turbo's TurboJPEG API: JPEG output (--format jpg)
    libwebp-dev         # libwebp: WebP output (--format webp)
    librsvg2-dev        # librsvg: SVG icons drawn by `mapraster sprite`
    fonts-dejavu-core   # DejaVu Sans, pinned by path for labels and attribution
    fonts-ipaexfont-gothic # IPAex Gothic (6 MB, vs 91 MB for Noto CJK): Japanese labels, pinned by path
    librsvg2-bin        # rsvg-convert: data preparation only (Scripts/make-sprite.py); the product does not need it
    fonts-open-sans     # Open Sans (2.8 MB): the stacks OpenMapTiles styles (OSM Bright) and MapLibre's render tests name
    fonts-lohit-deva    # Lohit Devanagari (187 kB, vs 42 MB for fonts-noto-core): the fallback for Devanagari labels
    fonts-nanum         # Nanum Gothic (10 MB, vs 91 MB for Noto CJK): the fallback for Korean Hangul, pinned by path
    fonts-droid-fallback # Droid Sans Fallback (1.8 MB, vs 91 MB for Noto CJK): Chinese and the kanji IPAex lacks (戶)
    fonts-noto-core     # Noto Sans Regular/Bold/Italic (42 MB): the stacks every OpenMapTiles style names, found by name
)

if ! command -v swift >/dev/null 2>&1; then
    echo "install-system-deps: the Swift toolchain (swift 6.x) is not on PATH; install it from swift.org and run this again" >&2
    exit 1
fi

missing=()
for package in "${PACKAGES[@]}"; do
    if ! dpkg-query -W -f='${Status}' "$package" 2>/dev/null | grep -q "install ok installed"; then
        missing+=("$package")
    fi
done
[ ${#missing[@]} -eq 0 ] && exit 0

if ! command -v apt-get >/dev/null 2>&1; then
    echo "install-system-deps: missing packages: ${missing[*]}" >&2
    echo "This machine has no apt-get. Install the equivalents of those Debian 12 packages with your package manager." >&2
    exit 1
fi

run_as_root=()
if [ "$(id -u)" -ne 0 ]; then
    if command -v sudo >/dev/null 2>&1 && { [ -t 0 ] || sudo -n true 2>/dev/null; }; then
        run_as_root=(sudo)
    else
        echo "install-system-deps: missing packages: ${missing[*]}" >&2
        echo "Installing them needs root. Run: sudo apt-get update && sudo apt-get install -y ${missing[*]}" >&2
        exit 1
    fi
fi

echo "install-system-deps: installing ${missing[*]}" >&2
export DEBIAN_FRONTEND=noninteractive
if ! "${run_as_root[@]}" apt-get update -qq >&2; then
    echo "install-system-deps: 'apt-get update' failed; check the network and /etc/apt/sources.list, then run this again" >&2
    exit 1
fi
if ! "${run_as_root[@]}" apt-get install -y -qq --no-install-recommends "${missing[@]}" >&2; then
    echo "install-system-deps: 'apt-get install ${missing[*]}' failed; see apt's message above" >&2
    exit 1
fi
