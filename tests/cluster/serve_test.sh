#!/usr/bin/env bash
# dra serve on a real control plane (docs/SERVE.md): kube-scheduler
# allocates devices to pods; dra serve follows the cluster through its
# informers; every figure it serves is checked against what the API server
# holds (worked out here from kubectl's JSON, never from dra); a real
# Prometheus scrapes /metrics and is queried back; a real Chromium loads the
# dashboard, sees the nodes, devices and the waiting pod with kube-scheduler's
# reason, and sees a new pod's devices without a reload; then the API server
# goes away and comes back, and dra serve says how old its state is meanwhile.
#   serve_test.sh SOURCE_DIR DRA_PROGRAM ARTIFACT_DIR
# The screenshot of the dashboard is left in ARTIFACT_DIR/serve-dashboard.png.
# Exit 77 (ctest: skipped) when the cluster binaries are not built.
set -uo pipefail
src=$1
dra=$2
artifacts=$3
source "$src/tests/cluster/lib.sh"

tmp=$(mktemp -d -t dra-serve-test-XXXXXX)
failures=0
pids=()
fail() { echo "FAIL: $*"; failures=$((failures + 1)); }
cleanup() {
  for p in "${pids[@]}"; do kill -TERM "$p" 2> /dev/null; done
  for p in "${pids[@]}"; do wait "$p" 2> /dev/null; done
  cluster_down
  if [[ $failures -eq 0 ]]; then rm -rf "$tmp"; else echo "kept $tmp (cluster logs in $tmp/cluster/logs)"; fi
}
free_port() { python3 -c 'import socket; s=socket.socket(); s.bind(("127.0.0.1",0)); print(s.getsockname()[1])'; }

for tool in promtool prometheus chromium node npm; do
  command -v "$tool" > /dev/null || { echo "FAIL: $tool is not installed (scripts/bootstrap.sh installs it)"; exit 1; }
done
# The DevTools protocol client, from npm (cached).
cdp_version=0.34.0
modules=${XDG_CACHE_HOME:-$HOME/.cache}/dra/chrome-remote-interface-$cdp_version
if [[ ! -f $modules/node_modules/chrome-remote-interface/package.json ]]; then
  mkdir -p "$modules"
  npm install --silent --no-audit --no-fund --prefix "$modules" "chrome-remote-interface@$cdp_version" > /dev/null ||
    { echo "FAIL: npm install chrome-remote-interface@$cdp_version"; exit 1; }
fi

cluster_up "$tmp/cluster" --components scheduler,controller-manager --kubelet node-1 --kubelet node-2
rc=$?
[[ $rc -eq 77 ]] && exit 77
[[ $rc -eq 0 ]] || { echo "FAIL: cluster_up"; exit 1; }
trap cleanup EXIT

# node-1: four a100s, gpu-3 tainted; node-2: an h100 sharing its 80Gi with
# two 40Gi partitions. One attribute value carries markup.
kubectl create -f - > /dev/null <<'YAML' || fail "kubectl create"
apiVersion: resource.k8s.io/v1
kind: DeviceClass
metadata: {name: gpu.example.com}
spec:
  selectors: [{cel: {expression: 'device.driver == "gpu.example.com"'}}]
---
apiVersion: resource.k8s.io/v1
kind: DeviceClass
metadata: {name: big-gpu}
spec:
  selectors:
  - cel: {expression: 'device.driver == "gpu.example.com" && device.attributes["gpu.example.com"].model == "h100"'}
---
apiVersion: resource.k8s.io/v1
kind: ResourceSlice
metadata: {name: node-1-gpus}
spec:
  driver: gpu.example.com
  nodeName: node-1
  pool: {name: node-1, generation: 1, resourceSliceCount: 1}
  devices:
  - {name: gpu-0, attributes: {model: {string: a100}, uuid: {string: GPU-aaaa-0000}}}
  - {name: gpu-1, attributes: {model: {string: a100}, uuid: {string: GPU-aaaa-0001}}}
  - name: gpu-2
    attributes:
      model: {string: a100}
      uuid: {string: GPU-aaaa-0002}
      productName: {string: '<img src=x onerror="window.__pwned=1">'}
  - name: gpu-3
    attributes: {model: {string: a100}, uuid: {string: GPU-aaaa-0003}}
    taints: [{key: example.com/unhealthy, value: ecc, effect: NoSchedule}]
