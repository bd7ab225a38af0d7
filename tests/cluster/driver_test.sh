#!/usr/bin/env bash
# `dra driver example` in a real cluster (docs/DRIVER-SDK.md, docs/CLUSTER.md):
# kube-apiserver, kube-scheduler, kube-controller-manager and a hollow
# kubelet whose DRA manager is the real one. The driver publishes its
# ResourceSlices through the API and reads claims from it; kube-scheduler
# allocates them; the kubelet calls NodePrepareResources and hands the CDI
# device IDs to the (fake) container runtime. Then: health taints and their
# recovery, slices deleted by someone else, a publish the API server refuses,
# kill -9 of the driver, a kubelet restart, a node "reboot" (CDI directory
# wiped), a rolling update with two driver instances, metrics, MIG-style
# partitions, a GPU shared through consumable capacity, network-attached
# devices published by a leader-elected controller, and `dra driver nvml` on
# the test suite's fake NVML library (DRA_FAKE_NVML).
#   driver_test.sh SOURCE_DIR DRA_PROGRAM
# Exit 77 (ctest: skipped) when the cluster binaries are not built.
set -uo pipefail
src=$1
dra=$2
source "$src/tests/cluster/lib.sh"

tmp=$(mktemp -d -t dra-driver-test-XXXXXX)
driver_pid=
second_pid=
failures=0
fail() { echo "FAIL: $*"; failures=$((failures + 1)); }
note() { echo "--- $*"; }
ctrl_a=
ctrl_b=
net_plugin=
nvml_pid=
cleanup() {
  for p in $driver_pid $second_pid $ctrl_a $ctrl_b $net_plugin $nvml_pid; do kill "$p" 2> /dev/null && wait "$p" 2> /dev/null; done
  cluster_down
  if [[ $failures -eq 0 ]]; then rm -rf "$tmp"; else echo "kept $tmp (cluster logs in $tmp/cluster/logs)"; fi
}


cluster_up "$tmp/cluster" --components scheduler,controller-manager --kubelet node-1
rc=$?
[[ $rc -eq 77 ]] && exit 77
[[ $rc -eq 0 ]] || { echo "FAIL: cluster_up"; exit 1; }
trap cleanup EXIT
root=$DRA_CLUSTER_KUBELET_ROOT_NODE_1
kubelet_log=$DRA_CLUSTER_DIR/logs/kubelet-node-1.log
cdi=$tmp/cdi
health=$tmp/health
: > "$health"

# start_driver LOG POD_UID: the driver of node-1 in Kubernetes mode, with
# its metrics and liveness endpoints on free loopback ports.
start_driver() {
  "$dra" driver example --kubeconfig "$driver_kubeconfig" --node-name node-1 --num-devices 4 \
    --cdi-root "$cdi" --kubelet-registrar-directory-path "$root/plugins_registry" \
    --kubelet-plugins-directory-path "$root/plugins" --health-control-file "$health" \
    --gpu-device-status --slice-resync-seconds 2 --pod-uid "$2" \
    --metrics-port 0 --healthcheck-port 0 --bind-address 127.0.0.1 >> "$1" 2>&1 7>&- 8<&- &
}
# The endpoints from the driver's "serving /healthz /livez /metrics on HOST:PORT" line.
endpoint() { grep "^dra driver: serving .*$2" "$1" | tail -1 | sed "s|.* on \(.*\)$|http://\1$2|"; }
metrics_url() { endpoint "$1" /metrics; }
health_url() { endpoint "$1" /healthz; }

