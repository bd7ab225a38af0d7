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
# It runs three times, each on a fresh server and with dra given the same
# --feature-gates: 1.37's defaults, every alpha DRA gate on, and every DRA
# gate that can be off off; tests/cluster/gated_seeds.yaml joins the corpus
# so that the generator also mutates the fields of the alpha gates. The
# summary line sums the three runs.
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

# Besides the corpus: valid objects of the gated fields, and the examples
# whose `dra convert` output tests/cli/convert_test.sh keeps as golden files.
extras=(tests/cluster/gated_seeds.yaml examples/legacy-v1beta1/claim.yaml examples/gpu-cluster/*.yaml)
extra_args=()
for f in "${extras[@]}"; do extra_args+=(--extra "$f"); done
# The namespaces all of them name, with the union of the labels their
# Namespace objects give them, as a List for kubectl create.
python3 - "$corpus" "${extras[@]}" > "$work/namespaces.json" << 'EOF' || exit 1
import json, os, sys, yaml
names = {}
paths = []
for arg in sys.argv[1:]:
    if os.path.isdir(arg):
        paths += [os.path.join(d, f) for d, _, fs in os.walk(arg) for f in fs]
    else:
        paths.append(arg)
for path in paths:
    if not path.endswith(('.yaml', '.yml', '.json')):
        continue
    try:
        docs = list(yaml.safe_load_all(open(path, encoding='utf-8')))
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
# One run per configuration of feature gates, so that every DRA gate of
# 1.37 is seen both on and off: the defaults; every alpha gate on (with the
# non-DRA gates they depend on); every DRA gate that can be turned off, off.
# (DeclarativeValidationBeta stays on: dra models only its default.)
# Every resource.k8s.io version dra models is served (the alpha one too), and
# privileged containers are allowed, as kubeadm's clusters allow them (the
# Kubernetes tutorial's driver DaemonSet runs privileged).
alpha=DRADerivedAttributes=true,DRADeviceCompatibilityGroups=true,DRAPartitionableDevicesType=true
alpha+=,DRAResourcePoolStatus=true,DRAListTypeAttributes=true,DRANodeAllocatableResources=true
alpha+=,DRAOptionalNodeOperations=true,DRAWorkloadResourceClaims=true
off=DRADeviceTaints=false,DRADeviceTaintRules=false,DRAConsumableCapacity=false
off+=,DRADeviceBindingConditions=false,DRAPartitionableDevices=false
off+=,DRAFractionalCapacityRange=false,DRAResourceClaimGranularStatusAuthorization=false
off+=,DRASchedulerFilterTimeout=false
run_config() { # LABEL SERVER_GATES DRA_GATES GENERATED [--last]
  local label=$1 server_gates=$2 dra_gates=$3 generated=$4
  shift 4
  rm -rf "$work/cluster"
  cluster_up "$work/cluster" --components apiserver --apiserver-arg=--allow-privileged=true \
    --feature-gates "$server_gates" \
    --runtime-config resource.k8s.io/v1=true,resource.k8s.io/v1beta2=true,resource.k8s.io/v1beta1=true,resource.k8s.io/v1alpha3=true ||
    return $?
  kubectl create -f "$work/namespaces.json" > /dev/null || return 1
  python3 tests/cluster/real_manifests.py --dra "$dra" --kubectl "$DRA_CLUSTER_KUBECTL" \
    --corpus "$corpus" --divergences tests/cluster/real_manifests_divergences.txt \
    "${extra_args[@]}" --label "$label" --feature-gates "$dra_gates" \
    --generated "$generated" --state "$work/state.json" "$@" 7>&- 8<&-
  local status=$?
  cluster_down
  return $status
}
rc=0
run_config "default gates" "" "" 5000 || rc=$?
if [[ $rc == 0 ]]; then
  # dra convert keeps every field, as kubectl convert does; the server drops
  # those of disabled gates on create. With every gate on they coincide.
  run_config "alpha gates on" "$alpha,GenericWorkload=true,NodeDeclaredFeatures=true" "$alpha" \
    1500 --convert || rc=$?
fi
if [[ $rc == 0 ]]; then
  run_config "gates off" "$off" "$off" 1500 --last || rc=$?
fi
rm -rf "$work"
exit $rc