---
apiVersion: resource.k8s.io/v1
kind: ResourceSlice
metadata: {name: node-2-counters}
spec:
  driver: gpu.example.com
  nodeName: node-2
  pool: {name: node-2, generation: 1, resourceSliceCount: 2}
  sharedCounters:
  - name: gpu-0-counters
    counters: {memory: {value: 80Gi}}
---
apiVersion: resource.k8s.io/v1
kind: ResourceSlice
metadata: {name: node-2-gpus}
spec:
  driver: gpu.example.com
  nodeName: node-2
  pool: {name: node-2, generation: 1, resourceSliceCount: 2}
  devices:
  - name: gpu-0
    attributes: {model: {string: h100}, uuid: {string: GPU-bbbb-0000}}
    consumesCounters: [{counterSet: gpu-0-counters, counters: {memory: {value: 80Gi}}}]
  - name: gpu-0-mig-a
    attributes: {model: {string: h100-mig}, uuid: {string: MIG-bbbb-000a}}
    consumesCounters: [{counterSet: gpu-0-counters, counters: {memory: {value: 40Gi}}}]
  - name: gpu-0-mig-b
    attributes: {model: {string: h100-mig}, uuid: {string: MIG-bbbb-000b}}
    consumesCounters: [{counterSet: gpu-0-counters, counters: {memory: {value: 40Gi}}}]
---
apiVersion: resource.k8s.io/v1
kind: ResourceClaimTemplate
metadata: {name: two-a100}
spec:
  spec:
    devices:
      requests:
      - name: gpus
        exactly:
          deviceClassName: gpu.example.com
          count: 2
          selectors: [{cel: {expression: 'device.attributes["gpu.example.com"].model == "a100"'}}]
---
apiVersion: resource.k8s.io/v1
kind: ResourceClaimTemplate
metadata: {name: one-a100}
spec:
  spec:
    devices:
      requests:
      - name: gpu
        exactly:
          deviceClassName: gpu.example.com
          selectors: [{cel: {expression: 'device.attributes["gpu.example.com"].model == "a100"'}}]
---
apiVersion: resource.k8s.io/v1
kind: ResourceClaimTemplate
metadata: {name: mig}
spec:
  spec:
    devices:
      requests:
      - name: slice
        exactly:
          deviceClassName: gpu.example.com
          selectors: [{cel: {expression: 'device.attributes["gpu.example.com"].model == "h100-mig"'}}]
---
apiVersion: resource.k8s.io/v1
kind: ResourceClaimTemplate
metadata: {name: whole-h100}
spec:
  spec:
    devices:
      requests: [{name: gpu, exactly: {deviceClassName: big-gpu}}]
YAML

pod() {  # pod NAME TEMPLATE
  kubectl create -f - > /dev/null <<YAML
apiVersion: v1
kind: Pod
metadata: {name: $1}
spec:
  containers: [{name: c, image: registry.k8s.io/pause:3.10}]
  resourceClaims: [{name: r, resourceClaimTemplateName: $2}]
YAML
}
pod trainer two-a100 || fail "pod trainer"
pod infer mig || fail "pod infer"
# The mig partition goes first, so that the whole h100 cannot fit.
scheduled() { [[ $(kubectl get pod "$1" -o jsonpath='{.spec.nodeName}') != "" ]]; }
wait_until 60 scheduled trainer || fail "trainer was not scheduled"
wait_until 60 scheduled infer || fail "infer was not scheduled"
pod big-job whole-h100 || fail "pod big-job"
unschedulable() {
  [[ $(kubectl get pod "$1" -o jsonpath='{.status.conditions[?(@.type=="PodScheduled")].reason}') == Unschedulable ]]
}
wait_until 60 unschedulable big-job || fail "kube-scheduler did not mark big-job Unschedulable"

