#!/usr/bin/env bash
# Runs the test suite under a sanitizer: Scripts/sanitize.sh address|thread [FILTER]
#   address: AddressSanitizer (heap/stack overflows, use after free); leak detection is off (Foundation and the
#            Swift runtime keep process-lifetime caches that LeakSanitizer reports).
#   thread:  ThreadSanitizer (data races); with no FILTER, the concurrency suites (CONCURRENCY_SUITES below).
#   FILTER:  a `swift test --filter` regular expression; "all" runs the whole suite.
# Each sanitizer builds into its own scratch folder (.build/sanitize-KIND), so the normal debug build is kept.
# Stops at the first report (halt_on_error) and exits non-zero; the report names the racing or faulty accesses.
set -euo pipefail

# The suites that run code on several threads at once: tiles on 1 and all cores (shared label placement,
# metatiles, sinks), concurrent snapshots of the golden corpus, styled views on four threads (style, font,
# source and vector-tile caches), scenes prepared once and used from many threads, OnceCache itself, and
# buckets made on a helper thread while earlier layers are drawn (BucketPipelineTests), and symbol layouts kept
# by a source while views are drawn over it on several threads (KeptSymbolLayoutTests).
CONCURRENCY_SUITES='TileRenderingTests|DeterminismTests|StyleDeterminismTests|PreparedSceneTests|OnceCacheTests|VectorSourceTests|BucketPipelineTests|KeptSymbolLayoutTests'

if [[ $# -lt 1 || $# -gt 2 ]]; then
    echo "usage: $0 address|thread [FILTER]" >&2
    exit 64
fi
kind=$1
filter=${2:-}
case $kind in
address) ;;
thread) [[ -z $filter ]] && filter=$CONCURRENCY_SUITES ;;
*)
    echo "$0: unknown sanitizer '$kind': use address or thread" >&2
    exit 64
    ;;
esac
[[ $filter == all ]] && filter=

cd "$(dirname "$0")/.."
# The Swift backtracer would stall on each report; the sanitizers print their own stacks.
export SWIFT_BACKTRACE=enable=no
export ASAN_OPTIONS="detect_leaks=0:halt_on_error=1:${ASAN_OPTIONS:-}"
export TSAN_OPTIONS="halt_on_error=1:second_deadlock_stack=1:${TSAN_OPTIONS:-}"

args=(--sanitize="$kind" --scratch-path ".build/sanitize-$kind")
[[ -n $filter ]] && args+=(--filter "$filter")
echo "sanitize: swift test ${args[*]}" >&2
swift test "${args[@]}"
