// Consumable capacity and multi-allocatable devices (DRAConsumableCapacity),
// after the consumable-capacity cases of upstream's shared allocator suite.
#include <gtest/gtest.h>

#include "allocator/capacity.h"
#include "allocator_test_util.h"

namespace dra::allocator::testing {
namespace {

using ::testing::ElementsAre;
using ::testing::HasSubstr;

Features Capacity() {
  Features f = Base();
  f.consumable_capacity = true;
  f.prioritized_list = true;
  f.partitionable_devices = true;
  return f;
}

std::string CapacityRequest(const std::string& request, const std::string& amount,
                            const std::string& name = "capacity-0") {
  return "    - {name: " + request +
         ", exactly: {deviceClassName: class-a, allocationMode: ExactCount, count: 1, capacity: "
         "{requests: {" +
         name + ": \"" + amount + "\"}}}}\n";
}

std::string Shareable(const std::string& name, const std::string& capacity) {
  return "{name: " + name + ", allowMultipleAllocations: true, capacity: {" + capacity + "}}";
}

const std::string kRange2to4 =
    "capacity-0: {value: \"4\", requestPolicy: {default: \"2\", validRange: {min: \"2\", step: "
    "\"2\", max: \"4\"}}}";

std::string Consumed(const api::DeviceRequestAllocationResult& r) {
  std::string out;
  for (const auto& [name, q] : r.consumed_capacity) out += name + "=" + q.String() + " ";
  return out;
}

TEST(ConsumableCapacity, PolicyArithmetic) {
  api::DeviceCapacity c;
  c.value = api::Quantity::MustParse("10");
  api::CapacityRequestPolicy p;
  api::CapacityRequestPolicyRange range;
  range.min = api::Quantity::MustParse("2");
  range.step = api::Quantity::MustParse("2");
  range.max = api::Quantity::MustParse("6");
  p.valid_range = range;
  c.request_policy = p;
  api::Quantity three = api::Quantity::MustParse("3"), one = api::Quantity::MustParse("1");
  EXPECT_EQ(Consumption(c, &three, false)->String(), "4");
  EXPECT_EQ(Consumption(c, &one, false)->String(), "2");
  EXPECT_EQ(Consumption(c, nullptr, false)->String(), "10");  // no default: the whole value
  c.request_policy->valid_range.reset();
  c.request_policy->valid_values = {api::Quantity::MustParse("1"), api::Quantity::MustParse("3")};
  api::Quantity two = api::Quantity::MustParse("2");
  EXPECT_EQ(Consumption(c, &two, false)->String(), "3");
}

// DRAFractionalCapacityRange: steps counted in thousandths, the result in
// the step's format; without it, every bound is rounded up to an integer.
TEST(ConsumableCapacity, FractionalRangeSteps) {
  api::DeviceCapacity c;
  c.value = api::Quantity::MustParse("4");
  api::CapacityRequestPolicy p;
  api::CapacityRequestPolicyRange range;
  range.min = api::Quantity::MustParse("500m");
  range.step = api::Quantity::MustParse("250m");
  p.valid_range = range;
  c.request_policy = p;
  api::Quantity q = api::Quantity::MustParse("600m");
  EXPECT_EQ(Consumption(c, &q, true)->String(), "750m");
  api::Quantity whole = api::Quantity::MustParse("900m");
  EXPECT_EQ(Consumption(c, &whole, true)->String(), "1");
  EXPECT_EQ(Consumption(c, &q, false)->String(), "1");
  api::Device d;
  d.capacity.emplace("mem", c);
  CapacityMap want{{"mem", api::Quantity::MustParse("750m")}};
  EXPECT_TRUE(*CapacityFits(d, &want, nullptr, nullptr, true));
  CapacityMap off_step{{"mem", api::Quantity::MustParse("600m")}};
  EXPECT_TRUE(*CapacityFits(d, &off_step, nullptr, nullptr, true));  // rounded up first
}

TEST(ConsumableCapacity, SharedWithoutCapacities) {
  Outcome o =
      Allocate(Slice("slice-1", "pool-1", "{name: device-1, allowMultipleAllocations: true}") +
                   Claim("a", OneRequest()) + Claim("b", OneRequest()),
               Capacity());
  ASSERT_THAT(o.devices,
              ElementsAre("req-0:driver-a/pool-1/device-1", "req-0:driver-a/pool-1/device-1"));
  const auto& first = o.result.allocations[0].devices.results[0];
  const auto& second = o.result.allocations[1].devices.results[0];
  ASSERT_TRUE(first.share_id.has_value());
  EXPECT_EQ(first.share_id->size(), 36u);
  EXPECT_NE(first.share_id, second.share_id);
  EXPECT_TRUE(first.consumed_capacity.empty());
}

TEST(ConsumableCapacity, NoPolicyNoRequestConsumesEverything) {
  std::string one = Slice("slice-1", "pool-1", Shareable("device-1", "capacity-0: {value: \"2\"}"));
  std::string two = Slice("slice-1", "pool-1",
                          Shareable("device-1", "capacity-0: {value: \"2\"}") + ", " +
                              Shareable("device-2", "capacity-0: {value: \"2\"}"));
  std::string claims = Claim("a", OneRequest()) + Claim("b", OneRequest());
  EXPECT_THAT(Allocate(two + claims, Capacity()).devices,
              ElementsAre("req-0:driver-a/pool-1/device-1", "req-0:driver-a/pool-1/device-2"));
  EXPECT_EQ(Allocate(one + claims, Capacity()).result.outcome,
            dra::allocator::Outcome::kUnschedulable);
}

TEST(ConsumableCapacity, RequestsShareADevice) {
  Outcome o =
      Allocate(Slice("slice-1", "pool-1", Shareable("device-1", "capacity-0: {value: \"2\"}")) +
                   Claim("a", "    requests:\n" + CapacityRequest("req-0", "1")) +
                   Claim("b", "    requests:\n" + CapacityRequest("req-0", "1")),
               Capacity());
  ASSERT_EQ(o.result.outcome, dra::allocator::Outcome::kAllocated) << o.result.error;
  EXPECT_EQ(Consumed(o.result.allocations[0].devices.results[0]), "capacity-0=1 ");
}

TEST(ConsumableCapacity, RangePolicyRoundsUp) {
  Outcome o = Allocate(Slice("slice-1", "pool-1", Shareable("device-1", kRange2to4)) +
                           Claim("a", "    requests:\n" + CapacityRequest("req-0", "1")) +
                           Claim("b", "    requests:\n" + CapacityRequest("req-0", "1")),
                       Capacity());
  ASSERT_EQ(o.result.outcome, dra::allocator::Outcome::kAllocated) << o.result.error;
  EXPECT_EQ(Consumed(o.result.allocations[0].devices.results[0]), "capacity-0=2 ");
  EXPECT_EQ(Consumed(o.result.allocations[1].devices.results[0]), "capacity-0=2 ");
  // A third claim no longer fits (2 + 2 + 2 > 4).
  EXPECT_EQ(Allocate(Slice("slice-1", "pool-1", Shareable("device-1", kRange2to4)) +
                         Claim("a", "    requests:\n" + CapacityRequest("req-0", "1")) +
                         Claim("b", "    requests:\n" + CapacityRequest("req-0", "1")) +
                         Claim("c", "    requests:\n" + CapacityRequest("req-0", "1")),
                     Capacity())
                .result.outcome,
            dra::allocator::Outcome::kUnschedulable);
}

TEST(ConsumableCapacity, RequestOverPolicyMaxOrMissingCapacity) {
  std::string device = Shareable("device-1",
                                 "capacity-0: {value: \"10\", requestPolicy: {validRange: {min: "
                                 "\"1\", max: \"4\"}}}");
  EXPECT_EQ(Allocate(Slice("slice-1", "pool-1", device) +
                         Claim("a", "    requests:\n" + CapacityRequest("req-0", "6")),
                     Capacity())
                .result.outcome,
            dra::allocator::Outcome::kUnschedulable);
  EXPECT_EQ(Allocate(Slice("slice-1", "pool-1", device) +
                         Claim("a", "    requests:\n" + CapacityRequest("req-0", "1", "other")),
                     Capacity())
                .result.outcome,
            dra::allocator::Outcome::kUnschedulable);
}

TEST(ConsumableCapacity, AllocatedSharesConsumeCapacity) {
  std::string in_use = R"(apiVersion: resource.k8s.io/v1
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
      - {request: req-0, driver: driver-a, pool: pool-1, device: device-1,
         shareID: 11111111-1111-4111-8111-111111111111, consumedCapacity: {capacity-0: "2"}}
---
)";
  std::string devices = Slice("slice-1", "pool-1",
                              Shareable("device-1", "capacity-0: {value: \"4\"}") + ", " +
                                  Shareable("device-2", "capacity-0: {value: \"4\"}"));
  EXPECT_THAT(
      Allocate(devices + in_use + Claim("a", "    requests:\n" + CapacityRequest("req-0", "2")),
               Capacity())
          .devices,
      ElementsAre("req-0:driver-a/pool-1/device-1"));
  EXPECT_THAT(
      Allocate(devices + in_use + Claim("a", "    requests:\n" + CapacityRequest("req-0", "3")),
               Capacity())
          .devices,
      ElementsAre("req-0:driver-a/pool-1/device-2"));
}

TEST(ConsumableCapacity, DedicatedDeviceCapacityIsOnlyAFilter) {
  std::string device =
      Slice("slice-1", "pool-1", "{name: device-1, capacity: {capacity-0: {value: \"4\"}}}");
  Outcome o =
      Allocate(device + Claim("a", "    requests:\n" + CapacityRequest("req-0", "2")), Capacity());
  ASSERT_THAT(o.devices, ElementsAre("req-0:driver-a/pool-1/device-1"));
  EXPECT_FALSE(o.result.allocations[0].devices.results[0].share_id.has_value());
  EXPECT_TRUE(o.result.allocations[0].devices.results[0].consumed_capacity.empty());
  EXPECT_EQ(Allocate(device + Claim("a", "    requests:\n" + CapacityRequest("req-0", "2")) +
                         Claim("b", "    requests:\n" + CapacityRequest("req-0", "2")),
                     Capacity())
                .result.outcome,
            dra::allocator::Outcome::kUnschedulable);
}

TEST(ConsumableCapacity, AllModeFiltersOutDevicesThatDoNotFit) {
  Outcome o = Allocate(Slice("slice-1", "pool-1",
                             Shareable("device-1", "capacity-0: {value: \"1\"}") + ", " +
                                 Shareable("device-2", "capacity-0: {value: \"4\"}") + ", " +
                                 Shareable("device-3", "other: {value: \"4\"}")) +
                           Claim("a", R"(
    requests:
    - name: req-0
      exactly: {deviceClassName: class-a, allocationMode: All, capacity: {requests: {capacity-0: "2"}}}
)"),
                       Capacity());
  EXPECT_THAT(o.devices, ElementsAre("req-0:driver-a/pool-1/device-2"));
}

// Upstream case with-distinct-constraints-with-subrequests (distinctAttribute,
// firstAvailable and shared devices).
TEST(ConsumableCapacity, DistinctConstraintsWithSubrequests) {
  std::string slice = Slice("slice-1", "pool-1",
                            "{name: device-1, allowMultipleAllocations: true, attributes: "
                            "{boolAttribute: {bool: true}}}, "
                            "{name: device-2, allowMultipleAllocations: true, attributes: "
                            "{boolAttribute: {bool: false}}}");
  std::string request = R"(
      firstAvailable:
      - name: subReq-0
        deviceClassName: class-a
        allocationMode: ExactCount
        count: 1
        selectors:
        - cel: {expression: 'device.attributes["driver-a"].boolAttribute'}
      - {name: subReq-1, deviceClassName: class-a, allocationMode: ExactCount, count: 1})";
  std::string claim =
      Claim("claim-0",
            "    constraints:\n    - {requests: [req-0, req-1], "
            "distinctAttribute: driver-a/boolAttribute}\n"
            "    requests:\n    - name: req-0" +
                request + "\n    - name: req-1" + request + "\n    - name: req-2" + request + "\n");
  Outcome o = Allocate(slice + claim, Capacity());
  EXPECT_THAT(o.devices, ElementsAre("req-0/subReq-0:driver-a/pool-1/device-1 "
                                     "req-1/subReq-1:driver-a/pool-1/device-2 "
                                     "req-2/subReq-0:driver-a/pool-1/device-1"));
  EXPECT_EQ(o.result.steps, 12u);
}

