package main

import (
	"encoding/json"
	"reflect"
	"testing"
)

func TestNormalizeShareIDsByFirstAppearance(t *testing.T) {
	parse := func(s string) map[string]any {
		var m map[string]any
		if err := json.Unmarshal([]byte(s), &m); err != nil {
			t.Fatal(err)
		}
		return m
	}
	a := parse(`{"claims":[{"allocation":{"allocationTimestamp":"x","devices":{"results":[{"shareID":"u1"},{"shareID":"u2"},{"shareID":"u1"}]}}}]}`)
	b := parse(`{"claims":[{"allocation":{"devices":{"results":[{"shareID":"v7"},{"shareID":"v8"},{"shareID":"v7"}]}}}]}`)
	normalize(a)
	normalize(b)
	if !reflect.DeepEqual(a, b) {
		t.Errorf("normalized differ:\n%v\n%v", a, b)
	}
	c := parse(`{"claims":[{"allocation":{"devices":{"results":[{"shareID":"v7"},{"shareID":"v8"},{"shareID":"v8"}]}}}]}`)
	normalize(c)
	if reflect.DeepEqual(a, c) {
		t.Error("a different sharing pattern must not compare equal")
	}
}

func TestDivergenceMatching(t *testing.T) {
	tr := &tester{divergences: []divergence{{"all-*.yaml@node-0", "steps", "r"}, {"*", "stable-result", "r"}}}
	if tr.known("all-3.yaml@node-0", "steps") == nil || tr.known("x.yaml@n", "stable-result") == nil {
		t.Error("expected matches")
	}
	if tr.known("all-3.yaml@node-0", "result") != nil || tr.known("small-3.yaml@node-0", "steps") != nil {
		t.Error("unexpected match")
	}
}
