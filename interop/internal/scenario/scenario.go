// Package scenario reads the manifests that `dra allocate` reads and turns
// them into the inputs kube-scheduler's DRA plugin hands to upstream's
// structured allocator.
package scenario

import (
	"bufio"
	"bytes"
	"encoding/json"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"sort"
	"strings"

	corev1 "k8s.io/api/core/v1"
	resourceapi "k8s.io/api/resource/v1"
	utilyaml "k8s.io/apimachinery/pkg/util/yaml"
)

// Scenario is the content of one or more manifest files.
type Scenario struct {
	Slices     []*resourceapi.ResourceSlice
	Classes    []*resourceapi.DeviceClass
	InUse      []*resourceapi.ResourceClaim // claims with status.allocation
	ToAllocate []*resourceapi.ResourceClaim
	TaintRules []*resourceapi.DeviceTaintRule
	Nodes      []*corev1.Node
	// Header holds "# dra-gen: key=value" comment lines of generated files.
	Header map[string]string
}

// Files expands files and directories (non-recursive; .yaml, .yml, .json) in
// the order `dra allocate -f` uses: directory entries sorted by name.
func Files(paths []string) ([]string, error) {
	var out []string
	for _, p := range paths {
		st, err := os.Stat(p)
		if err != nil {
			return nil, err
		}
		if !st.IsDir() {
			out = append(out, p)
			continue
		}
		entries, err := os.ReadDir(p)
		if err != nil {
			return nil, err
		}
		var names []string
		for _, e := range entries {
			n := e.Name()
			if !e.IsDir() && (strings.HasSuffix(n, ".yaml") || strings.HasSuffix(n, ".yml") || strings.HasSuffix(n, ".json")) {
				names = append(names, n)
			}
		}
		sort.Strings(names)
		for _, n := range names {
			out = append(out, filepath.Join(p, n))
		}
	}
	return out, nil
}

// Read parses the files into one scenario. namespace is given to claims
// that name none. Unsupported API versions are an error.
func Read(files []string, namespace string) (*Scenario, error) {
	s := &Scenario{Header: map[string]string{}}
	for _, f := range files {
		data, err := os.ReadFile(f)
		if err != nil {
			return nil, err
		}
		readHeader(data, s.Header)
		if err := s.parse(f, data, namespace); err != nil {
			return nil, err
		}
	}
	return s, nil
}

func readHeader(data []byte, header map[string]string) {
	sc := bufio.NewScanner(bytes.NewReader(data))
	for sc.Scan() {
		line := sc.Text()
		if !strings.HasPrefix(line, "#") {
			return
		}
		if rest, ok := strings.CutPrefix(line, "# dra-gen: "); ok {
			if k, v, ok := strings.Cut(rest, "="); ok {
				header[k] = v
			}
		}
	}
}

type typeMeta struct {
	APIVersion string `json:"apiVersion"`
	Kind       string `json:"kind"`
}

func (s *Scenario) parse(source string, data []byte, namespace string) error {
	dec := utilyaml.NewYAMLOrJSONDecoder(bytes.NewReader(data), 4096)
	for doc := 1; ; doc++ {
		var raw json.RawMessage
		if err := dec.Decode(&raw); err != nil {
			if err == io.EOF {
				return nil
			}
			return fmt.Errorf("%s: document %d: %w", source, doc, err)
		}
		if len(bytes.TrimSpace(raw)) == 0 || string(raw) == "null" {
			continue
		}
		var tm typeMeta
		if err := json.Unmarshal(raw, &tm); err != nil {
			return fmt.Errorf("%s: document %d: %w", source, doc, err)
		}
		if tm.Kind == "List" {
			var list struct {
				Items []json.RawMessage `json:"items"`
			}
			if err := json.Unmarshal(raw, &list); err != nil {
				return fmt.Errorf("%s: document %d: %w", source, doc, err)
			}
			for _, item := range list.Items {
				if err := s.add(source, doc, item, namespace); err != nil {
					return err
				}
			}
			continue
		}
		if err := s.add(source, doc, raw, namespace); err != nil {
			return err
		}
	}
}

// ErrUnsupported marks inputs the oracle cannot read (older API versions).
type ErrUnsupported struct{ msg string }

func (e *ErrUnsupported) Error() string { return e.msg }

