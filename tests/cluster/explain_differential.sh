#!/usr/bin/env bash
# The differential test of `dra explain` against the real kube-scheduler
# (docs/EXPLAIN.md): seeded random workloads from the shared generator
# (`dra gen cluster`: node taints and cordons, tolerations, node selectors,
# an extended resource served by DRA and by a device plugin, cpu requests
# no node can hold, template claims over the generator's devices) and
# scheduler_perf's DRA workloads (`dra gen workload`) are created on a real
# control plane, one fresh cluster each, and scheduled by the real
# kube-scheduler and resourceclaim controller. Once they have decided, for
# every pod `dra explain` on the live cluster must agree with what the
# scheduler did:
#   - a bound pod is Scheduled on its node, and that node is feasible for it
#     in the cluster without it; no device is handed out twice;
#   - a pod left Pending is Unschedulable, with kube-scheduler's own
#     PodScheduled message (pods PreEnqueue holds back have none);
# and `dra simulate` of the same manifests schedules the same number of pods
# where placement cannot change the count. The public manifests that form a
# scenario (../shared/real-manifests) are compared the same way. Disagreements listed in
# explain_divergences.txt are known; any other is unexplained and fails.
#   explain_differential.sh SOURCE_DIR DRA_PROGRAM [SEEDS]
# Prints one summary line: compared N, identical N, known divergences N,
# unexplained N. Exit 77 (ctest: skipped) without the cluster binaries.
set -uo pipefail
src=$1
dra=$2
seeds=${3:-6}
source "$src/tests/cluster/lib.sh"

tmp=$(mktemp -d -t dra-explain-diff-XXXXXX)
failures=0
fail() { echo "FAIL: $*"; failures=$((failures + 1)); }
cleanup() {
  cluster_down
  if [[ $failures -eq 0 ]]; then rm -rf "$tmp"; else echo "kept $tmp"; fi
}
trap cleanup EXIT

# name|command writing the manifests|placement-independent count (1/0)
workloads=()
for seed in $(seq 1 "$seeds"); do
  workloads+=("random-$seed|$dra gen cluster --seed $seed --nodes 6 --pods 30|0")
done
for w in template steady-full shared-claims extended-resource toleration first-available partitionable; do
  # Identical nodes and pods: the number placed does not depend on where.
  workloads+=("$w|$dra gen workload $w --nodes 6 --pods 30|1")
done
# The public manifests (../shared/real-manifests beside the clone) that form
# a scenario: kwok's DRA page has a tainted fake node with one GPU in a
# v1beta1 ResourceSlice and a Deployment that tolerates the taint and claims
# a GPU through a template; dra-example-driver's extended-resource example
# has a pod asking for its DeviceClass's implicit extended resource and one
# asking for example.com/gpu, which nothing maps, on the cluster its chart
# sets up (scenarios/example-driver-node.yaml).
real=$src/../shared/real-manifests
if [[ -d $real ]]; then
  workloads+=("real-kwok|cat $real/kubernetes-sigs__kwok/site__content__en__docs__examples__dra.md.heredocs.yaml|1")
  workloads+=("real-example-driver|cat $real/kubernetes-sigs__dra-example-driver/demo__examples__extended-resource-request__extended-resource-request.yaml $src/tests/cluster/scenarios/example-driver-node.yaml|1")
else
  echo "no ../shared/real-manifests beside the clone: its scenarios are not compared"
fi

compare() {  # compare DIR NAME INDEPENDENT: one verdict line per pod
  python3 - "$1" "$2" "$3" "$src/tests/cluster/explain_divergences.txt" <<'PY'
import json, re, sys
d, name, independent, divergence_file = sys.argv[1:5]
known = []
for line in open(divergence_file):
    line = line.strip()
    if line and not line.startswith("#"):
        pattern, _, why = line.partition("\t")
        known.append((re.compile(pattern), why))
pods = {p["metadata"]["name"]: p for p in json.load(open(f"{d}/pods.json"))["items"]}
ours = {i["pod"].split("/", 1)[1]: i for i in json.load(open(f"{d}/explain.json"))["items"]}

def verdict(problem, pod):
    """'identical', or 'known: why', or 'unexplained: problem'."""
    if problem is None:
        return "identical"
    for pattern, why in known:
        if pattern.search(f"{name}/{pod}: {problem}"):
            return f"known: {why}"
    return f"unexplained: {problem}"

# No device handed out twice (admin access and shared devices excepted).
held = {}
for c in json.load(open(f"{d}/claims.json"))["items"]:
    for r in (c.get("status", {}).get("allocation") or {}).get("devices", {}).get("results", []):
        if r.get("adminAccess") or r.get("shareID"):
            continue
        key = (r["driver"], r["pool"], r["device"])
        held.setdefault(key, []).append(c["metadata"]["name"])
twice = {k: v for k, v in held.items() if len(v) > 1}

for pod, p in sorted(pods.items()):
    got = ours.get(pod)
    node = p["spec"].get("nodeName")
    cond = next((c for c in p["status"].get("conditions", []) if c["type"] == "PodScheduled"), None)
    problem = None
    if got is None:
        problem = "dra explain has no answer"
    elif node:
        own = [g for g in got["nodes"] if node == g.get("node") or node in g.get("nodes", [])]
        if got["verdict"] != "Scheduled" or got["node"] != node:
            problem = f"bound to {node}; dra: {got['verdict']} {got['node']}"
        elif not own or not own[0]["feasible"]:
            why = own[0].get("reasons") if own else "not listed"
            problem = f"bound to {node}, which dra finds infeasible without the pod: {why}"
    elif cond is None:
        if got["verdict"] != "Unschedulable":
            problem = f"held back by PreEnqueue; dra: {got['verdict']} {got['node']}"
    elif got["verdict"] != "Unschedulable" or got.get("message") != cond["message"]:
        problem = (f"kube-scheduler: {cond['message']}\n    dra: {got['verdict']} "
                   f"{got['node']}: {got.get('message')}")
        # A Filter error aborts the attempt; kube-scheduler checks the nodes
        # in parallel and reports whichever error came first, so the node
        # it names is a race. Enough that dra finds that error on that node.
        framework = re.match(r'running "[A-Za-z]+" filter plugin: (.*)', cond["message"], re.S)
        if (got["verdict"] == "Unschedulable" and framework and
                re.match(r'running "[A-Za-z]+" filter plugin: ', got.get("message") or "")):
            on = [g.get("node") for g in got["nodes"]
                  if framework.group(1) in g.get("reasons", [])]
            if on:
                problem = f"Filter error named from another node: kube-scheduler's is dra's on {on[0]}"
    print(f"{verdict(problem, pod)}\t{name}/{pod}".replace("\n", " | "))
for key, claims in sorted(twice.items()):
    print(f"{verdict('device ' + '/'.join(key) + ' allocated to ' + ', '.join(claims), 'claims')}"
          f"\t{name}/claims")

real_bound = sum(1 for p in pods.values() if p["spec"].get("nodeName"))
sim = json.load(open(f"{d}/simulate.json"))
sim_bound = sum(1 for p in sim["pods"] if p["phase"] == "Bound")
if independent == "1":
    problem = None if sim_bound == real_bound else (
        f"kube-scheduler bound {real_bound} pods, dra simulate {sim_bound}")
    print(f"{verdict(problem, 'count')}\t{name}/count")
print(f"info\t{name}: {len(pods)} pods, kube-scheduler bound {real_bound}, dra simulate {sim_bound}",
      file=sys.stderr)
PY

}

