#!/usr/bin/env bash
# dra explain and dra simulate --write-snapshot on files: tests/data/explain
# (every expectation below worked out by hand from it; the message format is
# kube-scheduler's, checked against the real one by tests/cluster/explain_test.sh),
# the errors, the kubectl-dra name, and the simulation's own final state read
# back as a snapshot.
source "$(dirname "${BASH_SOURCE[0]}")/common.sh"
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
fixture=tests/data/explain

"$dra" explain pod train-0 -f "$fixture" -o json > "$tmp/train.json" || fail "explain train-0"
"$dra" explain pod default/infer-3 -f "$fixture" -o json > "$tmp/infer.json" || fail "explain infer-3"
"$dra" explain claim train -f "$fixture" -o json > "$tmp/claim-train.json" || fail "claim train"
"$dra" explain claim infer-3 -f "$fixture" -o json > "$tmp/claim-infer.json" || fail "claim infer-3"
"$dra" explain pods -f "$fixture" -o json > "$tmp/all.json" || fail "explain pods"
python3 - "$tmp" <<'PY' || fail "explain json"
import json, sys
d = sys.argv[1]
load = lambda n: json.load(open(f"{d}/{n}.json"))
t = load("train")
assert t["pod"] == "default/train-0" and t["verdict"] == "Unschedulable" and t["node"] is None, t
assert t["message"] == ("0/3 nodes are available: 1 node(s) had untolerated taint(s), 2 cannot "
                        "allocate all claims. preemption: 0/3 nodes are available: 3 Preemption "
                        "is not helpful for scheduling."), t["message"]
by_node = {g["node"]: g for g in t["nodes"]}
h0 = by_node["h100-0"]["explanation"]["requests"][0]
assert (h0["candidates"], h0["removed"]["node"], h0["removed"]["allocated"]) == (8, 4, 2), h0
assert (h0["remaining"], h0["requested"], h0["blockedBy"]) == (2, 4, "count"), h0
assert by_node["h100-1"]["reasons"] == ["node(s) had untolerated taint(s)"], by_node["h100-1"]
cpu = by_node["cpu-0"]["explanation"]["requests"][0]
assert cpu["absentHere"] == "no devices of driver gpu.example.com on this node", cpu
assert cpu["driversElsewhere"] == ["gpu.example.com"], cpu
assert [c["node"] for c in t["closest"]] == ["h100-0"], t["closest"]
assert t["heldOnClosest"] == ["gpu-2, gpu-3 by default/infer-3 (default/infer-3)"], t["heldOnClosest"]
assert t["summary"].startswith("claim default/train, request gpus needs 4 devices on one node; "
                               "the most any node has left is 2 (h100-0"), t["summary"]

i = load("infer")
assert i["verdict"] == "Scheduled" and i["node"] == "h100-0", i
fits = {n for g in i["nodes"] if g["feasible"] for n in ([g["node"]] if "node" in g else g["nodes"])}
assert fits == {"h100-0"}, i["nodes"]
devs = [r["device"] for c in i["claims"] for r in c["allocation"]["devices"]["results"]]
assert devs == ["gpu-2", "gpu-3"], devs

ct = load("claim-train")
assert ct["claim"] == "default/train" and ct["pod"] == "default/train-0", ct
ci = load("claim-infer")
assert ci["verdict"] == "Allocated" and ci["reservedFor"] == ["default/infer-3"], ci
assert [x["pod"] for x in load("all")["items"]] == ["default/infer-3", "default/train-0"]
PY

out=$("$dra" explain pod train-0 -f "$fixture")
[[ $out == "Pod default/train-0: Unschedulable"* && $out == *"Held on h100-0: gpu-2, gpu-3 by default/infer-3"* ]] ||
  fail "text output: $out"

# Errors: kubectl's words and exit statuses.
out=$("$dra" explain pod nosuch -f "$fixture" 2>&1); rc=$?
[[ $rc -eq 1 && $out == 'Error from server (NotFound): pods "nosuch" not found' ]] || fail "missing pod: $rc $out"
out=$("$dra" explain claim nosuch -f "$fixture" 2>&1); rc=$?
[[ $rc -eq 1 && $out == *'resourceclaims.resource.k8s.io "nosuch" not found' ]] || fail "missing claim: $rc $out"
out=$("$dra" explain widget x -f "$fixture" 2>&1); rc=$?
[[ $rc -eq 2 && $out == *'resource type "widget"'* ]] || fail "unknown kind: $rc $out"
out=$("$dra" explain pod x -f "$tmp/nowhere" 2>&1); rc=$?
[[ $rc -eq 2 && $out == *"does not exist"* ]] || fail "missing input: $rc $out"
printf 'apiVersion: v1\nkind: Pod\nmetadata: {name: p\n' > "$tmp/bad.yaml"
out=$("$dra" explain pod p -f "$tmp/bad.yaml" 2>&1); rc=$?
[[ $rc -eq 2 && $out == *"bad.yaml"* ]] || fail "broken YAML: $rc $out"
out=$("$dra" snapshot -o "$tmp/snap-x" --kubeconfig "$tmp/nowhere.kubeconfig" 2>&1); rc=$?
[[ $rc -eq 1 && $out == *"nowhere.kubeconfig"* ]] || fail "snapshot without a kubeconfig: $rc $out"

# Named kubectl-dra, the program is the kubectl plugin and says so.
ln -s "$(cd "$(dirname "$dra")" && pwd)/$(basename "$dra")" "$tmp/kubectl-dra"
out=$("$tmp/kubectl-dra" --help 2>&1)
[[ $out == *"Usage: kubectl dra"* ]] || fail "kubectl-dra --help: $out"
out=$("$tmp/kubectl-dra" explain pod train-0 -f "$fixture" 2>&1)
[[ $out == "Pod default/train-0: Unschedulable"* ]] || fail "kubectl-dra explain: $out"

# The state a simulation ends in, read back: every pod's verdict and message
# are the simulation's own.
"$dra" simulate -f examples/clusters/mixed-fleet -o json --write-snapshot "$tmp/sim" > "$tmp/sim.json" ||
  fail "simulate --write-snapshot"
"$dra" explain pods -A -f "$tmp/sim" -o json > "$tmp/sim-explain.json" || fail "explain the snapshot"
python3 - "$tmp" <<'PY' || fail "simulation snapshot read back"
import json, sys
d = sys.argv[1]
sim = {p["name"]: p for p in json.load(open(f"{d}/sim.json"))["pods"]}
got = {i["pod"].split("/")[1]: i for i in json.load(open(f"{d}/sim-explain.json"))["items"]}
assert set(sim) == set(got), (sorted(sim), sorted(got))
for name, p in sim.items():
    g = got[name]
    if p["phase"] == "Bound":
        assert g["verdict"] == "Scheduled" and g["node"] == p["node"], (name, g["verdict"], g["node"])
    else:
        assert g["verdict"] == "Unschedulable", (name, g["verdict"])
        assert g["message"] == p["reason"] == g["clusterMessage"], (name, g["message"], p["reason"])
PY

[[ $failures -eq 0 ]] && echo "PASS"
exit $((failures > 0))
