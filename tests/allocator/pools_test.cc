// Pools, generations and node selection, and the lexicographical pool order,
// after the corresponding cases of upstream's shared allocator suite.
#include <gtest/gtest.h>

#include "allocator_test_util.h"

namespace dra::allocator::testing {
namespace {

using ::testing::ElementsAre;
using ::testing::HasSubstr;

// A slice with full control over pool and node fields (YAML lines under spec:).
std::string RawSlice(const std::string& name, const std::string& spec_lines) {
  return "apiVersion: resource.k8s.io/v1\nkind: ResourceSlice\nmetadata: {name: " + name +
         "}\nspec:\n  driver: driver-a\n" + spec_lines + "---\n";
}

std::string Pool(const std::string& name, int generation, int count) {
  return "  pool: {name: " + name + ", generation: " + std::to_string(generation) +
         ", resourceSliceCount: " + std::to_string(count) + "}\n";
}

TEST(Pools, ObsoleteSliceMakesPoolIncomplete) {
  Outcome o = Allocate(
      RawSlice("slice-1", Pool("pool-1", 1, 2) + "  nodeName: node-1\n  devices: [{name: d1}]\n") +
      RawSlice("slice-2", Pool("pool-1", 2, 2) + "  nodeName: node-1\n  devices: [{name: d2}]\n") +
      Claim("claim-0", OneRequest()));
  EXPECT_EQ(o.result.outcome, dra::allocator::Outcome::kUnschedulable);
}

TEST(Pools, DuplicateDeviceNamesMakePoolInvalid) {
  std::string slice = Pool("pool-1", 1, 2) + "  nodeName: node-1\n  devices: [{name: d1}]\n";
  Outcome o = Allocate(RawSlice("slice-1", slice) + RawSlice("slice-2", slice) +
                       Claim("claim-0", OneRequest()));
  EXPECT_EQ(o.result.outcome, dra::allocator::Outcome::kError);
  EXPECT_TRUE(o.result.node_local_error);
  EXPECT_EQ(o.result.error, "invalid resource pools were encountered");
}

TEST(Pools, InvalidPoolIsOkWhenOtherPoolsSuffice) {
  std::string bad = Pool("pool-1", 1, 2) + "  nodeName: node-1\n  devices: [{name: d1}]\n";
  Outcome o = Allocate(RawSlice("slice-1", bad) + RawSlice("slice-2", bad) +
                       Slice("slice-3", "pool-2", "{name: d2}") + Claim("claim-0", OneRequest()));
  EXPECT_THAT(o.devices, ElementsAre("req-0:driver-a/pool-2/d2"));
}

TEST(Pools, NoSlicesIsUnschedulable) {
  Outcome o = Allocate(Claim("claim-0", OneRequest()));
  EXPECT_EQ(o.result.outcome, dra::allocator::Outcome::kUnschedulable);
}

TEST(Pools, NetworkAttachedDeviceCarriesSliceSelector) {
  std::string selector =
      "  nodeSelector:\n    nodeSelectorTerms:\n    - matchExpressions: [{key: region, "
      "operator: In, values: [region-1]}]\n";
  Outcome o =
      Allocate(RawSlice("slice-1", Pool("pool-1", 1, 1) + selector + "  devices: [{name: d1}]\n") +
               Claim("claim-0", OneRequest()));
  ASSERT_EQ(o.result.outcome, dra::allocator::Outcome::kAllocated) << o.result.error;
  const auto& terms = o.result.allocations[0].node_selector->node_selector_terms;
  ASSERT_EQ(terms.size(), 1u);
  ASSERT_EQ(terms[0].match_expressions.size(), 1u);
  EXPECT_EQ(terms[0].match_expressions[0].key, "region");
  EXPECT_TRUE(terms[0].match_fields.empty());

  Result<Scenario> s = ParseScenario(
      Fixtures() +
          "apiVersion: v1\nkind: Node\nmetadata: {name: node-2, labels: {region: "
          "region-2}}\n---\n" +
          RawSlice("slice-1", Pool("pool-1", 1, 1) + selector + "  devices: [{name: d1}]\n") +
          Claim("claim-0", OneRequest()),
      {});
  ASSERT_TRUE(s.ok());
  Allocator a(s->snapshot);
  EXPECT_EQ(a.Allocate(FindNode(*s, "node-2"), s->claims).outcome,
            dra::allocator::Outcome::kUnschedulable);
}

// Upstream case many-network-attached-devices (result node selector).
TEST(Pools, ManyNetworkAttachedDevicesMergeSelectors) {
  auto sel = [](const std::string& kind, const std::string& key, const std::string& value) {
    return "  nodeSelector:\n    nodeSelectorTerms:\n    - " + kind + ": [{key: " + key +
           ", operator: In, values: [" + value + "]}]\n";
  };
  Outcome o = Allocate(
      RawSlice("slice-1", Pool("pool-1", 1, 1) + sel("matchExpressions", "region", "region-1") +
                              "  devices: [{name: device-1}]\n") +
      RawSlice("slice-1",
               Pool("pool-2", 1, 1) + "  allNodes: true\n  devices: [{name: device-1}]\n") +
      RawSlice("slice-1", Pool("pool-3", 1, 1) + sel("matchExpressions", "planet", "earth") +
                              "  devices: [{name: device-1}]\n") +
      RawSlice("slice-1", Pool("pool-4", 1, 1) + sel("matchFields", "metadata.name", "node-1") +
                              "  devices: [{name: device-1}]\n") +
      Claim("claim-0", OneRequest("req-0", "class-a", 4)));
  ASSERT_EQ(o.result.outcome, dra::allocator::Outcome::kAllocated) << o.result.error;
  EXPECT_THAT(o.devices,
              ElementsAre("req-0:driver-a/pool-1/device-1 req-0:driver-a/pool-2/device-1 "
                          "req-0:driver-a/pool-3/device-1 req-0:driver-a/pool-4/device-1"));
  const auto& terms = o.result.allocations[0].node_selector->node_selector_terms;
  ASSERT_EQ(terms.size(), 1u);
  ASSERT_EQ(terms[0].match_expressions.size(), 2u);
  EXPECT_EQ(terms[0].match_expressions[0].key, "region");
  EXPECT_EQ(terms[0].match_expressions[1].key, "planet");
  ASSERT_EQ(terms[0].match_fields.size(), 1u);
  EXPECT_EQ(terms[0].match_fields[0].key, "metadata.name");
  EXPECT_EQ(o.result.steps, 7u);
}

TEST(Pools, LocalAndNetworkAttachedPinsNode) {
  Outcome o = Allocate(
      RawSlice("slice-1", Pool("pool-1", 1, 1) +
                              "  nodeSelector:\n    nodeSelectorTerms:\n    - matchExpressions: "
                              "[{key: region, operator: In, values: [region-1]}]\n"
                              "  devices: [{name: d1}]\n") +
      Slice("slice-2", "pool-2", "{name: d2}") +
      Claim("claim-0", OneRequest("req-0", "class-a", 2)));
  ASSERT_EQ(o.result.outcome, dra::allocator::Outcome::kAllocated) << o.result.error;
  const auto& terms = o.result.allocations[0].node_selector->node_selector_terms;
  ASSERT_EQ(terms.size(), 1u);
  EXPECT_TRUE(terms[0].match_expressions.empty());
  EXPECT_EQ(terms[0].match_fields[0].values[0], "node-1");
}

TEST(Pools, SelectorWithTwoTermsIsAnError) {
  Outcome o = Allocate(
      RawSlice("slice-1",
               Pool("pool-1", 1, 1) +
                   "  nodeSelector:\n    nodeSelectorTerms:\n"
                   "    - matchExpressions: [{key: region, operator: In, values: [region-1]}]\n"
                   "    - matchExpressions: [{key: planet, operator: In, values: [mars]}]\n"
                   "  devices: [{name: d1}]\n") +
      Claim("claim-0", OneRequest()));
  EXPECT_EQ(o.result.outcome, dra::allocator::Outcome::kError);
  EXPECT_THAT(o.result.error, HasSubstr("unsupported ResourceSlice.NodeSelector with 2 terms"));
}

TEST(Pools, MultiHostPoolAllDevicesVisibleFromNode) {
  std::string all = R"(
    requests:
    - name: req-0
      exactly: {deviceClassName: class-a, allocationMode: All}
)";
  Outcome o = Allocate(
      RawSlice("slice-1", Pool("pool-1", 1, 2) + "  nodeName: node-1\n  devices: [{name: d1}]\n") +
      RawSlice("slice-2", Pool("pool-1", 1, 2) + "  nodeName: node-2\n  devices: [{name: d2}]\n") +
      Claim("claim-0", all));
  EXPECT_THAT(o.devices, ElementsAre("req-0:driver-a/pool-1/d1"));
}

TEST(Pools, StaleSliceForCurrentNodeMakesPoolObsolete) {
  Outcome o = Allocate(
      RawSlice("slice-1", Pool("pool-1", 1, 2) + "  nodeName: node-1\n  devices: [{name: d1}]\n") +
      RawSlice("slice-2", Pool("pool-1", 2, 2) + "  nodeName: node-2\n  devices: [{name: d2}]\n") +
      Claim("claim-0", OneRequest()));
  EXPECT_EQ(o.result.outcome, dra::allocator::Outcome::kUnschedulable);
}

TEST(Pools, CompleteOldGenerationStillUsedFromNode) {
  // The newer generation lives only on node-2; node-1's view looks complete.
  Outcome o = Allocate(
      RawSlice("slice-1", Pool("pool-1", 1, 1) + "  nodeName: node-1\n  devices: [{name: d1}]\n") +
      RawSlice("slice-2", Pool("pool-1", 2, 1) + "  nodeName: node-2\n  devices: [{name: d2}]\n") +
      Claim("claim-0", OneRequest()));
  EXPECT_THAT(o.devices, ElementsAre("req-0:driver-a/pool-1/d1"));
}

TEST(Pools, IncompleteNewerGenerationOnNode) {
  Outcome o = Allocate(
      RawSlice("slice-1", Pool("pool-1", 2, 2) + "  nodeName: node-1\n  devices: [{name: d1}]\n") +
      RawSlice("slice-2", Pool("pool-1", 1, 1) + "  nodeName: node-2\n  devices: [{name: d2}]\n") +
      Claim("claim-0", OneRequest()));
  EXPECT_EQ(o.result.outcome, dra::allocator::Outcome::kUnschedulable);
}

TEST(Pools, NoAllocationFromIncompletePools) {
  Outcome o = Allocate(
      RawSlice("slice-1", Pool("pool-1", 1, 2) + "  nodeName: node-1\n  devices: [{name: d1}]\n") +
      Claim("claim-0", OneRequest()));
  EXPECT_EQ(o.result.outcome, dra::allocator::Outcome::kUnschedulable);
  EXPECT_TRUE(o.result.error.empty());
}

TEST(Pools, BadSliceSelectorIsAnError) {
  Outcome o = Allocate(
      RawSlice("slice-1", Pool("pool-1", 1, 1) +
                              "  nodeSelector:\n    nodeSelectorTerms:\n    - matchExpressions: "
                              "[{key: region, operator: Gt, values: [abc]}]\n"
                              "  devices: [{name: d1}]\n") +
      Claim("claim-0", OneRequest()));
  EXPECT_EQ(o.result.outcome, dra::allocator::Outcome::kError);
  EXPECT_THAT(o.result.error, HasSubstr("gather pool information: failed to perform node "
                                        "selection for slice slice-1"));
}

TEST(Lexicographical, PoolsSortedByName) {
  Outcome o = Allocate(Slice("slice-3", "pool-3", "{name: device-3}") +
                       Slice("slice-2", "pool-2", "{name: device-2}") +
                       Slice("slice-1", "pool-1", "{name: device-1}") +
                       Claim("claim-0", OneRequest("req-0", "class-a", 2)));
  EXPECT_THAT(o.devices,
              ElementsAre("req-0:driver-a/pool-1/device-1 req-0:driver-a/pool-2/device-2"));
}

// Upstream case lexicographical-sorting-pools-with-binding-conditions (pool order).
TEST(Lexicographical, PoolsWithBindingConditionsLast) {
  Features f = Base();
  f.device_binding_and_status = true;
  Outcome o =
      Allocate(Slice("slice-1", "pool-1",
                     "{name: device-1, bindingConditions: [IsPrepare], bindingFailureConditions: "
                     "[BindingFailed]}") +
                   Slice("slice-3", "pool-3", "{name: device-3}") +
                   Slice("slice-2", "pool-2", "{name: device-2}") +
                   Claim("claim-0", OneRequest("req-0", "class-a", 2)),
               f);
  EXPECT_THAT(o.devices,
              ElementsAre("req-0:driver-a/pool-2/device-2 req-0:driver-a/pool-3/device-3"));
  EXPECT_EQ(o.result.steps, 5u);
}

TEST(Lexicographical, SlicesSortedByName) {
  std::string slices;
  for (int i : {3, 2, 1}) {
    std::string n = std::to_string(i);
    slices +=
        RawSlice("slice-" + n, Pool("pool-1", 1, 3) +
                                   "  nodeName: node-1\n  devices: [{name: device-" + n + "}]\n");
  }
  Outcome o = Allocate(slices + Claim("claim-0", OneRequest("req-0", "class-a", 2)));
  EXPECT_THAT(o.devices,
              ElementsAre("req-0:driver-a/pool-1/device-1 req-0:driver-a/pool-1/device-2"));
}

}  // namespace
}  // namespace dra::allocator::testing
