// Upstream's stable allocator variant, used when no gate outside its
// supported set (admin access, prioritized lists, partitionable devices,
// device taints) is on (structured/internal/stable): permutation search, slices in input
// order, no distinctAttribute, capacity requests ignored, bindsToNode
// ignored, allowMultipleAllocations invisible to CEL.
#include "allocator/allocator_test_util.h"

namespace dra::allocator::testing {
namespace {

std::string FourDevices() {
  return Slice("slice-1", "pool-1",
               "{name: device-0}, {name: device-1}, {name: device-2}, {name: device-3}");
}

TEST(StableVariant, SearchesPermutationsWithinARequest) {
  const std::string claim = Claim("claim-0", OneRequest("req-0", "class-a", 5));
  // 1 + 4 + 4*3 + 4*3*2 + 4*3*2*1 ordered picks before giving up, against
  // 1 + 4 + 6 + 4 + 1 combinations.
  EXPECT_EQ(Allocate(FourDevices() + claim, Stable()).result.steps, 65u);
  EXPECT_EQ(Allocate(FourDevices() + claim, Base()).result.steps, 16u);
  // The same first solution either way.
  const std::string two = Claim("claim-0", OneRequest("req-0", "class-a", 2));
  EXPECT_EQ(Allocate(FourDevices() + two, Stable()).devices,
            Allocate(FourDevices() + two, Base()).devices);
}

TEST(StableVariant, KeepsSlicesOfAPoolInInputOrder) {
  auto slice = [](const std::string& name, const std::string& device) {
    return "apiVersion: resource.k8s.io/v1\nkind: ResourceSlice\nmetadata: {name: " + name +
           "}\nspec:\n  driver: driver-a\n  nodeName: node-1\n  pool: {name: pool-1, "
           "generation: 1, resourceSliceCount: 2}\n  devices: [{name: " +
           device + "}]\n---\n";
  };
  const std::string in =
      slice("slice-b", "device-b") + slice("slice-a", "device-a") + Claim("claim-0", OneRequest());
  EXPECT_THAT(Allocate(in, Stable()).devices,
              ::testing::ElementsAre("req-0:driver-a/pool-1/device-b"));
  EXPECT_THAT(Allocate(in, Base()).devices,
              ::testing::ElementsAre("req-0:driver-a/pool-1/device-a"));
}

TEST(StableVariant, RejectsDistinctAttribute) {
  const std::string in = FourDevices() + Claim("claim-0", OneRequest("req-0", "class-a", 2) +
                                                              "    constraints:\n"
                                                              "    - distinctAttribute: "
                                                              "driver-a/numa\n");
  Outcome o = Allocate(in, Stable());
  EXPECT_EQ(o.result.outcome, dra::allocator::Outcome::kError);
  EXPECT_EQ(
      o.result.error,
      "claim default/claim-0, constraint #0: empty constraint (unsupported constraint type?)");
}

TEST(StableVariant, IgnoresCapacityRequests) {
  const std::string in =
      Slice("slice-1", "pool-1", "{name: device-0, capacity: {memory: {value: 1Gi}}}") +
      Claim("claim-0",
            "    requests:\n    - name: req-0\n      exactly: {deviceClassName: class-a, "
            "allocationMode: ExactCount, count: 1, capacity: {requests: {memory: 8Gi}}}\n");
  EXPECT_THAT(Allocate(in, Stable()).devices,
              ::testing::ElementsAre("req-0:driver-a/pool-1/device-0"));
  Outcome incubating = Allocate(in, Base());
  EXPECT_EQ(incubating.result.error,
            "claim default/claim-0, request req-0: has capacity requests, but the "
            "DRAConsumableCapacity feature is disabled");
}

TEST(StableVariant, IgnoresBindsToNode) {
  const std::string in =
      "apiVersion: resource.k8s.io/v1\nkind: ResourceSlice\nmetadata: {name: slice-1}\nspec:\n"
      "  driver: driver-a\n  allNodes: true\n  pool: {name: pool-1, generation: 1, "
      "resourceSliceCount: 1}\n  devices: [{name: device-0, bindsToNode: true}]\n---\n" +
      Claim("claim-0", OneRequest());
  Outcome stable = Allocate(in, Stable());
  ASSERT_EQ(stable.result.outcome, dra::allocator::Outcome::kAllocated);
  EXPECT_FALSE(stable.result.allocations[0].node_selector.has_value());
  Outcome incubating = Allocate(in, Base());
  ASSERT_EQ(incubating.result.outcome, dra::allocator::Outcome::kAllocated);
  ASSERT_TRUE(incubating.result.allocations[0].node_selector.has_value());
  EXPECT_EQ(incubating.result.allocations[0]
                .node_selector->node_selector_terms[0]
                .match_fields[0]
                .values[0],
            "node-1");
}

TEST(StableVariant, HidesAllowMultipleAllocationsFromCel) {
  const std::string in =
      Slice("slice-1", "pool-1", "{name: device-0, allowMultipleAllocations: true}") +
      Claim("claim-0",
            "    requests:\n    - name: req-0\n      exactly:\n        deviceClassName: class-a\n"
            "        allocationMode: ExactCount\n        count: 1\n        selectors:\n"
            "        - cel: {expression: 'device.allowMultipleAllocations'}\n");
  EXPECT_EQ(Allocate(in, Stable()).result.outcome, dra::allocator::Outcome::kUnschedulable);
  EXPECT_EQ(Allocate(in, Base()).result.outcome, dra::allocator::Outcome::kAllocated);
}

TEST(StableVariant, ChosenOnlyWhenEveryEnabledGateIsSupported) {
  Features f = Stable();
  f.admin_access = f.prioritized_list = f.partitionable_devices = f.device_taints = true;
  Outcome stable = Allocate(FourDevices() + Claim("claim-0", OneRequest("req-0", "class-a", 5)), f);
  EXPECT_EQ(stable.result.steps, 65u);
  f.fractional_capacity_range = true;
  Outcome incubating =
      Allocate(FourDevices() + Claim("claim-0", OneRequest("req-0", "class-a", 5)), f);
  EXPECT_EQ(incubating.result.steps, 16u);
}

}  // namespace
}  // namespace dra::allocator::testing
