// difftest is the differential test of dra against upstream Kubernetes
// (issue #5): every scenario under tests/scenarios/, seeded random scenarios
// from dra's shared generator (`dra gen scenario`) and random CEL
// expression-by-device pairs go through both dra and upstream's code (run
// in-process here); any difference not listed in the divergence file fails.
// The last line of output is
//
//	compared N, identical N, known divergences N, unexplained N
//
// Exit status: 0 when nothing is unexplained, 1 otherwise, 2 on bad usage.
package main

import (
	"bytes"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"flag"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"reflect"
	"sort"
	"strings"

	"github.com/dra-project/dra/interop/internal/gates"
	"github.com/dra-project/dra/interop/internal/oracle"
	"github.com/dra-project/dra/interop/internal/scenario"
)

type counts struct {
	compared, identical, known, unexplained, skipped int
}

type tester struct {
	dra         string
	divergences []divergence
	minimizeDir string
	workDir     string
	verbose     bool
	counts      counts
	// Cases with an unexplained difference, for the summary.
	failures []string
	// Minimized scenario per difference signature.
	minimized map[string]string
}

// maxMinimizations bounds the minimizer's share of a run's time.
const maxMinimizations = 5

func main() {
	dra := flag.String("dra", "", "path to the dra program")
	scenarios := flag.String("scenarios", "", "directory of checked-in scenarios (tests/scenarios)")
	random := flag.Int("random", 2000, "seeded random allocation scenarios")
	seed := flag.Uint64("seed", 1, "first seed")
	celPairs := flag.Int("cel", 5000, "random CEL expression-by-device pairs")
	divFile := flag.String("divergences", "", "divergence file (tests/interop/divergences.tsv)")
	minimizeDir := flag.String("minimize-dir", "", "write minimized differing scenarios here (empty: a temporary directory, path reported)")
	workDir := flag.String("work-dir", "", "scratch directory (default: a new temporary directory)")
	verbose := flag.Bool("v", false, "print every compared case")
	flag.Parse()
	if *dra == "" {
		fmt.Fprintln(os.Stderr, "error: --dra is required")
		os.Exit(2)
	}
	// A dra that cannot run at all would make every case "differ".
	if out, err := exec.Command(*dra, "gen", "scenario", "--profile", "small").Output(); err != nil || len(out) == 0 {
		fmt.Fprintf(os.Stderr, "error: %s does not run (dra gen scenario): %v\n", *dra, err)
		os.Exit(2)
	}
	t := &tester{dra: *dra, minimizeDir: *minimizeDir, verbose: *verbose, minimized: map[string]string{}}
	if *divFile != "" {
		d, err := readDivergences(*divFile)
		if err != nil {
			fmt.Fprintf(os.Stderr, "error: %v\n", err)
			os.Exit(2)
		}
		t.divergences = d
	}
	t.workDir = *workDir
	if t.workDir == "" {
		dir, err := os.MkdirTemp("", "dra-interop-")
		if err != nil {
			fmt.Fprintf(os.Stderr, "error: %v\n", err)
			os.Exit(2)
		}
		defer os.RemoveAll(dir)
		t.workDir = dir
	}
	if t.minimizeDir == "" {
		t.minimizeDir = filepath.Join(os.TempDir(), "dra-interop-minimized")
	}

	if *scenarios != "" {
		files, err := scenario.Files([]string{*scenarios})
		if err != nil {
			fmt.Fprintf(os.Stderr, "error: %v\n", err)
			os.Exit(2)
		}
		for _, f := range files {
			t.allocateFile(f, "")
		}
	}
	if *random > 0 {
		if err := t.randomScenarios(*random, *seed); err != nil {
			fmt.Fprintf(os.Stderr, "error: %v\n", err)
			os.Exit(2)
		}
	}
	if *celPairs > 0 {
		if err := t.celPairs(*celPairs, *seed); err != nil {
			fmt.Fprintf(os.Stderr, "error: %v\n", err)
			os.Exit(2)
		}
	}
	for _, f := range t.failures {
		fmt.Println("UNEXPLAINED " + f)
	}
	c := t.counts
	if c.skipped > 0 {
		fmt.Printf("skipped %d cases the oracle cannot read\n", c.skipped)
	}
	fmt.Printf("compared %d, identical %d, known divergences %d, unexplained %d\n",
		c.compared, c.identical, c.known, c.unexplained)
	if c.unexplained > 0 {
		os.Exit(1)
	}
}

