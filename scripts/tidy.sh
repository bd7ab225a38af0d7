#!/usr/bin/env bash
# clang-tidy (checks in .clang-tidy) over the product sources in src/, using
# the release build's compile_commands.json. Fails on any finding.
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
cd "$root"
[[ -f build/compile_commands.json ]] || scripts/build.sh release >/dev/null
run-clang-tidy -quiet -p build -j "${DRA_JOBS:-$(nproc)}" "$root/src/" 2>&1 |
  grep -v -E '^[0-9]+ warnings generated|^Suppressed|^Use -header-filter|^Running clang-tidy|^Enabled checks|^    ' |
  tee build/clang-tidy.log
if grep -qE '(warning|error):' build/clang-tidy.log; then
  echo "clang-tidy: findings above"
  exit 1
fi
echo "clang-tidy: clean"
