#!/usr/bin/env bash
# The deployment of the dra driver (deployments/): the Helm chart
# deployments/helm/dra-driver linted and rendered by a real helm, its output
# checked (kinds, the DaemonSet's command, env, mounts, probe, the ClusterRole's
# exact rules, the admission policy, the optional controller and `dra serve`
# with its read-only RBAC, Service and probes), then applied to a real kube-apiserver
# (docs/CLUSTER.md): a server-side dry run of everything, the objects for real,
# `kubectl auth can-i` as the chart's service account for every request the
# driver makes and for ones it must not be able to make (and dra serve: get,
# list and watch of what its informers follow, nothing else), and the
# ValidatingAdmissionPolicy denying ResourceSlice writes without or off the
# service account's node. Also a lint-level check of the container image's
# Dockerfile (no image is built here).
#   chart_test.sh SOURCE_DIR
# Exit 77 (ctest: skipped) when helm (tests/deployments/build_helm.sh) or the
# cluster binaries (tests/cluster/build.sh) are not built.
set -uo pipefail
src=$(cd "$1" && pwd)
chart=$src/deployments/helm/dra-driver
dockerfile=$src/deployments/container/Dockerfile
helm=${DRA_HELM_BIN_DIR:-${XDG_CACHE_HOME:-$HOME/.cache}/dra-interop/helm-bin}/helm
source "$src/tests/cluster/lib.sh"
if [[ ! -x $helm ]]; then
  echo "SKIPPED: no helm at $helm (tests/deployments/build_helm.sh builds it; it needs Go)"
  exit 77
fi
if [[ ! -x $(cluster_bin_dir)/testcluster || ! -x $(cluster_bin_dir)/kubectl ]]; then
  echo "SKIPPED: no cluster binaries in $(cluster_bin_dir) (tests/cluster/build.sh builds them; it needs Go)"
  exit 77
fi

tmp=$(mktemp -d -t dra-chart-test-XXXXXX)
failures=0
fail() { echo "FAIL: $*"; failures=$((failures + 1)); }
note() { echo "--- $*"; }
cleanup() {
  cluster_down
  if [[ $failures -eq 0 ]]; then rm -rf "$tmp"; else echo "kept $tmp"; fi
}
trap cleanup EXIT
# helm keeps its caches and configuration out of $HOME.
export HELM_CACHE_HOME=$tmp/helm/cache HELM_CONFIG_HOME=$tmp/helm/config HELM_DATA_HOME=$tmp/helm/data
ns=dra-system
release=dra-driver
sa=system:serviceaccount:$ns:$release
render() { "$helm" template "$release" "$chart" --namespace "$ns" "$@"; }

note "helm lint --strict"
# The controller's network pools (the example driver's --inventory-slices).
cat > "$tmp/pools.yaml" << 'YAML'
apiVersion: resource.k8s.io/v1
kind: ResourceSlice
metadata: {name: fabric}
spec:
  driver: gpu.example.com
  allNodes: true
  pool: {name: fabric, generation: 1, resourceSliceCount: 1}
  devices: [{name: link-0}, {name: link-1}]
YAML
controller=(--set controller.enabled=true --set-file "controller.inventorySlices=$tmp/pools.yaml")
serve=(--set serve.enabled=true)
for set in "" "--set driver=nvml" "--set deviceStatus=true" "${controller[*]}" "${serve[*]}" \
  "${serve[*]} --set serve.deviceMetrics=true --set serve.port=9090"; do
  # shellcheck disable=SC2086
  out=$("$helm" lint --strict "$chart" --namespace "$ns" $set 2>&1) || fail "helm lint --strict $set: $out"
done

note "helm template: default values, driver=nvml, deviceStatus, another driver name, controller, dra serve"
render > "$tmp/rendered.yaml" || fail "helm template (defaults)"
python3 "$src/tests/deployments/check_rendered.py" "$tmp/rendered.yaml" namespace=$ns release=$release \
  driver=example driverName=gpu.example.com || fail "the default render"