// The profiles of `dra gen scenario` and their share of the random run:
// "all" mixes every feature and random gates; the others focus one family.
var profiles = []struct {
	name   string
	weight int
}{
	{"all", 10}, {"partitionable", 2}, {"taints", 2}, {"capacity", 2}, {"constraints", 2},
	{"prioritized", 2}, {"admin", 2}, {"binding", 2}, {"small", 1},
}

func (t *tester) randomScenarios(n int, seed uint64) error {
	total := 0
	for _, p := range profiles {
		total += p.weight
	}
	dir := filepath.Join(t.workDir, "random")
	assigned := 0
	for i, p := range profiles {
		count := n * p.weight / total
		if i == len(profiles)-1 {
			count = n - assigned
		}
		assigned += count
		if count == 0 {
			continue
		}
		cmd := exec.Command(t.dra, "gen", "scenario", "--profile", p.name, "--seed", fmt.Sprint(seed),
			"--count", fmt.Sprint(count), "--out-dir", dir)
		if out, err := cmd.CombinedOutput(); err != nil {
			return fmt.Errorf("dra gen scenario --profile %s: %v: %s", p.name, err, out)
		}
		for k := 0; k < count; k++ {
			t.allocateFile(filepath.Join(dir, fmt.Sprintf("%s-%d.yaml", p.name, seed+uint64(k))), p.name)
		}
	}
	return nil
}

// allocateFile compares one scenario file on the node its header names, or
// on every node it mentions.
func (t *tester) allocateFile(path, profile string) {
	s, err := scenario.Read([]string{path}, "default")
	if err != nil {
		t.counts.skipped++
		if t.verbose {
			fmt.Printf("skip %s: %v\n", path, err)
		}
		return
	}
	nodes := s.NodeNames()
	if n, ok := s.Header["node"]; ok {
		nodes = []string{n}
	}
	spec := s.Header["feature-gates"]
	g, err := gates.Parse(spec)
	if err != nil {
		t.counts.skipped++
		fmt.Printf("skip %s: feature gates: %v\n", path, err)
		return
	}
	for _, node := range nodes {
		name := filepath.Base(path) + "@" + node
		kind, detail, sig := t.compareAllocate(path, s, g, spec, node)
		t.record(name, kind, detail, func() string {
			// One minimization per kind of difference, and a bounded number per run.
			if p, ok := t.minimized[sig]; ok {
				return p + " (same difference as an earlier case)"
			}
			if len(t.minimized) >= maxMinimizations {
				return ""
			}
			p := t.minimize(path, spec, node, sig)
			t.minimized[sig] = p
			return p
		})
	}
}

// compareAllocate returns "" when identical, else the aspect that differs
// first (outcome, error, result, steps), a description, and a signature of
// the difference that the minimizer keeps constant (the aspect, plus both
// outcomes or both error texts where those differ).
func (t *tester) compareAllocate(path string, s *scenario.Scenario, g gates.Gates, spec, node string) (string, string, string) {
	rep := oracle.Run(oracle.Prepare(s, g, node), node)
	variant := rep.Variant
	upstreamJSON, _ := json.Marshal(rep)
	var upstream map[string]any
	_ = json.Unmarshal(upstreamJSON, &upstream)
	delete(upstream, "variant")

	args := []string{"allocate", "-f", path, "--node", node, "-o", "json"}
	if spec != "" {
		args = append(args, "--feature-gates", spec)
	}
	var stdout, stderr bytes.Buffer
	cmd := exec.Command(t.dra, args...)
	cmd.Stdout, cmd.Stderr = &stdout, &stderr
	_ = cmd.Run()
	var mine map[string]any
	if err := json.Unmarshal(stdout.Bytes(), &mine); err != nil {
		return "outcome", fmt.Sprintf("dra allocate failed (exit %d): %s", cmd.ProcessState.ExitCode(), strings.TrimSpace(stderr.String())), "dra-failed"
	}
	normalize(upstream)
	normalize(mine)
	aspect := ""
	switch {
	case mine["outcome"] != upstream["outcome"]:
		aspect = "outcome"
	case !reflect.DeepEqual(mine["error"], upstream["error"]) || !reflect.DeepEqual(mine["nodeLocal"], upstream["nodeLocal"]):
		aspect = "error"
	case !reflect.DeepEqual(mine["claims"], upstream["claims"]):
		aspect = "result"
	case upstream["steps"] != nil && !reflect.DeepEqual(mine["steps"], upstream["steps"]):
		aspect = "steps"
	}
	if aspect == "" {
		return "", "", ""
	}
	if variant == "stable" && aspect != "outcome" {
		// Upstream's stable variant visits pools in Go map order, random per
		// call, and counts permutation steps; dra implements the sorted,
		// combination-search variants only.
		aspect = "stable-" + aspect
	}
	a, _ := json.Marshal(mine)
	b, _ := json.Marshal(upstream)
	sig := aspect
	switch aspect {
	case "outcome":
		sig += fmt.Sprint("|", mine["outcome"], "|", upstream["outcome"])
	case "error":
		sig += fmt.Sprint("|", mine["error"], "|", upstream["error"])
	}
	return aspect, fmt.Sprintf("variant %s\n    dra:      %s\n    upstream: %s", variant, a, b), sig
}

