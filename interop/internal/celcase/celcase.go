// Package celcase generates seeded random DRA selector expressions and
// devices, and evaluates them with upstream's DRA CEL environment
// (k8s.io/dynamic-resource-allocation/cel) in the shape of `dra cel check -o
// json` and `dra cel eval -o json`.
package celcase

import (
	"context"
	"fmt"
	"math/rand/v2"
	"strings"

	resourceapi "k8s.io/api/resource/v1"
	"k8s.io/apimachinery/pkg/api/resource"
	"k8s.io/dynamic-resource-allocation/cel"
	"k8s.io/utils/ptr"
)

// Driver is the driver (and default attribute domain) of generated devices.
const Driver = "cel.example.com"

// Check is upstream's answer in `dra cel check -o json` form.
type Check struct {
	Valid         bool    `json:"valid"`
	EstimatedCost *uint64 `json:"estimatedCost,omitempty"`
	CostLimit     *uint64 `json:"costLimit,omitempty"`
	Error         *string `json:"error,omitempty"`
}

// EvalEntry is one device of `dra cel eval -o json`.
type EvalEntry struct {
	Driver string  `json:"driver"`
	Pool   string  `json:"pool"`
	Device string  `json:"device"`
	Result *bool   `json:"result,omitempty"`
	Error  *string `json:"error,omitempty"`
}

// Features of the environment dra's `dra cel` uses: Kubernetes 1.37 defaults.
var Features = cel.Features{EnableConsumableCapacity: true}

// Compile compiles with cost estimation, as kube-apiserver validation does.
func Compile(expr string) (cel.CompilationResult, Check) {
	c := cel.GetCompiler(Features).CompileCELExpression(expr, cel.Options{})
	if c.Error != nil {
		msg := c.Error.Detail
		return c, Check{Valid: false, Error: &msg}
	}
	limit := uint64(resourceapi.CELSelectorExpressionMaxCost)
	cost := c.MaxCost
	out := Check{Valid: cost <= limit, EstimatedCost: &cost, CostLimit: &limit}
	if !out.Valid {
		msg := "too complex, exceeds cost limit"
		out.Error = &msg
	}
	return c, out
}

// Eval evaluates a compiled selector on every device of the slice.
func Eval(c cel.CompilationResult, slice *resourceapi.ResourceSlice) []EvalEntry {
	var out []EvalEntry
	for _, d := range slice.Spec.Devices {
		e := EvalEntry{Driver: slice.Spec.Driver, Pool: slice.Spec.Pool.Name, Device: d.Name}
		ok, _, err := c.DeviceMatches(context.Background(), cel.Device{
			Driver: slice.Spec.Driver, AllowMultipleAllocations: d.AllowMultipleAllocations,
			Attributes: d.Attributes, Capacity: d.Capacity,
		})
		if err != nil {
			msg := err.Error()
			e.Error = &msg
		} else {
			e.Result = &ok
		}
		out = append(out, e)
	}
	return out
}

// Generator draws expressions and devices from one seed.
type Generator struct{ r *rand.Rand }

func NewGenerator(seed uint64) *Generator {
	return &Generator{rand.New(rand.NewPCG(seed, 0x5eed))}
}

func (g *Generator) pick(s ...string) string { return s[g.r.IntN(len(s))] }
func (g *Generator) chance(p float64) bool   { return g.r.Float64() < p }

const attrs = `device.attributes["` + Driver + `"]`
const caps = `device.capacity["` + Driver + `"]`

