#!/usr/bin/env bash
# Pods from creation to Running through a whole real cluster, our driver
# beside upstream's: kube-apiserver, kube-scheduler, kube-controller-manager
# (the resourceclaim controller) and a hollow kubelet with the real DRA
# manager (docs/CLUSTER.md). Each round, for `dra driver example` and
# upstream's e2e DRA test driver in turn (alternating which goes first):
# the driver starts on node-1 with DEVICES devices and publishes them;
# PODS pods, each with a claim from a ResourceClaimTemplate of that driver's
# DeviceClass, are created at once (one kubectl create); the time from that
# moment until each pod is Running comes from a watch of the pods (a line
# per update, stamped on arrival); then all pods are deleted and the time
# until every claim is gone (unprepared, deallocated, deleted) is taken; the
# driver's VmRSS with all pods Running is read from /proc. Prints a table of
# medians over the rounds and the ratio ours / upstream.
#   bench/driver_pods_bench.sh DRA_PROGRAM [ROUNDS (3)] [PODS (100)] [DEVICES (128)]
# The cluster binaries and the test driver come from tests/cluster/build.sh.
set -uo pipefail
here=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
src=$(cd "$here/.." && pwd)
dra=$(cd "$(dirname "$1")" && pwd)/$(basename "$1")
rounds=${2:-3}
pods=${3:-100}
devices=${4:-128}
source "$src/tests/cluster/lib.sh"
upstream=$(cluster_bin_dir)/dra-test-driver
[[ -x $upstream ]] || { echo "no $upstream (tests/cluster/build.sh builds it)"; exit 77; }
[[ -x $dra ]] || { echo "no $dra"; exit 2; }
if ((pods > 110)); then
  echo "PODS must be at most 110 (the kubelet's default maxPods)"
  exit 2
fi

tmp=$(mktemp -d -t dra-pods-bench-XXXXXX)
pid=
watch_pid=
stop_watch() {
  [[ -n $watch_pid ]] || return 0
  kill "$watch_pid" 2> /dev/null
  wait "$watch_pid" 2> /dev/null
  watch_pid=
}
cleanup() {
  stop_watch
  [[ -n $pid ]] && kill "$pid" 2> /dev/null && wait "$pid" 2> /dev/null
  cluster_down
  rm -rf "$tmp"
}
cluster_up "$tmp/cluster" --components scheduler,controller-manager --kubelet node-1 || exit $?
trap cleanup EXIT
root=$DRA_CLUSTER_KUBELET_ROOT_NODE_1
now() { date +%s.%N; }

# D: the driver name; K: ours|upstream.
start_driver() {
  local cdi=$tmp/cdi-$K
  mkdir -p "$cdi"
  if [[ $K == ours ]]; then
    "$dra" driver example --kubeconfig "$KUBECONFIG" --node-name node-1 --num-devices "$devices" \
      --cdi-root "$cdi" --kubelet-registrar-directory-path "$root/plugins_registry" \
      --kubelet-plugins-directory-path "$root/plugins" --kube-api-qps 50 --kube-api-burst 100 \
      >> "$tmp/$K.log" 2>&1 7>&- 8<&- &
  else
    mkdir -p "$root/plugins/$D"
    "$upstream" --kubeconfig "$KUBECONFIG" kubelet-plugin --node-name node-1 --num-devices "$devices" \
      --cdi-dir "$cdi" --plugin-registration-path "$root/plugins_registry" --datadir "$root/plugins" \
      >> "$tmp/$K.log" 2>&1 7>&- 8<&- &
  fi
  pid=$!
}
published() {
  [[ $(kubectl get resourceslices --field-selector "spec.driver=$D,spec.nodeName=node-1" \
    -o jsonpath='{range .items[*].spec.devices[*]}{.name}{" "}{end}' | wc -w) -ge $devices ]]
}
registered() { ls "$root/plugins_registry" 2> /dev/null | grep -q "$D"; }

for d in gpu.example.com test-driver.cdi.k8s.io; do
  kubectl create -f - > /dev/null << YAML || exit 1
apiVersion: resource.k8s.io/v1
kind: DeviceClass
metadata: {name: $d}
spec:
  selectors:
  - cel: {expression: 'device.driver == "$d"'}
---
apiVersion: resource.k8s.io/v1
kind: ResourceClaimTemplate
metadata: {name: $d, namespace: default}
spec:
  spec:
    devices:
      requests:
      - name: dev
        exactly: {deviceClassName: $d}
YAML
done

