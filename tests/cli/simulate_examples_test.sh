#!/usr/bin/env bash
# dra simulate on the example clusters and on bad input: placements, Pending
# pods with reasons, the JSON and HTML reports, --compare device-plugin,
# --prepare.
source "$(dirname "${BASH_SOURCE[0]}")/common.sh"
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

# Mixed fleet: everything but the 4-GPU training pod fits; DRA places more
# pods than the device-plugin model.
json=$("$dra" simulate -f examples/clusters/mixed-fleet -o json --compare device-plugin); rc=$?
[[ $rc -eq 0 ]] || fail "mixed-fleet rc $rc"
python3 - "$json" <<'PY' || fail "mixed-fleet json"
import json, sys
r = json.loads(sys.argv[1])
s = r["summary"]
assert (s["scheduled"], s["pending"]) == (28, 1), s
pending = [p for p in r["pods"] if p["node"] is None]
assert [p["name"] for p in pending] == ["train-big"], pending
p = pending[0]
assert p["namespace"] == "default"
assert p["reason"].startswith("0/4 nodes are available: 4 cannot allocate all claims."), p["reason"]
e = p["explanation"]["requests"][0]
assert e["request"] == "gpus" and e["requested"] == 4 and e["blockedBy"] == "counters", e
assert e["claim"].startswith("default/train-big-gpus-"), e
bound = [p for p in r["pods"] if p["node"] is not None]
assert all(set(p) >= {"namespace", "name", "node"} and "reason" not in p for p in bound)
dp = r["devicePlugin"]["summary"]
assert dp["scheduled"] < s["scheduled"], (dp, s)
assert dp["scheduled"] + dp["pending"] == 29, dp
# Shared A100s: 12 pods of 10Gi on 40Gi GPUs use 3 GPUs' worth of memory.
shared = [d for d in r["devices"] if "capacity" in d]
assert sum(d["capacity"]["memory"]["consumed"] for d in shared) == 12 * 10 * 2**30, shared
assert all(d["capacity"]["memory"]["consumed"] <= d["capacity"]["memory"]["total"] for d in shared)
# MIG: no counter set is over-committed.
for part in r["partitions"]:
    for name, c in part["counters"].items():
        assert c["consumed"] <= c["total"], part
PY

# GPUs and NICs on one PCIe root: the third trainer cannot be aligned.
json=$("$dra" simulate -f examples/clusters/gpu-nic-aligned -o json)
python3 - "$json" <<'PY' || fail "gpu-nic-aligned json"
import json, sys
r = json.loads(sys.argv[1])
assert (r["summary"]["scheduled"], r["summary"]["pending"]) == (12, 1), r["summary"]
assert [p["name"] for p in r["pods"] if p["node"] is None] == ["trainer-2"]
PY

# Partitionable fleet: 32 cores hold 2 large, 8 medium and 8 small pods.
out=$("$dra" simulate -f examples/clusters/partitionable-fleet); rc=$?
[[ $rc -eq 0 && $out == "Scheduled 18 of 24 pods on 4 nodes (6 Pending)"* ]] ||
  fail "partitionable-fleet text: $rc ${out:0:200}"
[[ $out == *"PARTITIONS (counter sets)"* && $out == *"blocked by counters"* ]] ||
  fail "partitionable-fleet sections"

# HTML: one self-contained page in the look of the dra serve dashboard, whose
# stylesheet it inlines; drawn without scripts, no external references.
"$dra" simulate -f examples/clusters/mixed-fleet -o html --compare device-plugin > "$tmp/r.html"
grep -q 'train-big' "$tmp/r.html" || fail "html lacks the pending pod"
if grep -Eq '(src|href)=' "$tmp/r.html"; then fail "html references external resources"; fi
python3 - "$tmp/r.html" <<'PY' || fail "mixed-fleet html"
import re, sys
h = open(sys.argv[1]).read()
# The dashboard's stylesheet (src/cli/serve/assets/app.css), inline.
style = re.search(r"<style>(.*?)</style>", h, re.S).group(1)
for rule in (".stack {", ".rows {", ".use {", ".explain td.block {", ".parent {", ".msg {"):
    assert rule in style, rule
assert "<script" not in h and "<svg" not in h, "scripts or fixed-width SVG charts"
# Explanations are the dashboard's table, not monospace text.
assert "<pre" not in h, "raw text explanation"
# train-big: its reason in the wide .msg column, then its explanation, the
# counters stage marked as the one that left no device.
row = re.search(r'<tr class="explained"><td>default/train-big</td>'
                r'<td><span class="badge counters">counters</span></td>'
                r'<td class="msg">0/4 nodes are available: 4 cannot allocate all claims\.[^<]*</td></tr>'
                r'<tr><td colspan="3"><div class="explain">(.*?)</div></td></tr>', h)
