#!/usr/bin/env bash
# End to end on a real control plane (docs/CLUSTER.md): kube-scheduler and the
# resourceclaim controller allocate a claim generated from a
# ResourceClaimTemplate on a hollow kubelet's node; with DRA_PROGRAM given,
# `dra driver example` registers with that kubelet's real DRA manager,
# prepares the claim so that the pod runs, and unprepares it when the pod is
# deleted.
#   pod_test.sh SOURCE_DIR [DRA_PROGRAM]
# Exit 77 (ctest: skipped) when the cluster binaries are not built.
set -uo pipefail
src=$1
dra=${2:-}
source "$src/tests/cluster/lib.sh"

tmp=$(mktemp -d -t dra-pod-test-XXXXXX)
driver_pid=
failures=0
fail() { echo "FAIL: $*"; failures=$((failures + 1)); }
cleanup() {
  [[ -n $driver_pid ]] && kill "$driver_pid" 2> /dev/null && wait "$driver_pid" 2> /dev/null
  cluster_down
  if [[ $failures -eq 0 ]]; then rm -rf "$tmp"; else echo "kept $tmp (cluster logs in $tmp/cluster/logs)"; fi
}

start=$(date +%s.%N)
cluster_up "$tmp/cluster" --components scheduler,controller-manager --kubelet node-1
rc=$?
[[ $rc -eq 77 ]] && exit 77
[[ $rc -eq 0 ]] || { echo "FAIL: cluster_up"; exit 1; }
trap cleanup EXIT
echo "cluster with one hollow node ready in $(printf %.1f "$(echo "$(date +%s.%N) - $start" | bc)") s"

kubectl create -f - <<'YAML' || fail "kubectl create"
apiVersion: resource.k8s.io/v1
kind: DeviceClass
metadata: {name: gpu.example.com}
spec:
  selectors:
  - cel: {expression: 'device.driver == "gpu.example.com"'}
---
apiVersion: resource.k8s.io/v1
kind: ResourceSlice
metadata: {name: node-1-gpu.example.com}
spec:
  driver: gpu.example.com
  nodeName: node-1
  pool: {name: node-1, generation: 1, resourceSliceCount: 1}
  devices:
  - name: gpu-0
  - name: gpu-1
---
apiVersion: resource.k8s.io/v1
kind: ResourceClaimTemplate
metadata: {name: gpu, namespace: default}
spec:
  spec:
    devices:
      requests:
      - name: gpu
        exactly: {deviceClassName: gpu.example.com}
---
apiVersion: v1
kind: Pod
metadata: {name: pod-1, namespace: default}
spec:
  resourceClaims:
  - name: gpu
    resourceClaimTemplateName: gpu
  containers:
  - name: c
    image: registry.k8s.io/pause:3.10
    resources:
      claims: [{name: gpu}]
YAML

node=
for ((i = 0; i < 300; i++)); do
  node=$(kubectl get pod pod-1 -o jsonpath='{.spec.nodeName}')
  [[ -n $node ]] && break
  sleep 0.1
done
[[ $node == node-1 ]] || fail "pod-1 not scheduled: $(kubectl get pod pod-1 -o yaml)"
claim=$(kubectl get pod pod-1 -o jsonpath='{.status.resourceClaimStatuses[0].resourceClaimName}')
[[ -n $claim ]] || fail "no generated claim in the pod's status"
result=$(kubectl get resourceclaim "$claim" -o jsonpath='{.status.allocation.devices.results[0].driver}/{.status.allocation.devices.results[0].pool}/{.status.allocation.devices.results[0].device}')
[[ $result == gpu.example.com/node-1/gpu-[01] ]] || fail "claim $claim allocation: $result"
reserved=$(kubectl get resourceclaim "$claim" -o jsonpath='{.status.reservedFor[0].name}')
[[ $reserved == pod-1 ]] || fail "claim $claim reservedFor: $reserved"

if [[ -n $dra && $failures -eq 0 ]]; then
  root=$DRA_CLUSTER_KUBELET_ROOT_NODE_1
  mkdir -p "$tmp/claims" "$tmp/cdi"
  # The example driver reads the claims it prepares from files.
  kubectl get resourceclaim "$claim" -o yaml > "$tmp/claims/claim.yaml"
  "$dra" driver example --node-name node-1 --num-devices 2 --claims "$tmp/claims" --cdi-root "$tmp/cdi" \
    --kubelet-registrar-directory-path "$root/plugins_registry" --kubelet-plugins-directory-path "$root/plugins" \
    --resource-slices "$tmp/slices.yaml" 2> "$tmp/driver.log" 7>&- 8<&- &
  driver_pid=$!
  phase=
  for ((i = 0; i < 600; i++)); do
    phase=$(kubectl get pod pod-1 -o jsonpath='{.status.phase}')
    [[ $phase == Running ]] && break
    sleep 0.1
  done
  [[ $phase == Running ]] || fail "pod-1 is $phase, not Running: $(tail -20 "$DRA_CLUSTER_DIR/logs/kubelet-node-1.log")"
  grep -q 'Registered DRA plugin.*driverName="gpu.example.com"' "$DRA_CLUSTER_DIR/logs/kubelet-node-1.log" ||
    fail "the kubelet did not register the driver"
  [[ $(find "$tmp/cdi" -type f | wc -l) -eq 1 ]] || fail "expected one CDI spec in $tmp/cdi"
fi

kubectl delete pod pod-1 --wait=true > /dev/null || fail "kubectl delete pod"
left=1
for ((i = 0; i < 300; i++)); do
  left=$(kubectl get resourceclaims -o name | wc -l)
  [[ $left -eq 0 ]] && break
  sleep 0.1
done
[[ $left -eq 0 ]] || fail "the generated claim was not deleted"
if [[ -n $dra && -n $driver_pid ]]; then
  [[ $(find "$tmp/cdi" -type f | wc -l) -eq 0 ]] || fail "CDI spec left after the pod was deleted"
fi

if [[ $failures -ne 0 ]]; then
  echo "$failures failure(s)"
  exit 1
fi
echo "claim from a template allocated on node-1 and pod scheduled${dra:+, prepared by dra driver example and Running, unprepared after deletion}; claim deleted with the pod"