slice_devices() {
  kubectl get resourceslices --field-selector spec.driver=gpu.example.com,spec.nodeName=node-1 \
    -o jsonpath='{range .items[*].spec.devices[*]}{.name}{" "}{end}'
}
four_devices() { [[ $(slice_devices | wc -w) -eq 4 ]]; }
pod_phase() { kubectl get pod "$1" -o jsonpath='{.status.phase}' 2> /dev/null; }
is_running() { [[ $(pod_phase "$1") == Running ]]; }
pod_claim() { kubectl get pod "$1" -o jsonpath='{.status.resourceClaimStatuses[0].resourceClaimName}'; }
claim_device() { kubectl get resourceclaim "$1" -o jsonpath='{.status.allocation.devices.results[0].device}'; }
claim_uid() { kubectl get resourceclaim "$1" -o jsonpath='{.metadata.uid}'; }
# make_pod_with POD TEMPLATE
make_pod_with() {
  kubectl create -f - > /dev/null << YAML
apiVersion: v1
kind: Pod
metadata: {name: $1, namespace: default}
spec:
  resourceClaims:
  - {name: gpu, resourceClaimTemplateName: $2}
  containers:
  - name: c
    image: registry.k8s.io/pause:3.10
    resources:
      claims: [{name: gpu}]
YAML
}
make_pod() { make_pod_with "$1" gpu; }
# selector_template NAME CLASS CEL: a ResourceClaimTemplate document (with its
# leading ---) of one request for a device of CLASS that CEL (no single
# quote: it goes into a single-quoted YAML scalar) selects.
selector_template() {
  cat << YAML
---
apiVersion: resource.k8s.io/v1
kind: ResourceClaimTemplate
metadata: {name: $1, namespace: default}
spec:
  spec:
    devices:
      requests:
      - name: gpu
        exactly:
          deviceClassName: $2
          selectors:
          - cel: {expression: '$3'}
YAML
}
metric() { curl -sf "$(metrics_url "$tmp/driver.log")" | grep -v '^#' | grep -F "$1" | awk '{print $NF}' | head -1; }

kubectl create -f - > /dev/null << 'YAML' || fail "kubectl create"
apiVersion: resource.k8s.io/v1
kind: DeviceClass
metadata: {name: gpu.example.com}
spec:
  selectors:
  - cel: {expression: 'device.driver == "gpu.example.com"'}
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
# Refuses slices with a device tainted "reject-me": a publish the API
# server turns down, to see it retried until the driver's input changes.
apiVersion: admissionregistration.k8s.io/v1
kind: ValidatingAdmissionPolicy
metadata: {name: refuse-reject-me}
spec:
  failurePolicy: Fail
  matchConstraints:
    resourceRules:
    - apiGroups: [resource.k8s.io]
      apiVersions: ["*"]
      operations: [CREATE, UPDATE]
      resources: [resourceslices]
  validations:
  - expression: >-
      !has(object.spec.devices) || object.spec.devices.all(d, !has(d.taints) ||
      d.taints.all(t, !has(t.value) || t.value != 'reject-me'))
    message: device taint value reject-me is refused
---
apiVersion: admissionregistration.k8s.io/v1
kind: ValidatingAdmissionPolicyBinding
metadata: {name: refuse-reject-me}
spec:
  policyName: refuse-reject-me
  validationActions: [Deny]
YAML

# The driver runs with exactly the permissions of the Helm chart's service
# account (its ClusterRole and its ValidatingAdmissionPolicy, rendered by
# helm), impersonated with the node name a pod-bound token of node-1 carries.
helm=${DRA_HELM_BIN_DIR:-${XDG_CACHE_HOME:-$HOME/.cache}/dra-interop/helm-bin}/helm
driver_kubeconfig=$KUBECONFIG
if [[ -x $helm ]]; then
  kubectl create namespace dra-system > /dev/null || fail "create namespace"
  "$helm" template dra "$src/deployments/helm/dra-driver" --namespace dra-system \
    --set fullnameOverride=dra-driver --show-only templates/serviceaccount.yaml \
    --show-only templates/clusterrole.yaml --show-only templates/clusterrolebinding.yaml \
    --show-only templates/validatingadmissionpolicy.yaml > "$tmp/rbac.yaml" || fail "helm template"
  kubectl apply -f "$tmp/rbac.yaml" > /dev/null || fail "apply the chart's RBAC"
  driver_kubeconfig=$tmp/driver.kubeconfig
  sed '/^    client-key-data:/a\
    as: system:serviceaccount:dra-system:dra-driver\
    as-user-extra:\
      authentication.kubernetes.io/node-name: [node-1]' "$KUBECONFIG" > "$driver_kubeconfig"
  who=$(kubectl --kubeconfig "$driver_kubeconfig" auth whoami -o jsonpath='{.status.userInfo.username}/{.status.userInfo.extra.authentication\.kubernetes\.io/node-name[0]}')
  [[ $who == system:serviceaccount:dra-system:dra-driver/node-1 ]] || fail "the driver's identity is $who"
