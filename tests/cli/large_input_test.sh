#!/usr/bin/env bash
# Hostile sizes through dra validate: a 100 MB manifest holding one
# ResourceSlice with a million devices, deep nesting, and a billion-laughs
# YAML document. Each must end with a clear answer or error, under a memory
# cap, never a crash or a hang.
set -uo pipefail
dra=$1
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
failures=0
fail() { echo "FAIL: $*"; failures=$((failures + 1)); }
# Bounded memory: 6 GiB of address space for each run.
run() { (ulimit -v 6291456; timeout 300 "$dra" "$@"); }

python3 - "$work/huge.json" <<'PY'
import sys
with open(sys.argv[1], "w") as f:
    f.write('{"apiVersion":"resource.k8s.io/v1","kind":"ResourceSlice","metadata":{"name":"huge"},'
            '"spec":{"driver":"gpu.example.com","pool":{"name":"p","generation":0,"resourceSliceCount":1},'
            '"allNodes":true,"devices":[')
    for i in range(1000000):
        if i:
            f.write(",")
        f.write('{"name":"gpu-%d","attributes":{"model":{"string":"H100-80GB-HBM3"}},"capacity":{"memory":{"value":"80Gi"}}}' % i)
    f.write("]}}")
PY
size=$(stat -c %s "$work/huge.json")
[[ $size -gt 100000000 ]] || fail "generator made only $size bytes"
out=$(run validate -q -f "$work/huge.json" 2>&1); rc=$?
[[ $rc -eq 1 ]] || fail "million devices: exit $rc, want 1: ${out:0:500}"
[[ $out == *'spec.devices: Too many: 1000000: must have at most 128 items'* ]] || fail "million devices: ${out:0:500}"

python3 -c 'print("[" * 200000 + "]" * 200000)' > "$work/deep.json"
out=$(run validate -f "$work/deep.json" 2>&1); rc=$?
[[ $rc -eq 2 ]] || fail "deep JSON: exit $rc, want 2: ${out:0:300}"

python3 -c 'print("a:\n" + "".join(" " * i + "- \n" for i in range(1, 3000)))' > "$work/deep.yaml"
python3 -c 'print("[" * 200000)' > "$work/deepflow.yaml"
for f in deep.yaml deepflow.yaml; do
  out=$(run validate -f "$work/$f" 2>&1); rc=$?
  [[ $rc -eq 1 || $rc -eq 2 ]] || fail "$f: exit $rc: ${out:0:300}"
done

{
  echo 'a: &a ["lol","lol","lol","lol","lol","lol","lol","lol","lol"]'
  prev=a
  for n in b c d e f g h i j; do
    echo "$n: &$n [*$prev,*$prev,*$prev,*$prev,*$prev,*$prev,*$prev,*$prev,*$prev]"
    prev=$n
  done
} > "$work/laughs.yaml"
out=$(run validate -f "$work/laughs.yaml" 2>&1); rc=$?
[[ $rc -eq 2 ]] || fail "billion laughs: exit $rc, want 2: ${out:0:300}"

head -c 3000000 /dev/urandom > "$work/random.yaml"
out=$(run validate -f "$work/random.yaml" 2>&1); rc=$?
[[ $rc -eq 1 || $rc -eq 2 ]] || fail "random bytes: exit $rc: ${out:0:300}"

echo "large_input_test: $failures failures"
[[ $failures -eq 0 ]]
