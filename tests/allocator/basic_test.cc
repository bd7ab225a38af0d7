// Basic allocation, search order, combinations and backtracking, after the
// basic cases of upstream's shared allocator suite.
#include <gtest/gtest.h>

#include <thread>

#include "allocator_test_util.h"

namespace dra::allocator::testing {
namespace {

using ::testing::ElementsAre;

TEST(Basic, EmptyInputAllocatesNothing) {
  Outcome o = Allocate("");
  EXPECT_EQ(o.result.outcome, dra::allocator::Outcome::kAllocated);
  EXPECT_TRUE(o.result.allocations.empty());
}

TEST(Basic, SimpleDevicePinsTheNode) {
  Outcome o =
      Allocate(Slice("slice-1", "pool-1", "{name: device-1}") + Claim("claim-0", OneRequest()));
  ASSERT_EQ(o.result.outcome, dra::allocator::Outcome::kAllocated) << o.result.error;
  EXPECT_THAT(o.devices, ElementsAre("req-0:driver-a/pool-1/device-1"));
  const auto& sel = o.result.allocations[0].node_selector;
  ASSERT_TRUE(sel.has_value());
  ASSERT_EQ(sel->node_selector_terms.size(), 1u);
  const auto& fields = sel->node_selector_terms[0].match_fields;
  ASSERT_EQ(fields.size(), 1u);
  EXPECT_EQ(fields[0].key, "metadata.name");
  EXPECT_EQ(fields[0].operator_, "In");
  EXPECT_THAT(fields[0].values, ElementsAre("node-1"));
  EXPECT_TRUE(sel->node_selector_terms[0].match_expressions.empty());
  EXPECT_TRUE(o.result.allocations[0].devices.config.empty());
}

TEST(Basic, OtherNodesSlicesAreIgnored) {
  std::string slices = Slice("slice-1", "pool-1", "{name: device-1}", "driver-a", "node-2") +
                       Slice("slice-2", "pool-2", "{name: device-2}", "driver-b", "node-1");
  Outcome on1 = Allocate(slices + Claim("claim-0", OneRequest()));
  EXPECT_EQ(on1.result.outcome, dra::allocator::Outcome::kUnschedulable);
  Outcome on2 = Allocate(slices + Claim("claim-0", OneRequest()), {}, "node-2");
  EXPECT_THAT(on2.devices, ElementsAre("req-0:driver-a/pool-1/device-1"));
}

constexpr char kSmallAndLarge[] = R"(
    requests:
    - name: small
      exactly:
        deviceClassName: class-a
        selectors: [{cel: {expression: 'device.capacity["driver-a"].memory.compareTo(quantity("1Gi")) >= 0'}}]
    - name: large
      exactly:
        deviceClassName: class-a
        selectors: [{cel: {expression: 'device.capacity["driver-a"].memory.compareTo(quantity("2Gi")) >= 0'}}]
)";

TEST(Basic, SmallAndLargeBacktrackWithinClaim) {
  Outcome o = Allocate(Slice("slice-1", "pool-1",
                             "{name: large, capacity: {memory: {value: 2Gi}}}, "
                             "{name: small, capacity: {memory: {value: 1Gi}}}") +
                       Claim("claim-0", kSmallAndLarge));
  EXPECT_THAT(o.devices, ElementsAre("small:driver-a/pool-1/small large:driver-a/pool-1/large"));
}

TEST(Basic, SmallAndLargeBacktrackAcrossClaims) {
  std::string small_claim = R"(
    requests:
    - name: req-0
      exactly:
        deviceClassName: class-a
        selectors: [{cel: {expression: 'device.capacity["driver-a"].memory.compareTo(quantity("1Gi")) >= 0'}}]
)";
  std::string large_claim = R"(
    requests:
    - name: req-0
      exactly:
        deviceClassName: class-a
        selectors: [{cel: {expression: 'device.capacity["driver-a"].memory.compareTo(quantity("2Gi")) >= 0'}}]
)";
  Outcome o = Allocate(Slice("slice-1", "pool-1",
                             "{name: large, capacity: {memory: {value: 2Gi}}}, "
                             "{name: small, capacity: {memory: {value: 1Gi}}}") +
                       Claim("small", small_claim) + Claim("large", large_claim));
  EXPECT_THAT(o.devices, ElementsAre("req-0:driver-a/pool-1/small", "req-0:driver-a/pool-1/large"));
}