render --set driver=nvml > "$tmp/nvml.yaml" || fail "helm template --set driver=nvml"
python3 "$src/tests/deployments/check_rendered.py" "$tmp/nvml.yaml" namespace=$ns release=$release \
  driver=nvml driverName=gpu.example.com || fail "the nvml render"
render --set deviceStatus=true > "$tmp/status.yaml" || fail "helm template --set deviceStatus=true"
python3 "$src/tests/deployments/check_rendered.py" "$tmp/status.yaml" namespace=$ns release=$release \
  driver=example driverName=gpu.example.com deviceStatus=true || fail "the deviceStatus render"
render --set driver=nvml --set driverName=gpu.nvidia.com > "$tmp/nvidia.yaml" || fail "helm template --set driverName"
python3 "$src/tests/deployments/check_rendered.py" "$tmp/nvidia.yaml" namespace=$ns release=$release \
  driver=nvml driverName=gpu.nvidia.com || fail "the driverName=gpu.nvidia.com render"
render "${controller[@]}" > "$tmp/controller.yaml" || fail "helm template --set controller.enabled=true"
python3 "$src/tests/deployments/check_rendered.py" "$tmp/controller.yaml" namespace=$ns release=$release \
  driver=example driverName=gpu.example.com controller=true || fail "the controller render"
# dra serve (off by default: the renders above have none of its objects).
render "${serve[@]}" > "$tmp/serve.yaml" || fail "helm template --set serve.enabled=true"
python3 "$src/tests/deployments/check_rendered.py" "$tmp/serve.yaml" namespace=$ns release=$release \
  driver=example driverName=gpu.example.com serve=true || fail "the serve render"
render "${serve[@]}" --set serve.port=9090 --set serve.replicas=2 --set serve.deviceMetrics=true \
  --set driver=nvml > "$tmp/serve-9090.yaml" || fail "helm template serve.port=9090"
python3 "$src/tests/deployments/check_rendered.py" "$tmp/serve-9090.yaml" namespace=$ns release=$release \
  driver=nvml driverName=gpu.example.com serve=true servePort=9090 serveReplicas=2 deviceMetrics=true ||
  fail "the serve render with port 9090, 2 replicas and device metrics"
render "${controller[@]}" "${serve[@]}" > "$tmp/all.yaml" || fail "helm template with the controller and dra serve"
python3 "$src/tests/deployments/check_rendered.py" "$tmp/all.yaml" namespace=$ns release=$release \
  driver=example driverName=gpu.example.com controller=true serve=true || fail "the render with the controller and serve"
out=$(render --set serve.enabled=false --set serve.deviceMetrics=true | grep -c -- '-serve$')
[[ $out == 0 ]] || fail "serve.enabled=false still renders dra serve's objects"
out=$(render "${serve[@]}" --set serve.port=0 2>&1) && fail "serve.port=0 was rendered"
[[ $out == *"serve.port must be a port number"* ]] || fail "serve.port=0: $out"
# Values that would give a driver that cannot start are refused.
out=$(render --set driver=cuda 2>&1) && fail "driver=cuda was rendered"
[[ $out == *'driver must be "example" or "nvml"'* ]] || fail "driver=cuda: $out"
out=$(render --set driver=nvml --set deviceStatus=true 2>&1) && fail "deviceStatus with nvml was rendered"
[[ $out == *"example driver only"* ]] || fail "deviceStatus with nvml: $out"
out=$(render --set controller.enabled=true 2>&1) && fail "a controller without pools was rendered"
[[ $out == *"controller.enabled needs controller.inventorySlices"* ]] || fail "controller without pools: $out"
out=$(render "${controller[@]}" --set driver=nvml 2>&1) && fail "a controller with nvml was rendered"
[[ $out == *"the controller runs the example driver"* ]] || fail "controller with nvml: $out"
out=$(render --set validatingAdmissionPolicy.enabled=false | grep -c '^kind: ValidatingAdmissionPolicy')
[[ $out == 0 ]] || fail "validatingAdmissionPolicy.enabled=false still renders the policy"

