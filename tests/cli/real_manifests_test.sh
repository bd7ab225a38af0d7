#!/usr/bin/env bash
# validate, convert, simulate and allocate on public DRA manifests that showed
# a defect (../shared/real-manifests beside the clone, read in place; its
# SOURCES.tsv names each file's repository). What kube-apiserver v1.37.2
# answers for every one of them is checked by the cluster test
# cluster.real_manifests; here each command's handling of the kinds around
# the DRA objects.
source "$(dirname "${BASH_SOURCE[0]}")/common.sh"

real=$root/../shared/real-manifests
if [[ ! -d $real ]]; then
  echo "SKIPPED: no ../shared/real-manifests beside the clone, so the real-manifest cases did not run"
  exit 0
fi
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT

# The Kubernetes tutorial's driver install: ServiceAccount, RBAC and a
# DaemonSet beside a v1beta1 DeviceClass. The server accepts all five; dra
# checks the DeviceClass, warns as the server does about v1beta1 and lists the
# others as not checked.
f=$real/kubernetes__website/content__en__examples__dra__driver-install__all.yaml
out=$("$dra" validate -f "$f" 2> "$work/err"); rc=$?
[[ $rc -eq 0 ]] || fail "driver-install: exit $rc, want 0"$'\n'"$out"
for kind in ServiceAccount ClusterRole ClusterRoleBinding DaemonSet; do
  [[ $out == *"$kind \""*'" not checked ('* ]] || fail "driver-install: $kind not listed as not checked"$'\n'"$out"
done
[[ $out == *'DeviceClass "gpu.example.com" is valid'* ]] || fail "driver-install: DeviceClass"$'\n'"$out"
[[ $out == *'1 valid, 0 invalid, 4 not checked' ]] || fail "driver-install: summary"$'\n'"$out"
grep -q 'Warning: resource.k8s.io/v1beta1 DeviceClass is deprecated in v1.35+, unavailable in v1.38+$' "$work/err" ||
  fail "driver-install: no deprecation warning: $(cat "$work/err")"

# NVIDIA's MIG and MPS demo claims, still in resource.k8s.io/v1alpha2, which
# no 1.37 server serves.
f=$real/kubernetes-sigs__dra-driver-nvidia-gpu/demo__specs__mig+mps__sharing-demo-claims.yaml
out=$("$dra" validate -q -f "$f" 2>&1); rc=$?
[[ $rc -eq 1 ]] || fail "v1alpha2 claims: exit $rc, want 1"
[[ $out == *'no matches for kind "ResourceClaim" in version "resource.k8s.io/v1alpha2"'* ]] ||
  fail "v1alpha2 claims: $out"

# convert keeps what dra does not model: the Job of kueue's example with its
# args, and a Pod's command (NVIDIA's quickstart), in the input's order.
f=$real/kubernetes-sigs__kueue/site__static__examples__dra__sample-dra-counter-job.yaml
"$dra" convert -f "$f" -o json > "$work/job.json"; rc=$?
[[ $rc -eq 0 ]] || fail "convert kueue job: exit $rc"
python3 - "$work/job.json" "$f" << 'PY' || fail "convert kueue job: output"
import json, sys, yaml
got = json.load(open(sys.argv[1]))
want = [d for d in yaml.safe_load_all(open(sys.argv[2])) if d]
assert [i["kind"] for i in got["items"]] == [d["kind"] for d in want], got
assert got["items"][1] == want[1], "the Job is not as written"
PY
f=$real/kubernetes-sigs__dra-driver-nvidia-gpu/demo__specs__quickstart__v1__gpu-test1.yaml
"$dra" convert -f "$f" -o json > "$work/pods.json" || fail "convert gpu-test1: exit $?"
python3 - "$work/pods.json" "$f" << 'PY' || fail "convert gpu-test1: pods changed"
import json, sys, yaml
got = json.load(open(sys.argv[1]))
items = got["items"] if got.get("kind") == "List" else [got]
want = [d for d in yaml.safe_load_all(open(sys.argv[2])) if d and d["kind"] in ("Pod", "Namespace")]
assert [i for i in items if i["kind"] in ("Pod", "Namespace")] == want
assert any("command" in c for p in want if p["kind"] == "Pod" for c in p["spec"]["containers"])
PY
# kwok's page: Nodes keep their taints through convert.
f=$real/kubernetes-sigs__kwok/site__content__en__docs__examples__dra.md.heredocs.yaml
"$dra" convert -f "$f" -o json 2> "$work/err" > "$work/kwok.json"
python3 - "$work/kwok.json" << 'PY' || fail "convert kwok: Node taints lost: $(cat "$work/err")"
import json, sys
got = json.load(open(sys.argv[1]))
items = got["items"] if got.get("kind") == "List" else [got]
nodes = [i for i in items if i["kind"] == "Node"]
assert nodes and all(n["spec"].get("taints") for n in nodes), nodes
PY

# simulate expands kueue's Job into its pods, which get claims from the
# template; allocate ignores the Job.
f=$real/kubernetes-sigs__kueue/site__static__examples__dra__sample-dra-counter-job.yaml
out=$("$dra" simulate -f "$f" -o json 2> "$work/err"); rc=$?
python3 - "$out" << 'PY' || fail "simulate kueue job (exit $rc): $out $(cat "$work/err")"
import json, sys
r = json.loads(sys.argv[1])
pods = [p for p in r["pods"] if p["name"].startswith("sample-dra-counter-job-")]
assert len(pods) == 1, [p["name"] for p in r["pods"]]
PY
"$dra" allocate -f "$f" --node n1 > /dev/null 2> "$work/err"
grep -q 'no matches' "$work/err" && fail "allocate kueue job: $(cat "$work/err")"

echo "real_manifests_test: $failures failures"
[[ $failures -eq 0 ]]
