#!/usr/bin/env bash
# The whole test suite: set up, then
#   1. formatting check (clang-format), the layering check (src/layers.txt)
#      and the citation check (no references to notes outside the repository),
#   2. release build, clang-tidy over src/, and every test under ctest (the
#      differential tests and the tests against a real control plane, which
#      need Go, in steps of their own),
#   3. the same tests built by clang with AddressSanitizer and UndefinedBehaviorSanitizer,
#   4. every libFuzzer target (same build) for a bounded time (DRA_FUZZ_SECONDS each, default 30).
# Ends with one line "tests: N passed, N failed" counting ctest cases of both
# builds, the format and tidy checks, and the fuzz targets.
set -uo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
cd "$root"
fuzz_seconds=${DRA_FUZZ_SECONDS:-30}
passed=0
failed=0
failed_names=()  # what failed, repeated at the very end where a log's tail shows it
failed_tails=$(mktemp)  # the last lines of each failed ctest case's output, for the same reason
trap 'rm -f "$failed_tails"' EXIT
step() { echo; echo "=== $*"; }
count() {  # count <passed> <failed>
  passed=$((passed + $1)); failed=$((failed + $2))
}
# Runs ctest and adds its case counts.
run_ctest() {
  local log
  log=$(mktemp)
  ctest "$@" 2>&1 | tee "$log"
  local total fails
  total=$(sed -n 's/.*tests failed out of \([0-9]*\).*/\1/p' "$log" | tail -1)
  fails=$(sed -n 's/.*, \([0-9]*\) tests failed out of.*/\1/p' "$log" | tail -1)
  if [[ -z "$total" ]]; then
    count 0 1; failed_names+=("ctest $*: did not run"); echo "ctest did not run"; rm -f "$log"; return
  fi
  count $((total - fails)) "$fails"
  local name
  while read -r name; do
    failed_names+=("$2: $name")
    # --output-on-failure prints a case's output after its status line, up to
    # the next status line or the summary.
    local test_name=${name% (*}
    {
      echo "--- $2: $test_name (last 25 lines of its output)"
      awk -v t="$test_name" '
        /^ *[0-9]+\/[0-9]+ Test +#[0-9]+: / { on = (index($0, " " t " ") > 0); next }
        /^ +Start +[0-9]+: / { next }
        /^[0-9]+% tests passed/ { on = 0 }
        on' "$log" | tail -25
    } >> "$failed_tails"
  done < <(sed -n '/The following tests FAILED:/,/^$/s/^[[:space:]]*[0-9]* - \(.*\)$/\1/p' "$log")
  rm -f "$log"
}

step "bootstrap"
scripts/bootstrap.sh || exit 2

step "clang-format"
if scripts/check-format.sh; then count 1 0; else count 0 1; failed_names+=("clang-format"); fi

step "tree checks: layering (src/layers.txt) and citations"
if scripts/check-layers.sh; then count 1 0; else count 0 1; failed_names+=("layering"); fi
if scripts/check-citations.sh; then count 1 0; else count 0 1; failed_names+=("citations"); fi

step "release build and tests"
scripts/build.sh release || exit 2
step "clang-tidy"
if scripts/tidy.sh > build/clang-tidy.out 2>&1; then count 1 0; echo "clean"; else count 0 1; failed_names+=("clang-tidy"); cat build/clang-tidy.out; fi
step "release tests"
run_ctest --test-dir build --output-on-failure -j "$(nproc)" -LE 'interop|cluster'
step "differential tests against upstream Kubernetes (label interop, docs/INTEROP.md)"
if command -v go > /dev/null 2>&1 || [[ -x /usr/local/go/bin/go ]]; then
  run_ctest --test-dir build --output-on-failure -L interop
else
  echo "SKIPPED: Go is not installed, so the differential tests against upstream Kubernetes did not run"
fi
step "tests against a real Kubernetes v1.37.2 control plane (label cluster, docs/CLUSTER.md)"
if command -v go > /dev/null 2>&1 || [[ -x /usr/local/go/bin/go ]]; then
  run_ctest --test-dir build --output-on-failure -j "$(nproc)" -L cluster
else
  echo "SKIPPED: Go is not installed, so the tests against a real control plane did not run"
fi

step "sanitizer build (clang, ASan + UBSan): tests and fuzz targets"
scripts/build.sh asan || exit 2
step "sanitizer tests"
ASAN_OPTIONS=detect_leaks=1:abort_on_error=1 UBSAN_OPTIONS=print_stacktrace=1 \
  run_ctest --test-dir build-asan --output-on-failure -j "$(nproc)" -LE slow

step "fuzz targets (${fuzz_seconds}s each)"
for f in build-asan/fuzz/*_fuzz; do
  name=$(basename "$f")
  corpus="fuzz/corpus/${name%_fuzz}"
  work=$(mktemp -d)
  [[ -d "$corpus" ]] && cp -r "$corpus"/. "$work"/
  if "$f" -max_total_time="$fuzz_seconds" -rss_limit_mb=2048 -timeout=10 "$work" \
      > "build-asan/$name.log" 2>&1; then
    count 1 0
    echo "$name: clean, $(grep -o 'Done [0-9]* runs' "build-asan/$name.log")"
  else
    count 0 1
    failed_names+=("$name")
    echo "$name: FAILED"; tail -40 "build-asan/$name.log"
  fi
  rm -rf "$work"
done

echo
cat "$failed_tails"
for name in "${failed_names[@]}"; do echo "FAILED: $name"; done
echo "tests: $passed passed, $failed failed"
[[ $failed -eq 0 ]]