note "Dockerfile"
grep -Eq '^FROM debian:bookworm AS build$' "$dockerfile" || fail "Dockerfile: no debian:bookworm build stage"
grep -Eq '^FROM debian:bookworm-slim$' "$dockerfile" || fail "Dockerfile: no debian:bookworm-slim runtime stage"
[[ $(grep -E '^FROM ' "$dockerfile" | tail -1) == "FROM debian:bookworm-slim" ]] || fail "Dockerfile: the last stage is not bookworm-slim"
user=$(grep -E '^USER ' "$dockerfile" | tail -1 | awk '{print $2}')
[[ -n $user && ${user%%:*} != root && ${user%%:*} != 0 ]] || fail "Dockerfile: the image's user is '${user:-root}', not a non-root user"
grep -Eq '^ENTRYPOINT \["(/usr/local/bin/)?dra"\]$' "$dockerfile" || fail "Dockerfile: ENTRYPOINT is not [\"dra\"]"
grep -q 'COPY --from=build /usr/local/bin/dra /usr/local/bin/dra' "$dockerfile" || fail "Dockerfile: dra is not copied from the build stage"
# Every -DDRA_* cache variable it sets is an option of CMakeLists.txt.
for opt in $(grep -o -- '-DDRA_[A-Z_]*' "$dockerfile" | sed 's/^-D//' | sort -u); do
  grep -q "^option($opt " "$src/CMakeLists.txt" || fail "Dockerfile sets $opt, not an option of CMakeLists.txt"
done
# Its apt packages exist in Debian 12, when this machine is Debian 12 with package lists.
if [[ $(cut -d. -f1 /etc/debian_version 2> /dev/null) == 12 ]] && apt-cache show libc6 > /dev/null 2>&1; then
  pkgs=$(sed -n '/apt-get install/,/rm -rf/p' "$dockerfile" | tr -s ' \\' '\n' |
    grep -E '^[a-z0-9][a-z0-9.+-]+$' | grep -Ev '^(apt-get|install|rm|noninteractive|y|no|recommends)$' | sort -u)
  for p in $pkgs; do
    apt-cache show "$p" > /dev/null 2>&1 || fail "Dockerfile: no Debian 12 package $p"
  done
fi

note "a real kube-apiserver"
# Privileged containers are allowed, as on every cluster where node agents run
# (kubeadm's default); kube-apiserver's own default is to refuse them.
cluster_up "$tmp/cluster" --apiserver-arg --allow-privileged=true
rc=$?
trap cleanup EXIT # cluster_up replaced it with cluster_down
[[ $rc -eq 77 ]] && exit 77
[[ $rc -eq 0 ]] || { fail "cluster_up"; exit 1; }
kubectl create namespace "$ns" > /dev/null || fail "create namespace $ns"
out=$(kubectl apply --server-side --dry-run=server -f "$tmp/rendered.yaml" 2>&1) ||
  fail "server-side dry run of the chart: $out"
out=$(kubectl apply --server-side --dry-run=server -f "$tmp/nvml.yaml" 2>&1) ||
  fail "server-side dry run of the nvml chart: $out"
out=$(kubectl apply --server-side --dry-run=server -f "$tmp/controller.yaml" 2>&1) ||
  fail "server-side dry run of the chart with the controller: $out"
out=$(kubectl apply --server-side --dry-run=server -f "$tmp/serve-9090.yaml" 2>&1) ||
  fail "server-side dry run of the chart with dra serve: $out"
