// Package oracle runs upstream's structured allocator on a scenario as
// kube-scheduler's DRA plugin does and reports in dra allocate's JSON schema.
package oracle

import (
	"context"
	"errors"
	"fmt"
	"reflect"
	"time"

	corev1 "k8s.io/api/core/v1"
	resourceapi "k8s.io/api/resource/v1"
	"k8s.io/apimachinery/pkg/util/sets"
	"k8s.io/dynamic-resource-allocation/cel"
	"k8s.io/dynamic-resource-allocation/structured"

	"github.com/dra-project/dra/interop/internal/gates"
	"github.com/dra-project/dra/interop/internal/scenario"
)

type claimOut struct {
	Namespace  string                        `json:"namespace"`
	Name       string                        `json:"name"`
	Allocation *resourceapi.AllocationResult `json:"allocation,omitempty"`
}

type Report struct {
	Node      string     `json:"node"`
	Outcome   string     `json:"outcome"`
	Steps     *int64     `json:"steps,omitempty"`
	Claims    []claimOut `json:"claims"`
	Error     *string    `json:"error,omitempty"`
	NodeLocal *bool      `json:"nodeLocal,omitempty"`
	// Not in dra's schema: which upstream variant ran.
	Variant string `json:"variant"`
}

type classLister struct{ classes []*resourceapi.DeviceClass }

func (l classLister) List() ([]*resourceapi.DeviceClass, error) { return l.classes, nil }
func (l classLister) Get(name string) (*resourceapi.DeviceClass, error) {
	for _, c := range l.classes {
		if c.Name == name {
			return c, nil
		}
	}
	// The lister's NotFound error text, as kube-scheduler's informer lister returns it.
	return nil, fmt.Errorf("deviceclass.resource.k8s.io %q not found", name)
}

// allocatedState is what the scheduler builds from claims with an allocation.
func allocatedState(claims []*resourceapi.ResourceClaim, f structured.Features) structured.AllocatedState {
	st := structured.AllocatedState{
		AllocatedDevices:         sets.New[structured.DeviceID](),
		AllocatedSharedDeviceIDs: sets.New[structured.SharedDeviceID](),
		AggregatedCapacity:       structured.NewConsumedCapacityCollection(),
	}
	for _, c := range claims {
		for _, r := range c.Status.Allocation.Devices.Results {
			if r.AdminAccess != nil && *r.AdminAccess {
				continue
			}
			id := structured.MakeDeviceID(r.Driver, r.Pool, r.Device)
			if f.ConsumableCapacity && r.ShareID != nil {
				st.AllocatedSharedDeviceIDs.Insert(structured.MakeSharedDeviceID(id, r.ShareID))
				if r.ConsumedCapacity != nil {
					st.AggregatedCapacity.Insert(structured.NewDeviceConsumedCapacity(id, r.ConsumedCapacity))
				}
				continue
			}
			st.AllocatedDevices.Insert(id)
		}
	}
	return st
}

type Prepared struct {
	features structured.Features
	state    structured.AllocatedState
	lister   classLister
	slices   []*resourceapi.ResourceSlice
	cel      cel.Features
	node     *corev1.Node
	claims   []*resourceapi.ResourceClaim
}

func Prepare(s *scenario.Scenario, g gates.Gates, nodeName string) Prepared {
	f := g.AllocatorFeatures()
	slices := s.Slices
	if g["DRADeviceTaintRules"] {
		slices = s.PatchedSlices()
	}
	return Prepared{
		features: f,
		state:    allocatedState(s.InUse, f),
		lister:   classLister{s.Classes},
		slices:   slices,
		cel:      g.CELFeatures(),
		node:     s.Node(nodeName),
		claims:   s.ToAllocate,
	}
}

func (p Prepared) newAllocator(ctx context.Context) (structured.Allocator, error) {
	if p.features.ConsumableCapacity {
		cel.SetDRAConsumableCapacity()
	} else {
		cel.UnsetDRAConsumableCapacity()
	}
	return structured.NewAllocator(ctx, p.features, p.state, p.lister, p.slices, cel.NewCache(10, p.cel))
}

func steps(a structured.Allocator) *int64 {
	m := reflect.ValueOf(a).MethodByName("GetStats")
	if !m.IsValid() {
		return nil
	}
	out := m.Call(nil)
	if len(out) != 1 {
		return nil
	}
	f := out[0].FieldByName("NumAllocateOneInvocations")
	if !f.IsValid() {
		return nil
	}
	n := f.Int()
	return &n
}

func Run(p Prepared, nodeName string) Report {
	ctx := context.Background()
	rep := Report{Node: nodeName, Variant: gates.Variant(p.features)}
	for _, c := range p.claims {
		rep.Claims = append(rep.Claims, claimOut{Namespace: c.Namespace, Name: c.Name})
	}
	if rep.Claims == nil {
		rep.Claims = []claimOut{}
	}
	a, err := p.newAllocator(ctx)
	if err != nil {
		msg := err.Error()
		local := false
		rep.Outcome, rep.Error, rep.NodeLocal = "Error", &msg, &local
		return rep
	}
	results, err := a.Allocate(ctx, p.node, p.claims)
	rep.Steps = steps(a)
	switch {
	case err != nil:
		msg := err.Error()
		local := errors.Is(err, structured.ErrFailedAllocationOnNode)
		rep.Outcome, rep.Error, rep.NodeLocal = "Error", &msg, &local
	case len(results) != len(p.claims):
		rep.Outcome = "Unschedulable"
	default:
		rep.Outcome = "Allocated"
		for i := range results {
			rep.Claims[i].Allocation = &results[i]
		}
	}
	return rep
}

// timing runs n Allocate calls on one allocator and n constructions.
func Timing(p Prepared, n int) (perAllocate, perNew float64) {
	ctx := context.Background()
	a, err := p.newAllocator(ctx)
	if err != nil {
		return 0, 0
	}
	start := time.Now()
	for i := 0; i < n; i++ {
		_, _ = a.Allocate(ctx, p.node, p.claims)
	}
	perAllocate = float64(time.Since(start).Nanoseconds()) / float64(n)
	start = time.Now()
	for i := 0; i < n; i++ {
		_, _ = p.newAllocator(ctx)
	}
	perNew = float64(time.Since(start).Nanoseconds()) / float64(n)
	return perAllocate, perNew
}
