#!/usr/bin/env bash
# dra validate on the examples (all valid) and on broken manifests whose
# expected output is checked in beside them (tests/data/invalid/NAME.expected;
# tests/data/invalid/SOURCES.md says where each message comes from).
source "$(dirname "${BASH_SOURCE[0]}")/common.sh"

out=$("$dra" validate -R -f examples 2>&1); rc=$?
[[ $rc -eq 0 ]] || fail "examples: exit $rc, want 0"$'\n'"$out"

for f in tests/data/invalid/*.yaml; do
  name=${f%.yaml}
  want_rc=1
  [[ $(basename "$f") == syntax-* ]] && want_rc=2
  # The server's warnings (deprecated versions) are not part of the message.
  got=$("$dra" validate -q -f "$f" 2>&1 | grep -v ': Warning: '); rc=${PIPESTATUS[0]}
  [[ $rc -eq $want_rc ]] || fail "$f: exit $rc, want $want_rc"
  if [[ -f $name.expected ]]; then
    diff -u "$name.expected" <(printf '%s\n' "$got") > /dev/null ||
      fail "$f: output differs:"$'\n'"$(diff -u "$name.expected" <(printf '%s\n' "$got"))"
  else
    fail "$f: no $name.expected"
  fi
done

# Several files at once: invalid wins over valid, unreadable over invalid.
"$dra" validate -q -f examples/gpu-cluster -f tests/data/invalid/claim-bad-request.yaml > /dev/null 2>&1
[[ $? -eq 1 ]] || fail "mixed valid and invalid: want exit 1"
"$dra" validate -q -f tests/data/invalid/claim-bad-request.yaml -f tests/data/invalid/syntax-error.yaml > /dev/null 2>&1
[[ $? -eq 2 ]] || fail "invalid and unreadable: want exit 2"
"$dra" validate -f does/not/exist.yaml > /dev/null 2>&1
[[ $? -eq 2 ]] || fail "missing file: want exit 2"
"$dra" validate -f examples --feature-gates NoSuchGate=true > /dev/null 2>&1
[[ $? -eq 2 ]] || fail "unknown feature gate: want exit 2"

# Standard input.
out=$("$dra" validate -q -f - < tests/data/invalid/claim-bad-request.yaml 2>&1)
[[ $out == *'-: document 1 (line 1): The ResourceClaim "c1" is invalid:'* ]] || fail "stdin: $out"

# The admin-access label is taken from a Namespace in the input.
ns=$(mktemp)
printf 'apiVersion: v1\nkind: Namespace\nmetadata:\n  name: monitoring\n  labels:\n    resource.kubernetes.io/admin-access: "true"\n' > "$ns"
"$dra" validate -q -f "$ns" -f tests/data/invalid/claim-admin-access.yaml > /dev/null 2>&1
[[ $? -eq 0 ]] || fail "admin access with labelled namespace: want exit 0"
rm -f "$ns"

# JSON report.
json=$("$dra" validate -o json -f tests/data/invalid/claim-bad-request.yaml -f examples/gpu-cluster/classes.yaml)
python3 - "$json" <<'PY' || fail "json report"
import json, sys
r = json.loads(sys.argv[1])
assert r["summary"] == {"valid": 3, "invalid": 1, "notChecked": 0, "unreadable": 0}, r["summary"]
bad = [o for o in r["objects"] if not o["valid"]][0]
assert bad["kind"] == "ResourceClaim" and bad["name"] == "c1", bad
assert bad["errors"][1] == {"field": "spec.devices.requests[0].exactly.deviceClassName",
                            "reason": "FieldValueRequired", "message": "Required value"}, bad["errors"]
assert bad["message"].startswith('ResourceClaim.resource.k8s.io "c1" is invalid: ['), bad["message"]
PY

echo "validate_test: $failures failures"
[[ $failures -eq 0 ]]