"$dra" serve --kubeconfig "$KUBECONFIG" --listen 127.0.0.1:0 2> "$tmp/serve.err" &
serve_pid=$!
pids+=("$serve_pid")
port=
wait_until 30 grep -q ' on http://127.0.0.1:[0-9]*/$' "$tmp/serve.err" || fail "dra serve: $(cat "$tmp/serve.err")"
port=$(sed -n 's|.* on http://127\.0\.0\.1:\([0-9]*\)/$|\1|p' "$tmp/serve.err")
healthy() { [[ $(curl -s -o /dev/null -w '%{http_code}' "http://127.0.0.1:$port/healthz") == 200 ]]; }
wait_until 30 healthy || fail "dra serve never became healthy: $(cat "$tmp/serve.err")"
# The state after the informers saw every object created above.
# Waiting pods are explained beside the state (stage "unexplained" until then).
has_pending() {
  curl -s "http://127.0.0.1:$port/api/summary" |
    python3 -c 'import json,sys; p=[x for x in json.load(sys.stdin)["pending"] if x["name"]=="big-job"]; sys.exit(0 if p and p[0]["stage"]!="unexplained" else 1)'
}
wait_until 30 has_pending || fail "dra serve never explained big-job"

# What the API server holds, worked out from kubectl's JSON alone.
kubectl get resourceslices -o json > "$tmp/slices.json"
kubectl get resourceclaims -A -o json > "$tmp/claims.json"
kubectl get pods -A -o json > "$tmp/pods.json"
python3 - "$tmp" > "$tmp/expect.json" <<'PY' || fail "expectations"
import json, sys
d = sys.argv[1]
slices = json.load(open(f"{d}/slices.json"))["items"]
claims = json.load(open(f"{d}/claims.json"))["items"]
pods = json.load(open(f"{d}/pods.json"))["items"]
allocated = {}
joins = []
claim_states = {}
for c in claims:
    st = c.get("status", {})
    results = st.get("allocation", {}).get("devices", {}).get("results", [])
    for r in results:
        allocated[(r["pool"], r["device"])] = True
    reserved = [x["name"] for x in st.get("reservedFor", []) if x["resource"] == "pods"]
    state = "pending" if "allocation" not in st else "reserved" if reserved else "allocated"
    key = (c["metadata"]["namespace"], state)
    claim_states[key] = claim_states.get(key, 0) + 1
    for p in reserved:
        for r in results:
            joins.append([p, c["metadata"]["name"], r["pool"], r["device"]])
devices = {}
for s in slices:
    pool = s["spec"]["pool"]["name"]
    for dev in s["spec"].get("devices", []):
        if (pool, dev["name"]) in allocated:
            state = "allocated"
        elif any(t["effect"] in ("NoSchedule", "NoExecute") for t in dev.get("taints", [])):
            state = "tainted"
        else:
            state = "free"
        devices[f"{pool}/{state}"] = devices.get(f"{pool}/{state}", 0) + 1
pending = []
for p in pods:
    for c in p["status"].get("conditions", []):
        if c["type"] == "PodScheduled" and c.get("reason") == "Unschedulable":
            pending.append({"name": "default/" + p["metadata"]["name"], "message": c["message"]})
total = lambda s: sum(v for k, v in devices.items() if k.endswith("/" + s))
print(json.dumps({"devices": devices, "joins": sorted(joins), "claims": {f"{k[0]}/{k[1]}": v for k, v in claim_states.items()},
                  "pending": pending, "allocated": total("allocated"), "free": total("free"), "tainted": total("tainted")}))
PY

curl -s "http://127.0.0.1:$port/metrics" > "$tmp/metrics.txt"
promtool check metrics < "$tmp/metrics.txt" > "$tmp/promtool.out" 2>&1 ||
  fail "promtool check metrics: $(cat "$tmp/promtool.out")"