[[ -z $(kubectl get clusterroles "$release" --ignore-not-found -o name) ]] || fail "the dry run created objects"
out=$(kubectl apply --server-side -f "$tmp/all.yaml" 2>&1) || fail "applying the chart: $out"
for o in serviceaccount/$release clusterrole/$release clusterrolebinding/$release daemonset/$release-kubeletplugin \
  deviceclass/gpu.example.com validatingadmissionpolicy/$release-resourceslices \
  validatingadmissionpolicybinding/$release-resourceslices serviceaccount/$release-controller \
  clusterrole/$release-controller clusterrolebinding/$release-controller role/$release-controller \
  rolebinding/$release-controller deployment/$release-controller configmap/$release-inventory \
  serviceaccount/$release-serve clusterrole/$release-serve clusterrolebinding/$release-serve \
  deployment/$release-serve service/$release-serve; do
  kubectl get -n "$ns" "$o" > /dev/null 2>&1 || fail "$o does not exist after apply"
done

note "RBAC: what the service account may do"
# can_i ANSWER VERB RESOURCE [NAME] [kubectl flags]: kubectl auth can-i as
# the service account (unless --as is given again) must print ANSWER.
can_i() {
  local want=$1 verb=$2 what=$3
  shift 3
  local got
  got=$(kubectl auth can-i "$verb" "$what" --as="$sa" "$@" 2> "$tmp/can-i.err")
  [[ $got == "$want" ]] || fail "can-i $verb $what $*: '$got', want $want ($(cat "$tmp/can-i.err"))"
}
can_i yes list resourceslices
for v in create update delete; do can_i yes "$v" resourceslices/node-1-gpu.example.com-abcde; done
can_i yes get resourceclaims/claim-1 -n default
can_i yes get resourceclaims/claim-1 -n team-a
can_i yes patch resourceclaims/claim-1 --subresource=status -n team-a
can_i yes associated-node:patch resourceclaims/gpu.example.com --subresource=driver -n team-a
can_i yes get nodes/node-1
can_i yes create events -n default
can_i yes create events -n "$ns"
# Not needed, so not granted.
can_i no watch resourceslices
can_i no get resourceslices/node-1-gpu.example.com-abcde
can_i no patch resourceslices/node-1-gpu.example.com-abcde
can_i no deletecollection resourceslices
can_i no list resourceclaims -A
can_i no watch resourceclaims -A
can_i no update resourceclaims/claim-1 -n default
can_i no delete resourceclaims/claim-1 -n default
can_i no create resourceclaims -n default
can_i no update resourceclaims/claim-1 --subresource=status -n default
can_i no patch resourceclaims/claim-1 --subresource=binding -n default
can_i no associated-node:update resourceclaims/gpu.example.com --subresource=driver -n default
can_i no arbitrary-node:patch resourceclaims/gpu.example.com --subresource=driver -n default
can_i no associated-node:patch resourceclaims/other.example.com --subresource=driver -n default
can_i no associated-node:patch resourceclaims --subresource=driver -n default
can_i no create deviceclasses
can_i no update deviceclasses/gpu.example.com
can_i no list nodes
can_i no patch nodes/node-1
can_i no update nodes/node-1 --subresource=status
can_i no get secrets -n "$ns"
can_i no list pods -A
can_i no create pods -n "$ns"
can_i no list events -A
can_i no delete events -n default
can_i no update validatingadmissionpolicies/$release-resourceslices
# The binding is for this service account only.
can_i no create resourceslices --as=system:serviceaccount:$ns:default
can_i no create resourceslices --as=system:serviceaccount:default:$release
# The controller's service account: slices of any node, its Lease, nothing else.
csa=system:serviceaccount:$ns:$release-controller
can_i yes list resourceslices --as="$csa"
for v in create update delete; do can_i yes "$v" resourceslices/fabric-gpu.example.com-abcde --as="$csa"; done
can_i yes create leases -n "$ns" --as="$csa"
can_i yes get "leases/$release-controller" -n "$ns" --as="$csa"
can_i yes update "leases/$release-controller" -n "$ns" --as="$csa"
can_i no get leases/other -n "$ns" --as="$csa"
can_i no update leases/other -n "$ns" --as="$csa"
can_i no delete "leases/$release-controller" -n "$ns" --as="$csa"
can_i no create leases -n default --as="$csa"
can_i no get resourceclaims/claim-1 -n default --as="$csa"
can_i no patch resourceclaims/claim-1 --subresource=status -n default --as="$csa"
can_i no get nodes/node-1 --as="$csa"
can_i no create events -n "$ns" --as="$csa"
can_i no watch resourceslices --as="$csa"
can_i no get configmaps -n "$ns" --as="$csa"
# dra serve's service account: get, list and watch of the kinds its informers
# follow, in every namespace; nothing else.
ssa=system:serviceaccount:$ns:$release-serve
for r in nodes pods resourceclaims.resource.k8s.io resourceclaimtemplates.resource.k8s.io \
  deviceclasses.resource.k8s.io resourceslices.resource.k8s.io; do
  for v in get list watch; do can_i yes "$v" "$r" -A --as="$ssa"; done
  for v in create update patch delete deletecollection; do can_i no "$v" "$r" -A --as="$ssa"; done
