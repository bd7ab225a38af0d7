// cel-oracle evaluates DRA device selectors with upstream's CEL environment
// (k8s.io/dynamic-resource-allocation/cel, Kubernetes 1.37 default features)
// and prints what `dra cel check -o json` / `dra cel eval -o json` print:
//
//	cel-oracle check EXPR
//	cel-oracle eval EXPR -f SLICES.yaml
package main

import (
	"encoding/json"
	"fmt"
	"os"

	resourceapi "k8s.io/api/resource/v1"

	"github.com/dra-project/dra/interop/internal/celcase"
	"github.com/dra-project/dra/interop/internal/scenario"
)

func main() {
	args := os.Args[1:]
	if len(args) < 2 || (args[0] != "check" && args[0] != "eval") || (args[0] == "eval" && (len(args) != 4 || args[2] != "-f")) {
		fmt.Fprintln(os.Stderr, "usage: cel-oracle check EXPR | cel-oracle eval EXPR -f SLICES")
		os.Exit(2)
	}
	compiled, check := celcase.Compile(args[1])
	enc := json.NewEncoder(os.Stdout)
	enc.SetIndent("", "  ")
	if args[0] == "check" || check.Error != nil && check.EstimatedCost == nil {
		_ = enc.Encode(check)
		if !check.Valid {
			os.Exit(1)
		}
		return
	}
	s, err := scenario.Read([]string{args[3]}, "default")
	if err != nil {
		fmt.Fprintf(os.Stderr, "error: %v\n", err)
		os.Exit(2)
	}
	out := []celcase.EvalEntry{}
	for _, slice := range s.Slices {
		out = append(out, celcase.Eval(compiled, (*resourceapi.ResourceSlice)(slice))...)
	}
	_ = enc.Encode(out)
}
