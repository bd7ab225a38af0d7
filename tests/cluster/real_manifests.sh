#!/usr/bin/env bash
# `dra validate` against a real kube-apiserver v1.37.2 on the public DRA
# manifests of ../shared/real-manifests (beside the clone; README and
# SOURCES.tsv there): every file goes to the server with
# `kubectl create --dry-run=server --validate=strict`, and dra must predict
# each object's fate, word for word for rejections (real_manifests.py says
# how objects are paired). Differences listed in
# real_manifests_divergences.txt are known; any other fails the test.
#   real_manifests.sh SOURCE_DIR DRA [CORPUS]
# The namespaces the corpus names exist beforehand, with the labels its
# Namespace objects give them (a user applying a file creates its Namespace
# first); the server then answers a Namespace object with AlreadyExists,
# which the comparison reads as created.
# Exit 77 (skipped) without the cluster binaries or without the corpus.
set -uo pipefail
src=$1
dra=$2
corpus=${3:-$src/../shared/real-manifests}
cd "$src" || exit 1
# shellcheck source=tests/cluster/lib.sh
source tests/cluster/lib.sh
if [[ ! -d $corpus ]]; then
  echo "SKIPPED: no corpus of real manifests at $corpus"
  exit 77
fi
corpus=$(cd "$corpus" && pwd)
work=$(mktemp -d -t dra-real-manifests-XXXXXX)
# Every resource.k8s.io version dra models is served (the alpha one too), and
# privileged containers are allowed, as kubeadm's clusters allow them (the
# Kubernetes tutorial's driver DaemonSet runs privileged).
cluster_up "$work/cluster" --components apiserver --apiserver-arg=--allow-privileged=true \
  --runtime-config resource.k8s.io/v1=true,resource.k8s.io/v1beta2=true,resource.k8s.io/v1beta1=true,resource.k8s.io/v1alpha3=true ||
  exit $?

# Every namespace the corpus names, created for real with the union of the
# labels its Namespace objects carry.
python3 - "$corpus" > "$work/namespaces.json" << 'EOF' || exit 1
import json, os, sys, yaml
names = {}
for d, _, files in os.walk(sys.argv[1]):
    for f in files:
        if not f.endswith(('.yaml', '.yml', '.json')):
            continue
        try:
            docs = list(yaml.safe_load_all(open(os.path.join(d, f), encoding='utf-8')))
        except Exception:
            continue
        stack = [x for x in docs if isinstance(x, dict)]
        while stack:
            doc = stack.pop()
            if isinstance(doc.get('items'), list):
                stack.extend(x for x in doc['items'] if isinstance(x, dict))
            meta = doc.get('metadata') if isinstance(doc.get('metadata'), dict) else {}
            ns = meta.get('namespace')
            if isinstance(ns, str) and ns:
                names.setdefault(ns, {})
            if doc.get('kind') == 'Namespace' and doc.get('apiVersion') == 'v1':
                name = meta.get('name')
                if isinstance(name, str) and name:
                    labels = meta.get('labels') if isinstance(meta.get('labels'), dict) else {}
                    names.setdefault(name, {}).update({str(k): str(v) for k, v in labels.items()})
items = [{'apiVersion': 'v1', 'kind': 'Namespace',
          'metadata': {'name': n, **({'labels': l} if l else {})}}
         for n, l in sorted(names.items()) if n not in ('default', 'kube-system', 'kube-public')]
print(json.dumps({'apiVersion': 'v1', 'kind': 'List', 'items': items}))
EOF
kubectl create -f "$work/namespaces.json" > /dev/null || exit 1

python3 tests/cluster/real_manifests.py --dra "$dra" --kubectl "$DRA_CLUSTER_KUBECTL" \
  --corpus "$corpus" --divergences tests/cluster/real_manifests_divergences.txt 7>&- 8<&-
rc=$?
cluster_down
rm -rf "$work"
exit $rc
