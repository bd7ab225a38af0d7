#!/usr/bin/env bash
# dra serve -f over tests/data/serve/cluster.yaml: /metrics (every figure
# below is worked out by hand from that file, and promtool checks the
# exposition), the JSON API, the event stream, the page's assets and
# headers, bad requests and flags, connections held open, and shutdown.
source "$(dirname "${BASH_SOURCE[0]}")/common.sh"
tmp=$(mktemp -d)
pids=()
cleanup() {
  for p in "${pids[@]}"; do kill -TERM "$p" 2> /dev/null; done
  for p in "${pids[@]}"; do wait "$p" 2> /dev/null; done
  rm -rf "$tmp"
}
trap cleanup EXIT

# start NAME ARGS...: starts dra serve on a free loopback port; sets $port
# and $pid, and waits until /healthz answers 200.
start() {
  local name=$1
  shift
  "$dra" serve --listen 127.0.0.1:0 "$@" 2> "$tmp/$name.err" &
  pid=$!
  pids+=("$pid")
  port=
  local i
  for ((i = 0; i < 100; i++)); do
    port=$(sed -n 's|.* on http://127\.0\.0\.1:\([0-9]*\)/$|\1|p' "$tmp/$name.err")
    [[ -n $port ]] && break
    sleep 0.1
  done
  [[ -n $port ]] || { fail "$name: no port announced: $(cat "$tmp/$name.err")"; return 1; }
  for ((i = 0; i < 100; i++)); do
    [[ $(curl -s -o /dev/null -w '%{http_code}' "http://127.0.0.1:$port/healthz") == 200 ]] && return 0
    sleep 0.1
  done
  fail "$name: /healthz never answered 200"
  return 1
}
get() { curl -s "http://127.0.0.1:$port$1"; }
code() { curl -s -o /dev/null -w '%{http_code}' "$@"; }

start main -f tests/data/serve/cluster.yaml || exit 1
get /metrics > "$tmp/metrics.txt"
get /api/summary > "$tmp/summary.json"
get '/api/devices?node=node-2' > "$tmp/node-2.json"
get '/api/devices?node=node-1' > "$tmp/node-1.json"
get '/api/search?q=gpu-aaaa-0001' > "$tmp/search-uuid.json"
get '/api/search?q=TRAIN' > "$tmp/search-train.json"

if command -v promtool > /dev/null; then
  promtool check metrics < "$tmp/metrics.txt" > "$tmp/promtool.out" 2>&1 ||
    fail "promtool check metrics: $(cat "$tmp/promtool.out")"
else
  fail "promtool is not installed (scripts/bootstrap.sh installs prometheus)"
fi

python3 - "$tmp" <<'PY' || fail "metrics and API documents"
import json, re, sys
d = sys.argv[1]

# The exposition as {(name, frozenset(labels)): value}.
series = {}
for line in open(f"{d}/metrics.txt"):
    if line.startswith("#") or not line.strip():
        continue
    m = re.match(r'^([a-zA-Z_:][a-zA-Z0-9_:]*)(?:\{(.*)\})? (\S+)$', line.strip())
    assert m, line
    labels = frozenset(re.findall(r'([a-zA-Z_][a-zA-Z0-9_]*)="((?:[^"\\]|\\.)*)"', m.group(2) or ""))
    series[(m.group(1), labels)] = float(m.group(3))

def value(name, **labels):
    key = (name, frozenset(labels.items()))
    assert key in series, f"missing {name}{labels}"
    return series[key]

def names(name):
    return [dict(l) for (n, l) in series if n == name]

