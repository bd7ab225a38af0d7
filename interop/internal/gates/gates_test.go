package gates

import "testing"

func TestDefaultsAreKubernetes137(t *testing.T) {
	g, err := Parse("")
	if err != nil {
		t.Fatal(err)
	}
	f := g.AllocatorFeatures()
	if !f.ConsumableCapacity || !f.DeviceBindingAndStatus || !f.FractionalCapacityRange || f.ListTypeAttributes {
		t.Errorf("unexpected default features %+v", f)
	}
	if v := Variant(f); v != "incubating" {
		t.Errorf("default variant %s, want incubating", v)
	}
}

func TestVariantSelection(t *testing.T) {
	for spec, want := range map[string]string{
		"DRAListTypeAttributes=true":                                                                    "experimental",
		"DRAConsumableCapacity=false,DRADeviceBindingConditions=false":                                  "incubating",
		"DRAConsumableCapacity=false,DRADeviceBindingConditions=false,DRAFractionalCapacityRange=false": "stable",
	} {
		g, err := Parse(spec)
		if err != nil {
			t.Fatal(err)
		}
		if v := Variant(g.AllocatorFeatures()); v != want {
			t.Errorf("%s: variant %s, want %s", spec, v, want)
		}
	}
}

func TestErrorsAsDra(t *testing.T) {
	for spec, want := range map[string]string{
		"Nope=true":            "unrecognized feature gate: Nope",
		"DRADeviceTaints":      "missing bool value for DRADeviceTaints",
		"DRAAdminAccess=false": "cannot set feature gate DRAAdminAccess to false, feature is locked to true",
	} {
		if _, err := Parse(spec); err == nil || err.Error() != want {
			t.Errorf("%s: error %v, want %q", spec, err, want)
		}
	}
}
