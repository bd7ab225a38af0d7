#!/usr/bin/env bash
# `dra explain`, `dra snapshot` and the kubectl plugin against the real
# kube-scheduler (docs/EXPLAIN.md): pods that fail for every reason the
# scheduler names (DRA, node taints, cpu, an extended resource nobody offers,
# a node selector, a missing claim, scheduling gates) are created on a real
# control plane; once kube-scheduler has decided, `dra explain` on the live
# cluster must agree with it for every pod: a bound pod is Scheduled on its
# node, a Pending one is Unschedulable with kube-scheduler's own PodScheduled
# message. The same holds on a `dra snapshot` of the cluster, and through
# `kubectl dra` (the program installed as kubectl-dra).
#   explain_test.sh SOURCE_DIR DRA_PROGRAM
# Exit 77 (ctest: skipped) when the cluster binaries are not built.
set -uo pipefail
src=$1
dra=$2
source "$src/tests/cluster/lib.sh"

tmp=$(mktemp -d -t dra-explain-test-XXXXXX)
failures=0
fail() { echo "FAIL: $*"; failures=$((failures + 1)); }
cleanup() {
  cluster_down
  if [[ $failures -eq 0 ]]; then rm -rf "$tmp"; else echo "kept $tmp (cluster logs in $tmp/cluster/logs)"; fi
}

cluster_up "$tmp/cluster" --components scheduler,controller-manager --kubelet node-1 --kubelet node-2
rc=$?
[[ $rc -eq 77 ]] && exit 77
[[ $rc -eq 0 ]] || { echo "FAIL: cluster_up"; exit 1; }
trap cleanup EXIT

kubectl taint node node-2 nvidia.com/gpu=present:NoSchedule > /dev/null || fail "kubectl taint"
kubectl create -f - > /dev/null <<'YAML' || fail "kubectl create"
apiVersion: resource.k8s.io/v1
kind: DeviceClass
metadata: {name: gpu.example.com}
spec:
  selectors: [{cel: {expression: 'device.driver == "gpu.example.com"'}}]
---
apiVersion: resource.k8s.io/v1
kind: ResourceSlice
metadata: {name: node-1-gpus}
spec:
  driver: gpu.example.com
  nodeName: node-1
  pool: {name: node-1, generation: 1, resourceSliceCount: 1}
  devices:
  - {name: gpu-0, attributes: {model: {string: a100}}}
  - {name: gpu-1, attributes: {model: {string: a100}}}
---
apiVersion: resource.k8s.io/v1
kind: ResourceClaimTemplate
metadata: {name: three}
spec:
  spec:
    devices:
      requests: [{name: gpus, exactly: {deviceClassName: gpu.example.com, count: 3}}]
---
apiVersion: resource.k8s.io/v1
kind: ResourceClaimTemplate
metadata: {name: one}
spec:
  spec:
    devices:
      requests: [{name: gpu, exactly: {deviceClassName: gpu.example.com, count: 1}}]
---
apiVersion: resource.k8s.io/v1
kind: ResourceClaim
metadata: {name: unused}
spec:
  devices:
    requests: [{name: gpu, exactly: {deviceClassName: gpu.example.com, count: 1}}]
YAML
# The first two pods take node-1's devices; the rest cannot be placed.
pod() {  # name, extra spec lines, container resources
  printf 'apiVersion: v1\nkind: Pod\nmetadata: {name: %s}\nspec:\n' "$1"
  [[ -n $2 ]] && printf '%s\n' "$2"
  printf '  containers: [{name: c, image: x%s}]\n---\n' "$3"
}
claim_of() { printf '  resourceClaims: [{name: g, resourceClaimTemplateName: %s}]\n' "$1"; }
uses=', resources: {claims: [{name: g}]}'
{
  pod one-a "$(claim_of one)" "$uses"
  pod one-b "$(claim_of one)" "$uses"
} | kubectl create -f - > /dev/null || fail "create one-a, one-b"
for _ in $(seq 1 60); do
  [[ $(kubectl get pods one-a one-b -o 'jsonpath={.items[*].spec.nodeName}') == "node-1 node-1" ]] && break
  sleep 0.5