// normalize replaces random shareIDs by their order of appearance and drops
// fields outside the comparison (allocationTimestamp).
func normalize(v map[string]any) {
	ids := map[string]string{}
	var walk func(x any)
	walk = func(x any) {
		switch x := x.(type) {
		case map[string]any:
			delete(x, "allocationTimestamp")
			if id, ok := x["shareID"].(string); ok {
				if _, seen := ids[id]; !seen {
					ids[id] = fmt.Sprintf("share-%d", len(ids)+1)
				}
				x["shareID"] = ids[id]
			}
			keys := make([]string, 0, len(x))
			for k := range x {
				keys = append(keys, k)
			}
			sort.Strings(keys)
			for _, k := range keys {
				walk(x[k])
			}
		case []any:
			for _, e := range x {
				walk(e)
			}
		}
	}
	walk(v)
}

func (t *tester) record(name, aspect, detail string, minimize func() string) {
	t.counts.compared++
	if aspect == "" {
		t.counts.identical++
		if t.verbose {
			fmt.Printf("ok %s\n", name)
		}
		return
	}
	if d := t.known(name, aspect); d != nil {
		t.counts.known++
		if t.verbose {
			fmt.Printf("known %s (%s): %s\n", name, aspect, d.reason)
		}
		return
	}
	t.counts.unexplained++
	msg := fmt.Sprintf("%s [%s]: %s", name, aspect, detail)
	if minimize != nil {
		if p := minimize(); p != "" {
			msg += "\n    minimized: " + p
		}
	}
	fmt.Println("DIFF " + msg)
	t.failures = append(t.failures, name+" ["+aspect+"]")
}

type divergence struct {
	pattern, aspect, reason string
}

// readDivergences reads "case-glob<TAB>aspect<TAB>reason" lines; # comments.
func readDivergences(path string) ([]divergence, error) {
	data, err := os.ReadFile(path)
	if err != nil {
		return nil, err
	}
	var out []divergence
	for i, line := range strings.Split(string(data), "\n") {
		if strings.TrimSpace(line) == "" || strings.HasPrefix(line, "#") {
			continue
		}
		f := strings.SplitN(line, "\t", 3)
		if len(f) != 3 || strings.TrimSpace(f[2]) == "" {
			return nil, fmt.Errorf("%s:%d: want case<TAB>aspect<TAB>reason", path, i+1)
		}
		if _, err := filepath.Match(f[0], ""); err != nil {
			return nil, fmt.Errorf("%s:%d: bad pattern %q: %v", path, i+1, f[0], err)
		}
		out = append(out, divergence{f[0], f[1], f[2]})
	}
	return out, nil
}

func (t *tester) known(name, aspect string) *divergence {
	for i := range t.divergences {
		d := &t.divergences[i]
		if ok, _ := filepath.Match(d.pattern, name); ok && (d.aspect == aspect || d.aspect == "*") {
			return d
		}
	}
	return nil
}

func shortHash(data []byte) string {
	h := sha256.Sum256(data)
	return hex.EncodeToString(h[:])[:12]
}