else
  echo "NOTE: no helm in $helm (tests/deployments/build_helm.sh); the driver runs as cluster admin"
fi

note "publishing through the API"
start_driver "$tmp/driver.log" uid-a
driver_pid=$!
wait_until 30 four_devices || fail "the driver did not publish 4 devices: $(slice_devices); $(tail -5 "$tmp/driver.log")"
node_uid=$(kubectl get node node-1 -o jsonpath='{.metadata.uid}')
owner=$(kubectl get resourceslices --field-selector spec.driver=gpu.example.com -o jsonpath='{.items[0].metadata.ownerReferences[0].kind}/{.items[0].metadata.ownerReferences[0].name}/{.items[0].metadata.ownerReferences[0].uid}')
[[ $owner == "Node/node-1/$node_uid" ]] || fail "slice owner is $owner, not Node/node-1/$node_uid"
generation=$(kubectl get resourceslices -o jsonpath='{.items[0].spec.pool.generation}')
[[ $generation == 1 ]] || fail "first publication has pool generation $generation, not 1"
wait_until 20 grep -q 'Registered DRA plugin.*driverName="gpu.example.com"' "$kubelet_log" ||
  fail "the kubelet did not register the driver"
[[ $(curl -sf "$(health_url "$tmp/driver.log")") == ok ]] || fail "/healthz is not ok"

note "a device marked unhealthy is tainted, and pods avoid it"
echo "gpu-0 unhealthy ecc-errors" > "$health"
tainted() {
  [[ $(kubectl get resourceslices -o jsonpath='{range .items[*].spec.devices[?(@.name=="gpu-0")]}{.taints[0].key}={.taints[0].value}:{.taints[0].effect}{end}') == "gpu.example.com/unhealthy=ecc-errors:NoSchedule" ]]
}
wait_until 20 tainted || fail "gpu-0 is not tainted in the slice"
for p in pod-1 pod-2 pod-3; do make_pod "$p" || fail "create $p"; done
for p in pod-1 pod-2 pod-3; do
  wait_until 60 is_running "$p" || fail "$p is $(pod_phase "$p"), not Running"
done
used=""
for p in pod-1 pod-2 pod-3; do used+="$(claim_device "$(pod_claim "$p")") "; done
[[ $used != *gpu-0* ]] || fail "a pod got the tainted gpu-0: $used"

note "the kubelet's DRA manager prepared through our driver; CDI IDs reached the runtime"
claim1=$(pod_claim pod-1)
uid1=$(claim_uid "$claim1")
dev1=$(claim_device "$claim1")
[[ -f $cdi/k8s.gpu.example.com-claim_$uid1.json ]] || fail "no CDI spec for claim $claim1: $(ls "$cdi")"
grep -q "\"CreateContainer\" pod=\"default/pod-1\" container=\"c\" cdiDevices=\[\"k8s.gpu.example.com/claim=$uid1-$dev1\"\]" "$kubelet_log" ||
  fail "the runtime did not get CDI device k8s.gpu.example.com/claim=$uid1-$dev1: $(grep CreateContainer "$kubelet_log" | head -3)"
grep -Eq "\"name\": ?\"$uid1-$dev1\"" "$cdi/k8s.gpu.example.com-claim_$uid1.json" || fail "the CDI spec does not define $uid1-$dev1"
status=$(kubectl get resourceclaim "$claim1" -o jsonpath='{.status.devices[0].driver}/{.status.devices[0].device}/{.status.devices[0].data.productName}')
[[ $status == "gpu.example.com/$dev1/NVIDIA H100 80GB HBM3" ]] || fail "claim status.devices is $status"
[[ $(metric 'dra_driver_operations_total{operation="prepare",result="success"}') == 3 ]] ||
  fail "prepare metric: $(curl -s "$(metrics_url "$tmp/driver.log")" | grep operations_total)"
[[ $(metric 'dra_driver_prepared_claims ') == 3 ]] || fail "prepared claims metric is not 3"
[[ $(metric 'dra_driver_published_devices{pool="node-1"}') == 4 ]] || fail "published devices metric is not 4"

note "a pod that fits only on the unhealthy device waits; recovery removes the taint and it runs"
make_pod pod-4 || fail "create pod-4"
sleep 3
[[ $(pod_phase pod-4) == Pending && -z $(kubectl get pod pod-4 -o jsonpath='{.spec.nodeName}') ]] ||
  fail "pod-4 was scheduled onto the tainted device"
