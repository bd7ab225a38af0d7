#!/usr/bin/env bash
# dra explain on a large snapshot, and dra snapshot beside kubectl get on the
# real kube-apiserver (docs/PERFORMANCE.md).
#
# Offline: scheduler_perf's "template" workload at NODES nodes (10 devices
# each) with PODS measured pods (and as many init pods, each with a claim),
# plus one pod asking for 11 devices on one node, is simulated and written
# as a snapshot (dra simulate --write-snapshot); then, ROUNDS times each,
# `dra explain pod` of that Pending pod (Filter and the allocator's
# explanation on every node) and of a bound pod (tried again on every node),
# end to end: process start, reading the snapshot, answer printed.
#
# Live: the same workload at LIVE_NODES / LIVE_PODS is created in a real
# kube-apiserver (docs/CLUSTER.md; no scheduler: pods are created bound), and
# ROUNDS times, alternating which goes first, `dra snapshot` and `kubectl get
# namespaces,nodes,deviceclasses,resourceslices,devicetaintrules,
# resourceclaimtemplates,resourceclaims,pods -A -o json` (the same objects)
# run side by side against it.
#
# Prints medians and the ratio dra / kubectl.
#   bench/explain_bench.sh DRA_PROGRAM [NODES (5000)] [PODS (10000)] [ROUNDS (5)]
#                          [LIVE_NODES (1000)] [LIVE_PODS (2000)]
set -uo pipefail
here=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
src=$(cd "$here/.." && pwd)
dra=$(cd "$(dirname "$1")" && pwd)/$(basename "$1")
nodes=${2:-5000}
pods=${3:-10000}
rounds=${4:-5}
live_nodes=${5:-1000}
live_pods=${6:-2000}
source "$src/tests/cluster/lib.sh"

tmp=$(mktemp -d -t dra-explain-bench-XXXXXX)
trap 'cluster_down; rm -rf "$tmp"' EXIT

# A snapshot of the template workload after scheduling, with one pod that
# cannot fit (11 devices on one node).
make_snapshot() {  # NODES PODS DIR
  "$dra" gen workload template --nodes "$1" --pods "$2" -o "$tmp/workload.yaml" || exit 1
  cat > "$tmp/big-pod.yaml" <<'YAML'
apiVersion: resource.k8s.io/v1
kind: ResourceClaimTemplate
metadata: {name: eleven}
spec:
  spec:
    devices:
      requests:
      - name: gpus
        exactly: {deviceClassName: test-class, count: 11}
---
apiVersion: v1
kind: Pod
metadata: {name: train-big}
spec:
  containers: [{name: c, image: x, resources: {claims: [{name: g}]}}]
  resourceClaims: [{name: g, resourceClaimTemplateName: eleven}]
YAML
  "$dra" simulate -f "$tmp/workload.yaml" -f "$tmp/big-pod.yaml" -o json \
    --write-snapshot "$3" > /dev/null || exit 1
}

median() { sort -n | awk '{a[NR]=$1} END {print (NR%2 ? a[(NR+1)/2] : (a[NR/2]+a[NR/2+1])/2)}'; }
seconds() {  # COMMAND...: wall seconds, output discarded
  local start end
  start=$(date +%s.%N)
  "$@" > /dev/null 2>&1 || { echo "failed: $*" >&2; exit 1; }
  end=$(date +%s.%N)
  echo "$end - $start" | bc
}

echo "== offline: $nodes nodes, $((2 * pods + 1)) pods and claims"
make_snapshot "$nodes" "$pods" "$tmp/snap"
du -sh "$tmp/snap" | awk '{print "snapshot size " $1}'
pending=() bound=()
for _ in $(seq 1 "$rounds"); do
  pending+=("$(seconds "$dra" explain pod train-big -f "$tmp/snap")")
  bound+=("$(seconds "$dra" explain pod pod-0 -f "$tmp/snap")")
done
printf 'dra explain pod (Pending, every node explained): median %.3f s over %d\n' \
  "$(printf '%s\n' "${pending[@]}" | median)" "$rounds"
printf 'dra explain pod (bound, tried again on every node): median %.3f s over %d\n' \
  "$(printf '%s\n' "${bound[@]}" | median)" "$rounds"

echo "== live: $live_nodes nodes, $((2 * live_pods + 1)) pods and claims in kube-apiserver"
make_snapshot "$live_nodes" "$live_pods" "$tmp/live-src"
cluster_up "$tmp/cluster" --components apiserver
rc=$?
[[ $rc -eq 77 ]] && exit 77
[[ $rc -eq 0 ]] || { echo "cluster_up failed"; exit 1; }
# Objects in creation order; the large kinds in 4 parallel kubectl creates.
for kind in namespaces nodes deviceclasses resourceslices resourceclaimtemplates resourceclaims pods; do
  python3 - "$tmp/live-src/$kind.json" "$tmp/chunk-$kind" <<'PY'
import json, sys
items = [i for i in json.load(open(sys.argv[1]))["items"]
         if not (i["kind"] == "Namespace" and i["metadata"]["name"] == "default")]
n = 4
for k in range(n):
    part = items[k::n]
    if part:
        json.dump({"apiVersion": "v1", "kind": "List", "items": part}, open(f"{sys.argv[2]}-{k}.json", "w"))
PY
  creates=()
  for f in "$tmp"/chunk-"$kind"-*.json; do
    [[ -e $f ]] || continue
    kubectl create -f "$f" > /dev/null 2> "$f.err" &
    creates+=($!)
  done
  # Only these: a bare `wait` would also wait for the cluster's supervisor.
  ((${#creates[@]} == 0)) || wait "${creates[@]}"
  cat "$tmp"/chunk-"$kind"-*.json.err 2> /dev/null | grep -v "already exists" | head -3
done
kinds=namespaces,nodes,deviceclasses.resource.k8s.io,resourceslices.resource.k8s.io,devicetaintrules.resource.k8s.io,resourceclaimtemplates.resource.k8s.io,resourceclaims.resource.k8s.io,pods
ours=() theirs=()
for r in $(seq 1 "$rounds"); do
  if ((r % 2)); then
    ours+=("$(seconds "$dra" snapshot -o "$tmp/out" --kubeconfig "$KUBECONFIG")")
    theirs+=("$(seconds kubectl get "$kinds" -A -o json)")
  else
    theirs+=("$(seconds kubectl get "$kinds" -A -o json)")
    ours+=("$(seconds "$dra" snapshot -o "$tmp/out" --kubeconfig "$KUBECONFIG")")
  fi
done
"$dra" snapshot -o "$tmp/out" --kubeconfig "$KUBECONFIG" 2>&1 | sed 's/^/  /'
o=$(printf '%s\n' "${ours[@]}" | median)
k=$(printf '%s\n' "${theirs[@]}" | median)
printf 'dra snapshot: median %.3f s; kubectl get -o json of the same kinds: median %.3f s; ratio %.2f\n' \
  "$o" "$k" "$(echo "$o / $k" | bc -l)"