// Upstream case consumable-capacity-with-partitionable-device-multiple-capacity-pools.
TEST(ConsumableCapacity, PartitionableDeviceWithMultipleCapacityPools) {
  std::string cap24 =
      "capacity-0: {value: \"2\"}, capacity-1: {value: \"4\", requestPolicy: {default: \"2\", "
      "validRange: {min: \"2\", step: \"2\", max: \"4\"}}}";
  std::string cap44 =
      "capacity-0: {value: \"4\"}, capacity-1: {value: \"4\", requestPolicy: {default: \"2\", "
      "validRange: {min: \"2\", step: \"2\", max: \"4\"}}}";
  auto device = [](const std::string& name, const std::string& cap, const std::string& c0) {
    return "{name: " + name + ", allowMultipleAllocations: true, capacity: {" + cap +
           "}, consumesCounters: [{counterSet: counter-set-1, counters: {capacity-0: {value: \"" +
           c0 + "\"}}}, {counterSet: counter-set-2, counters: {capacity-1: {value: \"4\"}}}]}";
  };
  std::string slices =
      "apiVersion: resource.k8s.io/v1\nkind: ResourceSlice\nmetadata: {name: slice-1}\nspec:\n"
      "  driver: driver-a\n  nodeName: node-1\n  pool: {name: pool-1, generation: 1, "
      "resourceSliceCount: 2}\n  devices: [" +
      device("device-1", cap24, "2") + ", " + device("device-2", cap44, "4") + ", " +
      device("device-3", cap24, "2") +
      "]\n---\napiVersion: resource.k8s.io/v1\nkind: ResourceSlice\nmetadata: {name: slice-2}\n"
      "spec:\n  driver: driver-a\n  nodeName: node-1\n  pool: {name: pool-1, generation: 1, "
      "resourceSliceCount: 2}\n  sharedCounters:\n  - {name: counter-set-1, counters: "
      "{capacity-0: {value: \"4\"}}}\n  - {name: counter-set-2, counters: {capacity-1: {value: "
      "\"8\"}}}\n---\n";
  auto sub = [](const std::string& name, const std::string& at_least) {
    return "      - name: " + name +
           "\n        deviceClassName: class-a\n        allocationMode: ExactCount\n        "
           "count: 1\n        capacity: {requests: {capacity-0: \"1\"}}\n        selectors: [{cel: "
           "{expression: 'device.capacity[\"driver-a\"][\"capacity-0\"].compareTo(quantity(\"" +
           at_least + "\")) >= 0'}}]\n";
  };
  std::string claim = Claim("claim-0", "    requests:\n" + CapacityRequest("req-0", "1") +
                                           CapacityRequest("req-2", "2") +
                                           "    - name: req-1\n      firstAvailable:\n" +
                                           sub("subReq-0", "4") + sub("subReq-1", "2"));
  Outcome o = Allocate(slices + claim, Capacity());
  ASSERT_EQ(o.result.outcome, dra::allocator::Outcome::kAllocated) << o.result.error;
  EXPECT_THAT(o.devices, ElementsAre("req-0:driver-a/pool-1/device-1 "
                                     "req-2:driver-a/pool-1/device-3 "
                                     "req-1/subReq-1:driver-a/pool-1/device-1"));
  const auto& results = o.result.allocations[0].devices.results;
  EXPECT_EQ(Consumed(results[0]), "capacity-0=1 capacity-1=2 ");
  EXPECT_EQ(Consumed(results[1]), "capacity-0=2 capacity-1=2 ");
  EXPECT_EQ(Consumed(results[2]), "capacity-0=1 capacity-1=2 ");
  EXPECT_EQ(o.result.steps, 10u);
}

