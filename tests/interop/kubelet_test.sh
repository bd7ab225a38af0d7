#!/usr/bin/env bash
# The kubelet's side of a DRA driver, played by upstream's own code: the Go
# program interop/kubelet uses k8s.io/kubelet's generated registration and
# DRAPlugin clients to register `dra driver example` through its registration
# socket and to prepare and unprepare claims (v1 and v1beta1) as a kubelet
# does.
#   kubelet_test.sh DRA_PROGRAM SOURCE_DIR
# Exit 77 (ctest: skipped) when Go is not installed.
set -uo pipefail
dra=$1
src=$2
go_bin=${DRA_INTEROP_GO:-$(command -v go || echo /usr/local/go/bin/go)}
if [[ ! -x "$go_bin" ]]; then
  echo "SKIPPED: Go is not installed, so the kubelet-client test did not run"
  exit 77
fi
PATH=$(dirname "$go_bin"):$PATH
cache=${XDG_CACHE_HOME:-$HOME/.cache}/dra-interop
export GOFLAGS=-mod=mod
export GOMODCACHE=${DRA_INTEROP_GOMODCACHE:-$cache/gomod}
export GOCACHE=${DRA_INTEROP_GOCACHE:-$cache/gocache}
mkdir -p "$cache/bin"
if ! (cd "$src/interop/kubelet" && go build -o "$cache/bin/kubelet-client" .); then
  echo "FAILED: building interop/kubelet (needs the Go module proxy on the first run)"
  exit 1
fi
client=$cache/bin/kubelet-client

failures=0
fail() { echo "FAIL: $*"; failures=$((failures + 1)); }
tmp=$(mktemp -d)
plugin_pid=
cleanup() {
  [[ -n $plugin_pid ]] && kill "$plugin_pid" 2> /dev/null
  rm -rf "$tmp"
}
trap cleanup EXIT
mkdir -p "$tmp/registry" "$tmp/plugins" "$tmp/cdi" "$tmp/claims"

# Two claims allocated on node-1's example GPUs.
claim() {  # claim NAME UID DEVICE
  cat <<YAML
apiVersion: resource.k8s.io/v1
kind: ResourceClaim
metadata: {name: $1, namespace: default, uid: $2}
spec:
  devices:
    requests:
    - name: gpu
      exactly: {deviceClassName: gpu.example.com}
status:
  allocation:
    devices:
      results:
      - {request: gpu, driver: gpu.example.com, pool: node-1, device: $3}
---
YAML
}
{ claim c0 uid-c0 gpu-0; claim c1 uid-c1 gpu-1; } > "$tmp/claims/claims.yaml"

"$dra" driver example --node-name node-1 --num-devices 2 --claims "$tmp/claims" \
  --cdi-root "$tmp/cdi" --kubelet-registrar-directory-path "$tmp/registry" \
  --kubelet-plugins-directory-path "$tmp/plugins" --resource-slices "$tmp/slices.yaml" \
  2> "$tmp/plugin.log" &
plugin_pid=$!
for ((i = 0; i < 300; i++)); do
  compgen -G "$tmp/registry/*.sock" > /dev/null && break
  kill -0 "$plugin_pid" 2> /dev/null || break
  sleep 0.1
done

for api in v1 v1beta1; do
  out=$("$client" --registry "$tmp/registry" --api "$api" --claim default/c0/uid-c0 \
        --claim default/c1/uid-c1 --claim default/missing/uid-missing 2>&1)
  rc=$?
  [[ $rc -eq 0 ]] || { fail "$api: kubelet-client exit $rc: $out"$'\n'"$(cat "$tmp/plugin.log")"; continue; }
  python3 - "$api" <<PY || fail "$api: unexpected answers: $out"
import json, sys
r = json.loads('''$out''')
assert r["type"] == "DRAPlugin" and r["name"] == "gpu.example.com", r
assert r["supportedVersions"][0] == "v1.DRAPlugin", r["supportedVersions"]
p = {c["uid"]: c for c in r["prepared"]}
assert set(p) == {"uid-c0", "uid-c1", "uid-missing"}, p
for uid, dev in (("uid-c0", "gpu-0"), ("uid-c1", "gpu-1")):
    assert not p[uid].get("error"), p[uid]
    assert len(p[uid]["devices"]) == 1 and p[uid]["devices"][0].startswith("node-1/" + dev + ": "), p[uid]
    assert "gpu.example.com/" in p[uid]["devices"][0], p[uid]
assert p["uid-missing"].get("error"), p["uid-missing"]
u = {c["uid"]: c for c in r["unprepared"]}
assert not u["uid-c0"].get("error") and not u["uid-c1"].get("error"), u
PY
  left=$(find "$tmp/cdi" -type f | wc -l)
  [[ $left -eq 0 ]] || fail "$api: $left CDI spec file(s) left after unprepare"
done

kill -TERM "$plugin_pid"
wait "$plugin_pid"
rc=$?
plugin_pid=
[[ $rc -eq 0 ]] || fail "plugin exit after SIGTERM: $rc"$'\n'"$(cat "$tmp/plugin.log")"
[[ -z $(ls -A "$tmp/registry") ]] || fail "registration socket left behind"

if [[ $failures -ne 0 ]]; then
  echo "$failures failure(s)"
  exit 1
fi
echo "kubelet-client (k8s.io/kubelet v0.37.2 clients): registered, prepared and unprepared over v1 and v1beta1"
