package main

import (
	"bytes"
	"encoding/json"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"reflect"

	resourceapi "k8s.io/api/resource/v1"
	"sigs.k8s.io/yaml"

	"github.com/dra-project/dra/interop/internal/celcase"
)

// devicesPerSlice is how many devices one expression is evaluated on.
const devicesPerSlice = 20

// celPairs compares `dra cel check` and `dra cel eval` with upstream on at
// least n random cases: expression-by-device pairs (20 devices per
// expression), and expressions that do not compile.
func (t *tester) celPairs(n int, seed uint64) error {
	g := celcase.NewGenerator(seed)
	var slicePath string
	var slice any
	// An expression that does not compile is one case, one that does is one
	// case per device: draw expressions until n cases are compared.
	before := t.counts.compared
	for i := 0; t.counts.compared-before < n; i++ {
		if i%10 == 0 {
			s := g.Slice(fmt.Sprintf("cel-%d", i/10), devicesPerSlice)
			data, err := yaml.Marshal(s)
			if err != nil {
				return err
			}
			slicePath = filepath.Join(t.workDir, fmt.Sprintf("cel-%d.yaml", i/10))
			if err := os.WriteFile(slicePath, data, 0o644); err != nil {
				return err
			}
			slice = s
		}
		expr := g.Expression(3)
		name := fmt.Sprintf("cel-%d-%d", seed, i)
		t.compareCel(name, expr, slicePath, slice)
	}
	return nil
}

func runJSON(prog string, args ...string) (any, string, error) {
	var stdout, stderr bytes.Buffer
	cmd := exec.Command(prog, args...)
	cmd.Stdout, cmd.Stderr = &stdout, &stderr
	_ = cmd.Run()
	var v any
	if err := json.Unmarshal(stdout.Bytes(), &v); err != nil {
		return nil, stdout.String() + stderr.String(), err
	}
	return v, "", nil
}

func roundTrip(v any) any {
	data, _ := json.Marshal(v)
	var out any
	_ = json.Unmarshal(data, &out)
	return out
}

func (t *tester) compareCel(name, expr, slicePath string, slice any) {
	compiled, check := celcase.Compile(expr)
	want := roundTrip(check)
	got, raw, err := runJSON(t.dra, "cel", "check", expr, "-o", "json")
	detail := func(aspect string, mine, theirs any) (string, string) {
		a, _ := json.Marshal(mine)
		b, _ := json.Marshal(theirs)
		return aspect, fmt.Sprintf("expression %s\n    dra:      %s\n    upstream: %s", celcase.Quote(expr), a, b)
	}
	if err != nil {
		a, d := detail("cel-check", raw, want)
		t.record(name, a, d, nil)
		return
	}
	if !reflect.DeepEqual(got, want) {
		aspect := "cel-check"
		if gm, ok := got.(map[string]any); ok {
			if wm, ok := want.(map[string]any); ok && gm["valid"] == wm["valid"] {
				aspect = "cel-check-text"
			}
		}
		a, d := detail(aspect, got, want)
		t.record(name, a, d, nil)
		return
	}
	if check.Error != nil && check.EstimatedCost == nil {
		// Does not compile: nothing to evaluate; counted once.
		t.record(name, "", "", nil)
		return
	}
	wantEval := roundTrip(celcase.Eval(compiled, slice.(*resourceapi.ResourceSlice)))
	gotEval, raw, err := runJSON(t.dra, "cel", "eval", expr, "-f", slicePath, "-o", "json")
	if err != nil {
		a, d := detail("cel-eval", raw, wantEval)
		t.record(name, a, d, nil)
		return
	}
	gl, _ := gotEval.([]any)
	wl, _ := wantEval.([]any)
	if len(gl) != len(wl) {
		a, d := detail("cel-eval", gotEval, wantEval)
		t.record(name, a, d, nil)
		return
	}
	for i := range wl {
		pair := fmt.Sprintf("%s/dev-%d", name, i)
		if reflect.DeepEqual(gl[i], wl[i]) {
			t.record(pair, "", "", nil)
			continue
		}
		aspect := "cel-result"
		gm, _ := gl[i].(map[string]any)
		wm, _ := wl[i].(map[string]any)
		if gm != nil && wm != nil && gm["error"] != nil && wm["error"] != nil {
			aspect = "cel-error-text"
		}
		a, d := detail(aspect, gl[i], wl[i])
		t.record(pair, a, d, nil)
	}
}