// Upstream case consumable-capacity-with-multi-allocatable-device-backtrack.
TEST(ConsumableCapacity, MultiAllocatableDeviceBacktrack) {
  std::string policy =
      "capacity-0: {value: \"V\", requestPolicy: {default: \"2\", validRange: {min: \"2\", step: "
      "\"2\", max: \"4\"}}}";
  auto cap = [&](const std::string& v) {
    std::string s = policy;
    s.replace(s.find('V'), 1, v);
    return s;
  };
  std::string slice = Slice(
      "slice-1", "pool-1",
      "{name: device-2, allowMultipleAllocations: true, attributes: {stringAttribute: {string: "
      "v1}}, capacity: {" +
          cap("2") +
          "}}, {name: device-1, allowMultipleAllocations: true, attributes: {stringAttribute: "
          "{string: v2}}, capacity: {" +
          cap("4") + "}}");
  std::string claims = Claim("claim-0",
                             "    constraints:\n    - {matchAttribute: driver-a/stringAttribute}\n"
                             "    requests:\n" +
                                 CapacityRequest("req-0", "2") + CapacityRequest("req-1", "2")) +
                       Claim("claim-1", "    requests:\n" + CapacityRequest("req-0", "2"));
  Outcome o = Allocate(slice + claims, Capacity());
  EXPECT_THAT(o.devices,
              ElementsAre("req-0:driver-a/pool-1/device-1 req-1:driver-a/pool-1/device-1",
                          "req-0:driver-a/pool-1/device-2"));
  EXPECT_EQ(o.result.steps, 11u);
}

TEST(ConsumableCapacity, FeatureOffMakesEveryDeviceDedicated) {
  std::string slice = Slice("slice-1", "pool-1", "{name: d1, allowMultipleAllocations: true}");
  Outcome o = Allocate(slice + Claim("a", OneRequest()) + Claim("b", OneRequest()));
  EXPECT_EQ(o.result.outcome, dra::allocator::Outcome::kUnschedulable);
  Outcome disabled =
      Allocate(slice + Claim("a", "    requests:\n" + CapacityRequest("req-0", "1")));
  EXPECT_THAT(disabled.result.error, HasSubstr("has capacity requests, but the "
                                               "DRAConsumableCapacity feature is disabled"));
}

}  // namespace
}  // namespace dra::allocator::testing