assert row, "train-big row"
explain = row.group(1)
heads = re.findall(r"<th>([^<]*)</th>", explain)
assert heads[:3] == ["Request", "Devices", "node"] and heads[-2:] == ["Left", "Needed"], heads
cells = re.findall(r'<td( class="[^"]*")?>([^<]*)</td>', explain)
assert cells[0][1].startswith("default/train-big-gpus-") and cells[0][1].endswith(" gpus"), cells
blocked = [i for i, (cls, _) in enumerate(cells) if "block" in cls]
assert [heads[i] for i in blocked] == ["counters"], (heads, cells)
assert cells[-1][1] == "4", cells  # 4 GPUs needed
# The comparison as label | bar | figure rows: 28 of the 29 pods scheduled
# by DRA (28/29 = 96.6%), each figure whole, in its own grid column.
assert "<h2>DRA compared with the device-plugin model</h2>" in h
rows = re.search(r'<div class="rows">(.*?)</div><div class="legend">', h).group(1)
figures = re.findall(r'</div><span class="figure">([^<]*)</span>', rows)
assert len(figures) == 4, figures
assert figures[0] == "28 of 29 scheduled (97%)", figures
assert all(re.fullmatch(r"\d+ of \d+ (scheduled|in use) \(\d+%\)", f) for f in figures), figures
# Quantities as Kubernetes writes them: H100 counter sets of 80Gi, A100s
# sharing 40Gi of memory; never a count of bytes.
assert re.search(r'<span class="figure">\d+Gi / 80Gi \(\d+%\)</span>', h), "counter quantity"
assert re.search(r'<span class="figure">\d+Gi / 40Gi \(\d+%\)</span>', h), "capacity quantity"
assert not re.search(r"\d{9}", h), "a raw number of bytes"
PY

# Partitionable fleet, by hand: 18 pods bound (2 large of 4 cores, 8 medium
# of 2, 8 small of 1) take 32 cores, all 8 accelerators' 4; every partition
# has 6Gi of memory per core, so each counter set is full: 24Gi of 24Gi.
"$dra" simulate -f examples/clusters/partitionable-fleet -o html > "$tmp/pf.html"
python3 - "$tmp/pf.html" <<'PY' || fail "partitionable-fleet html"
import re, sys
h = open(sys.argv[1]).read()
boxes = re.findall(r'<div class="parent" title="accel\.example\.com/(infer-\d)/(accel-\d)">'
                   r'<div class="title">[^<]*</div><div class="use">(.*?)</div>(?:<div class="cells">|</div>)', h)
assert len(boxes) == 8, boxes
for pool, counter_set, use in boxes:
    figures = re.findall(r'<span>(\w+)</span><div class="stack"[^>]*>.*?</div><span class="figure">([^<]*)</span>', use)
    assert sorted(figures) == [("cores", "4 / 4 (100%)"), ("memory", "24Gi / 24Gi (100%)")], (pool, counter_set, figures)
assert "25769803776" not in h, "24Gi as bytes"
assert "<pre" not in h
pending = re.findall(r'<tr class="explained"><td>default/(small-\d+)</td>.*?<td class="msg">[^<]+</td></tr>'
                     r'<tr><td colspan="3"><div class="explain">', h)
assert pending == ["small-%d" % i for i in range(8, 14)], pending
PY

# The device-plugin model reports the last claim of a pod whose claims name
# missing classes (each claim's requests stop at their first missing class).
cat > "$tmp/dp.yaml" <<'YAML'
apiVersion: v1
kind: Node
metadata: {name: n1}
---
apiVersion: resource.k8s.io/v1
kind: ResourceClaimTemplate
metadata: {name: ta, namespace: default}
spec: {spec: {devices: {requests: [{name: r, exactly: {deviceClassName: a}}]}}}
---
apiVersion: resource.k8s.io/v1
kind: ResourceClaimTemplate
metadata: {name: tb, namespace: default}
spec: {spec: {devices: {requests: [{name: r, exactly: {deviceClassName: b}}]}}}
---
apiVersion: v1
kind: Pod
metadata: {name: p, namespace: default}
spec:
  containers: [{name: c, image: x}]
  resourceClaims: [{name: ca, resourceClaimTemplateName: ta}, {name: cb, resourceClaimTemplateName: tb}]