python3 - "$tmp" <<'PY' || fail "dra serve's figures differ from the API server's"
import json, re, sys
d = sys.argv[1]
want = json.load(open(f"{d}/expect.json"))
series = {}
for line in open(f"{d}/metrics.txt"):
    if line.startswith("#") or not line.strip():
        continue
    m = re.match(r'^([a-zA-Z_:][a-zA-Z0-9_:]*)(?:\{(.*)\})? (\S+)$', line.strip())
    labels = dict(re.findall(r'([a-zA-Z_][a-zA-Z0-9_]*)="((?:[^"\\]|\\.)*)"', m.group(2) or ""))
    series.setdefault(m.group(1), []).append((labels, float(m.group(3))))
got = {f"{l['pool']}/{l['state']}": int(v) for l, v in series["dra_devices"] if v}
assert got == want["devices"], (got, want["devices"])
joins = sorted([l["pod"], l["claim"], l["pool"], l["device"]] for l, v in series["dra_pod_device_info"])
assert joins == want["joins"], (joins, want["joins"])
claims = {f"{l['namespace']}/{l['state']}": int(v) for l, v in series["dra_claims"] if v}
assert claims == want["claims"], (claims, want["claims"])
pending = {l["stage"]: int(v) for l, v in series["dra_pending_pods"]}
# big-job waits because the partition in use left too little of the h100's counter.
assert pending == {"counters": 1}, pending
assert len(want["pending"]) == 1 and want["pending"][0]["name"] == "default/big-job", want["pending"]
assert all(v == 1 for l, v in series["dra_serve_informer_synced"]), series["dra_serve_informer_synced"]
summary = json.load(open(f"{d}/metrics.txt".replace("metrics.txt", "summary.json"))) if False else None
print("dra serve agrees with the API server:", want["devices"], want["claims"])
PY

# The message kube-scheduler wrote is what the dashboard shows for big-job.
curl -s "http://127.0.0.1:$port/api/summary" > "$tmp/summary.json"
python3 - "$tmp" <<'PY' || fail "pending pod in /api/summary"
import json, sys
d = sys.argv[1]
want = json.load(open(f"{d}/expect.json"))["pending"][0]
got = [p for p in json.load(open(f"{d}/summary.json"))["pending"] if p["name"] == "big-job"][0]
assert got["message"] == want["message"], (got["message"], want["message"])
assert got["stage"] == "counters" and got["node"] == "node-2", got
PY

# A real Prometheus scrapes dra serve every second and is queried back.
pport=$(free_port)
cat > "$tmp/prometheus.yml" <<YAML
global: {scrape_interval: 1s, evaluation_interval: 1s}
scrape_configs:
- job_name: dra
  static_configs: [{targets: ['127.0.0.1:$port']}]
YAML
prometheus --config.file="$tmp/prometheus.yml" --storage.tsdb.path="$tmp/prometheus-data" \
  --web.listen-address="127.0.0.1:$pport" > "$tmp/prometheus.log" 2>&1 &
pids+=($!)
query() { curl -s "http://127.0.0.1:$pport/api/v1/query" --data-urlencode "query=$1"; }
scraped() { query 'up{job="dra"}' | grep -q '"value":\[[0-9.]*,"1"\]'; }
wait_until 60 scraped || fail "Prometheus did not scrape dra serve: $(tail -5 "$tmp/prometheus.log")"
query 'sum by (state) (dra_devices)' > "$tmp/q-devices.json"
query 'count by (pod) (dra_pod_device_info)' > "$tmp/q-joins.json"
query 'sum(dra_shared_capacity_consumed{counter="memory"}) / sum(dra_shared_capacity{counter="memory"})' > "$tmp/q-counters.json"
python3 - "$tmp" <<'PY' || fail "Prometheus' answers"
import json, sys
d = sys.argv[1]
want = json.load(open(f"{d}/expect.json"))
res = lambda n: json.load(open(f"{d}/{n}.json"))["data"]["result"]
got = {r["metric"]["state"]: int(r["value"][1]) for r in res("q-devices")}
assert got == {"allocated": want["allocated"], "free": want["free"], "tainted": want["tainted"]}, got
per_pod = {r["metric"]["pod"]: int(r["value"][1]) for r in res("q-joins")}
want_pods = {}
for p, *_ in want["joins"]:
    want_pods[p] = want_pods.get(p, 0) + 1