g = dict(driver="gpu.example.com")
# node-1: gpu-0, gpu-1 (train) and gpu-2 (idle) allocated, gpu-3 tainted.
assert value("dra_devices", **g, pool="node-1", node="node-1", state="allocated") == 3
assert value("dra_devices", **g, pool="node-1", node="node-1", state="tainted") == 1
assert value("dra_devices", **g, pool="node-1", node="node-1", state="free") == 0
# node-2: mig-a allocated; gpu-0 and mig-b free, both drawing on the half-used counter.
assert value("dra_devices", **g, pool="node-2", node="node-2", state="allocated") == 1
assert value("dra_devices", **g, pool="node-2", node="node-2", state="free") == 2
assert value("dra_devices", **g, pool="node-2", node="node-2", state="tainted") == 0
assert value("dra_devices_partially_consumed", **g, pool="node-2", node="node-2") == 2
assert value("dra_devices_blocked_by_counters", **g, pool="node-2", node="node-2") == 1
assert value("dra_devices_blocked_by_counters", **g, pool="node-1", node="node-1") == 0
assert value("dra_shared_capacity", **g, pool="node-2", node="node-2", counter="memory") == 80 * 2**30
assert value("dra_shared_capacity_consumed", **g, pool="node-2", node="node-2", counter="memory") == 40 * 2**30
# Classes: every device is gpu.example.com's; big-gpu is the h100 alone.
assert value("dra_deviceclass_devices", deviceclass="gpu.example.com", state="free") == 2
assert value("dra_deviceclass_devices", deviceclass="gpu.example.com", state="allocated") == 4
assert value("dra_deviceclass_devices", deviceclass="gpu.example.com", state="tainted") == 1
assert value("dra_deviceclass_devices", deviceclass="big-gpu", state="free") == 1
assert value("dra_deviceclass_devices", deviceclass="big-gpu", state="allocated") == 0
# Claims: train and mig reserved, idle allocated, whole-h100 and a100 pending.
assert value("dra_claims", namespace="default", state="reserved") == 2
assert value("dra_claims", namespace="default", state="allocated") == 1
assert value("dra_claims", namespace="default", state="pending") == 2
assert value("dra_claims", namespace="default", state="deallocating") == 0
# Waiting pods: the whole h100 is blocked by the counters, the a100 by the taint.
assert value("dra_pending_pods", namespace="default", stage="counters") == 1
assert value("dra_pending_pods", namespace="default", stage="taints") == 1
assert len(names("dra_pending_pods")) == 2, names("dra_pending_pods")
# The join: three devices held by two pods.
info = sorted((l["pod"], l["device"], l["uuid"], l["node"], l["claim"], l["request"]) for l in names("dra_pod_device_info"))
assert info == [("infer", "gpu-0-mig-a", "MIG-bbbb-000a", "node-2", "mig", "slice"),
                ("trainer", "gpu-0", "GPU-aaaa-0000", "node-1", "train", "gpus"),
                ("trainer", "gpu-1", "GPU-aaaa-0001", "node-1", "train", "gpus")], info
assert all(value("dra_pod_device_info", **l) == 1 for l in names("dra_pod_device_info"))
# No per-device series without --device-metrics.
assert not names("dra_device_state")
assert value("dra_serve_state_stale_seconds") == 0
assert value("dra_serve_state_generation") >= 1

s = json.load(open(f"{d}/summary.json"))
assert s["total"] == {"free": 2, "allocated": 4, "tainted": 1, "partiallyConsumed": 2}, s["total"]
assert s["stale"] is None and s["synced"] is True
assert [n["name"] for n in s["nodes"]] == ["node-1", "node-2"]
assert s["nodes"][1]["free"] == 2 and s["nodes"][0]["allocated"] == 3
assert [c["name"] for c in s["classes"]] == ["big-gpu", "gpu.example.com"]
pool2 = [p for p in s["pools"] if p["pool"] == "node-2"][0]
assert pool2["counters"][0]["name"] == "memory"
assert (pool2["counters"][0]["consumed"], pool2["counters"][0]["total"]) == ("40Gi", "80Gi"), pool2
pending = {p["name"]: p for p in s["pending"]}
assert set(pending) == {"big-job", "needs-a100"}, pending
assert pending["big-job"]["stage"] == "counters" and pending["big-job"]["node"] == "node-2"
assert pending["needs-a100"]["stage"] == "taints" and pending["needs-a100"]["node"] == "node-1"
req = pending["needs-a100"]["explanation"]["requests"][0]
# Seven devices; node-2's three are not on node-1; of node-1's four a100s
# three are allocated and the fourth is tainted.
assert (req["candidates"], req["removed"]["node"], req["removed"]["allocated"], req["removed"]["taints"], req["remaining"]) == (7, 3, 3, 1, 0), req
assert req["blockedBy"] == "taints"
assert pending["big-job"]["claims"] == ["default/whole-h100"]
assert s["claims"] == [{"namespace": "default", "pending": 2, "allocated": 1, "reserved": 2, "deallocating": 0}]

