// allocate-oracle runs upstream Kubernetes' structured allocator
// (k8s.io/dynamic-resource-allocation/structured) on the scenario files that
// `dra allocate` reads, the way kube-scheduler's DRA plugin calls it, and
// prints the JSON of `dra allocate -o json` (docs/ALLOCATE.md).
//
// Single mode:  allocate-oracle -f FILE... --node NAME [--feature-gates ...]
// Batch mode:   allocate-oracle --batch FILE|DIR...
//
//	one JSON line per file: {"file": F, "node": N, "featureGates": G,
//	"result": {...}} or {"file": F, "skip": reason}; node and gates come from
//	the file's "# dra-gen:" header, else from --node / --feature-gates.
//
// --time N: also time N Allocate calls per scenario (allocator built once)
// and report "nsPerAllocate" and "nsPerNewAllocator".
package main

import (
	"encoding/json"
	"flag"
	"fmt"
	"os"
	"strings"

	"github.com/dra-project/dra/interop/internal/gates"
	"github.com/dra-project/dra/interop/internal/oracle"
	"github.com/dra-project/dra/interop/internal/scenario"
)

type multiFlag []string

func (m *multiFlag) String() string     { return strings.Join(*m, ",") }
func (m *multiFlag) Set(v string) error { *m = append(*m, v); return nil }

func main() {
	var files multiFlag
	flag.Var(&files, "f", "scenario file or directory (repeatable)")
	node := flag.String("node", "", "node to allocate on")
	featureGates := flag.String("feature-gates", "", "feature gates, as dra's --feature-gates")
	namespace := flag.String("n", "default", "namespace for claims that name none")
	batch := flag.Bool("batch", false, "one scenario per file; one JSON line per file")
	timeN := flag.Int("time", 0, "batch mode: also time this many Allocate calls per scenario")
	flag.Parse()

	if !*batch {
		if len(files) == 0 || *node == "" {
			fmt.Fprintln(os.Stderr, "error: -f and --node are required (or --batch)")
			os.Exit(2)
		}
		g, err := gates.Parse(*featureGates)
		if err != nil {
			fmt.Fprintf(os.Stderr, "error: invalid argument %q for \"--feature-gates\" flag: %v\n", *featureGates, err)
			os.Exit(2)
		}
		paths, err := scenario.Files(files)
		if err != nil {
			fmt.Fprintf(os.Stderr, "error: %v\n", err)
			os.Exit(2)
		}
		s, err := scenario.Read(paths, *namespace)
		if err != nil {
			fmt.Fprintf(os.Stderr, "error: %v\n", err)
			os.Exit(2)
		}
		rep := oracle.Run(oracle.Prepare(s, g, *node), *node)
		out, _ := json.MarshalIndent(rep, "", "    ")
		fmt.Println(string(out))
		if rep.Outcome != "Allocated" {
			os.Exit(1)
		}
		return
	}

	paths, err := scenario.Files(append(files, flag.Args()...))
	if err != nil {
		fmt.Fprintf(os.Stderr, "error: %v\n", err)
		os.Exit(2)
	}
	enc := json.NewEncoder(os.Stdout)
	for _, path := range paths {
		line := map[string]any{"file": path}
		s, err := scenario.Read([]string{path}, *namespace)
		if err != nil {
			line["skip"] = err.Error()
			_ = enc.Encode(line)
			continue
		}
		nodeName, spec := *node, *featureGates
		if v, ok := s.Header["node"]; ok {
			nodeName = v
		}
		if v, ok := s.Header["feature-gates"]; ok {
			spec = v
		}
		if v, ok := s.Header["oracle-skip"]; ok {
			line["skip"] = v
			_ = enc.Encode(line)
			continue
		}
		if nodeName == "" {
			line["skip"] = "no node: neither a '# dra-gen: node=' header nor --node"
			_ = enc.Encode(line)
			continue
		}
		g, err := gates.Parse(spec)
		if err != nil {
			line["skip"] = "feature gates: " + err.Error()
			_ = enc.Encode(line)
			continue
		}
		p := oracle.Prepare(s, g, nodeName)
		line["node"], line["featureGates"] = nodeName, spec
		line["result"] = oracle.Run(p, nodeName)
		if *timeN > 0 {
			line["nsPerAllocate"], line["nsPerNewAllocator"] = oracle.Timing(p, *timeN)
		}
		_ = enc.Encode(line)
	}
}