: > "$health"
untainted() { [[ -z $(kubectl get resourceslices -o jsonpath='{range .items[*].spec.devices[*]}{.taints}{end}') ]]; }
wait_until 20 untainted || fail "the taint stayed after recovery"
wait_until 90 is_running pod-4 || fail "pod-4 is $(pod_phase pod-4) after gpu-0 recovered"
[[ $(claim_device "$(pod_claim pod-4)") == gpu-0 ]] || fail "pod-4 did not get gpu-0"

note "slices deleted by someone else come back"
kubectl delete resourceslices --all > /dev/null
wait_until 20 four_devices || fail "the slices were not restored after deletion"

note "a publish the API server refuses is retried until the driver's input changes"
echo "gpu-2 unhealthy reject-me" > "$health"
refused() { grep -q 'device taint value reject-me is refused' "$tmp/driver.log"; }
wait_until 20 refused || fail "the refused publish was not reported"
retried() { [[ $(grep -c 'device taint value reject-me is refused' "$tmp/driver.log") -ge 2 ]]; }
wait_until 20 retried || fail "the refused publish was not retried"
(($(metric 'dra_driver_publishes_total{result="error"}' || echo 0) >= 2)) || fail "publish errors are not counted"
kubectl get events -n default --field-selector reason=FailedPublishResourceSlices -o jsonpath='{.items[0].message}' |
  grep -q 'reject-me is refused' || fail "no Event about the refused publish"
echo "gpu-2 unhealthy retired" > "$health"
retired() { [[ $(kubectl get resourceslices -o jsonpath='{range .items[*].spec.devices[?(@.name=="gpu-2")]}{.taints[0].value}{end}') == retired ]]; }
wait_until 70 retired || fail "the publish did not succeed after the input was fixed"
: > "$health"
wait_until 20 untainted || fail "gpu-2's taint stayed"

note "kill -9 of the driver while a prepare may be running, and a restart"
kubectl delete pod pod-4 --wait=true > /dev/null
make_pod pod-5
kill -9 "$driver_pid"
wait "$driver_pid" 2> /dev/null
start_driver "$tmp/driver.log" uid-a
driver_pid=$!
wait_until 90 is_running pod-5 || fail "pod-5 is $(pod_phase pod-5) after the driver restarted"
for p in pod-1 pod-2 pod-3; do is_running "$p" || fail "$p stopped running"; done

note "a kubelet restart"
cluster_cmd "restart-kubelet node-1" > /dev/null || fail "restart-kubelet"
registered() { [[ $(grep -c 'Registered DRA plugin.*driverName="gpu.example.com"' "$kubelet_log") -ge 3 ]]; }
wait_until 60 registered || fail "the driver was not registered again after the kubelet restart"
kubectl delete pod pod-5 --wait=true > /dev/null
make_pod pod-6
wait_until 90 is_running pod-6 || fail "pod-6 is $(pod_phase pod-6) after the kubelet restart"

note "a reboot: CDI directory wiped, kubelet and driver restarted"
specs_before=$(ls "$cdi" | sort)
cluster_cmd "stop-kubelet node-1" > /dev/null || fail "stop-kubelet"
kill "$driver_pid"
wait "$driver_pid" 2> /dev/null
rm -rf "$cdi"
start_driver "$tmp/driver.log" uid-a
driver_pid=$!
restored() { [[ $(ls "$cdi" 2> /dev/null | sort) == "$specs_before" ]]; }
wait_until 20 restored || fail "the CDI specs were not restored at start: $(ls "$cdi") vs $specs_before"
cluster_cmd "start-kubelet node-1" > /dev/null || fail "start-kubelet"
for p in pod-1 pod-2 pod-3 pod-6; do wait_until 60 is_running "$p" || fail "$p is not Running after the reboot"; done

note "a rolling update: a second instance takes over"
start_driver "$tmp/driver-b.log" uid-b
second_pid=$!
both() { [[ $(ls "$root/plugins_registry" | grep -c '^gpu.example.com-uid-[ab]-reg.sock$') -eq 2 ]]; }
wait_until 20 both || fail "two registration sockets expected: $(ls "$root/plugins_registry")"
kill "$driver_pid"
wait "$driver_pid" 2> /dev/null
driver_pid=
kubectl delete pod pod-6 --wait=true > /dev/null
make_pod pod-7
wait_until 90 is_running pod-7 || fail "pod-7 is $(pod_phase pod-7) with only the new instance"
grep -q "\"CreateContainer\" pod=\"default/pod-7\"" "$kubelet_log" || fail "pod-7's container was not created"

