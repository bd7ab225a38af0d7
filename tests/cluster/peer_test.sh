#!/usr/bin/env bash
# The driver SDK beside its upstream peer: the same in-cluster checks (the
# conformance checks of a kubelet plugin that a cluster can observe) run
# against `dra driver example` on node-1 and upstream's e2e DRA test driver
# (k8s.io/kubernetes v1.37.2 test/e2e/dra/test-driver, built with the
# cluster binaries) on node-2, both under hollow kubelets with the real DRA
# manager, kube-scheduler and the resourceclaim controller. Prints a table of
# both drivers' results. Fails when our driver fails a check; a check that
# only upstream's driver fails is reported as a difference, and each such
# difference must be one listed in docs/COMPATIBILITY.md (KNOWN below).
#   peer_test.sh SOURCE_DIR DRA_PROGRAM
# Exit 77 (ctest: skipped) when the cluster binaries are not built.
set -uo pipefail
src=$1
dra=$2
source "$src/tests/cluster/lib.sh"

# Checks upstream's test driver is known to fail, with the reason in
# docs/COMPATIBILITY.md ("Driver SDK and drivers").
KNOWN=" cdi-restored-at-start "

tmp=$(mktemp -d -t dra-peer-test-XXXXXX)
pid=
failures=0
fail() { echo "FAIL: $*"; failures=$((failures + 1)); }
cleanup() {
  [[ -n $pid ]] && kill "$pid" 2> /dev/null && wait "$pid" 2> /dev/null
  cluster_down
  if [[ $failures -eq 0 ]]; then rm -rf "$tmp"; else echo "kept $tmp (cluster logs in $tmp/cluster/logs)"; fi
}

cluster_up "$tmp/cluster" --components scheduler,controller-manager --kubelet node-1 --kubelet node-2
rc=$?
[[ $rc -eq 77 ]] && exit 77
[[ $rc -eq 0 ]] || { echo "FAIL: cluster_up"; exit 1; }
trap cleanup EXIT
upstream=$DRA_CLUSTER_BIN/dra-test-driver
[[ -x $upstream ]] || { echo "SKIPPED: no $upstream (tests/cluster/build.sh builds it)"; exit 77; }
kubelet_log() { echo "$DRA_CLUSTER_DIR/logs/kubelet-$1.log"; }