done
# DeviceTaintRules are served only with their feature gate, and kubectl auth
# can-i cannot name a kind discovery does not list: a SubjectAccessReview.
serve_sar() {
  kubectl create -o jsonpath='{.status.allowed}' -f - << YAML
apiVersion: authorization.k8s.io/v1
kind: SubjectAccessReview
spec:
  user: $ssa
  resourceAttributes: {group: resource.k8s.io, resource: devicetaintrules, verb: "$1"}
YAML
}
for v in get list watch; do
  [[ $(serve_sar "$v") == true ]] || fail "SubjectAccessReview: dra serve may not $v devicetaintrules"
done
for v in create update patch delete; do
  [[ $(serve_sar "$v") == false ]] || fail "SubjectAccessReview: dra serve may $v devicetaintrules"
done
can_i yes get pods/p -n team-a --as="$ssa"
can_i no patch resourceclaims.resource.k8s.io/claim-1 --subresource=status -n default --as="$ssa"
can_i no update pods/p --subresource=status -n default --as="$ssa"
can_i no create pods/p --subresource=binding -n default --as="$ssa"
can_i no get pods/p --subresource=log -n default --as="$ssa"
can_i no create pods/p --subresource=exec -n default --as="$ssa"
can_i no get secrets -A --as="$ssa"
can_i no list configmaps -A --as="$ssa"
can_i no list events -A --as="$ssa"
can_i no list namespaces --as="$ssa"
can_i no get "leases/$release-controller" -n "$ns" --as="$ssa"
# Discovery needs no rule of ours (system:discovery).
kubectl get --raw /apis/resource.k8s.io --as="$sa" > /dev/null 2>&1 || fail "the service account cannot discover resource.k8s.io"
# The subresource check that kube-apiserver makes for status.devices, as a
# SubjectAccessReview: the same answers.
sar() {
  kubectl create -o jsonpath='{.status.allowed}' -f - << YAML
apiVersion: authorization.k8s.io/v1
kind: SubjectAccessReview
spec:
  user: $sa
  resourceAttributes: {group: resource.k8s.io, resource: resourceclaims, subresource: driver, namespace: team-a, verb: "$1", name: $2}
YAML
}
[[ $(sar associated-node:patch gpu.example.com) == true ]] || fail "SubjectAccessReview: associated-node:patch gpu.example.com not allowed"
[[ $(sar associated-node:patch other.example.com) == false ]] || fail "SubjectAccessReview: associated-node:patch other.example.com allowed"

note "ValidatingAdmissionPolicy: ResourceSlice writes only on the service account's node"
# slice NAME NODE [GENERATION]: a ResourceSlice of NODE (pool "cluster" when NODE is "").
slice() {
  cat << YAML
apiVersion: resource.k8s.io/v1
kind: ResourceSlice
metadata: {name: $1}
spec:
  driver: gpu.example.com
  nodeName: $2
  pool: {name: ${2:-cluster}, generation: ${3:-1}, resourceSliceCount: 1}
  devices: [{name: gpu-0}]
YAML
}
# as_node NODE: --as-user-extra of a token issued for a pod on NODE.
as_node() { echo "--as-user-extra=authentication.kubernetes.io/node-name=$1"; }
# The policy takes effect shortly after it is created: a server-side dry run
# goes through admission without storing anything.
vap_active() {
  local out
  out=$(slice probe node-1 | kubectl create --dry-run=server --as="$sa" -f - 2>&1)
  [[ $out == *"no node association found"* ]]
}
active=0
for ((i = 0; i < 150; i++)); do
  vap_active && { active=1; break; }
  sleep 0.2
