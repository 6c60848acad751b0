#!/usr/bin/env bash
# Formats the Swift sources with the toolchain's swift-format and .swift-format;
# `Scripts/format.sh --lint` only checks (non-zero exit when something is off).
set -euo pipefail
cd "$(dirname "$0")/.."
if [ "${1:-}" = "--lint" ]; then
    swift format lint --strict -r Package.swift Sources Tests Benchmarks
else
    swift format -i -r Package.swift Sources Tests Benchmarks
fi
