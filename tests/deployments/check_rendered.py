#!/usr/bin/env python3
"""Checks what `helm template` rendered from deployments/helm/dra-driver.

  check_rendered.py RENDERED.yaml KEY=VALUE...

KEY=VALUE: what the render was given and must show: namespace, release (the
objects' name prefix), driver (example|nvml), driverName, deviceStatus
(true|false), controller (true|false: the network-pool controller and its
inventory), serve (true|false: the `dra serve` Deployment, its Service and its
read-only service account), and with serve: servePort (default 8080),
serveReplicas (default 1), deviceMetrics (true|false). Prints one "FAIL: ..."
line per problem; exit 1 if any.
"""
import sys

import yaml

failures = []


def fail(msg):
    failures.append(msg)
    print(f"FAIL: {msg}")


def expect(cond, msg):
    if not cond:
        fail(msg)
    return cond


path, *pairs = sys.argv[1:]
want = dict(p.split("=", 1) for p in pairs)
ns, release, driver, driver_name = want["namespace"], want["release"], want["driver"], want["driverName"]
device_status = want.get("deviceStatus", "false") == "true"
controller = want.get("controller", "false") == "true"
serve = want.get("serve", "false") == "true"
serve_port = int(want.get("servePort", "8080"))
serve_replicas = int(want.get("serveReplicas", "1"))
device_metrics = want.get("deviceMetrics", "false") == "true"
serve_name = f"{release}-serve"
sa_name = release
controller_name = f"{release}-controller"
inventory_path = "/etc/dra-driver/inventory.yaml"

with open(path, encoding="utf-8") as f:
    docs = [d for d in yaml.safe_load_all(f) if d]
by_kind = {}
for d in docs:
    by_kind.setdefault(d["kind"], []).append(d)

kinds = {
    "ServiceAccount": 1,
    "ClusterRole": 1,
    "ClusterRoleBinding": 1,
    "DaemonSet": 1,
    "DeviceClass": 1,
    "ValidatingAdmissionPolicy": 1,
    "ValidatingAdmissionPolicyBinding": 1,
}
if controller:
    kinds.update({"ServiceAccount": 2, "ClusterRole": 2, "ClusterRoleBinding": 2, "Role": 1,
                  "RoleBinding": 1, "Deployment": 1, "ConfigMap": 1})
if serve:
    for kind in ("ServiceAccount", "ClusterRole", "ClusterRoleBinding", "Deployment", "Service"):
        kinds[kind] = kinds.get(kind, 0) + 1
for kind, n in kinds.items():
    expect(len(by_kind.get(kind, [])) == n, f"{n} {kind} expected, got {len(by_kind.get(kind, []))}")
extra = set(by_kind) - set(kinds)
expect(not extra, f"unexpected kinds: {sorted(extra)}")
if not serve:
    leftovers = [f"{d['kind']} {d['metadata']['name']}" for d in docs
                 if d["metadata"]["name"] == serve_name
                 or d["metadata"].get("labels", {}).get("app.kubernetes.io/component") == "serve"]
    expect(not leftovers, f"serve disabled, yet rendered: {leftovers}")
if failures:
    sys.exit(1)

def named(kind, name):
    found = [d for d in by_kind.get(kind, []) if d["metadata"]["name"] == name]
    expect(len(found) == 1, f"no {kind} {name}")
    return found[0] if found else {"metadata": {"name": name}}


def rule_set(role):
    out = set()
    for r in role.get("rules", []):
        for g in r.get("apiGroups", []):
            for res in r.get("resources", []):
                for v in r.get("verbs", []):
                    out.add((g, res, v, tuple(r.get("resourceNames", []))))
        expect(not r.get("nonResourceURLs"), f"nonResourceURLs rule: {r}")
    return out


sa = named("ServiceAccount", sa_name)
expect((sa["metadata"]["name"], sa["metadata"]["namespace"]) == (sa_name, ns), f"ServiceAccount {sa['metadata']}")

# ClusterRole: exactly the driver's requests.
role = named("ClusterRole", release)
rules = rule_set(role)
expected_rules = {
    ("resource.k8s.io", "resourceslices", "list", ()),
    ("resource.k8s.io", "resourceslices", "create", ()),
    ("resource.k8s.io", "resourceslices", "update", ()),
    ("resource.k8s.io", "resourceslices", "delete", ()),
    ("resource.k8s.io", "resourceclaims", "get", ()),
    ("resource.k8s.io", "resourceclaims/status", "patch", ()),
    ("resource.k8s.io", "resourceclaims/driver", "associated-node:patch", (driver_name,)),
    ("", "nodes", "get", ()),
    ("", "events", "create", ()),
}
expect(rules == expected_rules,
       f"ClusterRole rules: extra {sorted(rules - expected_rules)}, missing {sorted(expected_rules - rules)}")