note "deleting the pods unprepares everything"
kubectl delete pods --all --wait=true > /dev/null
no_claims() { [[ $(kubectl get resourceclaims -o name | wc -l) -eq 0 ]]; }
wait_until 60 no_claims || fail "claims left: $(kubectl get resourceclaims -o name)"
no_specs() { [[ -z $(ls "$cdi") ]]; }
wait_until 30 no_specs || fail "CDI specs left: $(ls "$cdi")"

# restart_driver MODE_FLAGS...: the node's driver again, one GPU, another mode.
restart_driver() {
  for p in $driver_pid $second_pid; do kill "$p" 2> /dev/null && wait "$p" 2> /dev/null; done
  second_pid=
  "$dra" driver example --kubeconfig "$driver_kubeconfig" --node-name node-1 --num-devices 1 "$@" \
    --cdi-root "$cdi" --kubelet-registrar-directory-path "$root/plugins_registry" \
    --kubelet-plugins-directory-path "$root/plugins" --pod-uid uid-c >> "$tmp/driver.log" 2>&1 7>&- 8<&- &
  driver_pid=$!
}
is_pending() { [[ $(pod_phase "$1") == Pending && -z $(kubectl get pod "$1" -o jsonpath='{.spec.nodeName}') ]]; }

note "MIG-style partitions: two pods on partitions of one GPU; the whole GPU is then not free"
restart_driver --mig-partitions
has_mig() { slice_devices | grep -q 'gpu-0-mig-1g10gb'; }
wait_until 30 has_mig || fail "no partitions published: $(slice_devices)"
{
  selector_template mig-1g gpu.example.com \
    'device.attributes["gpu.example.com"].type == "mig" && device.attributes["gpu.example.com"].profile == "1g.10gb"'
  selector_template whole-gpu gpu.example.com 'device.attributes["gpu.example.com"].type == "gpu"'
} | kubectl create -f - > /dev/null || fail "create the partition templates"
make_pod_with mig-a mig-1g
make_pod_with mig-b mig-1g
for p in mig-a mig-b; do wait_until 90 is_running "$p" || fail "$p is $(pod_phase "$p")"; done
da=$(claim_device "$(pod_claim mig-a)")
db=$(claim_device "$(pod_claim mig-b)")
[[ $da == gpu-0-mig-1g10gb-* && $db == gpu-0-mig-1g10gb-* && $da != "$db" ]] || fail "partitions: $da, $db"
make_pod_with whole whole-gpu
sleep 3
is_pending whole || fail "the whole GPU was allocated while partitions of it are in use"
kubectl delete pods mig-a mig-b --wait=true > /dev/null
wait_until 60 is_running whole || fail "the whole GPU was not allocated once its partitions were free"
kubectl delete pod whole --wait=true > /dev/null

note "a shared GPU (consumable capacity): four pods with 20Gi each on one GPU, a fifth waits"
restart_driver --gpu-allow-multiple-allocations
shared() { [[ $(slice_devices) == "gpu-0 " ]]; }
wait_until 30 shared || fail "the shared GPU was not published: $(slice_devices)"
kubectl create -f - > /dev/null << 'YAML' || fail "create the shared template"
apiVersion: resource.k8s.io/v1
kind: ResourceClaimTemplate
metadata: {name: gpu-20g, namespace: default}
spec:
  spec:
    devices:
      requests:
      - name: gpu
        exactly:
          deviceClassName: gpu.example.com
          capacity:
            requests: {memory: 20Gi}
