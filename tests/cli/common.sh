# Sourced by the tests/cli/*_test.sh scripts, which ctest runs as
# `bash TEST DRA_PROGRAM SOURCE_DIR`: strict mode, the program, the source
# tree as the working directory, and fail() counting failures.
set -uo pipefail
dra=$1
root=$2
cd "$root"
failures=0
fail() { echo "FAIL: $*"; failures=$((failures + 1)); }
