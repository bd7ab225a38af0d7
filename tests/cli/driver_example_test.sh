#!/usr/bin/env bash
# dra driver example: --help, the printed ResourceSlices of each mode (valid
# API objects that the allocator can use), flag errors, and flipping a GPU's
# health while the plugin runs.
source "$(dirname "${BASH_SOURCE[0]}")/common.sh"
tmp=$(mktemp -d)
plugin_pid=
cleanup() {
  [[ -n $plugin_pid ]] && kill "$plugin_pid" 2> /dev/null
  rm -rf "$tmp"
}
trap cleanup EXIT

out=$("$dra" driver example --help 2>&1); rc=$?
[[ $rc -eq 0 ]] || fail "--help: exit $rc"
for flag in --num-devices --mig-partitions --gpu-allow-multiple-allocations --health-control-file \
            --print-slices --inventory-slices --node-name --driver-name --cdi-root \
            --kubelet-registrar-directory-path \
            --kubelet-plugins-directory-path --pod-uid --claims; do
  [[ $out == *"$flag"* ]] || fail "--help lacks $flag"
done
[[ $out == *'gpu-<i> unhealthy [<reason>]'* ]] || fail "--help does not explain the health control file"

# Exclusive GPUs: one slice, valid objects, NVIDIA-style attributes.
"$dra" driver example --node-name node-1 --num-devices 3 --print-slices > "$tmp/plain.yaml"; rc=$?
[[ $rc -eq 0 ]] || fail "print-slices: exit $rc"
out=$("$dra" validate -q -f "$tmp/plain.yaml" 2>&1) || fail "plain slices invalid: $out"
python3 - "$tmp/plain.yaml" <<'PY' || fail "plain slices content"
import sys, yaml
docs = [d for d in yaml.safe_load_all(open(sys.argv[1])) if d]
assert len(docs) == 1, len(docs)
s = docs[0]
assert s["kind"] == "ResourceSlice" and s["apiVersion"] == "resource.k8s.io/v1", s
spec = s["spec"]
assert spec["driver"] == "gpu.example.com" and spec["nodeName"] == "node-1", spec
assert spec["pool"]["name"] == "node-1" and spec["pool"]["resourceSliceCount"] == 1, spec["pool"]
names = [d["name"] for d in spec["devices"]]
assert names == ["gpu-0", "gpu-1", "gpu-2"], names
a = spec["devices"][0]["attributes"]
assert a["type"] == {"string": "gpu"}, a
assert a["architecture"] == {"string": "Hopper"}, a
assert a["cudaComputeCapability"] == {"version": "9.0.0"}, a
assert a["resource.kubernetes.io/pciBusID"] == {"string": "0000:18:00.0"}, a
assert spec["devices"][0]["capacity"] == {"memory": {"value": "80Gi"}}, spec["devices"][0]
PY

# The same node name gives the same devices (UUIDs) every time.
# (The stream publisher's slice names end in a random suffix.)
unnamed() { grep -v '^  name: 0'; }
"$dra" driver example --node-name node-1 --num-devices 3 --print-slices | unnamed |
  cmp -s - <(unnamed < "$tmp/plain.yaml") || fail "print-slices is not deterministic"
NODE_NAME=node-1 NUM_DEVICES=3 "$dra" driver example --print-slices | unnamed |
  cmp -s - <(unnamed < "$tmp/plain.yaml") ||
  fail "NODE_NAME / NUM_DEVICES environment variables not honoured"

# MIG-style partitions: a counter slice, then one slice per GPU.
"$dra" driver example --node-name node-1 --num-devices 2 --mig-partitions --print-slices \
  > "$tmp/mig.yaml" || fail "mig print-slices"
out=$("$dra" validate -q -f "$tmp/mig.yaml" 2>&1) || fail "mig slices invalid: $out"
python3 - "$tmp/mig.yaml" <<'PY' || fail "mig slices content"
import sys, yaml
docs = [d for d in yaml.safe_load_all(open(sys.argv[1])) if d]
counters = [d for d in docs if d["spec"].get("sharedCounters")]
devices = [d for d in docs if d["spec"].get("devices")]
assert len(counters) == 1 and len(devices) == 2, (len(counters), len(devices))
assert all(d["spec"]["pool"]["resourceSliceCount"] == 3 for d in docs)
sets = {c["name"] for c in counters[0]["spec"]["sharedCounters"]}
assert sets == {"gpu-0-counter-set", "gpu-1-counter-set"}, sets
for d in devices:
    names = [x["name"] for x in d["spec"]["devices"]]
    assert len(names) == 15 and names == sorted(names), names
