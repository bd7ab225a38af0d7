#!/usr/bin/env bash
# Configures and builds one flavour of dra. Usage: scripts/build.sh [release|asan|fuzz] [targets...]
#   release  build/       GCC, -O2: the program, tests and benchmarks
#   asan     build-asan/  clang, ASan + UBSan: the tests and the libFuzzer targets
#   fuzz     alias of asan (the fuzz targets live in build-asan/fuzz/)
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
flavour=${1:-release}
shift || true
jobs=${DRA_JOBS:-$(nproc)}
case "$flavour" in
  release) dir=build; args=(-DCMAKE_BUILD_TYPE=Release) ;;
  asan|fuzz) dir=build-asan
    args=(-DCMAKE_BUILD_TYPE=Sanitize "-DCMAKE_CXX_FLAGS_SANITIZE=-O1 -g" -DCMAKE_CXX_COMPILER=clang++
          -DDRA_SANITIZE=ON -DDRA_FUZZ=ON -DDRA_BENCH=OFF) ;;
  *) echo "unknown flavour: $flavour" >&2; exit 2 ;;
esac
# ccache (Debian's) keeps rebuilds of a machine that has built before short,
# also for a clone in another directory (paths are hashed relative to the
# clone's root).
if command -v ccache > /dev/null; then
  args+=(-DCMAKE_CXX_COMPILER_LAUNCHER=ccache)
  export CCACHE_MAXSIZE=${CCACHE_MAXSIZE:-8G}
  export CCACHE_BASEDIR=$root CCACHE_NOHASHDIR=true
fi
cmake -S "$root" -B "$root/$dir" -G Ninja "${args[@]}" >/dev/null
ninja -C "$root/$dir" -j "$jobs" "$@"