crb = named("ClusterRoleBinding", release)
expect(crb["roleRef"] == {"apiGroup": "rbac.authorization.k8s.io", "kind": "ClusterRole",
                          "name": role["metadata"]["name"]}, f"ClusterRoleBinding roleRef {crb['roleRef']}")
expect(crb["subjects"] == [{"kind": "ServiceAccount", "name": sa_name, "namespace": ns}],
       f"ClusterRoleBinding subjects {crb['subjects']}")

# DaemonSet.
ds = by_kind["DaemonSet"][0]
expect(ds["metadata"]["namespace"] == ns, "DaemonSet namespace")
expect(ds["spec"]["updateStrategy"] == {"type": "RollingUpdate",
                                        "rollingUpdate": {"maxSurge": 1, "maxUnavailable": 0}},
       f"updateStrategy {ds['spec']['updateStrategy']}")
pod = ds["spec"]["template"]["spec"]
expect(ds["spec"]["selector"]["matchLabels"].items() <= ds["spec"]["template"]["metadata"]["labels"].items(),
       "the selector does not match the pod labels")
expect(pod["serviceAccountName"] == sa_name, f"serviceAccountName {pod.get('serviceAccountName')}")
expect(pod.get("priorityClassName") == "system-node-critical", "priorityClassName")
expect(len(pod["containers"]) == 1, "one container expected")
c = pod["containers"][0]
expect(c["command"] == ["dra", "driver", driver], f"command {c['command']}")
args = c.get("args", [])
expect(("--gpu-device-status" in args) == device_status, f"args {args} (deviceStatus={device_status})")
expect((f"--inventory-slices={inventory_path}" in args) == controller,
       f"args {args} (controller={controller})")
expect(not any("kubeconfig" in a for a in c["command"] + args), "--kubeconfig given: in-cluster config expected")
expect(c["securityContext"].get("privileged") is True, "container not privileged")
expect(c["securityContext"].get("runAsUser") == 0, "container does not run as root (the image's user is not)")

env = {e["name"]: e for e in c["env"]}
field_refs = {"NODE_NAME": "spec.nodeName", "NAMESPACE": "metadata.namespace", "POD_UID": "metadata.uid"}
for name, field in field_refs.items():
    got = env.get(name, {}).get("valueFrom", {}).get("fieldRef", {}).get("fieldPath")
    expect(got == field, f"env {name} from {got}, not {field}")
values = {
    "DRIVER_NAME": driver_name,
    "CDI_ROOT": "/var/run/cdi",
    "KUBELET_REGISTRAR_DIRECTORY_PATH": "/var/lib/kubelet/plugins_registry",
    "KUBELET_PLUGINS_DIRECTORY_PATH": "/var/lib/kubelet/plugins",
    "METRICS_PORT": "8080",
    "HEALTHCHECK_PORT": "51515",
}
if driver == "example":
    values["NUM_DEVICES"] = "8"
else:
    values["NVML_LIBRARY"] = "libnvidia-ml.so.1"
for name, value in values.items():
    expect(env.get(name, {}).get("value") == value, f"env {name}={env.get(name, {}).get('value')}, not {value}")
unexpected = set(env) - set(field_refs) - set(values)
expect(not unexpected, f"unexpected env: {sorted(unexpected)}")

mounts = {m["name"]: m["mountPath"] for m in c["volumeMounts"]}
volumes = {v["name"]: v for v in pod["volumes"]}
for path in ("/var/lib/kubelet/plugins_registry", "/var/lib/kubelet/plugins", "/var/run/cdi"):
    names = [n for n, p in mounts.items() if p == path]
    if expect(len(names) == 1, f"no mount at {path}"):
        hp = volumes.get(names[0], {}).get("hostPath", {})
        expect(hp == {"path": path, "type": "DirectoryOrCreate"}, f"volume {names[0]}: hostPath {hp}")
if controller:
    expect(mounts.get("inventory") == "/etc/dra-driver", f"inventory mount {mounts.get('inventory')}")
    expect(volumes.get("inventory", {}).get("configMap", {}).get("name") == f"{release}-inventory",
           f"inventory volume {volumes.get('inventory')}")
n = 4 if controller else 3
expect(len(mounts) == n and len(volumes) == n, f"mounts {mounts}, volumes {sorted(volumes)}")

