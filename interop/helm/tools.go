//go:build tools

// Package tools keeps helm's main package in the module graph, so that
// `go mod tidy` does not drop it; tests/deployments/build_helm.sh builds it.
package tools

import (
	_ "helm.sh/helm/v3/cmd/helm"
)