YAML
json=$("$dra" simulate -f "$tmp/dp.yaml" -o json --compare device-plugin)
python3 -c '
import json, sys
pods = json.loads(sys.argv[1])["devicePlugin"]["pods"]
assert [p["reason"] for p in pods] == ["device class b does not exist"], pods
' "$json" || fail "device-plugin model: missing classes"

# Bad input is reported against the pod; the others are still scheduled.
cat > "$tmp/bad.yaml" <<'YAML'
apiVersion: resource.k8s.io/v1
kind: ResourceClaim
metadata:
  name: stray
spec:
  devices:
    requests:
    - name: gpu
      exactly:
        deviceClassName: no-such-class
---
apiVersion: resource.k8s.io/v1
kind: ResourceClaim
metadata:
  name: stray
spec:
  devices:
    requests: []
---
apiVersion: resource.k8s.io/v1
kind: ResourceClaim
metadata:
  name: bad-class
spec:
  devices:
    requests:
    - name: gpu
      exactly:
        deviceClassName: no-such-class
---
apiVersion: v1
kind: Pod
metadata:
  name: uses-missing-template
spec:
  containers: [{name: c, image: x}]
  resourceClaims:
  - name: gpu
    resourceClaimTemplateName: no-such-template
---
apiVersion: v1
kind: Pod
metadata:
  name: uses-missing-claim
spec:
  containers: [{name: c, image: x}]
  resourceClaims:
  - name: gpu
    resourceClaimName: no-such-claim
---
apiVersion: v1
kind: Pod
metadata:
  name: uses-duplicate
spec:
  containers: [{name: c, image: x}]
  resourceClaims:
  - name: gpu
    resourceClaimName: stray
---
apiVersion: v1
kind: Pod
metadata:
  name: uses-bad-class
spec:
  containers: [{name: c, image: x}]
  resourceClaims:
  - name: gpu
    resourceClaimName: bad-class
YAML
json=$("$dra" simulate -f examples/clusters/mixed-fleet -f "$tmp/bad.yaml" -o json); rc=$?
[[ $rc -eq 0 ]] || fail "bad input rc $rc"
python3 - "$json" <<'PY' || fail "bad input json"
import json, sys
r = json.loads(sys.argv[1])
reasons = {p["name"]: p.get("reason") for p in r["pods"]}
assert "resourceclaimtemplate.resource.k8s.io \"no-such-template\" not found" in reasons["uses-missing-template"], reasons
assert reasons["uses-missing-claim"] == "resourceclaim.resource.k8s.io \"no-such-claim\" not found", reasons
assert reasons["uses-duplicate"] == "ResourceClaim default/stray is defined more than once in the input", reasons
assert reasons["uses-bad-class"] == ("0/4 nodes are available: request gpu: device class no-such-class does not exist. "
                                     "preemption: 0/4 nodes are available: 4 Preemption is not helpful for scheduling."), reasons
assert r["summary"]["scheduled"] == 28, r["summary"]
PY

# Unreadable input and bad flags: exit status 2 with a message.
out=$("$dra" simulate -f "$tmp/none.yaml" 2>&1); rc=$?
[[ $rc -eq 2 && $out == "error: "*"none.yaml"* ]] || fail "missing file: $rc $out"
out=$("$dra" simulate -f examples/clusters/mixed-fleet -o xml 2>&1); rc=$?
[[ $rc -eq 2 ]] || fail "bad -o: $rc $out"

# --prepare: every bound pod with claims gets CDI device IDs from the example
# driver, in the CDI form vendor/class=name, and nothing fails.
for c in mixed-fleet gpu-nic-aligned partitionable-fleet inventory-fleet; do
  json=$("$dra" simulate -f "examples/clusters/$c" --prepare -o json); rc=$?
  [[ $rc -eq 0 ]] || fail "$c --prepare rc $rc"
  python3 - "$json" "$c" <<'PY' || fail "$c --prepare json"