PY

# The partitions' counters let the allocator place seven 1g partitions on one
# GPU but not eight, and no partition next to the full GPU.
"$dra" driver example --node-name node-1 --num-devices 1 --mig-partitions --print-slices \
  > "$tmp/mig1.yaml" || fail "mig1 print-slices"
claims() {  # claims N SELECTOR
  for ((i = 0; i < $1; i++)); do
    cat <<YAML
---
apiVersion: resource.k8s.io/v1
kind: ResourceClaim
metadata: {name: c$i, namespace: default}
spec:
  devices:
    requests:
    - name: r
      exactly:
        deviceClassName: gpu.example.com
        selectors: [{cel: {expression: '$2'}}]
YAML
  done
}
one_g='"profile" in device.attributes["gpu.example.com"] &&
       device.attributes["gpu.example.com"].profile == "1g.10gb"'
claims 7 "$one_g" > "$tmp/seven.yaml"
claims 8 "$one_g" > "$tmp/eight.yaml"
cat > "$tmp/class.yaml" <<'YAML'
apiVersion: resource.k8s.io/v1
kind: DeviceClass
metadata: {name: gpu.example.com}
spec:
  selectors: [{cel: {expression: 'device.driver == "gpu.example.com"'}}]
YAML
classes=$tmp/class.yaml
"$dra" allocate --node node-1 -f "$tmp/mig1.yaml" -f "$tmp/seven.yaml" -f "$classes" > /dev/null 2>&1
rc=$?
[[ $rc -eq 0 ]] || fail "seven 1g partitions on one GPU: exit $rc, want 0"
"$dra" allocate --node node-1 -f "$tmp/mig1.yaml" -f "$tmp/eight.yaml" -f "$classes" > /dev/null 2>&1
rc=$?
[[ $rc -eq 1 ]] || fail "eight 1g partitions on one GPU: exit $rc, want 1"
{
  claims 1 'device.attributes["gpu.example.com"].type == "gpu"'
  claims 1 "$one_g" | sed 's/name: c0/name: d0/'
} > "$tmp/full-and-part.yaml"
"$dra" allocate --node node-1 -f "$tmp/mig1.yaml" -f "$tmp/full-and-part.yaml" -f "$classes" \
  > /dev/null 2>&1
rc=$?
[[ $rc -eq 1 ]] || fail "full GPU and a partition: exit $rc, want 1"

# Shared GPUs: consumable capacity. Eight 10Gi shares fit on one 80Gi GPU,
# nine do not.
"$dra" driver example --node-name node-1 --num-devices 1 --gpu-allow-multiple-allocations \
  --print-slices > "$tmp/shared.yaml" || fail "shared print-slices"
out=$("$dra" validate -q -f "$tmp/shared.yaml" 2>&1) || fail "shared slices invalid: $out"
grep -q 'allowMultipleAllocations: true' "$tmp/shared.yaml" || fail "no allowMultipleAllocations"
shares() {  # shares N
  for ((i = 0; i < $1; i++)); do
    cat <<YAML
---
apiVersion: resource.k8s.io/v1
kind: ResourceClaim
metadata: {name: s$i, namespace: default}
spec:
  devices:
    requests:
    - name: share
      exactly:
        deviceClassName: gpu.example.com
        capacity: {requests: {memory: 10Gi}}
YAML
  done
}
shares 8 > "$tmp/eight-shares.yaml"
shares 9 > "$tmp/nine-shares.yaml"
out=$("$dra" allocate --node node-1 -f "$tmp/shared.yaml" -f "$tmp/eight-shares.yaml" -f "$classes" \
      -o json 2>&1); rc=$?
[[ $rc -eq 0 ]] || fail "eight shares of a GPU: exit $rc"$'\n'"$out"
[[ $out == *'"memory": "10Gi"'* && $out == *shareID* ]] || fail "shares did not consume 10Gi"$'\n'"$out"
"$dra" allocate --node node-1 -f "$tmp/shared.yaml" -f "$tmp/nine-shares.yaml" -f "$classes" \
  > /dev/null 2>&1
rc=$?
[[ $rc -eq 1 ]] || fail "nine shares of a GPU: exit $rc, want 1"