# The driver under test: P (pod name prefix), D (name), N (node), R (kubelet root), C (CDI
# dir), LOG.
start_driver() {
  if [[ $D == gpu.example.com ]]; then
    "$dra" driver example --kubeconfig "$KUBECONFIG" --node-name "$N" --num-devices 4 --cdi-root "$C" \
      --kubelet-registrar-directory-path "$R/plugins_registry" --kubelet-plugins-directory-path "$R/plugins" \
      >> "$LOG" 2>&1 7>&- 8<&- &
  else
    # It creates only the parent of its socket directory; a DaemonSet's
    # hostPath mount provides the directory itself.
    mkdir -p "$R/plugins/$D"
    "$upstream" --kubeconfig "$KUBECONFIG" kubelet-plugin --node-name "$N" --num-devices 4 --cdi-dir "$C" \
      --plugin-registration-path "$R/plugins_registry" --datadir "$R/plugins" >> "$LOG" 2>&1 7>&- 8<&- &
  fi
  pid=$!
}
stop_driver() { # SIGNAL
  kill "-$1" "$pid" 2> /dev/null
  wait "$pid" 2> /dev/null
  pid=
}
slices_json() { kubectl get resourceslices --field-selector "spec.driver=$D,spec.nodeName=$N" -o json; }
device_count() { kubectl get resourceslices --field-selector "spec.driver=$D,spec.nodeName=$N" -o jsonpath='{range .items[*].spec.devices[*]}{.name}{" "}{end}' | wc -w; }
published() { [[ $(device_count) -eq 4 ]]; }
phase() { kubectl get pod "$1" -o jsonpath='{.status.phase}' 2> /dev/null; }
running() { [[ $(phase "$1") == Running ]]; }
claim_of() { kubectl get pod "$1" -o jsonpath='{.status.resourceClaimStatuses[0].resourceClaimName}'; }
make_pod() { # NAME
  kubectl create -f - > /dev/null << YAML
apiVersion: v1
kind: Pod
metadata: {name: $1, namespace: default}
spec:
  nodeSelector: {kubernetes.io/hostname: $N}
  resourceClaims:
  - {name: dev, resourceClaimTemplateName: $D}
  containers:
  - name: c
    image: registry.k8s.io/pause:3.10
    resources:
      claims: [{name: dev}]
YAML
}
# The CDI IDs the runtime got for POD's container (from the hollow kubelet's log).
cdi_ids() { grep "\"CreateContainer\" pod=\"default/$1\"" "$(kubelet_log "$N")" | tail -1 | sed 's/.*cdiDevices=\[\(.*\)\]/\1/' | tr -d '"' | tr ',' ' '; }
# Whether every CDI ID of POD resolves in C: a spec of its kind defines the name.
cdi_resolves() {
  local id kind name found
  local ids
  ids=$(cdi_ids "$1")
  [[ -n $ids ]] || return 1
  for id in $ids; do
    kind=${id%%=*}
    name=${id#*=}
    found=0
    for f in "$C"/*.json; do
      [[ -f $f ]] || continue
      if python3 - "$f" "$kind" "$name" << 'PY'; then found=1; fi
import json, sys
spec = json.load(open(sys.argv[1]))
sys.exit(0 if spec.get("kind") == sys.argv[2] and any(d.get("name") == sys.argv[3] for d in spec.get("devices", [])) else 1)
PY
    done
    [[ $found -eq 1 ]] || return 1
  done
}

# results[<driver>:<check>] = PASS|FAIL
declare -A results
checks=()
record() { # CHECK OK(0|1)
  [[ " ${checks[*]} " == *" $1 "* ]] || checks+=("$1")
  if [[ $2 -eq 0 ]]; then results["$D:$1"]=PASS; else results["$D:$1"]=FAIL; fi
}
check() { # CHECK COMMAND...
  local name=$1
  shift
  "$@"
  record "$name" $?
}

slices_shape() {
  slices_json | python3 -c '
import json, re, sys
d, n, uid = sys.argv[1:4]
items = json.load(sys.stdin)["items"]
ok = bool(items)
for s in items:
    spec, meta = s["spec"], s["metadata"]
    refs = meta.get("ownerReferences", [])
    ok &= spec.get("nodeName") == n and spec["pool"]["generation"] >= 1
    ok &= spec["pool"]["resourceSliceCount"] == len(items)
    ok &= len(refs) == 1 and refs[0]["kind"] == "Node" and refs[0]["name"] == n and refs[0]["uid"] == uid and refs[0].get("controller") is True
    ok &= re.fullmatch(r"[0-9a-f]{5}-" + re.escape(d) + "-" + re.escape(n) + r"-[a-z0-9]{5}", meta["name"]) is not None
sys.exit(0 if ok else 1)' "$D" "$N" "$(kubectl get node "$N" -o jsonpath='{.metadata.uid}')"
}
registered() { grep -q "Registered DRA plugin.*driverName=\"$D\"" "$(kubelet_log "$N")"; }
reg_socket() { ls "$R/plugins_registry" 2> /dev/null | grep -q "^$D"; }
no_reg_socket() { ! reg_socket; }
names_embed_uid() {
  local uid
  uid=$(kubectl get resourceclaim "$(claim_of "$1")" -o jsonpath='{.metadata.uid}')
  [[ -n $uid && $(cdi_ids "$1") == *"$uid"* ]]
}
pod_runs() { wait_until 90 running "$1"; }
specs_gone() { [[ -z $(ls "$C"/*.json 2> /dev/null) ]]; }
no_claims() { [[ -z $(kubectl get resourceclaims -o name) ]]; }

run_checks() {
  echo "--- $D on $N"
  kubectl create -f - > /dev/null << YAML || fail "create class and template for $D"
apiVersion: resource.k8s.io/v1
kind: DeviceClass
metadata: {name: $D}
spec:
  selectors:
  - cel: {expression: 'device.driver == "$D"'}
---
apiVersion: resource.k8s.io/v1
kind: ResourceClaimTemplate
metadata: {name: $D, namespace: default}
spec:
  spec:
    devices:
      requests:
      - name: dev
        exactly: {deviceClassName: $D}
YAML
  start_driver
  check publishes-4-devices wait_until 30 published
  check slice-shape-owner-generation slices_shape
  check registers-with-kubelet wait_until 30 registered
  make_pod "$P-a"
  check pod-runs pod_runs "$P-a"
  check cdi-ids-reach-runtime cdi_resolves "$P-a"
  check cdi-names-embed-claim-uid names_embed_uid "$P-a"
  stop_driver TERM
  check sigterm-removes-registration no_reg_socket
  check sigterm-keeps-slices published
  start_driver
  check reregisters-after-restart wait_until 30 reg_socket
  make_pod "$P-b"
  check pod-after-restart-runs pod_runs "$P-b"
  kubectl delete resourceslices --field-selector "spec.driver=$D" > /dev/null
  check deleted-slices-restored wait_until 45 published
  stop_driver KILL
  start_driver
  make_pod "$P-c"
  check pod-after-kill-9-runs pod_runs "$P-c"
  # Reboot: kubelet down, driver restarted on an empty (tmpfs) CDI directory.
  cluster_cmd "stop-kubelet $N" > /dev/null || fail "stop-kubelet $N"
  stop_driver TERM
  rm -rf "$C"
  start_driver
  sleep 3
  check cdi-restored-at-start cdi_resolves "$P-a"
  cluster_cmd "start-kubelet $N" > /dev/null || fail "start-kubelet $N"
  check pods-run-after-reboot wait_until 90 running "$P-a"
  kubectl delete pods --all --wait=true > /dev/null
  check claims-deleted wait_until 60 no_claims
  check cdi-specs-removed wait_until 30 specs_gone
  stop_driver TERM
}

P=dra D=gpu.example.com N=node-1 R=$DRA_CLUSTER_KUBELET_ROOT_NODE_1 C=$tmp/cdi-1 LOG=$tmp/ours.log
run_checks
P=upstream D=test-driver.cdi.k8s.io N=node-2 R=$DRA_CLUSTER_KUBELET_ROOT_NODE_2 C=$tmp/cdi-2 LOG=$tmp/upstream.log
run_checks

printf '%-32s %-8s %-8s\n' check dra upstream
differences=0
for c in "${checks[@]}"; do
  ours=${results["gpu.example.com:$c"]:-?}
  theirs=${results["test-driver.cdi.k8s.io:$c"]:-?}
  printf '%-32s %-8s %-8s\n' "$c" "$ours" "$theirs"
  [[ $ours == PASS ]] || fail "our driver fails $c"
  if [[ $theirs != PASS ]]; then
    differences=$((differences + 1))
    [[ $KNOWN == *" $c "* ]] || fail "upstream's test driver fails $c, which docs/COMPATIBILITY.md does not list"
  fi
done
if [[ $failures -ne 0 ]]; then
  echo "--- our driver's log"
  tail -20 "$tmp/ours.log"
  echo "$failures failure(s)"
  exit 1
fi
echo "driver SDK beside upstream's test driver: ${#checks[@]} checks, ours all pass, $differences known difference(s)"