assert per_pod == want_pods, (per_pod, want_pods)
# One 40Gi partition of the h100's 80Gi is in use.
assert float(res("q-counters")[0]["value"][1]) == 0.5, res("q-counters")
print("Prometheus:", got, per_pod)
PY

# Chromium loads the dashboard; a new pod (one more a100) shows without a reload.
devtools=$tmp/chromium
chromium --headless=new --no-sandbox --disable-gpu --disable-dev-shm-usage --no-first-run \
  --user-data-dir="$devtools" --remote-debugging-address=127.0.0.1 --remote-debugging-port=0 \
  about:blank > "$tmp/chromium.log" 2>&1 &
pids+=($!)
wait_until 60 test -s "$devtools/DevToolsActivePort" || fail "chromium did not start: $(tail -5 "$tmp/chromium.log")"
cdp_port=$(head -1 "$devtools/DevToolsActivePort")
mkdir -p "$artifacts"
export DRA_SERVE_EXPECT
DRA_SERVE_EXPECT=$(python3 - "$tmp" <<'PY'
import json, sys
want = json.load(open(f"{sys.argv[1]}/expect.json"))
print(json.dumps({
    "nodes": ["node-1", "node-2"], "allocated": want["allocated"], "free": want["free"],
    "tainted": want["tainted"], "allocatedAfter": want["allocated"] + 1,
    "pending": [{"name": p["name"], "stage": "counters", "message": p["message"]} for p in want["pending"]],
    "mapNode": "node-1", "mapDevices": 4, "markup": '<img src=x onerror="window.__pwned=1">',
    "search": "GPU-aaaa-0003"}))
PY
)
cat > "$tmp/change.sh" <<EOF
set -e
source "$src/tests/cluster/lib.sh"
export KUBECONFIG="$KUBECONFIG" DRA_CLUSTER_KUBECTL="$DRA_CLUSTER_KUBECTL"
kubectl create -f - > /dev/null <<'YAML'
apiVersion: v1
kind: Pod
metadata: {name: extra}
spec:
  containers: [{name: c, image: registry.k8s.io/pause:3.10}]
  resourceClaims: [{name: r, resourceClaimTemplateName: one-a100}]
YAML
EOF
node "$src/tests/cluster/serve_browser.js" "$modules/node_modules" "$cdp_port" \
  "http://127.0.0.1:$port/" "$artifacts/serve-dashboard.png" "bash $tmp/change.sh" ||
  fail "the dashboard in Chromium"

# The API server goes away: dra serve keeps serving its last state and says
# since when it is stale; when the server is back, it is current again.
total() { curl -s "http://127.0.0.1:$port/api/summary" | python3 -c 'import json,sys; print(json.load(sys.stdin)["total"])'; }
before=$(total)
cluster_cmd stop-apiserver > /dev/null || fail "stop-apiserver"
stale() { curl -s "http://127.0.0.1:$port/api/summary" | grep -q '"stale":{"since"'; }
wait_until 60 stale || fail "no stale state reported while the API server is down"
after=$(total)
[[ $before == "$after" ]] || fail "the last good state changed while the server was away: $before / $after"
stale_seconds() { curl -s "http://127.0.0.1:$port/metrics" | grep -qE '^dra_serve_state_stale_seconds [1-9]'; }
wait_until 10 stale_seconds || fail "dra_serve_state_stale_seconds stayed 0"
cluster_cmd start-apiserver > /dev/null || fail "start-apiserver"
current() { curl -s "http://127.0.0.1:$port/api/summary" | grep -q '"stale":null'; }
wait_until 90 current || fail "still stale after the API server came back"

kill -TERM "$serve_pid"
wait "$serve_pid" || fail "dra serve did not stop cleanly"
grep -q 'SIGTERM, shutting down' "$tmp/serve.err" || fail "no shutdown message"
[[ $failures -eq 0 ]] && echo "serve: all checks passed"
exit $((failures > 0))