# The documented example claims allocate on the GPUs they are written for.
"$dra" driver example --node-name node-1 --num-devices 2 --mig-partitions --print-slices \
  > "$tmp/mig2.yaml" || fail "mig2 print-slices"
out=$(python3 - examples/drivers/example-gpu-claims.yaml <<'PY'
import sys, yaml
for d in yaml.safe_load_all(open(sys.argv[1])):
    if d["kind"] == "DeviceClass" or d["metadata"]["name"] in ("whole-hopper-gpu", "small-partition"):
        print("---"); print(yaml.safe_dump(d))
PY
)
printf '%s\n' "$out" > "$tmp/example-mig-claims.yaml"
out=$("$dra" allocate --node node-1 -f "$tmp/mig2.yaml" -f "$tmp/example-mig-claims.yaml" 2>&1); rc=$?
[[ $rc -eq 0 ]] || fail "example claims on partitionable GPUs: exit $rc"$'\n'"$out"
"$dra" driver example --node-name node-1 --num-devices 1 --gpu-allow-multiple-allocations \
  --print-slices > "$tmp/shared1.yaml" || fail "shared1 print-slices"
out=$(python3 - examples/drivers/example-gpu-claims.yaml <<'PY'
import sys, yaml
for d in yaml.safe_load_all(open(sys.argv[1])):
    if d["kind"] == "DeviceClass" or d["metadata"]["name"] == "gpu-memory-share":
        print("---"); print(yaml.safe_dump(d))
PY
)
printf '%s\n' "$out" > "$tmp/example-share-claims.yaml"
out=$("$dra" allocate --node node-1 -f "$tmp/shared1.yaml" -f "$tmp/example-share-claims.yaml" 2>&1)
rc=$?
[[ $rc -eq 0 ]] || fail "example share claim: exit $rc"$'\n'"$out"

# Health control file: read by --print-slices too.
printf 'gpu-1 unhealthy xid-79\n' > "$tmp/health"
"$dra" driver example --node-name node-1 --num-devices 2 --health-control-file "$tmp/health" \
  --print-slices > "$tmp/tainted.yaml" || fail "print-slices with health file"
python3 - "$tmp/tainted.yaml" <<'PY' || fail "tainted slices content"
import sys, yaml
docs = [d for d in yaml.safe_load_all(open(sys.argv[1])) if d]
devs = {d["name"]: d for s in docs for d in s["spec"].get("devices", [])}
assert "taints" not in devs["gpu-0"], devs["gpu-0"]
t = devs["gpu-1"]["taints"]
assert len(t) == 1 and t[0]["key"] == "gpu.example.com/unhealthy" and t[0]["value"] == "xid-79" \
    and t[0]["effect"] == "NoSchedule" and "timeAdded" in t[0], t
PY

# Flag errors.
out=$("$dra" driver example --node-name n --num-devices -1 --print-slices 2>&1); rc=$?
[[ $rc -eq 2 && $out == "error: --num-devices -1: must be 0 to 1024" ]] || fail "bad count: $rc $out"
out=$("$dra" driver example --node-name n --mig-partitions --gpu-allow-multiple-allocations \
      --print-slices 2>&1); rc=$?
[[ $rc -eq 2 && $out == *"cannot be combined"* ]] || fail "mode conflict: $rc $out"
printf 'gpu-7 unhealthy\n' > "$tmp/badhealth"
out=$("$dra" driver example --node-name n --num-devices 2 --health-control-file "$tmp/badhealth" \
      --print-slices 2>&1); rc=$?
[[ $rc -eq 2 && $out == *'line 1: unknown GPU "gpu-7"'* ]] || fail "bad health file: $rc $out"
# Without --claims the driver is in Kubernetes mode and needs a cluster.
out=$(env -u KUBECONFIG -u KUBERNETES_SERVICE_HOST "$dra" driver example --node-name n 2>&1); rc=$?
[[ $rc -eq 1 && $out == "dra driver: no Kubernetes configuration: give --kubeconfig (KUBECONFIG), run in a pod, or give --claims to read claims from files" ]] ||
  fail "no --claims: $rc $out"
out=$("$dra" driver example --node-name n --kubeconfig "$tmp/missing.kubeconfig" 2>&1); rc=$?
[[ $rc -eq 1 && $out == "dra driver: stat $tmp/missing.kubeconfig: no such file or directory" ]] ||
  fail "missing kubeconfig: $rc $out"
