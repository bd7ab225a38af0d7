package scenario

import (
	"os"
	"path/filepath"
	"testing"
)

const text = `# dra-gen: node=node-1
# dra-gen: feature-gates=DRADeviceTaints=true
apiVersion: resource.k8s.io/v1
kind: ResourceSlice
metadata: {name: s}
spec:
  driver: d.example.com
  nodeName: node-1
  pool: {name: p, generation: 1, resourceSliceCount: 1}
  devices: [{name: a}, {name: b}]
---
apiVersion: resource.k8s.io/v1beta2
kind: DeviceTaintRule
metadata: {name: r}
spec:
  deviceSelector: {driver: d.example.com, device: b}
  taint: {key: k, effect: NoSchedule}
---
apiVersion: resource.k8s.io/v1
kind: ResourceClaim
metadata: {name: c}
spec:
  devices:
    requests:
    - name: r
      exactly: {deviceClassName: x, tolerations: [{key: k}]}
---
apiVersion: v1
kind: Pod
metadata: {name: ignored}
`

func TestReadDefaultsAndTaintRules(t *testing.T) {
	path := filepath.Join(t.TempDir(), "s.yaml")
	if err := os.WriteFile(path, []byte(text), 0o644); err != nil {
		t.Fatal(err)
	}
	s, err := Read([]string{path}, "ns")
	if err != nil {
		t.Fatal(err)
	}
	if s.Header["node"] != "node-1" || s.Header["feature-gates"] != "DRADeviceTaints=true" {
		t.Errorf("header %v", s.Header)
	}
	if len(s.ToAllocate) != 1 || len(s.Slices) != 1 || len(s.TaintRules) != 1 {
		t.Fatalf("objects: %d claims, %d slices, %d rules", len(s.ToAllocate), len(s.Slices), len(s.TaintRules))
	}
	c := s.ToAllocate[0]
	e := c.Spec.Devices.Requests[0].Exactly
	if c.Namespace != "ns" || e.AllocationMode != "ExactCount" || e.Count != 1 || e.Tolerations[0].Operator != "Equal" {
		t.Errorf("defaults not applied: %s %s %d %s", c.Namespace, e.AllocationMode, e.Count, e.Tolerations[0].Operator)
	}
	patched := s.PatchedSlices()
	if len(patched[0].Spec.Devices[0].Taints) != 0 || len(patched[0].Spec.Devices[1].Taints) != 1 {
		t.Errorf("taint rule applied wrongly: %+v", patched[0].Spec.Devices)
	}
	if len(s.Slices[0].Spec.Devices[1].Taints) != 0 {
		t.Error("input slice modified")
	}
	if got := s.NodeNames(); len(got) != 1 || got[0] != "node-1" {
		t.Errorf("NodeNames %v", got)
	}
}
