// Binding conditions and bindsToNode (KEP-5007), after the binding-condition
// cases of upstream's shared allocator suite.
#include <gtest/gtest.h>

#include "allocator_test_util.h"

namespace dra::allocator::testing {
namespace {

using ::testing::ElementsAre;

Features Binding() {
  Features f = Base();
  f.device_binding_and_status = true;
  f.partitionable_devices = true;
  return f;
}

const std::string kConditionDevice =
    Slice("slice-1", "pool-1",
          "{name: device-1, bindingConditions: [IsPrepared], bindingFailureConditions: [Failed]}");

TEST(BindingConditions, CopiedIntoTheResult) {
  Outcome o = Allocate(kConditionDevice + Claim("c", OneRequest()), Binding());
  ASSERT_THAT(o.devices, ElementsAre("req-0:driver-a/pool-1/device-1"));
  const auto& r = o.result.allocations[0].devices.results[0];
  EXPECT_THAT(r.binding_conditions, ElementsAre("IsPrepared"));
  EXPECT_THAT(r.binding_failure_conditions, ElementsAre("Failed"));
}

TEST(BindingConditions, OnlyWhereDefined) {
  Outcome o =
      Allocate(Slice("slice-1", "pool-1",
                     "{name: device-1, bindingConditions: [A], bindingFailureConditions: [F]}, "
                     "{name: device-2}") +
                   Claim("c", OneRequest("req-0", "class-a", 2)),
               Binding());
  ASSERT_EQ(o.result.outcome, dra::allocator::Outcome::kAllocated);
  const auto& results = o.result.allocations[0].devices.results;
  EXPECT_THAT(results[0].binding_conditions, ElementsAre("A"));
  EXPECT_TRUE(results[1].binding_conditions.nil());
}

TEST(BindingConditions, FeatureOffMakesDevicesUnselectable) {
  EXPECT_EQ(Allocate(kConditionDevice + Claim("c", OneRequest())).result.outcome,
            dra::allocator::Outcome::kUnschedulable);
}

TEST(BindingConditions, BindsToNodePinsTheNode) {
  std::string slice = R"(apiVersion: resource.k8s.io/v1
kind: ResourceSlice
metadata: {name: slice-1}
spec:
  driver: driver-a
  pool: {name: pool-1, generation: 1, resourceSliceCount: 1}
  nodeSelector:
    nodeSelectorTerms:
    - matchExpressions: [{key: region, operator: In, values: [region-1]}]
  devices:
  - {name: device-1, bindsToNode: true, bindingConditions: [A], bindingFailureConditions: [F]}
---
)";
  Outcome o = Allocate(slice + Claim("c", OneRequest()), Binding());
  ASSERT_EQ(o.result.outcome, dra::allocator::Outcome::kAllocated) << o.result.error;
  const auto& terms = o.result.allocations[0].node_selector->node_selector_terms;
  ASSERT_EQ(terms.size(), 1u);
  EXPECT_TRUE(terms[0].match_expressions.empty());
  EXPECT_THAT(terms[0].match_fields[0].values, ElementsAre("node-1"));
}

TEST(BindingConditions, SliceOrderWithinAPoolIsNotChanged) {
  std::string slices;
  for (const auto& [slice, device, cond] :
       std::vector<std::array<std::string, 3>>{{"slice-4", "device-1", ""},
                                               {"slice-2", "device-2",
                                                ", bindingConditions: [A], "
                                                "bindingFailureConditions: [F]"}}) {
    slices += "apiVersion: resource.k8s.io/v1\nkind: ResourceSlice\nmetadata: {name: " + slice +
              "}\nspec:\n  driver: driver-a\n  nodeName: node-1\n  pool: {name: pool-1, "
              "generation: 1, resourceSliceCount: 2}\n  devices: [{name: " +
              device + cond + "}]\n---\n";
  }
  Outcome o = Allocate(slices + Claim("c", OneRequest("req-0", "class-a", 2)), Binding());
  EXPECT_THAT(o.devices,
              ElementsAre("req-0:driver-a/pool-1/device-2 req-0:driver-a/pool-1/device-1"));
}

}  // namespace
}  // namespace dra::allocator::testing