n2 = {x["name"]: x for x in json.load(open(f"{d}/node-2.json"))["devices"]}
assert set(n2) == {"gpu-0", "gpu-0-mig-a", "gpu-0-mig-b"}
assert n2["gpu-0"]["state"] == "free" and n2["gpu-0"]["blockedByCounters"] and n2["gpu-0"]["partiallyConsumed"]
assert not n2["gpu-0-mig-b"]["blockedByCounters"] and n2["gpu-0-mig-b"]["partiallyConsumed"]
assert n2["gpu-0-mig-a"]["pods"] == ["default/infer"] and n2["gpu-0-mig-a"]["claims"] == ["default/mig"]
assert {x["counterSet"] for x in n2.values()} == {"gpu-0-counters"}
n1 = {x["name"]: x for x in json.load(open(f"{d}/node-1.json"))["devices"]}
assert n1["gpu-3"]["state"] == "tainted" and n1["gpu-3"]["taints"] == ["example.com/unhealthy=ecc:NoSchedule"]
assert n1["gpu-2"]["claims"] == ["default/idle"] and n1["gpu-2"]["pods"] == []
assert n1["gpu-2"]["product"] == "<img src=x onerror=alert(1)>"
assert "<img" not in open(f"{d}/node-1.json").read(), "markup must be escaped in JSON"

r = json.load(open(f"{d}/search-uuid.json"))["results"]
assert r == [{"kind": "device", "name": "gpu.example.com/node-1/gpu-1", "node": "node-1", "detail": "allocated, uuid GPU-aaaa-0001"}], r
r = json.load(open(f"{d}/search-train.json"))["results"]
assert [(x["kind"], x["name"]) for x in r] == [("pod", "default/trainer"), ("claim", "default/train")], r
PY

# Bad requests: a JSON error, a 4xx code, the server unharmed.
for q in '/api/devices' '/api/devices?node=a&pool=b' '/api/devices?node=a&node=b' \
  '/api/summary?x=1' '/api/devices?node=a&limit=0' '/api/devices?node=a&limit=x' \
  "/api/search?q=$(printf 'a%.0s' {1..600})" '/api/devices?notNodeLocal=yes'; do
  c=$(code "http://127.0.0.1:$port$q")
  [[ $c == 400 ]] || fail "$q: $c, want 400"
done
get '/api/devices?node=a&pool=b' | grep -q '"error":"give exactly one of' || fail "error text"
[[ $(code "http://127.0.0.1:$port/nope") == 404 ]] || fail "unknown path"
[[ $(code -X POST -d x "http://127.0.0.1:$port/metrics") == 405 ]] || fail "POST"
[[ $(code "http://127.0.0.1:$port/api/devices?notNodeLocal=true") == 200 ]] || fail "notNodeLocal"
printf 'GARBAGE\r\n\r\n' | timeout 5 bash -c "exec 3<>/dev/tcp/127.0.0.1/$port; cat >&3; cat <&3" \
  > "$tmp/garbage.out" 2>&1
grep -q '^HTTP/1.1 400' "$tmp/garbage.out" || fail "a malformed request line: $(head -1 "$tmp/garbage.out")"

# The page and its assets: dra's own, under a policy that runs nothing else.
curl -s -D "$tmp/page.h" -o "$tmp/page.html" "http://127.0.0.1:$port/"
grep -qi "^content-security-policy: default-src 'none'; script-src 'self'" "$tmp/page.h" || fail "CSP"
grep -qi '^content-type: text/html' "$tmp/page.h" || fail "page type"
grep -q '<script src="/app.js"' "$tmp/page.html" || fail "page body"
curl -s -D "$tmp/js.h" -o /dev/null "http://127.0.0.1:$port/app.js"
grep -qi '^content-type: text/javascript' "$tmp/js.h" || fail "app.js type"
[[ $(code "http://127.0.0.1:$port/app.css") == 200 ]] || fail "app.css"

# The event stream: the retry hint and the current state at once.
curl -sN --max-time 2 "http://127.0.0.1:$port/api/events" > "$tmp/events.txt"
grep -q '^retry: 2000' "$tmp/events.txt" || fail "events: no retry"
grep -q '^event: state' "$tmp/events.txt" || fail "events: no state event"
grep -q '^data: {"generation":[0-9]*,"computedAt":"' "$tmp/events.txt" || fail "events: data"

