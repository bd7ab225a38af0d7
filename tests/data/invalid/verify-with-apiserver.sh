#!/usr/bin/env bash
# Checks the server-side messages of tests/data/invalid/*.expected against a
# real kube-apiserver (interop/cluster's testcluster, Kubernetes v1.37.2;
# tests/data/invalid/SOURCES.md says which files it covers):
#   tests/data/invalid/verify-with-apiserver.sh [NAME...]
# Each manifest goes to the apiserver with `kubectl create --dry-run=server
# --validate=strict`; the message after `error when creating "FILE": ` must
# equal the .expected file's message after `FILE: document N (line L): `.
# Needs the cluster binaries (tests/cluster/build.sh, which needs Go); exit 77
# when they are not there. ctest runs it as cluster.invalid_goldens.
set -uo pipefail
root=$(cd "$(dirname "${BASH_SOURCE[0]}")/../../.." && pwd)
cd "$root" || exit 1
# shellcheck source=tests/cluster/lib.sh
source tests/cluster/lib.sh
# Files whose message is not the apiserver's (see SOURCES.md).
skip=" syntax-error "
names=("$@")
if [[ ${#names[@]} -eq 0 ]]; then
  for f in tests/data/invalid/*.yaml; do names+=("$(basename "$f" .yaml)"); done
fi
work=$(mktemp -d -t dra-invalid-XXXXXX)
cluster_up "$work/cluster" --components apiserver || exit $?
# The namespaces the manifests name, without labels (the admin-access case
# needs a namespace that lacks resource.kubernetes.io/admin-access).
for ns in $(for n in "${names[@]}"; do
  sed -n 's/^ *namespace: *//p' "tests/data/invalid/$n.yaml"
done | sort -u); do
  [[ $ns == default ]] || kubectl create namespace "$ns" > /dev/null || exit 1
done
failed=0
for name in "${names[@]}"; do
  [[ $skip == *" $name "* ]] && continue
  f=tests/data/invalid/$name.yaml
  # What dra validate says, without its location prefix and summary line.
  want=$(sed '$d' "tests/data/invalid/$name.expected" | sed '1s/^[^:]*: document [0-9]* (line [0-9]*): //')
  # kubectl's deprecation warnings (v1beta1) are not part of the message.
  got=$(kubectl create --dry-run=server --validate=strict -f "$f" 2>&1 | grep -v '^Warning: ' |
    sed '1s/^Error from server ([A-Za-z]*): error when creating "[^"]*": //')
  if [[ "$got" == "$want" ]]; then
    echo "same: $name"
  else
    failed=1
    echo "DIFFERS: $name"
    diff -u <(printf '%s\n' "$want") <(printf '%s\n' "$got") | sed 's/^/  /'
  fi
done
cluster_down
rm -rf "$work"
exit $failed