out=$("$dra" driver example --node-name n --claims "$tmp" --gpu-device-status 2>&1); rc=$?
[[ $rc -eq 2 && $out == *"--gpu-device-status writes to the Kubernetes API"* ]] || fail "status with files: $rc $out"
out=$("$dra" driver example --node-name n --claims "$tmp" --metrics-port 70000 2>&1); rc=$?
[[ $rc -ne 0 && $out == *"--metrics-port"* ]] || fail "bad metrics port: $rc $out"

# Running plugin: flipping health re-publishes slices with the taint.
mkdir -p "$tmp/registry" "$tmp/plugins" "$tmp/cdi" "$tmp/claims"
printf '' > "$tmp/live-health"
"$dra" driver example --node-name node-1 --num-devices 2 --claims "$tmp/claims" \
  --cdi-root "$tmp/cdi" --kubelet-registrar-directory-path "$tmp/registry" \
  --kubelet-plugins-directory-path "$tmp/plugins" --resource-slices "$tmp/live.yaml" \
  --health-control-file "$tmp/live-health" 2> "$tmp/plugin.log" &
plugin_pid=$!
# Waits (bounded, to never hang) until the file holds the text.
wait_for() {
  for ((i = 0; i < 300; i++)); do
    grep -q "$2" "$1" 2> /dev/null && return 0
    kill -0 "$plugin_pid" 2> /dev/null || return 1
    sleep 0.1
  done
  return 1
}
if wait_for "$tmp/live.yaml" 'gpu-1'; then
  grep -q 'taints' "$tmp/live.yaml" && fail "taint before the health flip"
  printf 'gpu-1 unhealthy ecc-error\n' > "$tmp/live-health.new"
  mv "$tmp/live-health.new" "$tmp/live-health"
  wait_for "$tmp/live.yaml" 'value: ecc-error' || fail "taint not published after the health flip"
  printf 'gpu-1 healthy\n' > "$tmp/live-health.new"
  mv "$tmp/live-health.new" "$tmp/live-health"
  for ((i = 0; i < 300; i++)); do
    grep -q 'taints' "$tmp/live.yaml" || break
    sleep 0.1
  done
  grep -q 'taints' "$tmp/live.yaml" && fail "taint not removed after healing"
else
  fail "plugin did not publish slices:"$'\n'"$(cat "$tmp/plugin.log")"
fi
kill -TERM "$plugin_pid"
wait "$plugin_pid"
rc=$?
plugin_pid=
[[ $rc -eq 0 ]] || fail "plugin exit after SIGTERM: $rc"$'\n'"$(cat "$tmp/plugin.log")"
[[ -z $(ls -A "$tmp/registry") ]] || fail "registration socket left behind: $(ls -A "$tmp/registry")"

# --inventory-slices: the driver serves the devices of given slices (here the
# NICs of the gpu-nic-aligned example) instead of simulated GPUs.
"$dra" driver example --node-name node-0 --driver-name nic.example.com \
  --inventory-slices examples/clusters/gpu-nic-aligned --print-slices > "$tmp/nics.yaml"; rc=$?
[[ $rc -eq 0 ]] || fail "inventory-slices: exit $rc"
python3 - "$tmp/nics.yaml" examples/clusters/gpu-nic-aligned/cluster.yaml <<'PY' ||
import sys, yaml
def devices(path):
    out = set()
    for d in yaml.safe_load_all(open(path)):
        if d and d.get("kind") == "ResourceSlice" and d["spec"]["driver"] == "nic.example.com":
            out |= {(d["spec"]["pool"]["name"], x["name"]) for x in d["spec"].get("devices", [])}
    return out
got, want = devices(sys.argv[1]), devices(sys.argv[2])
assert want and got == want, (sorted(got), sorted(want))
PY
  fail "inventory-slices: published devices differ from the input slices"
out=$("$dra" driver example --node-name node-0 --driver-name other.example.com \
  --inventory-slices examples/clusters/gpu-nic-aligned --print-slices 2>&1); rc=$?
[[ $rc -eq 2 && $out == *"no ResourceSlice of driver other.example.com"* ]] ||
  fail "inventory-slices of another driver: $rc $out"
out=$("$dra" driver example --node-name node-0 --inventory-slices "$tmp/missing.yaml" \
  --print-slices 2>&1); rc=$?
[[ $rc -eq 2 && $out == *"missing.yaml"* ]] || fail "inventory-slices missing file: $rc $out"

if [[ $failures -ne 0 ]]; then
  echo "$failures failure(s)"
  exit 1
fi
echo ok