ports = {p["name"]: p["containerPort"] for p in c["ports"]}
expect(ports == {"metrics": 8080, "healthz": 51515}, f"ports {ports}")
probe = c.get("livenessProbe", {}).get("httpGet", {})
expect(probe.get("path") == "/healthz" and probe.get("port") in ("healthz", 51515), f"livenessProbe {probe}")

# DeviceClass.
dc = by_kind["DeviceClass"][0]
expect(dc["apiVersion"] == "resource.k8s.io/v1", f"DeviceClass apiVersion {dc['apiVersion']}")
expect(dc["metadata"]["name"] == driver_name, f"DeviceClass name {dc['metadata']['name']}")
expect(dc["spec"]["selectors"] == [{"cel": {"expression": f'device.driver == "{driver_name}"'}}],
       f"DeviceClass selectors {dc['spec']['selectors']}")

# ValidatingAdmissionPolicy and its binding.
vap = by_kind["ValidatingAdmissionPolicy"][0]
spec = vap["spec"]
expect(spec.get("failurePolicy") == "Fail", "failurePolicy")
rr = spec["matchConstraints"]["resourceRules"]
expect(len(rr) == 1 and rr[0]["apiGroups"] == ["resource.k8s.io"] and rr[0]["resources"] == ["resourceslices"]
       and sorted(rr[0]["operations"]) == ["CREATE", "DELETE", "UPDATE"], f"resourceRules {rr}")
conds = spec.get("matchConditions", [])
expect(len(conds) == 1 and f'"system:serviceaccount:{ns}:{sa_name}"' in conds[0]["expression"]
       and "request.userInfo.username" in conds[0]["expression"], f"matchConditions {conds}")
text = yaml.safe_dump(spec)
expect("authentication.kubernetes.io/node-name" in text, "the policy does not read the node-name extra")
expect("oldObject" in text, "the policy does not look at oldObject for DELETE")
expect({v["name"] for v in spec.get("variables", [])} >= {"userNode", "sliceNode"}, "variables")
expect(any("no node association found for user" in v.get("message", "") for v in spec["validations"]),
       "no 'no node association' message")
expect(any("may not modify" in v.get("messageExpression", "") for v in spec["validations"]),
       "no messageExpression for another node's slices")
binding = by_kind["ValidatingAdmissionPolicyBinding"][0]
expect(binding["spec"] == {"policyName": vap["metadata"]["name"], "validationActions": ["Deny"]},
       f"binding {binding['spec']}")

# The controller: its own service account, rules and Lease, a non-root
# Deployment reading the inventory ConfigMap.
if controller:
    named("ServiceAccount", controller_name)
    expect(rule_set(named("ClusterRole", controller_name)) == {
        ("resource.k8s.io", "resourceslices", v, ()) for v in ("list", "create", "update", "delete")},
        "controller ClusterRole rules")
    expect(rule_set(named("Role", controller_name)) == {
        ("coordination.k8s.io", "leases", "create", ()),
        ("coordination.k8s.io", "leases", "get", (controller_name,)),
        ("coordination.k8s.io", "leases", "update", (controller_name,))}, "controller Role rules")
    for kind, ref_kind in (("ClusterRoleBinding", "ClusterRole"), ("RoleBinding", "Role")):
        b = named(kind, controller_name)
        expect(b.get("roleRef") == {"apiGroup": "rbac.authorization.k8s.io", "kind": ref_kind,
                                    "name": controller_name}, f"{kind} roleRef {b.get('roleRef')}")
        expect(b.get("subjects") == [{"kind": "ServiceAccount", "name": controller_name, "namespace": ns}],
               f"{kind} subjects {b.get('subjects')}")
    cm = named("ConfigMap", f"{release}-inventory")
    inventory = list(yaml.safe_load_all(cm.get("data", {}).get("inventory.yaml", "")))
    expect(inventory and all(d and d.get("kind") == "ResourceSlice" for d in inventory),
           "the inventory ConfigMap does not hold ResourceSlices")
    dep = named("Deployment", controller_name)
    expect(dep["metadata"].get("namespace") == ns, "Deployment namespace")
    dspec = dep.get("spec", {})
    expect(dspec.get("replicas") == 2, f"replicas {dspec.get('replicas')}")
    sel = dspec.get("selector", {}).get("matchLabels", {})
    expect(sel.items() <= dspec["template"]["metadata"]["labels"].items(), "Deployment selector")
    expect(not sel.items() <= ds["spec"]["template"]["metadata"]["labels"].items(),
           "the Deployment's selector matches the DaemonSet's pods")
    expect(not ds["spec"]["selector"]["matchLabels"].items() <= dspec["template"]["metadata"]["labels"].items(),
           "the DaemonSet's selector matches the controller's pods")
    cpod = dspec["template"]["spec"]
    expect(cpod.get("serviceAccountName") == controller_name, "controller serviceAccountName")
    expect(cpod.get("securityContext", {}).get("runAsNonRoot") is True, "controller pod may run as root")
    cc = cpod["containers"][0]
    expect(cc["command"] == ["dra", "driver", "example", "--controller"], f"controller command {cc['command']}")
    cargs = cc.get("args", [])
    expect(f"--inventory-slices={inventory_path}" in cargs, f"controller args {cargs}")
    expect(f"--leader-election-lease-name={controller_name}" in cargs, f"controller args {cargs}")
    csc = cc.get("securityContext", {})
    expect(csc.get("allowPrivilegeEscalation") is False and csc.get("readOnlyRootFilesystem") is True
           and csc.get("capabilities", {}).get("drop") == ["ALL"] and not csc.get("privileged"),
           f"controller securityContext {csc}")
    cenv = {e["name"]: e for e in cc["env"]}
    expect(cenv.get("DRIVER_NAME", {}).get("value") == driver_name, "controller DRIVER_NAME")
    for name, field in (("NAMESPACE", "metadata.namespace"), ("POD_NAME", "metadata.name")):
        got = cenv.get(name, {}).get("valueFrom", {}).get("fieldRef", {}).get("fieldPath")
        expect(got == field, f"controller env {name} from {got}, not {field}")
    cmounts = {m["name"]: m for m in cc.get("volumeMounts", [])}
    expect(cmounts.get("inventory", {}).get("mountPath") == "/etc/dra-driver"
           and cmounts["inventory"].get("readOnly") is True, f"controller mounts {cmounts}")
    expect(not any("hostPath" in v for v in cpod.get("volumes", [])), "the controller mounts a hostPath")