kill -TERM "$pid"
wait "$pid"
rc=$?
[[ $rc -eq 0 ]] || fail "SIGTERM: exit $rc"
grep -q 'SIGTERM, shutting down' "$tmp/main.err" || fail "shutdown message"

# Connections held open: two streams are all --max-streams 2 allows; the
# third is refused with 503 and the rest of the server keeps answering.
start held -f tests/data/serve/cluster.yaml --max-streams 2 --device-metrics || exit 1
curl -sN "http://127.0.0.1:$port/api/events" > /dev/null &
pids+=($!)
curl -sN "http://127.0.0.1:$port/api/events" > /dev/null &
pids+=($!)
sleep 1
[[ $(code --max-time 3 "http://127.0.0.1:$port/api/events") == 503 ]] || fail "third stream"
[[ $(code --max-time 3 "http://127.0.0.1:$port/metrics") == 200 ]] || fail "metrics while held"
get /metrics > "$tmp/held-metrics.txt"
grep -q '^dra_device_state{driver="gpu.example.com",pool="node-2",node="node-2",device="gpu-0",state="free"} 1$' "$tmp/held-metrics.txt" ||
  fail "--device-metrics"
kill -TERM "$pid"
wait "$pid" || fail "stop with streams open"

# A GPU shared through consumable capacity (tests/data/serve/shared_gpu.yaml):
# what its allocations consume, worked out by hand: 20Gi + 10Gi for the two
# results of one claim, 30Gi for the other; the admin-access result
# consumes nothing. Its three claims and the one pod that reserves one.
start shared -f tests/data/serve/shared_gpu.yaml || exit 1
get /metrics > "$tmp/shared-metrics.txt"
get '/api/devices?node=node-1' > "$tmp/shared-devices.json"
kill -TERM "$pid"
wait "$pid" || fail "stop the shared GPU's server"
python3 - "$tmp" <<'PY' || fail "a GPU shared through consumable capacity"
import json, sys
d = sys.argv[1]
series = {}
for line in open(f"{d}/shared-metrics.txt"):
    if line.startswith("dra_consumable_capacity") or line.startswith("dra_devices{"):
        name, value = line.rsplit(" ", 1)
        series[name] = float(value)
labels = 'driver="gpu.example.com",pool="node-1",node="node-1",capacity="memory"'
assert series[f"dra_consumable_capacity{{{labels}}}"] == 80 * 2**30, series
assert series[f"dra_consumable_capacity_consumed{{{labels}}}"] == 60 * 2**30, series
pool = 'driver="gpu.example.com",pool="node-1",node="node-1"'
assert series[f'dra_devices{{{pool},state="allocated"}}'] == 1, series
assert series[f'dra_devices{{{pool},state="free"}}'] == 1, series
gpu = json.load(open(f"{d}/shared-devices.json"))["devices"][0]
assert (gpu["name"], gpu["state"], gpu["shared"]) == ("gpu-0", "allocated", True), gpu
assert gpu["capacity"] == [{"name": "memory", "total": "80Gi", "consumed": "60Gi",
                            "totalValue": 80 * 2**30, "consumedValue": 60 * 2**30}], gpu
assert gpu["claims"] == ["default/one-share", "default/two-shares", "gpu-admins/monitor"], gpu
assert gpu["pods"] == ["default/trainer"], gpu
PY

# Bad flags and input: a clear message, a non-zero exit, nothing served.
"$dra" serve --listen nonsense -f tests/data/serve/cluster.yaml > /dev/null 2> "$tmp/e1"
rc=$?
[[ $rc -ne 0 ]] && grep -q 'address nonsense: want HOST:PORT' "$tmp/e1" || fail "bad --listen: $rc $(cat "$tmp/e1")"
"$dra" serve -f "$tmp/missing.yaml" > /dev/null 2> "$tmp/e2"
rc=$?
[[ $rc -eq 2 ]] && grep -q 'missing.yaml' "$tmp/e2" || fail "missing file: $rc $(cat "$tmp/e2")"
"$dra" serve --kubeconfig "$tmp/none" > /dev/null 2> "$tmp/e3"
rc=$?
[[ $rc -eq 1 ]] && grep -q "$tmp/none" "$tmp/e3" || fail "missing kubeconfig: $rc $(cat "$tmp/e3")"

exit "$failures"
