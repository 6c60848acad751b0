#!/usr/bin/env bash
# Formats the Swift sources with the toolchain's swift-format and .swift-format;
# `Scripts/format.sh --lint` only checks (non-zero exit when something is off).
set -euo pipefail
cd "$(dirname "$0")/.."
paths=(Package.swift)
for dir in Sources Tests Benchmarks; do [ -d "$dir" ] && paths+=("$dir"); done
if [ "${1:-}" = "--lint" ]; then
    swift format lint --strict -r "${paths[@]}"
else
    swift format -i -r "${paths[@]}"
fi
