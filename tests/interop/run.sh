#!/usr/bin/env bash
# The differential test against upstream Kubernetes (docs/INTEROP.md):
#   run.sh DRA_PROGRAM SOURCE_DIR [difftest flags...]
# Builds interop/cmd/difftest with Go (module downloads and build results are
# cached under ${XDG_CACHE_HOME:-~/.cache}/dra-interop) and runs it on
# tests/scenarios/, 2,000 seeded random scenarios and 5,000 random CEL pairs.
# Exit 77 (ctest: skipped) when Go is not installed.
set -uo pipefail
dra=$1
src=$2
shift 2
# DRA_INTEROP_GO names the go program (default: go on PATH, else /usr/local/go/bin/go).
go_bin=${DRA_INTEROP_GO:-$(command -v go || echo /usr/local/go/bin/go)}
if [[ ! -x "$go_bin" ]]; then
  echo "SKIPPED: Go is not installed, so the differential tests against upstream Kubernetes did not run"
  exit 77
fi
PATH=$(dirname "$go_bin"):$PATH
cache=${XDG_CACHE_HOME:-$HOME/.cache}/dra-interop
export GOFLAGS=-mod=mod
export GOMODCACHE=${DRA_INTEROP_GOMODCACHE:-$cache/gomod}
export GOCACHE=${DRA_INTEROP_GOCACHE:-$cache/gocache}
mkdir -p "$cache/bin"
start=$(date +%s)
if ! (cd "$src/interop" && go build -o "$cache/bin/difftest" ./cmd/difftest); then
  echo "FAILED: building interop/cmd/difftest (needs the Go module proxy on the first run)"
  exit 1
fi
if ! (cd "$src/interop" && go test ./... > "$cache/go-test.log" 2>&1); then
  cat "$cache/go-test.log"
  echo "FAILED: go test ./... in interop/"
  exit 1
fi
echo "oracle built and its unit tests passed in $(($(date +%s) - start))s ($(go version | cut -d' ' -f3), cache $cache)"
# Minimized differences become regression cases under tests/scenarios/,
# except in CI, where the path is only reported.
if [[ -n "${CI:-}" ]]; then
  minimize=$(mktemp -d -t dra-interop-minimized-XXXXXX)
else
  minimize=$src/tests/scenarios
fi
# DRA_INTEROP_SEED picks other random scenarios and CEL pairs (default 1: the same every run).
exec "$cache/bin/difftest" --dra "$dra" --seed "${DRA_INTEROP_SEED:-1}" --scenarios "$src/tests/scenarios" \
  --divergences "$src/tests/interop/divergences.tsv" --minimize-dir "$minimize" "$@"