results=$tmp/results.txt
: > "$results"
for entry in "${workloads[@]}"; do
  IFS='|' read -r name generate independent <<< "$entry"
  dir=$tmp/$name
  mkdir -p "$dir"
  $generate > "$dir/workload.yaml" || { fail "$name: generate"; continue; }
  # Deployments (of the real manifests) need their two controllers.
  cluster_up "$dir/cluster" --components scheduler,controller-manager \
    --controllers resourceclaim-controller,garbage-collector-controller,deployment-controller,replicaset-controller
  rc=$?
  [[ $rc -eq 77 ]] && exit 77
  [[ $rc -eq 0 ]] || { fail "$name: cluster_up"; continue; }
  trap cleanup EXIT  # cluster_up set its own
  kubectl create -f "$dir/workload.yaml" > /dev/null 2> "$dir/create.err" ||
    fail "$name: kubectl create: $(head -5 "$dir/create.err")"

  # Decided: every pod is bound or has a PodScheduled condition (or is held
  # back by PreEnqueue, which writes none), and nothing changed for 2 s.
  last=
  stable=0
  for _ in $(seq 1 240); do
    state=$(kubectl get pods -A -o json | python3 -c '
import json, sys
items = json.load(sys.stdin)["items"]
bound = sum(1 for p in items if p["spec"].get("nodeName"))
conds = sum(1 for p in items if not p["spec"].get("nodeName") and
            any(c["type"] == "PodScheduled" for c in p["status"].get("conditions", [])))
print(len(items), bound, conds)')
    if [[ $state == "$last" ]]; then stable=$((stable + 1)); else stable=0; fi
    last=$state
    read -r total bound conds <<< "$state"
    [[ $stable -ge 4 && $((bound + conds)) -ge $total ]] && break
    sleep 0.5
  done
  "$dra" simulate -f "$dir/workload.yaml" -o json > "$dir/simulate.json" 2> "$dir/simulate.err" ||
    fail "$name: dra simulate: $(head -5 "$dir/simulate.err")"
  # A pod's PodScheduled message is from its last attempt; a pod that an
  # event put back in the backoff queue (up to podMaxBackoffSeconds, 10 s)
  # has not been tried again yet. Disagreements are looked at again after
  # 5 s, three times at most, before they count.
  for look in 1 2 3 4; do
    kubectl get pods -A -o json > "$dir/pods.json"
    kubectl get resourceclaims -A -o json > "$dir/claims.json"
    "$dra" explain pods -A -o json --kubeconfig "$KUBECONFIG" > "$dir/explain.json" 2> "$dir/explain.err" ||
      fail "$name: dra explain pods: $(head -5 "$dir/explain.err")"
    compare "$dir" "$name" "$independent" > "$dir/results.txt"
    grep -q '^unexplained' "$dir/results.txt" || break
    [[ $look -lt 4 ]] && { echo "$name: disagreements, looking again in 5 s"; sleep 5; }
  done
  cat "$dir/results.txt" >> "$results"
  cluster_down
done

python3 - "$results" <<'PY'
import sys
lines = [l.rstrip("\n").split("\t", 1) for l in open(sys.argv[1]) if l.strip()]
compared = len(lines)
identical = sum(1 for v, _ in lines if v == "identical")
known = sum(1 for v, _ in lines if v.startswith("known"))
unexplained = [(v, w) for v, w in lines if v.startswith("unexplained")]
for v, w in unexplained:
    print(f"UNEXPLAINED {w}: " + v[len("unexplained: "):].replace(" | ", "\n  "))
for v, w in lines:
    if v.startswith("known"):
        print(f"known divergence {w}: {v[len('known: '):]}")
print(f"compared {compared}, identical {identical}, known divergences {known}, "
      f"unexplained {len(unexplained)}")
sys.exit(1 if unexplained else 0)
PY
[[ $? -eq 0 ]] || fail "unexplained differences"
[[ $failures -eq 0 ]] && echo "PASS"
exit $((failures > 0))