YAML
for i in 1 2 3 4 5; do make_pod_with "share-$i" gpu-20g; done
running_shares() { kubectl get pods -o jsonpath='{range .items[*]}{.status.phase}{"\n"}{end}' | grep -c '^Running$'; }
four_running() { [[ $(running_shares) -eq 4 ]]; }
wait_until 90 four_running || fail "$(running_shares) pods share the GPU, not 4"
sleep 2
[[ $(running_shares) -eq 4 ]] || fail "$(running_shares) pods share the GPU after a while, not 4"
shares=$(for i in 1 2 3 4 5; do kubectl get resourceclaim "$(pod_claim "share-$i")" -o jsonpath='{.status.allocation.devices.results[0].shareID}' 2> /dev/null; echo; done | sort -u | grep -c .)
[[ $shares -eq 4 ]] || fail "$shares distinct share IDs, not 4"
grep -q 'pod="default/share-[0-9]" container="c" cdiDevices=\["k8s.gpu.example.com/claim=[0-9a-f-]*-gpu-0-[0-9a-f-]*"\]' "$kubelet_log" ||
  fail "the CDI device of a shared GPU does not carry the share ID"
kubectl delete pods --all --wait=true > /dev/null
wait_until 60 no_claims || fail "claims left after the shared pods: $(kubectl get resourceclaims -o name)"
wait_until 30 no_specs || fail "CDI specs left after the shared pods: $(ls "$cdi")"

note "network-attached devices: a controller with leader election publishes, a node plugin prepares"
cat > "$tmp/net.yaml" << 'YAML'
apiVersion: resource.k8s.io/v1
kind: ResourceSlice
metadata: {name: fabric}
spec:
  driver: net.example.com
  allNodes: true
  pool: {name: fabric, generation: 1, resourceSliceCount: 1}
  devices:
  - name: link-0
  - name: link-1
YAML
# The replicas run with exactly the chart's controller RBAC (its own service
# account, a Lease in the release namespace), impersonated as the plugin is.
controller_kubeconfig=$KUBECONFIG
lease_ns=default
lease_name=net-example-com
if [[ -x $helm ]]; then
  "$helm" template dra "$src/deployments/helm/dra-driver" --namespace dra-system \
    --set fullnameOverride=dra-driver --set driverName=net.example.com --set controller.enabled=true \
    --set-file "controller.inventorySlices=$tmp/net.yaml" \
    --show-only templates/controller-rbac.yaml > "$tmp/controller-rbac.yaml" || fail "helm template (controller)"
  kubectl apply -f "$tmp/controller-rbac.yaml" > /dev/null || fail "apply the chart's controller RBAC"
  controller_kubeconfig=$tmp/controller.kubeconfig
  sed '/^    client-key-data:/a\
    as: system:serviceaccount:dra-system:dra-driver-controller' "$KUBECONFIG" > "$controller_kubeconfig"
  lease_ns=dra-system
  lease_name=dra-driver-controller
fi
# start_controller IDENTITY: a replica of the central controller.
start_controller() {
  "$dra" driver example --controller --driver-name net.example.com --inventory-slices "$tmp/net.yaml" \
    --kubeconfig "$controller_kubeconfig" --leader-election-namespace "$lease_ns" \
    --leader-election-lease-name "$lease_name" --leader-election-identity "$1" \
    --leader-election-lease-duration 3s --leader-election-renew-deadline 2s \
    --leader-election-retry-period 500ms --slice-resync-seconds 2 >> "$tmp/controller-$1.log" 2>&1 7>&- 8<&- &
}
start_controller ctrl-a
ctrl_a=$!
start_controller ctrl-b
ctrl_b=$!
net_slices() {
  kubectl get resourceslices --field-selector spec.driver=net.example.com \
    -o jsonpath='{range .items[*]}{.spec.allNodes}/{.spec.nodeName}/{.spec.pool.generation}/{range .spec.devices[*]}{.name},{end} {end}'
}
published_net() { [[ $(net_slices) == "true//1/link-0,link-1, " ]]; }
wait_until 30 published_net || fail "the controller did not publish the network pool: $(net_slices)"
holder() { kubectl get lease -n "$lease_ns" "$lease_name" -o jsonpath='{.spec.holderIdentity}' 2> /dev/null; }
leader=$(holder)
[[ $leader == ctrl-a || $leader == ctrl-b ]] || fail "Lease holder is '$leader'"
"$dra" driver example --driver-name net.example.com --node-name node-1 --inventory-slices "$tmp/net.yaml" \
  --kubeconfig "$KUBECONFIG" --cdi-root "$cdi" --kubelet-registrar-directory-path "$root/plugins_registry" \
  --kubelet-plugins-directory-path "$root/plugins" >> "$tmp/net-plugin.log" 2>&1 7>&- 8<&- &
