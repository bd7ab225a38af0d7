package main

import (
	"bytes"
	"encoding/json"
	"fmt"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"strings"

	utilyaml "k8s.io/apimachinery/pkg/util/yaml"
	"sigs.k8s.io/yaml"

	"github.com/dra-project/dra/interop/internal/gates"
	"github.com/dra-project/dra/interop/internal/scenario"
)

// allGatesOn is the gate set the generator's objects are valid under.
const allGatesOn = "DRADeviceTaints=true,DRADeviceTaintRules=true,DRAConsumableCapacity=true," +
	"DRADeviceBindingConditions=true,DRAPartitionableDevices=true,DRAListTypeAttributes=true"

// maxMinimizeTries bounds the work spent shrinking one scenario.
const maxMinimizeTries = 150

// minimize shrinks the scenario at path while dra and upstream still differ
// in the same way (same aspect; same outcomes or error texts): it drops whole objects, then devices of slices, then
// requests, constraints, selectors and config of claims. It writes the result
// as interop-<hash>.yaml into the minimize directory and returns its path
// ("" when nothing could be written).
func (t *tester) minimize(path, spec, node, signature string) string {
	data, err := os.ReadFile(path)
	if err != nil {
		return ""
	}
	docs, err := splitDocuments(data)
	if err != nil {
		return ""
	}
	g, err := gates.Parse(spec)
	if err != nil {
		return ""
	}
	scratch := filepath.Join(t.workDir, "minimize.yaml")
	tries := 0
	still := func(candidate []map[string]any) bool {
		if tries >= maxMinimizeTries {
			return false
		}
		tries++
		text, err := render(candidate, spec, node)
		if err != nil || os.WriteFile(scratch, text, 0o644) != nil {
			return false
		}
		// Only API-valid candidates: the allocator assumes validated input.
		if exec.Command(t.dra, "validate", "-f", scratch, "--feature-gates", allGatesOn).Run() != nil {
			return false
		}
		s, err := scenario.Read([]string{scratch}, "default")
		if err != nil || len(s.ToAllocate) == 0 {
			return false
		}
		_, _, sig := t.compareAllocate(scratch, s, g, spec, node)
		return sig == signature
	}
	for changed := true; changed && tries < maxMinimizeTries; {
		changed = false
		// Whole objects, last first.
		for i := len(docs) - 1; i >= 0; i-- {
			candidate := append(append([]map[string]any{}, docs[:i]...), docs[i+1:]...)
			if still(candidate) {
				docs, changed = candidate, true
			}
		}
		// List entries inside objects.
		for i := range docs {
			for _, field := range []string{"spec.devices", "spec.sharedCounters", "spec.devices.requests",
				"spec.devices.constraints", "spec.devices.config", "spec.selectors", "spec.config"} {
				for j := listLen(docs[i], field) - 1; j >= 0; j-- {
					candidate := cloneDocs(docs)
					removeAt(candidate[i], field, j)
					if still(candidate) {
						docs, changed = candidate, true
					}
				}
			}
		}
	}
	text, err := render(docs, spec, node)
	if err != nil {
		return ""
	}
	if err := os.MkdirAll(t.minimizeDir, 0o755); err != nil {
		return ""
	}
	out := filepath.Join(t.minimizeDir, "interop-"+shortHash(text)+".yaml")
	if err := os.WriteFile(out, text, 0o644); err != nil {
		return ""
	}
	return out
}

func splitDocuments(data []byte) ([]map[string]any, error) {
	dec := utilyaml.NewYAMLOrJSONDecoder(bytes.NewReader(data), 4096)
	var docs []map[string]any
	for {
		var m map[string]any
		if err := dec.Decode(&m); err != nil {
			if err == io.EOF {
				return docs, nil
			}
			return nil, err
		}
		if m != nil {
			docs = append(docs, m)
		}
	}
}

func render(docs []map[string]any, spec, node string) ([]byte, error) {
	var b strings.Builder
	b.WriteString("# Minimized by the differential test (interop/cmd/difftest): dra and upstream differ.\n")
	fmt.Fprintf(&b, "# dra-gen: node=%s\n# dra-gen: feature-gates=%s\n", node, spec)
	for i, d := range docs {
		if i > 0 {
			b.WriteString("---\n")
		}
		y, err := yaml.Marshal(d)
		if err != nil {
			return nil, err
		}
		b.Write(y)
	}
	return []byte(b.String()), nil
}

func cloneDocs(docs []map[string]any) []map[string]any {
	data, _ := json.Marshal(docs)
	var out []map[string]any
	_ = json.Unmarshal(data, &out)
	return out
}

func lookup(doc map[string]any, field string) (map[string]any, string) {
	parts := strings.Split(field, ".")
	m := doc
	for _, p := range parts[:len(parts)-1] {
		next, ok := m[p].(map[string]any)
		if !ok {
			return nil, ""
		}
		m = next
	}
	return m, parts[len(parts)-1]
}

func listLen(doc map[string]any, field string) int {
	m, key := lookup(doc, field)
	if m == nil {
		return 0
	}
	l, _ := m[key].([]any)
	return len(l)
}

func removeAt(doc map[string]any, field string, i int) {
	m, key := lookup(doc, field)
	l := m[key].([]any)
	m[key] = append(l[:i:i], l[i+1:]...)
}