import json, re, sys
r = json.loads(sys.argv[1])
cluster = sys.argv[2]
cdi = re.compile(r"^[a-z0-9][a-z0-9.-]*\.[a-z0-9.-]*[a-z0-9]/[a-zA-Z0-9][a-zA-Z0-9_.-]*=[a-zA-Z0-9_.:-]+$")
bound = [p for p in r["pods"] if p["node"] is not None and p.get("claims")]
assert bound, cluster
ids = 0
for p in bound:
    assert "prepareErrors" not in p, (cluster, p)
    devs = [d for c in p["containers"] for d in c["cdiDevices"]]
    assert devs, (cluster, p)
    # Each ID names the driver and a device of one of the pod's claims.
    mine = {(u["driver"], u["device"]) for u in r["devices"]
            if set(u["claims"]) & set(p["claims"])}
    for d in devs:
        assert cdi.match(d), (cluster, d)
        vendor, name = d.split("=", 1)
        # <claim uid>-<device>[-<share id>]
        assert any(vendor == "k8s." + drv + "/claim" and
                   (name.endswith("-" + dev) or "-" + dev + "-" in name)
                   for drv, dev in mine), (cluster, d, mine)
    ids += len(devs)
s = r["prepare"]
assert s["failures"] == 0 and s["errors"] == [], (cluster, s)
assert s["nodes"] == len({p["node"] for p in bound}), (cluster, s)
assert s["claimsPrepared"] >= 1 and s["cdiDevices"] >= 1, (cluster, s)
PY
done
out=$("$dra" simulate -f examples/clusters/gpu-nic-aligned --prepare); rc=$?
[[ $rc -eq 0 && $out == *"PREPARED (CDI devices per container)"* &&
   $out == *"main: k8s.gpu.example.com/claim="*"k8s.nic.example.com/claim="* &&
   $out == *"Prepared 12 claims on "*" 0 failures"* ]] ||
  fail "gpu-nic-aligned --prepare text: $rc ${out: -600}"
"$dra" simulate -f examples/clusters/partitionable-fleet --prepare -o html > "$tmp/p.html"
grep -q '<h2>Prepared devices</h2>' "$tmp/p.html" || fail "html lacks the prepared devices"
# A device the driver does not serve: the pod's claim fails with the driver's error.
cat > "$tmp/ghost.yaml" <<'YAML'
apiVersion: resource.k8s.io/v1
kind: ResourceSlice
metadata: {name: ghost-slice}
spec:
  driver: gpu.example.com
  nodeName: ghost-node
  pool: {name: ghost-node, generation: 1, resourceSliceCount: 1}
  devices:
  - name: gpu-0
---
apiVersion: resource.k8s.io/v1
kind: ResourceClaim
metadata: {name: ghost, namespace: default, uid: 0b9f5c3e-1111-4222-8333-944445555666}
spec:
  devices:
    requests:
    - name: gpu
      exactly: {deviceClassName: gpu.example.com}
status:
  allocation:
    devices:
      results:
      - {request: gpu, driver: gpu.example.com, pool: ghost-node, device: gpu-7}
  reservedFor:
  - {resource: pods, name: haunted, uid: 7c9e6679-7425-40de-944b-e07fc1f90ae7}
---
apiVersion: v1
kind: Pod
metadata: {name: haunted, namespace: default, uid: 7c9e6679-7425-40de-944b-e07fc1f90ae7}
spec:
  nodeName: ghost-node
  containers:
  - name: c
    resources:
      claims: [{name: g}]
  resourceClaims:
  - {name: g, resourceClaimName: ghost}
YAML
json=$("$dra" simulate -f "$tmp/ghost.yaml" --prepare -o json); rc=$?
[[ $rc -eq 0 ]] || fail "ghost --prepare rc $rc"
python3 - "$json" <<'PY' || fail "ghost --prepare json: ${json:0:1500}"
import json, sys
r = json.loads(sys.argv[1])
p = [p for p in r["pods"] if p["name"] == "haunted"][0]
assert p["node"] == "ghost-node", p
assert p["containers"] == [], p
assert "device ghost-node/gpu-7 of request gpu is not a device of this driver on node ghost-node" in p["prepareErrors"][0], p
assert r["prepare"]["failures"] == 1, r["prepare"]
PY

# Every generated workload simulates to completion (scaled down).
for w in $("$dra" gen workload --list | cut -f1); do
  "$dra" gen workload "$w" --nodes 4 --pods 8 -o "$tmp/$w.yaml" || fail "gen $w"
  json=$("$dra" simulate -f "$tmp/$w.yaml" -o json) || fail "simulate $w"
  python3 - "$json" "$w" <<'PY' || fail "workload $w"
import json, sys
r = json.loads(sys.argv[1])
assert r["summary"]["pending"] == 0 and r["summary"]["scheduled"] > 0, (sys.argv[2], r["summary"])
PY
done

[[ $failures -eq 0 ]] || { echo "$failures failure(s)"; exit 1; }
echo "ok"
