#!/usr/bin/env bash
# Configures and builds one flavour of dra. Usage: scripts/build.sh [release|asan|fuzz] [targets...]
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
flavour=${1:-release}
shift || true
jobs=${DRA_JOBS:-$(nproc)}
case "$flavour" in
  release) dir=build; args=(-DCMAKE_BUILD_TYPE=Release) ;;
  asan) dir=build-asan; args=(-DCMAKE_BUILD_TYPE=Debug -DDRA_SANITIZE=ON -DDRA_BENCH=OFF) ;;
  fuzz) dir=build-fuzz; args=(-DCMAKE_BUILD_TYPE=Release -DCMAKE_CXX_COMPILER=clang++ -DDRA_FUZZ=ON) ;;
  *) echo "unknown flavour: $flavour" >&2; exit 2 ;;
esac
cmake -S "$root" -B "$root/$dir" -G Ninja "${args[@]}" >/dev/null
ninja -C "$root/$dir" -j "$jobs" "$@"