func (s *Scenario) add(source string, doc int, raw []byte, namespace string) error {
	var tm typeMeta
	if err := json.Unmarshal(raw, &tm); err != nil {
		return fmt.Errorf("%s: document %d: %w", source, doc, err)
	}
	if tm.Kind == "Node" && tm.APIVersion == "v1" {
		n := &corev1.Node{}
		if err := json.Unmarshal(raw, n); err != nil {
			return fmt.Errorf("%s: document %d: %w", source, doc, err)
		}
		s.Nodes = append(s.Nodes, n)
		return nil
	}
	group, version, _ := strings.Cut(tm.APIVersion, "/")
	if group != "resource.k8s.io" {
		return nil // other kinds are ignored, as by dra allocate
	}
	known := tm.Kind == "ResourceSlice" || tm.Kind == "DeviceClass" || tm.Kind == "ResourceClaim" || tm.Kind == "DeviceTaintRule"
	if !known {
		return nil
	}
	// v1beta2 has the same JSON shape as v1 for these kinds; v1beta1 does not.
	if version != "v1" && version != "v1beta2" {
		return &ErrUnsupported{fmt.Sprintf("%s: document %d: %s %s: only resource.k8s.io/v1 and v1beta2 are supported", source, doc, tm.Kind, tm.APIVersion)}
	}
	wrap := func(err error) error { return fmt.Errorf("%s: document %d: %w", source, doc, err) }
	switch tm.Kind {
	case "ResourceSlice":
		o := &resourceapi.ResourceSlice{}
		if err := json.Unmarshal(raw, o); err != nil {
			return wrap(err)
		}
		s.Slices = append(s.Slices, o)
	case "DeviceClass":
		o := &resourceapi.DeviceClass{}
		if err := json.Unmarshal(raw, o); err != nil {
			return wrap(err)
		}
		s.Classes = append(s.Classes, o)
	case "DeviceTaintRule":
		o := &resourceapi.DeviceTaintRule{}
		if err := json.Unmarshal(raw, o); err != nil {
			return wrap(err)
		}
		s.TaintRules = append(s.TaintRules, o)
	case "ResourceClaim":
		o := &resourceapi.ResourceClaim{}
		if err := json.Unmarshal(raw, o); err != nil {
			return wrap(err)
		}
		if o.Namespace == "" {
			o.Namespace = namespace
		}
		defaultClaim(o)
		if o.Status.Allocation != nil {
			s.InUse = append(s.InUse, o)
		} else {
			s.ToAllocate = append(s.ToAllocate, o)
		}
	}
	return nil
}

// defaultClaim applies kube-apiserver's v1 defaults that the allocator
// relies on (allocation mode, count, toleration operator).
func defaultClaim(c *resourceapi.ResourceClaim) {
	tolerations := func(ts []resourceapi.DeviceToleration) {
		for i := range ts {
			if ts[i].Operator == "" {
				ts[i].Operator = resourceapi.DeviceTolerationOpEqual
			}
		}
	}
	for i := range c.Spec.Devices.Requests {
		r := &c.Spec.Devices.Requests[i]
		if e := r.Exactly; e != nil {
			if e.AllocationMode == "" {
				e.AllocationMode = resourceapi.DeviceAllocationModeExactCount
			}
			if e.AllocationMode == resourceapi.DeviceAllocationModeExactCount && e.Count == 0 {
				e.Count = 1
			}
			tolerations(e.Tolerations)
		}
		for j := range r.FirstAvailable {
			sub := &r.FirstAvailable[j]
			if sub.AllocationMode == "" {
				sub.AllocationMode = resourceapi.DeviceAllocationModeExactCount
			}
			if sub.AllocationMode == resourceapi.DeviceAllocationModeExactCount && sub.Count == 0 {
				sub.Count = 1
			}
			tolerations(sub.Tolerations)
		}
	}
}

// Node returns the node of that name, or one with only the name.
func (s *Scenario) Node(name string) *corev1.Node {
	for _, n := range s.Nodes {
		if n.Name == name {
			return n
		}
	}
	n := &corev1.Node{}
	n.Name = name
	return n
}

// PatchedSlices applies DeviceTaintRules to the slices the way the
// scheduler's ResourceSlice tracker does (resourceslice/tracker): every rule
// whose selector matches appends its taint to the device, rules in input
// order. The inputs are not modified.
func (s *Scenario) PatchedSlices() []*resourceapi.ResourceSlice {
	out := make([]*resourceapi.ResourceSlice, 0, len(s.Slices))
	for _, slice := range s.Slices {
		patched := slice
		for _, rule := range s.TaintRules {
			sel := rule.Spec.DeviceSelector
			if sel == nil {
				continue
			}
			if sel.Driver != nil && *sel.Driver != slice.Spec.Driver {
				continue
			}
			if sel.Pool != nil && *sel.Pool != slice.Spec.Pool.Name {
				continue
			}
			for i, d := range slice.Spec.Devices {
				if sel.Device != nil && *sel.Device != d.Name {
					continue
				}
				if patched == slice {
					patched = slice.DeepCopy()
				}
				patched.Spec.Devices[i].Taints = append(patched.Spec.Devices[i].Taints, rule.Spec.Taint)
			}
		}
		out = append(out, patched)
	}
	return out
}

// NodeNames lists the nodes a scenario mentions (Node objects, slice and
// device nodeName), sorted, for files without a "# dra-gen: node=" header.
func (s *Scenario) NodeNames() []string {
	seen := map[string]bool{}
	for _, n := range s.Nodes {
		seen[n.Name] = true
	}
	for _, sl := range s.Slices {
		if sl.Spec.NodeName != nil && *sl.Spec.NodeName != "" {
			seen[*sl.Spec.NodeName] = true
		}
		for _, d := range sl.Spec.Devices {
			if d.NodeName != nil && *d.NodeName != "" {
				seen[*d.NodeName] = true
			}
		}
	}
	var out []string
	for n := range seen {
		out = append(out, n)
	}
	sort.Strings(out)
	return out
}