net_plugin=$!
kubectl create -f - > /dev/null << 'YAML' || fail "create the network claim and pod"
apiVersion: resource.k8s.io/v1
kind: DeviceClass
metadata: {name: net.example.com}
spec:
  selectors:
  - cel: {expression: 'device.driver == "net.example.com"'}
---
apiVersion: resource.k8s.io/v1
kind: ResourceClaim
metadata: {name: link, namespace: default}
spec:
  devices:
    requests:
    - name: link
      exactly: {deviceClassName: net.example.com}
---
apiVersion: v1
kind: Pod
metadata: {name: net-pod, namespace: default}
spec:
  resourceClaims:
  - {name: link, resourceClaimName: link}
  containers:
  - name: c
    image: registry.k8s.io/pause:3.10
    resources:
      claims: [{name: link}]
YAML
wait_until 90 is_running net-pod || fail "net-pod is $(pod_phase net-pod): $(tail -3 "$tmp/net-plugin.log")"
[[ $(kubectl get resourceclaim link -o jsonpath='{.status.allocation.devices.results[0].pool}') == fabric ]] ||
  fail "the claim was not allocated from the network pool"
[[ -z $(kubectl get resourceslices --field-selector spec.driver=net.example.com,spec.nodeName=node-1 -o name) ]] ||
  fail "the node plugin published the network pool itself"
# The leader stops (and releases the Lease): the other replica takes over
# without rewriting the slices, and keeps them published.
if [[ $leader == ctrl-a ]]; then kill "$ctrl_a"; wait "$ctrl_a"; ctrl_a=; else kill "$ctrl_b"; wait "$ctrl_b"; ctrl_b=; fi
other=ctrl-b
[[ $leader == ctrl-b ]] && other=ctrl-a
took_over() { [[ $(holder) == "$other" ]] && grep -q 'published the pools of net.example.com' "$tmp/controller-$other.log"; }
wait_until 30 took_over || fail "$other did not take over the Lease: holder $(holder)"
published_net || fail "the network pool changed on the handover: $(net_slices)"
kubectl delete resourceslices --field-selector spec.driver=net.example.com > /dev/null
wait_until 20 published_net || fail "the new leader did not restore the network pool: $(net_slices)"
kubectl delete pod net-pod --wait=true > /dev/null
kubectl delete resourceclaim link > /dev/null
for p in $ctrl_a $ctrl_b $net_plugin; do kill "$p" 2> /dev/null && wait "$p" 2> /dev/null; done
[[ -z $(holder) ]] || fail "the last replica did not release the Lease: $(holder)"

note "dra driver nvml on the fake NVML library: publish, a MIG device and a full GPU scheduled and prepared"
fake_nvml=${DRA_FAKE_NVML:-}
if [[ ! -f $fake_nvml ]]; then
  fail "DRA_FAKE_NVML ('$fake_nvml') does not name the fake NVML library (tests/CMakeLists.txt sets it)"
