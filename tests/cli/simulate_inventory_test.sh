#!/usr/bin/env bash
# dra simulate with NodeInventory documents (inventory.dra.local/v1alpha1):
# the inventory-fleet example, equivalence with the slices `dra driver example
# --print-slices` publishes, and errors naming file, document and field.
source "$(dirname "${BASH_SOURCE[0]}")/common.sh"
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

# The example fleet: every pod is placed where its hardware is.
json=$("$dra" simulate -f examples/clusters/inventory-fleet -o json); rc=$?
[[ $rc -eq 0 ]] || fail "inventory-fleet rc $rc"
python3 - "$json" <<'PY' || fail "inventory-fleet json"
import json, sys
r = json.loads(sys.argv[1])
s = r["summary"]
assert (s["scheduled"], s["pending"], s["nodes"]) == (33, 0, 7), s
# 16 whole H100s, 8 partitionable GPUs and 2 shared GPUs.
assert s["devices"] == 26, s
node = {p["name"]: p["node"] for p in r["pods"]}
assert {node["train-big"], node["train-0"], node["train-1"]} == {"train-0", "train-1"}, node
assert node["train-0"] == node["train-1"] != node["train-big"], node
for name, n in node.items():
    prefix = {"infer": "infer-", "notebook": "notebook-0", "web": "cpu-"}.get(name.split("-")[0])
    if prefix:
        assert n.startswith(prefix), (name, n)
for part in r["partitions"]:
    for c in part["counters"].values():
        assert c["consumed"] <= c["total"], part
shared = [d for d in r["devices"] if "capacity" in d]
assert sum(d["capacity"]["memory"]["consumed"] for d in shared) == 8 * 16 * 2**30, shared
assert not any("not defined" in w for w in r.get("warnings", [])), r.get("warnings")
PY

# An inventory simulates exactly like the Nodes plus the slices the example
# driver prints for each of them.
cat > "$tmp/inv.yaml" <<'YAML'
apiVersion: inventory.dra.local/v1alpha1
kind: NodeInventory
metadata:
  name: mig
spec:
  namePrefix: gpu-
  count: 2
  labels: {pool: gpu}
  allocatable: {cpu: "64", memory: 256Gi, pods: "110"}
  drivers:
  - numDevices: 2
    migPartitions: true
YAML
mkdir "$tmp/explicit"
for n in gpu-0 gpu-1; do
  cat >> "$tmp/explicit/nodes.yaml" <<YAML
---
apiVersion: v1
kind: Node
metadata:
  name: $n
  labels: {pool: gpu, kubernetes.io/hostname: $n}
status:
  capacity: {cpu: "64", memory: 256Gi, pods: "110"}
  allocatable: {cpu: "64", memory: 256Gi, pods: "110"}
YAML
  env -i "$dra" driver example --print-slices --node-name $n --num-devices 2 --mig-partitions \
    > "$tmp/explicit/slices-$n.yaml" || fail "print-slices $n"
done
w=examples/clusters/inventory-fleet
a=$("$dra" simulate -f $w/classes.yaml -f $w/workload.yaml -f "$tmp/inv.yaml" -o json)
b=$("$dra" simulate -f $w/classes.yaml -f $w/workload.yaml -f "$tmp/explicit" -o json)
python3 - "$a" "$b" <<'PY' || fail "inventory differs from printed slices"
import json, sys
a, b = (json.loads(x) for x in sys.argv[1:3])
strip = lambda r: ([(p["name"], p["node"], p.get("reason")) for p in r["pods"]], r["partitions"])
assert a["summary"]["scheduled"] > 0
assert strip(a) == strip(b), (strip(a), strip(b))
PY

# Errors: exit 2, naming file, document and field.
expect_error() {  # <name> <expected substring> <yaml>
  printf '%s\n' "$3" > "$tmp/$1.yaml"
  out=$("$dra" simulate -f "$tmp/$1.yaml" 2>&1); rc=$?
  [[ $rc -eq 2 && $out == *"$2"* ]] || fail "$1: rc $rc: $out"
}
head='apiVersion: inventory.dra.local/v1alpha1
kind: NodeInventory
metadata: {name: bad}'
expect_error unknown-field "unknown-field.yaml: document 1: NodeInventory bad: spec.gpus: unknown field" \
  "$head
spec: {names: [a], gpus: 2}"
expect_error count "NodeInventory bad: spec.count: 100000 is out of range (1 to 10000)" \
  "$head
spec: {namePrefix: n-, count: 100000}"
expect_error name "spec.names[0]: \"Node_A\" is not a DNS label" \
  "$head
spec: {names: [Node_A]}"
expect_error modes "spec.drivers[0]: migPartitions and allowMultipleAllocations cannot both be true" \
  "$head
spec: {names: [a], drivers: [{migPartitions: true, allowMultipleAllocations: true}]}"
expect_error duplicate "duplicate.yaml: document 2: NodeInventory bad: node a is also defined as a Node (" \
  "apiVersion: v1
kind: Node
metadata: {name: a}
---
$head
spec: {names: [a]}"
expect_error kind "kind.yaml: document 1: no kind \"NodeInventorys\" in version" \
  "apiVersion: inventory.dra.local/v1alpha1
kind: NodeInventorys
metadata: {name: x}"
# dra validate decodes NodeInventory documents the same way; other commands
# do not know the kind.
out=$("$dra" validate -f "$tmp/inv.yaml" 2>&1); rc=$?
[[ $rc -eq 0 && $out == *"inv.yaml: document 1 (line 1): NodeInventory \"mig\" is valid"* ]] ||
  fail "validate: $rc $out"
out=$("$dra" validate -f "$tmp/count.yaml" 2>&1); rc=$?
[[ $rc -eq 1 && $out == *"count.yaml: document 1 (line 1): NodeInventory bad: spec.count: 100000 is out of range"* ]] ||
  fail "validate bad: $rc $out"
out=$("$dra" allocate --node gpu-0 -f "$tmp/inv.yaml" 2>&1); rc=$?
[[ $rc -ne 0 && $out == *"no matches for kind \"NodeInventory\""* ]] || fail "allocate: $rc $out"

[[ $failures -eq 0 ]] || { echo "$failures failure(s)"; exit 1; }
echo "ok"
