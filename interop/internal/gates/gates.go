// Package gates parses --feature-gates exactly as dra does
// (src/api/feature_gates.cc): the same names, Kubernetes 1.37 defaults and
// locked GA gates.
package gates

import (
	"fmt"
	"sort"
	"strconv"
	"strings"

	"k8s.io/dynamic-resource-allocation/cel"
	"k8s.io/dynamic-resource-allocation/structured"
)

type info struct {
	def    bool
	locked bool
}

// The table of dra's src/api/feature_gates.cc.
var known = map[string]info{
	"DynamicResourceAllocation":                   {true, true},
	"DRAAdminAccess":                              {true, true},
	"DRAPrioritizedList":                          {true, true},
	"DRAResourceClaimDeviceStatus":                {true, true},
	"DRAExtendedResource":                         {true, true},
	"DRADeviceTaints":                             {true, false},
	"DRADeviceTaintRules":                         {true, false},
	"DRAConsumableCapacity":                       {true, false},
	"DRADeviceBindingConditions":                  {true, false},
	"DRAPartitionableDevices":                     {true, false},
	"DRAFractionalCapacityRange":                  {true, false},
	"DRAResourceClaimGranularStatusAuthorization": {true, false},
	"DRASchedulerFilterTimeout":                   {true, false},
	"DRAListTypeAttributes":                       {false, false},
	"DRANodeAllocatableResources":                 {false, false},
	"DRAOptionalNodeOperations":                   {false, false},
	"DRAPartitionableDevicesType":                 {false, false},
	"DRAResourcePoolStatus":                       {false, false},
	"DRAWorkloadResourceClaims":                   {false, false},
	"DeclarativeValidation":                       {true, true},
	"DeclarativeValidationBeta":                   {true, false},
}

// Gates holds the value of every known gate.
type Gates map[string]bool

// Parse applies "A=true,B=false" on top of the defaults.
func Parse(spec string) (Gates, error) {
	g := Gates{}
	for name, i := range known {
		g[name] = i.def
	}
	for _, item := range strings.Split(spec, ",") {
		item = strings.TrimSpace(item)
		if item == "" {
			continue
		}
		name, value, ok := strings.Cut(item, "=")
		if !ok {
			return nil, fmt.Errorf("missing bool value for %s", item)
		}
		name = strings.TrimSpace(name)
		i, found := known[name]
		if !found {
			return nil, fmt.Errorf("unrecognized feature gate: %s", name)
		}
		b, err := strconv.ParseBool(strings.TrimSpace(value))
		if err != nil {
			return nil, fmt.Errorf("invalid value of %s=%s, err: %v", name, value, err)
		}
		if i.locked && b != i.def {
			return nil, fmt.Errorf("cannot set feature gate %s to %v, feature is locked to %v", name, b, i.def)
		}
		g[name] = b
	}
	return g, nil
}

// Names lists the known gates, sorted.
func Names() []string {
	var out []string
	for n := range known {
		out = append(out, n)
	}
	sort.Strings(out)
	return out
}

// AllocatorFeatures are the allocator's features as kube-scheduler's DRA
// plugin derives them from its gates.
func (g Gates) AllocatorFeatures() structured.Features {
	return structured.Features{
		AdminAccess:             g["DRAAdminAccess"],
		PrioritizedList:         g["DRAPrioritizedList"],
		PartitionableDevices:    g["DRAPartitionableDevices"],
		DeviceTaints:            g["DRADeviceTaints"],
		DeviceBindingAndStatus:  g["DRADeviceBindingConditions"] && g["DRAResourceClaimDeviceStatus"],
		ConsumableCapacity:      g["DRAConsumableCapacity"],
		ListTypeAttributes:      g["DRAListTypeAttributes"],
		FractionalCapacityRange: g["DRAFractionalCapacityRange"],
		OptionalNodeOperations:  g["DRAOptionalNodeOperations"],
	}
}

// CELFeatures are the CEL environment's features.
func (g Gates) CELFeatures() cel.Features {
	return cel.Features{
		EnableConsumableCapacity: g["DRAConsumableCapacity"],
		EnableListTypeAttributes: g["DRAListTypeAttributes"],
	}
}

// Variant names the allocator variant upstream picks for these features:
// the first of stable, incubating, experimental that supports every
// enabled feature.
func Variant(f structured.Features) string {
	enabled := f.Set()
	stable := structured.Features{AdminAccess: true, PrioritizedList: true, PartitionableDevices: true, DeviceTaints: true}
	if stable.Set().IsSuperset(enabled) {
		return "stable"
	}
	incubating := stable
	incubating.DeviceBindingAndStatus = true
	incubating.ConsumableCapacity = true
	incubating.FractionalCapacityRange = true
	if incubating.Set().IsSuperset(enabled) {
		return "incubating"
	}
	return "experimental"
}