# One round of driver K: prints "running_p50 running_p99 running_max all_running delete_all
# rss_mib" (all_running is the last pod's time, the same as running_max).
round() {
  start_driver
  wait_until 60 published || { echo "FAIL: $K did not publish: $(tail -3 "$tmp/$K.log")" >&2; return 1; }
  wait_until 30 registered || { echo "FAIL: $K did not register" >&2; return 1; }
  : > "$tmp/manifest.yaml"
  for ((i = 0; i < pods; i++)); do
    cat >> "$tmp/manifest.yaml" << YAML
---
apiVersion: v1
kind: Pod
metadata: {name: $K-$i, namespace: default, labels: {bench: "$K"}}
spec:
  resourceClaims:
  - {name: dev, resourceClaimTemplateName: $D}
  containers:
  - name: c
    image: registry.k8s.io/pause:3.10
    resources:
      claims: [{name: dev}]
YAML
  done
  # Every update of the pods, stamped when it arrives.
  # kubectl itself is the background process ($!), so stopping it ends the
  # stamping loop too (end of its input).
  "$DRA_CLUSTER_KUBECTL" get pods -l "bench=$K" --watch \
    -o jsonpath='{.metadata.name} {.status.phase}{"\n"}' 2> /dev/null 7>&- 8<&- \
    > >(while read -r name phase; do echo "$(now) $name $phase"; done > "$tmp/watch-$K") &
  watch_pid=$!
  sleep 1 # the watch is established
  local t0
  t0=$(now)
  kubectl create -f "$tmp/manifest.yaml" > /dev/null || { echo "FAIL: create pods" >&2; return 1; }
  all_running() { [[ $(awk '$3 == "Running" {print $2}' "$tmp/watch-$K" | sort -u | wc -l) -ge $pods ]]; }
  wait_until 300 all_running || { echo "FAIL: $K: not all pods Running" >&2; return 1; }
  local rss
  rss=$(awk '/^VmRSS:/ {printf "%.1f", $2 / 1024}' "/proc/$pid/status")
  stop_watch
  local stats
  stats=$(awk -v t0="$t0" '$3 == "Running" && !($2 in seen) {seen[$2] = 1; print ($1 - t0) * 1000}' "$tmp/watch-$K" |
    sort -n | awk '{v[NR] = $1} END {
      p50 = v[int((NR + 1) / 2)]; p99 = v[int(NR * 0.99 + 0.999)]; if (p99 == "") p99 = v[NR];
      printf "%.0f %.0f %.0f %.0f", p50, p99, v[NR], v[NR]}')
  local t1 gone
  t1=$(now)
  kubectl delete pods -l "bench=$K" --wait=false > /dev/null
  no_claims() { [[ -z $(kubectl get resourceclaims -o name 2> /dev/null) ]]; }
  no_pods() { [[ -z $(kubectl get pods -l "bench=$K" -o name 2> /dev/null) ]]; }
  wait_until 300 no_claims || { echo "FAIL: $K: claims left" >&2; return 1; }
  wait_until 300 no_pods || { echo "FAIL: $K: pods left" >&2; return 1; }
  gone=$(awk -v a="$t1" -v b="$(now)" 'BEGIN {printf "%.0f", (b - a) * 1000}')
  kill "$pid" 2> /dev/null
  wait "$pid" 2> /dev/null
  pid=
  kubectl delete resourceslices --field-selector "spec.driver=$D" > /dev/null
  echo "$stats $gone $rss"
}

declare -A res
for ((r = 0; r < rounds; r++)); do
  order=(ours upstream)
  ((r % 2 == 1)) && order=(upstream ours)
  for K in "${order[@]}"; do
    D=gpu.example.com
    [[ $K == upstream ]] && D=test-driver.cdi.k8s.io
    round > "$tmp/line" || exit 1
    line=$(cat "$tmp/line")
    echo "round $((r + 1)) $K: $line" >&2
    res[$K]+="$line"$'\n'
  done
done

median() { # COLUMN (1-based) of res[$1]
  printf '%s' "${res[$1]}" | awk -v c="$2" 'NF {print $c}' | sort -n | awk '{v[NR] = $1} END {print v[int((NR + 1) / 2)]}'
}
echo
echo "$pods pods at once, $devices devices, $rounds rounds (medians); times from the create in ms"
echo
echo "| driver | pod created -> Running p50 / p99 (ms) | all $pods Running (ms) | delete -> all claims gone (ms) | driver VmRSS, all Running (MiB) |"
echo "|---|---|---|---|---|"
for K in ours upstream; do
  echo "| $K | $(median $K 1) / $(median $K 2) | $(median $K 4) | $(median $K 5) | $(median $K 6) |"
done
ratio() { awk -v a="$(median ours "$1")" -v b="$(median upstream "$1")" 'BEGIN {printf "%.2f", a / b}'; }
echo "| ratio ours / upstream | $(ratio 1) / $(ratio 2) | $(ratio 4) | $(ratio 5) | $(ratio 6) |"
