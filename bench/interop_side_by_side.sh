#!/usr/bin/env bash
# Side-by-side benchmark of dra and upstream Kubernetes (issue 5) on the same
# inputs in one run: seeded scenarios from `dra gen scenario --profile bench`
# and seeded CEL expression-by-device pairs, each timed by the same loop in
# both programs (bench/interop_side_by_side_bench.cc, interop/cmd/bench).
#
#   bench/interop_side_by_side.sh [BUILD_DIR]    (default: build)
#
# Environment: COUNT scenarios (10), NODES per scenario (100), DEVICES per
# node (8), ITER timed calls per scenario (50), CEL_EXPRS (100) x CEL_DEVICES
# (50) pairs, SKIP_BUILD. Prints a markdown table (docs/PERFORMANCE.md).
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
build=${1:-$root/build}
count=${COUNT:-10}
nodes=${NODES:-100}
devices=${DEVICES:-8}
iter=${ITER:-50}
if ! command -v go > /dev/null 2>&1; then
  [[ -x /usr/local/go/bin/go ]] || { echo "Go is not installed: no upstream side to compare"; exit 2; }
  PATH=/usr/local/go/bin:$PATH
fi
# SKIP_BUILD=1: use the programs already in BUILD_DIR (dra, bench/interop_side_by_side_bench).
[[ -n "${SKIP_BUILD:-}" ]] || cmake --build "$build" --target dra interop_side_by_side_bench > /dev/null
cache=${XDG_CACHE_HOME:-$HOME/.cache}/dra-interop
export GOFLAGS=-mod=mod GOMODCACHE=${DRA_INTEROP_GOMODCACHE:-$cache/gomod} GOCACHE=${DRA_INTEROP_GOCACHE:-$cache/gocache}
mkdir -p "$cache/bin"
(cd "$root/interop" && go build -o "$cache/bin/bench" ./cmd/bench)
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
"$build/dra" gen scenario --profile bench --nodes "$nodes" --devices "$devices" --seed 1 \
  --count "$count" --out-dir "$work/scenarios"
"$cache/bin/bench" --write-cel "$work" --seed 1 --exprs "${CEL_EXPRS:-100}" --devices "${CEL_DEVICES:-50}"
args=(--scenarios "$work/scenarios" --iterations "$iter" --cel-slice "$work/cel-slice.yaml"
      --cel-exprs "$work/cel-exprs.txt")
"$cache/bin/bench" "${args[@]}" > "$work/upstream.jsonl"
"$build/bench/interop_side_by_side_bench" "${args[@]}" > "$work/dra.jsonl"
echo "$count scenarios of $nodes nodes x $devices devices (dra gen scenario --profile bench), $iter calls each;"
echo "$(nproc) CPUs, $(go version | cut -d' ' -f3), k8s.io/dynamic-resource-allocation v0.37.2"
echo
"$cache/bin/bench" --table "$work/upstream.jsonl" "$work/dra.jsonl"
