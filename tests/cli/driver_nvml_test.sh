#!/usr/bin/env bash
# dra driver nvml against the fake libnvidia-ml of the test suite
# (DRA_FAKE_NVML, set by tests/CMakeLists.txt): printed slices, and clear
# errors when NVML is missing or fails.
source "$(dirname "${BASH_SOURCE[0]}")/common.sh"
fake=${DRA_FAKE_NVML:?DRA_FAKE_NVML must name the fake NVML library}
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

out=$("$dra" driver nvml --help 2>&1); rc=$?
[[ $rc -eq 0 && $out == *--nvml-library* && $out == *--print-slices* ]] || fail "--help: $rc"

"$dra" driver nvml --node-name gpu-node --nvml-library "$fake" --print-slices > "$tmp/s.yaml"; rc=$?
[[ $rc -eq 0 ]] || fail "print-slices: exit $rc"
out=$("$dra" validate -q -f "$tmp/s.yaml" 2>&1) || fail "slices invalid: $out"
python3 - "$tmp/s.yaml" <<'PY' || fail "slices content"
import sys, yaml
docs = [d for d in yaml.safe_load_all(open(sys.argv[1])) if d]
assert len(docs) == 2, len(docs)  # one per physical GPU
assert all(d["spec"]["driver"] == "gpu.nvidia.com" for d in docs)
names = [[x["name"] for x in d["spec"]["devices"]] for d in docs]
assert names == [["gpu-0-mig-1g5gb-19-0", "gpu-0-mig-2g10gb-14-2"], ["gpu-1"]], names
mig = docs[0]["spec"]["devices"][1]
assert mig["attributes"]["profile"] == {"string": "2g.10gb"}, mig
assert mig["capacity"]["memory"] == {"value": "9856Mi"}, mig
gpu = docs[1]["spec"]["devices"][0]
assert gpu["attributes"]["productName"] == {"string": "NVIDIA H100 80GB HBM3"}, gpu
assert gpu["attributes"]["driverVersion"] == {"version": "550.54.15"}, gpu
PY

# (The stream publisher's slice names end in a random suffix.)
unnamed() { grep -v '^  name: 0'; }
NVML_LIBRARY=$fake "$dra" driver nvml --node-name gpu-node --print-slices | unnamed |
  cmp -s - <(unnamed < "$tmp/s.yaml") || fail "NVML_LIBRARY not honoured"

out=$("$dra" driver nvml --node-name n --nvml-library /nonexistent/libnvidia-ml.so.1 \
      --print-slices 2>&1); rc=$?
[[ $rc -eq 1 && $out == 'error: cannot load NVML library "/nonexistent/libnvidia-ml.so.1": '* ]] ||
  fail "missing NVML: $rc $out"
out=$(FAKE_NVML_INIT_ERROR=9 "$dra" driver nvml --node-name n --nvml-library "$fake" \
      --print-slices 2>&1); rc=$?
[[ $rc -eq 1 && $out == "error: NVML initialization failed ($fake): Driver Not Loaded" ]] ||
  fail "NVML init failure: $rc $out"

if [[ $failures -ne 0 ]]; then
  echo "$failures failure(s)"
  exit 1
fi
echo ok
