#!/usr/bin/env bash
# Builds the real Kubernetes control plane that cluster tests run on
# (docs/CLUSTER.md): etcd, kube-apiserver, kube-scheduler,
# kube-controller-manager, kubectl, hollow-kubelet, the testcluster
# supervisor and upstream's DRA e2e test driver (dra-test-driver, the driver
# SDK's peer), all from the Go module interop/cluster (k8s.io/kubernetes
# v1.37.2 from the Go module proxy).
#   build.sh [SOURCE_DIR]
# Module downloads and compile results are cached under
# ${XDG_CACHE_HOME:-~/.cache}/dra-interop (shared with tests/interop/run.sh),
# the binaries go to .../dra-interop/cluster-bin, whose path is the last line
# printed. Nothing is rebuilt when the sources, go.mod, go.sum and the Go
# version are those of the last successful build.
# Exit 77 (ctest: skipped) when Go is not installed.
set -uo pipefail
src=${1:-$(cd "$(dirname "$0")/../.." && pwd)}
go_bin=${DRA_INTEROP_GO:-$(command -v go || echo /usr/local/go/bin/go)}
if [[ ! -x "$go_bin" ]]; then
  echo "SKIPPED: Go is not installed, so the real Kubernetes control plane for cluster tests was not built"
  exit 77
fi
PATH=$(dirname "$go_bin"):$PATH
cache=${XDG_CACHE_HOME:-$HOME/.cache}/dra-interop
export GOFLAGS=-mod=mod
export GOMODCACHE=${DRA_INTEROP_GOMODCACHE:-$cache/gomod}
export GOCACHE=${DRA_INTEROP_GOCACHE:-$cache/gocache}
bin=${DRA_CLUSTER_BIN_DIR:-$cache/cluster-bin}
mod=$src/interop/cluster
mkdir -p "$bin"

version=v1.37.2
binaries=(etcd kube-apiserver kube-scheduler kube-controller-manager kubectl hollow-kubelet testcluster dra-test-driver)
stamp=$( (go version; cd "$mod" && find . -type f \( -name '*.go' -o -name go.mod -o -name go.sum \) | LC_ALL=C sort | xargs sha256sum) | sha256sum | cut -d' ' -f1)
missing=0
for b in "${binaries[@]}"; do [[ -x $bin/$b ]] || missing=1; done
if [[ $missing -eq 0 && -f $bin/.stamp && $(cat "$bin/.stamp") == "$stamp" ]]; then
  echo "cluster binaries are up to date (k8s.io/kubernetes $version)"
  echo "$bin"
  exit 0
fi

# As upstream's hack/lib/version.sh: the version that `kubectl version` and
# the components report.
ldflags="-s -w"
for p in k8s.io/component-base/version k8s.io/client-go/pkg/version; do
  ldflags+=" -X $p.gitVersion=$version -X $p.gitMajor=1 -X $p.gitMinor=37 -X $p.gitTreeState=clean"
done
echo "building the cluster binaries (k8s.io/kubernetes $version; a cold build takes 12-20 minutes, a warm one about a minute)"
start=$(date +%s)
rm -f "$bin/.stamp"
if ! (cd "$mod" && nice -n "${DRA_CLUSTER_NICE:-10}" go build -ldflags "$ldflags" -o "$bin/" \
      k8s.io/kubernetes/cmd/kube-apiserver k8s.io/kubernetes/cmd/kube-scheduler \
      k8s.io/kubernetes/cmd/kube-controller-manager k8s.io/kubernetes/cmd/kubectl \
      k8s.io/kubernetes/test/e2e/dra/test-driver \
      ./cmd/etcd ./cmd/hollow-kubelet ./cmd/testcluster); then
  echo "FAILED: building interop/cluster (needs the Go module proxy on the first run)"
  exit 1
fi
# go build names it after its directory; the tests call it by its role.
mv -f "$bin/test-driver" "$bin/dra-test-driver" || exit 1
echo "$stamp" > "$bin/.stamp"
echo "built in $(($(date +%s) - start))s ($(go version | cut -d' ' -f3), cache $cache)"
echo "$bin"