func (g *Generator) atom() string {
	n := fmt.Sprint(g.r.IntN(6))
	switch g.r.IntN(27) {
	case 0:
		return `device.driver == "` + g.pick(Driver, "other.example.com") + `"`
	case 1:
		return attrs + `.index ` + g.pick("==", "<", ">=", "!=") + " " + n
	case 2:
		return attrs + `.index % 2 == ` + g.pick("0", "1")
	case 3:
		return attrs + `.model == "` + g.pick("a100", "h100", "l4", "") + `"`
	case 4:
		return attrs + `.model.` + g.pick("startsWith", "endsWith", "contains") + `("` + g.pick("a", "h1", "00", "4") + `")`
	case 5:
		return attrs + `.model.matches("` + g.pick("^h[0-9]+$", "a.*", "[") + `")`
	case 6:
		return attrs + `.model in ["a100", "h100"]`
	case 7:
		return g.pick("", "!") + attrs + `.healthy`
	case 8:
		return attrs + `.version.` + g.pick("isGreaterThan", "isLessThan") + `(semver("` + g.pick("1.0.0", "1.2.0", "2.0.0-rc.1") + `"))`
	case 9:
		return attrs + `.version.compareTo(semver("1.1.0")) ` + g.pick(">=", "==", "<") + " 0"
	case 10:
		return attrs + `.version.` + g.pick("major", "minor", "patch") + `() == ` + g.pick("0", "1", "2")
	case 11:
		return caps + `.memory.compareTo(quantity("` + g.pick("16Gi", "40Gi", "1Ti", "500M") + `")) ` + g.pick(">", ">=", "==", "<") + " 0"
	case 12:
		return caps + `.memory.` + g.pick("isGreaterThan", "isLessThan") + `(quantity("` + g.pick("1Gi", "40Gi", "80G") + `"))`
	case 13:
		return caps + `.cores.asInteger() ` + g.pick(">", "==") + " " + n
	case 14:
		return `"` + g.pick("model", "index", "missing") + `" in ` + attrs
	case 15:
		return `has(` + attrs + `.` + g.pick("model", "healthy", "missing") + `)`
	case 16:
		return `device.allowMultipleAllocations`
	case 17:
		return `device.attributes["` + g.pick("other.example.com", "x.example.com") + `"].` + g.pick("index", "model") + ` == ` + g.pick("1", `"a"`)
	case 18:
		return attrs + `.missing == 1`
	case 19:
		return attrs + `.model + 1 == 2`
	case 20:
		return attrs + `.exists(k, k.startsWith("` + g.pick("m", "i", "z") + `"))`
	case 21:
		return `size(` + attrs + `) ` + g.pick(">", "==", "<") + " " + n
	case 22:
		return g.pick(`device.nope == 1`, `1 +`, `device.attributes["`+Driver+`"].model ==`, `"a" == 1`, `device.driver`, `true`, `false`, `1 == 1.0`, `int("7") == 7`)
	case 23:
		// == and != of Quantities: Kubernetes' cost estimator prices == at 1
		// and leaves != to cel-go, which finds it unbounded.
		return g.pick(caps+`.memory`, `quantity("64Gi")`, `quantity("1Gi")`) + " " + g.pick("==", "!=") + ` quantity("` + g.pick("64Gi", "40Gi", "1024Mi") + `")`
	case 24:
		return g.pick(attrs+`.version`, `semver("1.0.0")`) + " " + g.pick("==", "!=") + ` semver("` + g.pick("1.0.0", "1.1.0") + `")`
	case 25:
		// Comprehensions over an attribute value: its size is bounded, that
		// of its elements is not, so nesting makes the estimate unbounded.
		return attrs + `.` + g.pick("model", "tags") + `.` + g.pick("all", "exists") + `(x, ` +
			g.pick(`x == "a"`, `x.startsWith("a")`, `x.all(y, true)`, `x.exists(y, y.all(z, true))`) + `)`
	default:
		return `device.attributes["` + Driver + `"].` + g.pick("index", "model", "healthy") + ` == device.attributes["` + Driver + `"].` + g.pick("index", "model")
	}
}

// Expression returns a random selector of up to depth levels of &&, ||, !
// and ?: over atoms.
func (g *Generator) Expression(depth int) string {
	if depth <= 0 || g.chance(0.4) {
		return g.atom()
	}
	a, b := g.Expression(depth-1), g.Expression(depth-1)
	switch g.r.IntN(4) {
	case 0:
		return "(" + a + ") && (" + b + ")"
	case 1:
		return "(" + a + ") || (" + b + ")"
	case 2:
		return "!(" + a + ")"
	default:
		return "(" + a + ") ? (" + b + ") : (" + g.atom() + ")"
	}
}

// Slice returns a slice of n random devices.
func (g *Generator) Slice(name string, n int) *resourceapi.ResourceSlice {
	s := &resourceapi.ResourceSlice{}
	s.APIVersion, s.Kind = "resource.k8s.io/v1", "ResourceSlice"
	s.Name = name
	s.Spec.Driver = Driver
	s.Spec.Pool = resourceapi.ResourcePool{Name: "pool", Generation: 1, ResourceSliceCount: 1}
	s.Spec.NodeName = ptr.To("node-0")
	for i := 0; i < n; i++ {
		d := resourceapi.Device{Name: fmt.Sprintf("dev-%d", i)}
		d.Attributes = map[resourceapi.QualifiedName]resourceapi.DeviceAttribute{}
		if g.chance(0.85) {
			d.Attributes["model"] = resourceapi.DeviceAttribute{StringValue: ptr.To(g.pick("a100", "h100", "l4", "h200"))}
		}
		if g.chance(0.85) {
			d.Attributes["index"] = resourceapi.DeviceAttribute{IntValue: ptr.To(int64(g.r.IntN(8) - 1))}
		}
		if g.chance(0.7) {
			d.Attributes["healthy"] = resourceapi.DeviceAttribute{BoolValue: ptr.To(g.chance(0.7))}
		}
		if g.chance(0.7) {
			d.Attributes["version"] = resourceapi.DeviceAttribute{VersionValue: ptr.To(g.pick("1.0.0", "1.1.0", "1.2.3", "2.0.0-rc.1", "0.9.1+build.5"))}
		}
		if g.chance(0.2) {
			d.Attributes[resourceapi.QualifiedName("other.example.com/index")] = resourceapi.DeviceAttribute{IntValue: ptr.To(int64(1))}
		}
		d.Capacity = map[resourceapi.QualifiedName]resourceapi.DeviceCapacity{}
		if g.chance(0.8) {
			d.Capacity["memory"] = resourceapi.DeviceCapacity{Value: resource.MustParse(g.pick("16Gi", "40Gi", "80Gi", "1Ti", "500M"))}
		}
		if g.chance(0.5) {
			d.Capacity["cores"] = resourceapi.DeviceCapacity{Value: resource.MustParse(g.pick("1", "4", "128", "1500m"))}
		}
		if g.chance(0.3) {
			d.AllowMultipleAllocations = ptr.To(g.chance(0.5))
		}
		s.Spec.Devices = append(s.Spec.Devices, d)
	}
	return s
}

// Quote is for logs: the expression on one line.
func Quote(expr string) string { return strings.ReplaceAll(expr, "\n", " ") }
