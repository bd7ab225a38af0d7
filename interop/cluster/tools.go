//go:build tools

// Package tools keeps the upstream main packages built by tests/cluster/build.sh
// in the module graph, so that `go mod tidy` does not drop them.
package tools

import (
	_ "k8s.io/kubernetes/cmd/kube-apiserver"
	_ "k8s.io/kubernetes/cmd/kube-controller-manager"
	_ "k8s.io/kubernetes/cmd/kube-scheduler"
	_ "k8s.io/kubernetes/cmd/kubectl"
	_ "k8s.io/kubernetes/test/e2e/dra/test-driver"
)
