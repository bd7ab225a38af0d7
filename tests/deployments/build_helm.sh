#!/usr/bin/env bash
# Builds Helm (helm.sh/helm/v3 from the Go module proxy, pinned by the Go
# module interop/helm) for the tests of dra's Helm chart
# (deployments/helm/dra-driver): helm lint and helm template.
#   build_helm.sh [SOURCE_DIR]
# Module downloads and compile results are cached under
# ${XDG_CACHE_HOME:-~/.cache}/dra-interop (shared with tests/interop/run.sh and
# tests/cluster/build.sh); the binary goes to .../dra-interop/helm-bin/helm
# (DRA_HELM_BIN_DIR overrides), whose directory is the last line printed.
# Nothing is rebuilt when interop/helm's files and the Go version are those of
# the last successful build.
# Exit 77 (ctest: skipped) when Go is not installed.
set -uo pipefail
src=${1:-$(cd "$(dirname "$0")/../.." && pwd)}
go_bin=${DRA_INTEROP_GO:-$(command -v go || echo /usr/local/go/bin/go)}
if [[ ! -x "$go_bin" ]]; then
  echo "SKIPPED: Go is not installed, so helm for the chart tests was not built"
  exit 77
fi
PATH=$(dirname "$go_bin"):$PATH
cache=${XDG_CACHE_HOME:-$HOME/.cache}/dra-interop
export GOFLAGS=-mod=mod
export GOMODCACHE=${DRA_INTEROP_GOMODCACHE:-$cache/gomod}
export GOCACHE=${DRA_INTEROP_GOCACHE:-$cache/gocache}
bin=${DRA_HELM_BIN_DIR:-$cache/helm-bin}
mod=$src/interop/helm
mkdir -p "$bin"

stamp=$( (go version; cd "$mod" && find . -type f \( -name '*.go' -o -name go.mod -o -name go.sum \) | LC_ALL=C sort | xargs sha256sum) | sha256sum | cut -d' ' -f1)
if [[ -x $bin/helm && -f $bin/.stamp && $(cat "$bin/.stamp") == "$stamp" ]]; then
  echo "helm is up to date ($("$bin/helm" version --short 2> /dev/null))"
  echo "$bin"
  exit 0
fi

version=$(sed -n 's/^require helm.sh\/helm\/v3 //p' "$mod/go.mod")
# As helm's Makefile: the version that `helm version` reports, and the
# Kubernetes version that `helm template` (.Capabilities.KubeVersion) and
# `helm lint`'s deprecation checks assume: that of client-go (v0.37.0 ->
# 1.37); without these, helm assumes Kubernetes 1.20.
client_go=$(cd "$mod" && go list -f '{{.Version}}' -m k8s.io/client-go) || exit 1
kube_minor=$(echo "$client_go" | cut -d. -f2)
ldflags="-s -w -X helm.sh/helm/v3/internal/version.version=$version -X helm.sh/helm/v3/internal/version.gitTreeState=clean"
for p in helm.sh/helm/v3/pkg/lint/rules helm.sh/helm/v3/pkg/chartutil; do
  ldflags+=" -X $p.k8sVersionMajor=1 -X $p.k8sVersionMinor=$kube_minor"
done
echo "building helm $version (a cold build takes several minutes)"
start=$(date +%s)
rm -f "$bin/.stamp"
if ! (cd "$mod" && nice -n "${DRA_HELM_NICE:-10}" go build -ldflags "$ldflags" -o "$bin/helm" \
      helm.sh/helm/v3/cmd/helm); then
  echo "FAILED: building interop/helm (needs the Go module proxy on the first run)"
  exit 1
fi
echo "$stamp" > "$bin/.stamp"
echo "built in $(($(date +%s) - start))s ($(go version | cut -d' ' -f3), cache $cache)"
echo "$bin"