done
[[ $active == 1 ]] || fail "the policy did not take effect: $(slice probe node-1 | kubectl create --dry-run=server --as="$sa" -f - 2>&1)"
out=$(slice node-1-gpu node-1 | kubectl create --as="$sa" -f - 2>&1) && fail "a slice was created without a node association"
[[ $out == *"no node association found for user, this user must run in a pod on a node and ServiceAccountTokenPodNodeInfo must be enabled"* ]] ||
  fail "create without a node association: $out"
[[ $out != *"may not modify"* ]] || fail "both messages without a node association: $out"
out=$(slice node-1-gpu node-1 | kubectl create --as="$sa" "$(as_node node-2)" -f - 2>&1) && fail "node-2's driver created a slice of node-1"
[[ $out == *"this user running on node 'node-2' may not modify resourceslices on node 'node-1'"* ]] ||
  fail "create on another node: $out"
out=$(slice node-1-gpu node-1 | kubectl create --as="$sa" "$(as_node node-1)" -f - 2>&1) || fail "node-1's driver could not create its slice: $out"
# (spec.nodeName is immutable: moving a slice to another node is refused by validation.)
out=$(slice cluster-gpu "" | sed 's/^  nodeName: $/  allNodes: true/' | kubectl create --as="$sa" "$(as_node node-1)" -f - 2>&1) &&
  fail "node-1's driver created a slice for all nodes"
[[ $out == *"this user running on node 'node-1' may not modify resourceslices that are not bound to a node"* ]] ||
  fail "create of a slice for all nodes: $out"
out=$(slice node-1-gpu node-1 2 | kubectl replace --as="$sa" "$(as_node node-2)" -f - 2>&1) && fail "node-2's driver updated node-1's slice"
[[ $out == *"this user running on node 'node-2' may not modify resourceslices on node 'node-1'"* ]] || fail "update from another node: $out"
out=$(slice node-1-gpu node-1 2 | kubectl replace --as="$sa" "$(as_node node-1)" -f - 2>&1) || fail "node-1's driver could not update its slice: $out"
out=$(kubectl delete resourceslice node-1-gpu --as="$sa" "$(as_node node-2)" 2>&1) && fail "node-2's driver deleted node-1's slice"
[[ $out == *"this user running on node 'node-2' may not modify resourceslices on node 'node-1'"* ]] || fail "delete from another node: $out"
out=$(kubectl delete resourceslice node-1-gpu --as="$sa" 2>&1) && fail "a slice was deleted without a node association"
[[ $out == *"no node association found"* ]] || fail "delete without a node association: $out"
out=$(kubectl delete resourceslice node-1-gpu --as="$sa" "$(as_node node-1)" 2>&1) || fail "node-1's driver could not delete its slice: $out"
# Other users are not matched: the admin creates slices for any node.
out=$(slice node-2-gpu node-2 | kubectl create -f - 2>&1) || fail "the admin could not create a slice: $out"
# Nor is the controller's service account: it publishes pools for all nodes.
out=$(slice fabric-gpu "" | sed 's/^  nodeName: $/  allNodes: true/' | kubectl create --as="$csa" -f - 2>&1) ||
  fail "the controller could not create a slice for all nodes: $out"

if [[ $failures -ne 0 ]]; then
  echo "$failures failure(s)"
  exit 1
fi
echo "helm chart: lint, render (example, nvml, device status, driver name, controller, dra serve), Dockerfile, server-side dry run and apply, RBAC exactly the driver's, the controller's and dra serve's requests, admission policy per node"