TEST(Basic, DevicesSplitAcrossPools) {
  Outcome o = Allocate(Slice("slice-1", "pool-1", "{name: device-1}") +
                       Slice("slice-2", "pool-2", "{name: device-2}") +
                       Claim("claim-0", OneRequest("req-0", "class-a", 2)));
  EXPECT_THAT(o.devices,
              ElementsAre("req-0:driver-a/pool-1/device-1 req-0:driver-a/pool-2/device-2"));
}

TEST(Basic, NotEnoughDevicesIsUnschedulableNotAnError) {
  Outcome o = Allocate(Slice("slice-1", "pool-1", "{name: device-1}") +
                       Claim("claim-0", OneRequest()) + Claim("claim-0", OneRequest()));
  EXPECT_EQ(o.result.outcome, dra::allocator::Outcome::kUnschedulable);
  EXPECT_TRUE(o.result.error.empty());
}

TEST(Basic, SeveralDrivers) {
  Outcome o =
      Allocate(Slice("slice-1", "pool-1", "{name: device-1}, {name: device-2}") +
               Slice("slice-2", "pool-1", "{name: device-1}", "driver-b") +
               Claim("claim-a", OneRequest()) + Claim("claim-b", OneRequest("req-0", "class-b")));
  EXPECT_THAT(o.devices,
              ElementsAre("req-0:driver-a/pool-1/device-1", "req-0:driver-b/pool-1/device-1"));
}

TEST(Basic, AlreadyAllocatedDeviceIsUnavailable) {
  std::string allocated = R"(apiVersion: resource.k8s.io/v1
kind: ResourceClaim
metadata: {name: in-use, namespace: default}
spec:
  devices:
    requests:
    - name: req-0
      exactly: {deviceClassName: class-a}
status:
  allocation:
    devices:
      results:
      - {request: req-0, driver: driver-a, pool: pool-1, device: device-1}
---
)";
  Outcome o = Allocate(Slice("slice-1", "pool-1", "{name: device-1}") + allocated +
                       Claim("claim-0", OneRequest()));
  EXPECT_EQ(o.result.outcome, dra::allocator::Outcome::kUnschedulable);
}

std::string Devices(int n, const std::string& extra = "") {
  std::string out;
  for (int i = 0; i < n; ++i) {
    if (i > 0) out += ", ";
    out += "{name: device-" + std::to_string(i) + extra + "}";
  }
  return out;
}

TEST(Basic, MaxNumberOfDevices) {
  Outcome o = Allocate(Slice("slice-1", "pool-1", Devices(32)) +
                       Claim("claim-0", OneRequest("req-0", "class-a", 32)));
  ASSERT_EQ(o.result.outcome, dra::allocator::Outcome::kAllocated) << o.result.error;
  const auto& results = o.result.allocations[0].devices.results;
  ASSERT_EQ(results.size(), 32u);
  for (int i = 0; i < 32; ++i) EXPECT_EQ(results[i].device, "device-" + std::to_string(i));
}

// Combinations, not permutations: 5 from 4 fails after exactly 16 steps.
TEST(Basic, CombinationsWithinSingleRequestCountSteps) {
  Outcome single = Allocate(Slice("slice-1", "pool-1", Devices(4)) +
                            Claim("claim-0", OneRequest("req-0", "class-a", 5)));
  EXPECT_EQ(single.result.outcome, dra::allocator::Outcome::kUnschedulable);
  EXPECT_EQ(single.result.steps, 16u);
  std::string many_pools;
  for (int i = 0; i < 4; ++i) {
    many_pools += Slice("slice-" + std::to_string(i), "pool-" + std::to_string(i),
                        "{name: device-" + std::to_string(i) + "}");
  }
  Outcome pools = Allocate(many_pools + Claim("claim-0", OneRequest("req-0", "class-a", 5)));
  EXPECT_EQ(pools.result.steps, 16u);
}

constexpr char kTypedDevices[] =
    "{name: device-1, attributes: {type: {string: \"X\"}}}, "
    "{name: device-2, attributes: {type: {string: \"Y\"}}}, "
    "{name: device-3, attributes: {type: {string: \"Y\"}}}";

