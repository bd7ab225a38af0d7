package main

import (
	"encoding/json"
	"fmt"
	"math"
	"os"
	"strings"
)

func readLines(path string) []map[string]any {
	data, err := os.ReadFile(path)
	if err != nil {
		fail(err)
	}
	var out []map[string]any
	for _, line := range strings.Split(string(data), "\n") {
		if strings.TrimSpace(line) == "" {
			continue
		}
		var m map[string]any
		if err := json.Unmarshal([]byte(line), &m); err != nil {
			fail(fmt.Errorf("%s: %v", path, err))
		}
		out = append(out, m)
	}
	return out
}

func human(ns float64) string {
	switch {
	case ns >= 1e6:
		return fmt.Sprintf("%.2f ms", ns/1e6)
	case ns >= 1e3:
		return fmt.Sprintf("%.1f µs", ns/1e3)
	default:
		return fmt.Sprintf("%.0f ns", ns)
	}
}

// printTable joins the two result files by case and prints per-case times,
// ratios and their geometric means.
func printTable(upstreamPath, draPath string) {
	up, mine := readLines(upstreamPath), readLines(draPath)
	byCase := map[string]map[string]any{}
	for _, m := range mine {
		if c, ok := m["case"].(string); ok {
			byCase[c] = m
		}
	}
	fmt.Println("| Scenario | Outcome | upstream Allocate | dra Allocate | ratio | upstream NewAllocator | dra Allocator() | per pod, upstream | per pod, dra | ratio |")
	fmt.Println("|---|---|---|---|---|---|---|---|---|---|")
	logSum, podLogSum, n := 0.0, 0.0, 0
	var rssUp, rssDra, celUp, celDra float64
	var celPairs float64
	for _, u := range up {
		if v, ok := u["maxRssKiB"].(float64); ok {
			rssUp = v
		}
		if v, ok := u["nsPerEval"].(float64); ok {
			celUp, celPairs = v, u["cel"].(float64)
		}
		c, ok := u["case"].(string)
		if !ok {
			continue
		}
		d := byCase[c]
		if d == nil {
			continue
		}
		ua, da := u["nsPerAllocate"].(float64), d["nsPerAllocate"].(float64)
		ratio := ua / da
		logSum += math.Log(ratio)
		n++
		outcome := fmt.Sprint(u["outcome"])
		if d["outcome"] != u["outcome"] {
			outcome += " (dra: " + fmt.Sprint(d["outcome"]) + ")"
		}
		// Per pod, as kube-scheduler uses the allocator: one construction,
		// then Allocate for every node (each node costed like the first).
		nodes, _ := u["nodes"].(float64)
		un, dn := u["nsPerNewAllocator"].(float64), d["nsPerNewAllocator"].(float64)
		upPod, draPod := un+nodes*ua, dn+nodes*da
		podLogSum += math.Log(upPod / draPod)
		fmt.Printf("| %s | %s | %s | %s | %.1f× | %s | %s | %s | %s | %.1f× |\n", c, outcome, human(ua), human(da), ratio,
			human(un), human(dn), human(upPod), human(draPod), upPod/draPod)
	}
	for _, d := range mine {
		if v, ok := d["maxRssKiB"].(float64); ok {
			rssDra = v
		}
		if v, ok := d["nsPerEval"].(float64); ok {
			celDra = v
		}
	}
	fmt.Println()
	if n > 0 {
		fmt.Printf("Allocate: geometric mean of the ratio upstream/dra over %d scenarios: %.1f×\n", n, math.Exp(logSum/float64(n)))
		fmt.Printf("Per pod (construction + Allocate on every node): geometric mean %.1f×\n", math.Exp(podLogSum/float64(n)))
	}
	if celUp > 0 && celDra > 0 {
		fmt.Printf("CEL: %.0f expression-by-device pairs: upstream %s, dra %s per evaluation: %.1f×\n", celPairs, human(celUp), human(celDra), celUp/celDra)
	}
	fmt.Printf("Peak memory (VmHWM): upstream process %.1f MiB, dra process %.1f MiB\n", rssUp/1024, rssDra/1024)
}
