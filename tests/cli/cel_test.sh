#!/usr/bin/env bash
# dra cel check and dra cel eval against the example slices.
source "$(dirname "${BASH_SOURCE[0]}")/common.sh"

out=$("$dra" cel check 'device.attributes["gpu.example.com"].model == "H100"'); rc=$?
[[ $rc -eq 0 && $out == "ok: estimated cost "* ]] || fail "check ok: $rc $out"
out=$("$dra" cel check 'device.driver'); rc=$?
[[ $rc -eq 1 && $out == "error: must evaluate to bool or the unknown type, not string" ]] ||
  fail "check non-bool: $rc $out"
out=$("$dra" cel check -o json '1 +'); rc=$?
[[ $rc -eq 1 ]] && python3 -c '
import json, sys
r = json.loads(sys.argv[1])
assert r["valid"] is False, r
assert r["error"].startswith("compilation failed: ERROR: <input>:1:4: Syntax error"), r
' "$out" || fail "check syntax error json: $rc $out"

out=$("$dra" cel eval 'device.capacity["gpu.example.com"].memory.compareTo(quantity("50Gi")) > 0' \
      -f examples/gpu-cluster/slices.yaml); rc=$?
want='gpu.example.com/node-1/gpu-0: true
gpu.example.com/node-1/gpu-1: true
gpu.example.com/node-2/gpu-0: false
3 devices: 2 matched, 1 did not match, 0 errors'
[[ $rc -eq 0 && $out == "$want" ]] || fail "eval: $rc"$'\n'"$out"

json=$("$dra" cel eval 'device.attributes["gpu.example.com"].profile == "full"' \
       -f examples/gpu-cluster/partitions.yaml -f examples/gpu-cluster/slices.yaml -o json)
python3 - "$json" <<'PY' || fail "eval json"
import json, sys
r = json.loads(sys.argv[1])
assert [list(e.keys()) for e in r][0] == ["driver", "pool", "device", "result"], r[0]
assert r[0] == {"driver": "gpu.example.com", "pool": "node-3", "device": "gpu-0", "result": True}, r[0]
assert r[1]["result"] is False, r[1]
errs = [e for e in r if "error" in e]
assert len(errs) == 3 and all(e["error"] == "no such key: profile" for e in errs), errs
assert all("result" not in e for e in errs)
PY

out=$("$dra" cel eval 'true' -f examples/gpu-cluster/slices.yaml --device gpu-1); rc=$?
[[ $rc -eq 0 && $out == *"gpu-1: true"* && $out != *"gpu-0"* ]] || fail "--device: $out"
"$dra" cel eval 'true' -f examples/gpu-cluster/slices.yaml --device nope > /dev/null 2>&1
[[ $? -eq 1 ]] || fail "--device naming nothing must exit 1"

echo "cel_test: $failures failures"
[[ $failures -eq 0 ]]