else
  # Device nodes the driver finds under --dev-root (plain files are enough).
  mkdir -p "$tmp/devroot/dev"
  : > "$tmp/devroot/dev/nvidiactl"
  : > "$tmp/devroot/dev/nvidia0"
  : > "$tmp/devroot/dev/nvidia1"
  "$dra" driver nvml --kubeconfig "$driver_kubeconfig" --node-name node-1 --nvml-library "$fake_nvml" \
    --dev-root "$tmp/devroot" --cdi-root "$cdi" --kubelet-registrar-directory-path "$root/plugins_registry" \
    --kubelet-plugins-directory-path "$root/plugins" >> "$tmp/nvml.log" 2>&1 7>&- 8<&- &
  nvml_pid=$!
  nvml_devices() {
    kubectl get resourceslices --field-selector spec.driver=gpu.nvidia.com,spec.nodeName=node-1 \
      -o jsonpath='{range .items[*].spec.devices[*]}{.name}{"\n"}{end}' | sort | xargs
  }
  nvml_published() { [[ $(nvml_devices) == "gpu-0-mig-1g5gb-19-0 gpu-0-mig-2g10gb-14-2 gpu-1" ]]; }
  wait_until 30 nvml_published || fail "the nvml driver published '$(nvml_devices)': $(tail -3 "$tmp/nvml.log")"
  {
    cat << 'YAML'
apiVersion: resource.k8s.io/v1
kind: DeviceClass
metadata: {name: gpu.nvidia.com}
spec:
  selectors:
  - cel: {expression: 'device.driver == "gpu.nvidia.com"'}
YAML
    selector_template mig-2g gpu.nvidia.com 'device.attributes["gpu.nvidia.com"].profile == "2g.10gb"'
    selector_template h100 gpu.nvidia.com \
      'device.attributes["gpu.nvidia.com"].type == "gpu" && device.attributes["gpu.nvidia.com"].productName.startsWith("NVIDIA H100")'
  } | kubectl create -f - > /dev/null || fail "create the NVIDIA class and templates"
  make_pod_with nvml-mig mig-2g || fail "create nvml-mig"
  make_pod_with nvml-gpu h100 || fail "create nvml-gpu"
  wait_until 90 is_running nvml-mig || fail "nvml-mig is $(pod_phase nvml-mig): $(tail -3 "$tmp/nvml.log")"
  wait_until 30 is_running nvml-gpu || fail "nvml-gpu is $(pod_phase nvml-gpu): $(tail -3 "$tmp/nvml.log")"
  mig_claim=$(pod_claim nvml-mig)
  gpu_claim=$(pod_claim nvml-gpu)
  [[ $(claim_device "$mig_claim") == gpu-0-mig-2g10gb-14-2 ]] || fail "nvml-mig got $(claim_device "$mig_claim")"
  [[ $(claim_device "$gpu_claim") == gpu-1 ]] || fail "nvml-gpu got $(claim_device "$gpu_claim")"
  mig_uid=$(claim_uid "$mig_claim")
  gpu_uid=$(claim_uid "$gpu_claim")
  grep -q "pod=\"default/nvml-mig\" container=\"c\" cdiDevices=\[\"k8s.gpu.nvidia.com/claim=$mig_uid-gpu-0-mig-2g10gb-14-2\"\]" "$kubelet_log" ||
    fail "the MIG device's CDI ID did not reach the container: $(grep nvml-mig "$kubelet_log" | tail -2)"
  grep -q "pod=\"default/nvml-gpu\" container=\"c\" cdiDevices=\[\"k8s.gpu.nvidia.com/claim=$gpu_uid-gpu-1\"\]" "$kubelet_log" ||
    fail "the GPU's CDI ID did not reach the container: $(grep nvml-gpu "$kubelet_log" | tail -2)"
  mig_spec=$cdi/k8s.gpu.nvidia.com-claim_$mig_uid.json
  python3 - "$mig_spec" << 'PY' || fail "the MIG claim's CDI spec $mig_spec"
import json, sys
spec = json.load(open(sys.argv[1]))
assert spec["kind"] == "k8s.gpu.nvidia.com/claim", spec["kind"]
(dev,) = spec["devices"]
edits = dev["containerEdits"]
assert "NVIDIA_VISIBLE_DEVICES=MIG-0a1b2c3d-aaaa-bbbb-cccc-000000000002" in edits["env"], edits
assert [n["path"] for n in edits["deviceNodes"]] == ["/dev/nvidia0"], edits
assert [n["path"] for n in spec["containerEdits"]["deviceNodes"]] == ["/dev/nvidiactl"], spec
PY
  kubectl delete pod nvml-mig nvml-gpu --wait=true > /dev/null
  nvml_specs_gone() { [[ -z $(ls "$cdi" | grep '^k8s.gpu.nvidia.com-') ]]; }
  wait_until 30 nvml_specs_gone || fail "CDI specs left after the nvml pods: $(ls "$cdi")"
  kill "$nvml_pid" 2> /dev/null && wait "$nvml_pid" 2> /dev/null
  nvml_pid=
fi

if [[ $failures -ne 0 ]]; then
  echo "--- driver log"
  tail -30 "$tmp/driver.log"
  echo "$failures failure(s)"
  exit 1
fi
echo "driver example in a real cluster: publish, schedule, prepare, CDI, device status, health taints, restore, refused publish retried, kill -9, kubelet restart, reboot, rolling update, unprepare, partitions, shared GPU; network-attached pools from a leader-elected controller; driver nvml (fake NVML): MIG device and full GPU"