done
{
  pod one-c "$(claim_of one)" "$uses"
  pod three "$(claim_of three)" "$uses"
  pod bigcpu '' ', resources: {requests: {cpu: "1000"}}'
  pod halfcpu '' ', resources: {requests: {cpu: "900m"}}'
  pod ext '' ', resources: {requests: {example.com/foo: "1"}, limits: {example.com/foo: "1"}}'
  pod sel '  nodeSelector: {foo: bar}
' ''
  pod tolerant '  tolerations: [{key: nvidia.com/gpu, operator: Exists, effect: NoSchedule}]
  nodeSelector: {kubernetes.io/hostname: node-2}
' ''
  pod missing '  resourceClaims: [{name: g, resourceClaimName: nosuch}]
' "$uses"
  pod gated '  schedulingGates: [{name: example.com/wait}]
' ''
} | kubectl create -f - > /dev/null || fail "create the other pods"

# kube-scheduler has decided once every pod is bound or has a PodScheduled
# condition, except `missing`, which PreEnqueue holds back without one.
pods=(one-a one-b one-c three bigcpu halfcpu ext sel tolerant missing gated)
for _ in $(seq 1 60); do
  undecided=$(kubectl get pods -o json | python3 -c '
import json, sys
n = 0
for p in json.load(sys.stdin)["items"]:
    if p["metadata"]["name"] == "missing" or p["spec"].get("nodeName"):
        continue
    if not any(c["type"] == "PodScheduled" for c in p["status"].get("conditions", [])):
        n += 1
print(n)')
  [[ $undecided == 0 ]] && break
  sleep 0.5
done
kubectl get pods -o json > "$tmp/pods.json"

# Compares `dra explain` (JSON files in DIR, one per pod) with what
# kube-scheduler did; prints the summary line; fails on any difference.
compare() {
  local dir=$1 label=$2
  python3 - "$tmp/pods.json" "$dir" "$label" <<'PY'
import json, sys
pods = {p["metadata"]["name"]: p for p in json.load(open(sys.argv[1]))["items"]}
compared = identical = unexplained = 0
for name, p in sorted(pods.items()):
    compared += 1
    try:
        got = json.load(open(f"{sys.argv[2]}/{name}.json"))
    except Exception as e:
        print(f"UNEXPLAINED {sys.argv[3]} {name}: no explanation ({e})")
        unexplained += 1
        continue
    node = p["spec"].get("nodeName")
    cond = next((c for c in p["status"].get("conditions", []) if c["type"] == "PodScheduled"), None)
    if node:
        ok = got["verdict"] == "Scheduled" and got["node"] == node
        want = f"Scheduled on {node}"
    elif cond is None:
        # PreEnqueue rejections leave no condition: Unschedulable with the plugin's message.
        ok = got["verdict"] == "Unschedulable" and got["node"] is None
        want = "Unschedulable (no PodScheduled condition)"
    else:
        ok = got["verdict"] == "Unschedulable" and got.get("message") == cond["message"]
        want = f"Unschedulable: {cond['message']}"
    if ok:
        identical += 1
    else:
        unexplained += 1
        print(f"UNEXPLAINED {sys.argv[3]} {name}: kube-scheduler: {want}\n  dra: {got['verdict']} {got.get('node')}: {got.get('message')}")
print(f"{sys.argv[3]}: compared {compared}, identical {identical}, known divergences 0, unexplained {unexplained}")
sys.exit(1 if unexplained else 0)
PY
}

mkdir -p "$tmp/live" "$tmp/snap-out"
for p in "${pods[@]}"; do
  "$dra" explain pod "default/$p" -o json --kubeconfig "$KUBECONFIG" > "$tmp/live/$p.json" 2> "$tmp/live/$p.err" ||
    fail "dra explain pod $p: $(cat "$tmp/live/$p.err")"
done
compare "$tmp/live" live || fail "live explanations differ from kube-scheduler"

# What the explanations say, beyond the verdict.
python3 - "$tmp/live" <<'PY' || fail "explanation contents"
import json, sys
d = sys.argv[1]
three = json.load(open(f"{d}/three.json"))
groups = {json.dumps(g.get("reasons")): g for g in three["nodes"]}
dra = next(g for g in three["nodes"] if g.get("reasons") == ["cannot allocate all claims"])
req = dra["explanation"]["requests"][0]
assert dra["node"] == "node-1" and req["requested"] == 3 and req["remaining"] == 0, dra
assert req["removed"]["allocated"] == 2 and req["blockedBy"] == "allocated", req
taint = next(g for g in three["nodes"] if g.get("reasons") == ["node(s) had untolerated taint(s)"])
assert taint["node"] == "node-2" and "explanation" not in taint, taint
assert three["closest"][0]["node"] == "node-1", three["closest"]
held = " ".join(three["heldOnClosest"])
assert "gpu-0" in held and "gpu-1" in held and "default/one-a" in held and "default/one-b" in held, held
one_a = json.load(open(f"{d}/one-a.json"))
devices = [r["device"] for c in one_a["claims"] for r in c["allocation"]["devices"]["results"]]
assert one_a["verdict"] == "Scheduled" and len(devices) == 1, one_a
missing = json.load(open(f"{d}/missing.json"))
assert missing["message"] == 'resourceclaim.resource.k8s.io "nosuch" not found', missing
PY

# A claim: allocated ones say who holds them; an unused one is explained as
# a pod using it would be.
"$dra" explain claim unused -o json --kubeconfig "$KUBECONFIG" > "$tmp/unused.json" || fail "explain claim unused"
python3 -c '
import json, sys
d = json.load(open(sys.argv[1]))
assert d["verdict"] == "Unschedulable" and "no pod uses it" in d["claim"], d
' "$tmp/unused.json" || fail "explain claim unused: $(cat "$tmp/unused.json")"

# The snapshot: the same answers from files.
"$dra" snapshot -o "$tmp/snap" --kubeconfig "$KUBECONFIG" 2> "$tmp/snapshot.err" ||
  fail "dra snapshot: $(cat "$tmp/snapshot.err")"
grep -q "11 pods" "$tmp/snapshot.err" || fail "snapshot counts: $(cat "$tmp/snapshot.err")"
for p in "${pods[@]}"; do
  "$dra" explain pod "$p" -f "$tmp/snap" -o json > "$tmp/snap-out/$p.json" 2> "$tmp/snap-out/$p.err" ||
    fail "dra explain pod $p -f snapshot: $(cat "$tmp/snap-out/$p.err")"
done
compare "$tmp/snap-out" snapshot || fail "snapshot explanations differ from kube-scheduler"
"$dra" get devices -f "$tmp/snap" > "$tmp/get.txt" || fail "dra get devices -f snapshot"
grep -q "gpu-0" "$tmp/get.txt" || fail "dra get on the snapshot: $(cat "$tmp/get.txt")"
"$dra" simulate -f "$tmp/snap" -o json > "$tmp/sim.json" || fail "dra simulate -f snapshot"
python3 -c '
import json, sys
s = json.load(open(sys.argv[1]))
pending = sorted(p["name"] for p in s["pods"] if p["phase"] == "Pending")
want = ["bigcpu", "ext", "gated", "missing", "one-c", "sel", "three"]
assert pending == want, pending
' "$tmp/sim.json" || fail "simulate on the snapshot"

# The kubectl plugin: the program under the name kubectl-dra on PATH.
mkdir -p "$tmp/plugins"
ln -s "$(cd "$(dirname "$dra")" && pwd)/$(basename "$dra")" "$tmp/plugins/kubectl-dra"
PATH="$tmp/plugins:$PATH" kubectl plugin list 2> /dev/null | grep -q "kubectl-dra" || fail "kubectl plugin list"
out=$(PATH="$tmp/plugins:$PATH" kubectl dra explain pod three -n default 2>&1)
[[ $out == "Pod default/three: Unschedulable"* ]] || fail "kubectl dra explain: $out"
out=$(PATH="$tmp/plugins:$PATH" kubectl dra explain pod nosuch 2>&1)
rc=$?
[[ $rc -eq 1 && $out == 'Error from server (NotFound): pods "nosuch" not found' ]] ||
  fail "kubectl dra explain of a missing pod: rc $rc: $out"
out=$(PATH="$tmp/plugins:$PATH" kubectl dra --help 2>&1)
[[ $out == *"Usage: kubectl dra"* ]] || fail "kubectl dra --help names itself: $out"

[[ $failures -eq 0 ]] && echo "PASS"
exit $((failures > 0))