# dra serve: its own service account that may only get, list and watch what
# its informers follow; a non-root, read-only Deployment probed on /healthz;
# a ClusterIP Service with Prometheus' scrape annotations.
if serve:
    ssa = named("ServiceAccount", serve_name)
    expect(ssa["metadata"].get("namespace") == ns, f"serve ServiceAccount namespace {ssa['metadata']}")
    srole = named("ClusterRole", serve_name)
    followed = [("", "nodes"), ("", "pods"), ("resource.k8s.io", "resourceclaims"),
                ("resource.k8s.io", "resourceclaimtemplates"), ("resource.k8s.io", "deviceclasses"),
                ("resource.k8s.io", "resourceslices"), ("resource.k8s.io", "devicetaintrules")]
    srules = rule_set(srole)
    expected_srules = {(g, r, v, ()) for g, r in followed for v in ("get", "list", "watch")}
    expect(srules == expected_srules,
           f"serve ClusterRole rules: extra {sorted(srules - expected_srules)}, "
           f"missing {sorted(expected_srules - srules)}")
    for r in srole.get("rules", []):
        expect(sorted(r.get("verbs", [])) == ["get", "list", "watch"], f"serve ClusterRole verbs {r}")
        expect("*" not in r.get("resources", []) + r.get("apiGroups", []), f"serve ClusterRole wildcard {r}")
    sbinding = named("ClusterRoleBinding", serve_name)
    expect(sbinding.get("roleRef") == {"apiGroup": "rbac.authorization.k8s.io", "kind": "ClusterRole",
                                       "name": serve_name},
           f"serve ClusterRoleBinding roleRef {sbinding.get('roleRef')}")
    expect(sbinding.get("subjects") == [{"kind": "ServiceAccount", "name": serve_name, "namespace": ns}],
           f"serve ClusterRoleBinding subjects {sbinding.get('subjects')}")
    # No other binding of the chart grants the serve account anything.
    for kind in ("ClusterRoleBinding", "RoleBinding"):
        for b in by_kind.get(kind, []):
            if b["metadata"]["name"] == serve_name:
                continue
            expect(all(sub.get("name") != serve_name for sub in b.get("subjects", [])),
                   f"{kind} {b['metadata']['name']} binds the serve service account")

    sdep = named("Deployment", serve_name)
    expect(sdep["metadata"].get("namespace") == ns, "serve Deployment namespace")
    sspec = sdep.get("spec", {})
    expect(sspec.get("replicas") == serve_replicas, f"serve replicas {sspec.get('replicas')}")
    ssel = sspec.get("selector", {}).get("matchLabels", {})
    spod_labels = sspec.get("template", {}).get("metadata", {}).get("labels", {})
    expect(ssel and ssel.items() <= spod_labels.items(), "serve Deployment selector does not match its pods")
    others = [("DaemonSet", ds)]
    if controller:
        others.append(("controller", named("Deployment", controller_name)))
    for what, other in others:
        olabels = other["spec"]["template"]["metadata"]["labels"]
        expect(not ssel.items() <= olabels.items(), f"the serve selector matches the {what}'s pods")
        expect(not other["spec"]["selector"]["matchLabels"].items() <= spod_labels.items(),
               f"the {what}'s selector matches the serve pods")
    spod = sspec["template"]["spec"]
    expect(spod.get("serviceAccountName") == serve_name,
           f"serve serviceAccountName {spod.get('serviceAccountName')}")
    expect(spod.get("automountServiceAccountToken") is not False, "serve pod without its token")
    expect(spod.get("securityContext", {}).get("runAsNonRoot") is True, "serve pod may run as root")
    expect(not spod.get("hostNetwork") and not spod.get("hostPID"), "serve pod on the host's namespaces")
    expect(not any("hostPath" in v for v in spod.get("volumes", [])), "serve mounts a hostPath")
    expect(len(spod.get("containers", [])) == 1, "one serve container expected")
    sc = spod["containers"][0]
    expect((sc.get("image"), sc.get("imagePullPolicy")) == (c["image"], c.get("imagePullPolicy")),
           f"serve image {sc.get('image')}, not the plugin's {c['image']}")
    expect(sc.get("command") == ["dra", "serve"], f"serve command {sc.get('command')}")
    sargs = sc.get("args", [])
    listen = [sargs[i + 1] for i, a in enumerate(sargs[:-1]) if a == "--listen"]
    listen += [a.split("=", 1)[1] for a in sargs if a.startswith("--listen=")]
    expect(listen == [f":{serve_port}"], f"serve --listen {listen}, not :{serve_port} (args {sargs})")
    expect(("--device-metrics" in sargs) == device_metrics,
           f"serve args {sargs} (deviceMetrics={device_metrics})")
    expect(not any(a.startswith(("--kubeconfig", "-f", "--filename")) for a in sargs),
           f"serve args {sargs}: in-cluster config of a live cluster expected")
    expect(not any(e.get("name") == "KUBECONFIG" for e in sc.get("env", [])), "serve env KUBECONFIG")
    ssc = sc.get("securityContext", {})
    expect(ssc.get("allowPrivilegeEscalation") is False and ssc.get("readOnlyRootFilesystem") is True
           and ssc.get("capabilities", {}).get("drop") == ["ALL"]
           and not ssc.get("capabilities", {}).get("add")
           and not ssc.get("privileged") and ssc.get("runAsUser", 1) != 0,
           f"serve securityContext {ssc}")
    sports = {p["name"]: p for p in sc.get("ports", [])}
    expect(list(sports) == ["http"] and sports["http"].get("containerPort") == serve_port,
           f"serve ports {sc.get('ports')}, not http {serve_port}")
    for kind in ("livenessProbe", "readinessProbe"):
        expect(kind in sc, f"serve has no {kind}")
    for kind in ("livenessProbe", "readinessProbe", "startupProbe"):
        if kind in sc:
            get = sc[kind].get("httpGet", {})
            expect(get.get("path") == "/healthz" and get.get("port") in ("http", serve_port)
                   and get.get("scheme", "HTTP") == "HTTP", f"serve {kind} {sc[kind]}")

    svc = named("Service", serve_name)
    expect(svc["metadata"].get("namespace") == ns, "serve Service namespace")
    svc_spec = svc.get("spec", {})
    expect(svc_spec.get("type", "ClusterIP") == "ClusterIP", f"serve Service type {svc_spec.get('type')}")
    expect(svc_spec.get("selector") == ssel, f"serve Service selector {svc_spec.get('selector')}")
    sp = svc_spec.get("ports", [])
    expect(len(sp) == 1 and sp[0].get("name") == "http" and sp[0].get("port") == serve_port
           and sp[0].get("targetPort") in ("http", serve_port)
           and sp[0].get("protocol", "TCP") == "TCP",
           f"serve Service ports {sp}")
    ann = svc["metadata"].get("annotations", {})
    expect(ann.get("prometheus.io/scrape") == "true"
           and ann.get("prometheus.io/port") == str(serve_port)
           and ann.get("prometheus.io/path") == "/metrics", f"serve Service annotations {ann}")

sys.exit(1 if failures else 0)
