// bench is upstream's half of the side-by-side benchmark
// (bench/interop_side_by_side.sh): the same timing loop as dra's
// bench/interop_side_by_side_bench.cc on the same inputs.
//
//	bench --scenarios DIR --iterations N [--cel-slice FILE --cel-exprs FILE]
//	bench --write-cel DIR --seed S --exprs K --devices M
//	bench --table UPSTREAM.jsonl DRA.jsonl
//
// The first prints one JSON line per scenario {"case", "nsPerAllocate",
// "nsPerNewAllocator", "outcome"}, one for CEL {"cel", "nsPerEval"} and
// {"maxRssKiB"}; the second writes cel-slice.yaml and cel-exprs.txt from the
// seeded CEL generator (only expressions that compile).
package main

import (
	"bufio"
	"context"
	"encoding/json"
	"flag"
	"fmt"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"time"

	"k8s.io/dynamic-resource-allocation/cel"
	"sigs.k8s.io/yaml"

	"github.com/dra-project/dra/interop/internal/celcase"
	"github.com/dra-project/dra/interop/internal/gates"
	"github.com/dra-project/dra/interop/internal/oracle"
	"github.com/dra-project/dra/interop/internal/scenario"
)

func fail(err error) {
	fmt.Fprintf(os.Stderr, "error: %v\n", err)
	os.Exit(2)
}

func maxRssKiB() int64 {
	data, err := os.ReadFile("/proc/self/status")
	if err != nil {
		return -1
	}
	for _, line := range strings.Split(string(data), "\n") {
		if rest, ok := strings.CutPrefix(line, "VmHWM:"); ok {
			n, _ := strconv.ParseInt(strings.TrimSpace(strings.TrimSuffix(strings.TrimSpace(rest), "kB")), 10, 64)
			return n
		}
	}
	return -1
}

func main() {
	scenarios := flag.String("scenarios", "", "directory of generated scenarios")
	iterations := flag.Int("iterations", 100, "timed calls per scenario / passes over the CEL pairs")
	celSlice := flag.String("cel-slice", "", "ResourceSlice file for the CEL timing")
	celExprs := flag.String("cel-exprs", "", "expressions, one per line, for the CEL timing")
	writeCel := flag.String("write-cel", "", "write cel-slice.yaml and cel-exprs.txt into this directory")
	seed := flag.Uint64("seed", 1, "seed for --write-cel")
	exprs := flag.Int("exprs", 100, "expressions for --write-cel")
	devices := flag.Int("devices", 50, "devices for --write-cel")
	table := flag.Bool("table", false, "print a markdown table from two result files: UPSTREAM.jsonl DRA.jsonl")
	flag.Parse()
	enc := json.NewEncoder(os.Stdout)
	if *table {
		if flag.NArg() != 2 {
			fail(fmt.Errorf("--table needs UPSTREAM.jsonl DRA.jsonl"))
		}
		printTable(flag.Arg(0), flag.Arg(1))
		return
	}

	if *writeCel != "" {
		g := celcase.NewGenerator(*seed)
		data, err := yaml.Marshal(g.Slice("cel-bench", *devices))
		if err != nil {
			fail(err)
		}
		if err := os.WriteFile(filepath.Join(*writeCel, "cel-slice.yaml"), data, 0o644); err != nil {
			fail(err)
		}
		var lines []string
		for len(lines) < *exprs {
			e := g.Expression(3)
			if _, check := celcase.Compile(e); check.Error == nil {
				lines = append(lines, e)
			}
		}
		if err := os.WriteFile(filepath.Join(*writeCel, "cel-exprs.txt"), []byte(strings.Join(lines, "\n")+"\n"), 0o644); err != nil {
			fail(err)
		}
		return
	}

	if *scenarios != "" {
		files, err := scenario.Files([]string{*scenarios})
		if err != nil {
			fail(err)
		}
		for _, f := range files {
			if !strings.HasSuffix(f, ".yaml") {
				continue
			}
			s, err := scenario.Read([]string{f}, "default")
			if err != nil {
				fail(err)
			}
			g, err := gates.Parse(s.Header["feature-gates"])
			if err != nil {
				fail(err)
			}
			p := oracle.Prepare(s, g, s.Header["node"])
			rep := oracle.Run(p, s.Header["node"])
			perAllocate, perNew := oracle.Timing(p, *iterations)
			_ = enc.Encode(map[string]any{"case": filepath.Base(f), "nsPerAllocate": perAllocate,
				"nsPerNewAllocator": perNew, "outcome": rep.Outcome, "nodes": len(s.Nodes)})
		}
	}

	if *celSlice != "" && *celExprs != "" {
		s, err := scenario.Read([]string{*celSlice}, "default")
		if err != nil {
			fail(err)
		}
		f, err := os.Open(*celExprs)
		if err != nil {
			fail(err)
		}
		var programs []cel.CompilationResult
		sc := bufio.NewScanner(f)
		sc.Buffer(make([]byte, 1<<20), 1<<20)
		for sc.Scan() {
			if sc.Text() == "" {
				continue
			}
			if c, check := celcase.Compile(sc.Text()); check.Error == nil {
				programs = append(programs, c)
			}
		}
		_ = f.Close()
		var devs []cel.Device
		for _, sl := range s.Slices {
			for _, d := range sl.Spec.Devices {
				devs = append(devs, cel.Device{Driver: sl.Spec.Driver, AllowMultipleAllocations: d.AllowMultipleAllocations,
					Attributes: d.Attributes, Capacity: d.Capacity})
			}
		}
		ctx := context.Background()
		matched := 0
		start := time.Now()
		for i := 0; i < *iterations; i++ {
			for _, p := range programs {
				for _, d := range devs {
					if ok, _, err := p.DeviceMatches(ctx, d); err == nil && ok {
						matched++
					}
				}
			}
		}
		pairs := len(programs) * len(devs)
		_ = enc.Encode(map[string]any{"cel": pairs,
			"nsPerEval": float64(time.Since(start).Nanoseconds()) / float64(*iterations*pairs),
			"matched":   matched / *iterations})
	}
	_ = enc.Encode(map[string]any{"maxRssKiB": maxRssKiB()})
}
