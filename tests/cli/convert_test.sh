#!/usr/bin/env bash
# dra convert: v1beta1 manifests to v1, and v1 through every version and back.
source "$(dirname "${BASH_SOURCE[0]}")/common.sh"

# The golden file is dra's output; cluster.real_manifests checks that output
# against kube-apiserver's own conversion of the same file.
got=$("$dra" convert -f examples/legacy-v1beta1/claim.yaml --to v1 2>&1); rc=$?
[[ $rc -eq 0 ]] || fail "legacy: exit $rc"
diff -u tests/data/convert/legacy-to-v1.yaml <(printf '%s\n' "$got") ||
  fail "legacy to v1 differs"

# Every example survives v1 -> vX -> v1 unchanged.
for v in v1beta2 v1beta1; do
  for f in examples/gpu-cluster/*.yaml; do
    direct=$("$dra" convert --now 2026-01-01T00:00:00Z -f "$f" -o json 2>/dev/null)
    round=$("$dra" convert --now 2026-01-01T00:00:00Z -f "$f" --to "$v" -o json 2>/dev/null |
            "$dra" convert --now 2026-01-01T00:00:00Z -f - -o json 2>/dev/null)
    # DeviceTaintRule is not served in v1beta1; skip that file there.
    if [[ $v == v1beta1 && $f == *taints.yaml ]]; then continue; fi
    [[ "$direct" == "$round" ]] || fail "$f through $v changed"
  done
done

"$dra" convert -f examples/gpu-cluster/taints.yaml --to v1beta1 > /dev/null 2>&1
[[ $? -eq 1 ]] || fail "DeviceTaintRule to v1beta1 must fail with exit 1"
"$dra" convert -f examples/gpu-cluster/taints.yaml --to v2 > /dev/null 2>&1
[[ $? -eq 2 ]] || fail "unknown version must fail with exit 2"

echo "convert_test: $failures failures"
[[ $failures -eq 0 ]]