// Upstream case check-combinations-with-backtracking (search order, combinations).
TEST(Basic, CombinationsWithBacktracking) {
  std::string claim = R"(
    requests:
    - name: req-1
      exactly: {deviceClassName: class-a, allocationMode: ExactCount, count: 2}
    - name: req-2
      exactly:
        deviceClassName: class-a
        allocationMode: ExactCount
        count: 1
        selectors:
        - cel: {expression: 'device.attributes["driver-a"].type == "X"'}
)";
  Outcome o = Allocate(Slice("slice-1", "pool-1", kTypedDevices) + Claim("claim-0", claim));
  EXPECT_THAT(o.devices, ElementsAre("req-1:driver-a/pool-1/device-2 "
                                     "req-1:driver-a/pool-1/device-3 "
                                     "req-2:driver-a/pool-1/device-1"));
  EXPECT_EQ(o.result.steps, 12u);
  EXPECT_TRUE(o.result.allocations[0].devices.config.nil());
}

// Upstream case check-combinations-with-prioritized-list (subrequest loop, step count).
TEST(Basic, CombinationsWithPrioritizedList) {
  std::string claim = R"(
    requests:
    - name: req-1
      firstAvailable:
      - name: subReq-0
        deviceClassName: class-a
        allocationMode: ExactCount
        count: 3
        selectors: [{cel: {expression: 'device.attributes["driver-a"].type == "Y"'}}]
      - {name: subReq-1, deviceClassName: class-a, allocationMode: ExactCount, count: 2}
    - name: req-2
      firstAvailable:
      - {name: subReq-0, deviceClassName: class-a, allocationMode: ExactCount, count: 2}
      - name: subReq-1
        deviceClassName: class-a
        allocationMode: ExactCount
        count: 1
        selectors: [{cel: {expression: 'device.attributes["driver-a"].type == "X"'}}]
)";
  Features f = Base();
  f.prioritized_list = true;
  Outcome o = Allocate(Slice("slice-1", "pool-1", kTypedDevices) + Claim("claim-0", claim), f);
  EXPECT_THAT(o.devices, ElementsAre("req-1/subReq-1:driver-a/pool-1/device-2 "
                                     "req-1/subReq-1:driver-a/pool-1/device-3 "
                                     "req-2/subReq-1:driver-a/pool-1/device-1"));
  EXPECT_EQ(o.result.steps, 26u);
}

TEST(Basic, InputClaimsAreNotModifiedAndAllocatorIsReusable) {
  Result<Scenario> s = ParseScenario(
      Fixtures() + Slice("slice-1", "pool-1", "{name: device-1}") + Claim("claim-0", OneRequest()),
      {});
  ASSERT_TRUE(s.ok());
  std::vector<api::ResourceClaim> before = s->claims;
  Allocator allocator(s->snapshot);
  for (int i = 0; i < 3; ++i) {
    AllocateResult r = allocator.Allocate(FindNode(*s, "node-1"), s->claims);
    ASSERT_EQ(r.outcome, dra::allocator::Outcome::kAllocated);
    EXPECT_EQ(r.allocations[0].devices.results[0].device, "device-1");
  }
  ASSERT_EQ(before.size(), s->claims.size());
  EXPECT_TRUE(before[0].spec == s->claims[0].spec);
}

// The scheduler filters many nodes in parallel with one allocator.
TEST(Basic, ConcurrentCallsOnOneAllocator) {
  std::string yaml = Fixtures();
  for (int n = 0; n < 8; ++n) {
    yaml += Slice("slice-" + std::to_string(n), "pool-" + std::to_string(n),
                  "{name: gpu-0}, {name: gpu-1}", "driver-a", "node-" + std::to_string(n));
  }
  Result<Scenario> s = ParseScenario(yaml + Claim("c", OneRequest("req-0", "class-a", 2)), Base());
  ASSERT_TRUE(s.ok());
  Allocator allocator(s->snapshot);
  std::vector<std::string> got(8);
  std::vector<std::thread> threads;
  threads.reserve(8);
  for (int n = 0; n < 8; ++n) {
    threads.emplace_back([&, n] {
      for (int i = 0; i < 50; ++i) {
        AllocateResult r = allocator.Allocate(FindNode(*s, "node-" + std::to_string(n)), s->claims);
        if (r.outcome == dra::allocator::Outcome::kAllocated) got[n] = DeviceList(r.allocations[0]);
      }
    });
  }
  for (auto& t : threads) t.join();
  for (int n = 0; n < 8; ++n) {
    const std::string pool = "driver-a/pool-" + std::to_string(n);
    std::string want = "req-0:" + pool;
    want += "/gpu-0 req-0:" + pool + "/gpu-1";
    EXPECT_EQ(got[n], want);
  }
}

}  // namespace
}  // namespace dra::allocator::testing
