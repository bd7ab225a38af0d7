#!/usr/bin/env bash
# Fails when any C++ file differs from .clang-format's style.
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
cd "$root"
mapfile -t files < <(git ls-files '*.cc' '*.h' 2>/dev/null || find src include tests bench fuzz -name '*.cc' -o -name '*.h')
clang-format --dry-run -Werror "${files[@]}"
echo "clang-format: ${#files[@]} files clean"
