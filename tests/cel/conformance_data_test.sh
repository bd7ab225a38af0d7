#!/usr/bin/env bash
# Extracts the cel-spec conformance suites from the npm package
# @bufbuild/cel-spec with Node and checks that the data the conformance test
# runs (tests/cel/data/conformance.tsv) is exactly what the package holds.
# Skips (exit 0, saying so) when node or npm is missing.
set -euo pipefail
root=$1
version=0.6.1
if ! command -v node > /dev/null || ! command -v npm > /dev/null; then
  echo "SKIPPED: node and npm are needed to extract the cel-spec conformance data"
  exit 0
fi
cache=${DRA_NPM_CACHE:-${XDG_CACHE_HOME:-$HOME/.cache}/dra/cel-spec-$version}
if [[ ! -f $cache/node_modules/@bufbuild/cel-spec/package.json ]]; then
  mkdir -p "$cache"
  npm install --silent --no-audit --no-fund --prefix "$cache" "@bufbuild/cel-spec@$version" > /dev/null
fi
out=$(mktemp)
trap 'rm -f "$out"' EXIT
node "$root/tests/cel/data/export_conformance.js" "$cache/node_modules" > "$out"
if ! diff -q "$root/tests/cel/data/conformance.tsv" "$out" > /dev/null; then
  echo "FAIL: tests/cel/data/conformance.tsv differs from @bufbuild/cel-spec@$version:"
  diff "$root/tests/cel/data/conformance.tsv" "$out" | head -20
  exit 1
fi
echo "conformance data matches @bufbuild/cel-spec@$version ($(wc -l < "$out") cases)"
