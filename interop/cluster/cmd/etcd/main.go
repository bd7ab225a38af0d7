// Command etcd is the etcd server at the version k8s.io/kubernetes v1.37.2
// requires, so that it comes from the same module graph as the control plane.
package main

import (
	"os"

	"go.etcd.io/etcd/server/v3/etcdmain"
)

func main() { etcdmain.Main(os.Args) }
