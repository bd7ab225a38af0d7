// Partitionable devices and shared counters (DRAPartitionableDevices), after
// the partitionable-device cases of upstream's shared allocator suite.
#include <gtest/gtest.h>

#include "allocator_test_util.h"

namespace dra::allocator::testing {
namespace {

using ::testing::ElementsAre;
using ::testing::HasSubstr;

Features Partitionable() {
  Features f = Base();
  f.partitionable_devices = true;
  f.prioritized_list = true;
  f.device_taints = true;
  return f;
}

std::string CounterSlice(const std::string& name, const std::string& pool, int count,
                         const std::string& sets, const std::string& node = "node-1") {
  return "apiVersion: resource.k8s.io/v1\nkind: ResourceSlice\nmetadata: {name: " + name +
         "}\nspec:\n  driver: driver-a\n  nodeName: " + node + "\n  pool: {name: " + pool +
         ", generation: 1, resourceSliceCount: " + std::to_string(count) +
         "}\n  sharedCounters: [" + sets + "]\n---\n";
}

std::string DeviceSlice(const std::string& name, const std::string& pool, int count,
                        const std::string& devices, const std::string& node = "node-1") {
  return "apiVersion: resource.k8s.io/v1\nkind: ResourceSlice\nmetadata: {name: " + name +
         "}\nspec:\n  driver: driver-a\n  nodeName: " + node + "\n  pool: {name: " + pool +
         ", generation: 1, resourceSliceCount: " + std::to_string(count) + "}\n  devices: [" +
         devices + "]\n---\n";
}

std::string Consumes(const std::string& name, const std::string& amount,
                     const std::string& extra = "") {
  return "{name: " + name + extra +
         ", consumesCounters: [{counterSet: counter-set-1, counters: {memory: {value: " + amount +
         "}}}]}";
}

const std::string kSet8Gi = "{name: counter-set-1, counters: {memory: {value: 8Gi}}}";

TEST(Partitionable, SingleDevice) {
  Outcome o = Allocate(CounterSlice("slice-1", "pool-1", 2, kSet8Gi) +
                           DeviceSlice("slice-2", "pool-1", 2, Consumes("device-1", "4Gi")) +
                           Claim("c", OneRequest()),
                       Partitionable());
  EXPECT_THAT(o.devices, ElementsAre("req-0:driver-a/pool-1/device-1"));
}

TEST(Partitionable, CountersLimitCombinations) {
  Outcome o =
      Allocate(CounterSlice("slice-1", "pool-1", 2, kSet8Gi) +
                   DeviceSlice("slice-2", "pool-1", 2,
                               Consumes("device-1", "5Gi") + ", " + Consumes("device-2", "4Gi") +
                                   ", " + Consumes("device-3", "4Gi")) +
                   Claim("c", OneRequest("req-0", "class-a", 2)),
               Partitionable());
  EXPECT_THAT(o.devices,
              ElementsAre("req-0:driver-a/pool-1/device-2 req-0:driver-a/pool-1/device-3"));
}

TEST(Partitionable, FeatureOffIgnoresCounterSlicesAndConsumers) {
  Features off;
  Outcome consumer = Allocate(CounterSlice("slice-1", "pool-1", 2, kSet8Gi) +
                                  DeviceSlice("slice-2", "pool-1", 2, Consumes("device-1", "4Gi")) +
                                  Claim("c", OneRequest()),
                              off);
  EXPECT_EQ(consumer.result.outcome, dra::allocator::Outcome::kUnschedulable);
  Outcome plain = Allocate(
      DeviceSlice("slice-2", "pool-1", 1, Consumes("device-1", "4Gi") + ", {name: device-2}") +
          Claim("c", OneRequest()),
      off);
  EXPECT_THAT(plain.devices, ElementsAre("req-0:driver-a/pool-1/device-2"));
}

TEST(Partitionable, InvalidCounterReferencesMakeThePoolInvalid) {
  const std::string unknown_set =
      "{name: device-1, consumesCounters: [{counterSet: nope, counters: {memory: {value: 1Gi}}}]}";
  const std::string unknown_counter =
      "{name: device-1, consumesCounters: [{counterSet: counter-set-1, counters: {cpu: {value: "
      "1}}}]}";
  for (const std::string& device : {unknown_set, unknown_counter}) {
    Outcome o = Allocate(CounterSlice("slice-1", "pool-1", 2, kSet8Gi) +
                             DeviceSlice("slice-2", "pool-1", 2, device) + Claim("c", OneRequest()),
                         Partitionable());
    EXPECT_EQ(o.result.error, "invalid resource pools were encountered") << device;
  }
  Outcome duplicate_set = Allocate(CounterSlice("slice-1", "pool-1", 3, kSet8Gi) +
                                       CounterSlice("slice-3", "pool-1", 3, kSet8Gi) +
                                       DeviceSlice("slice-2", "pool-1", 3, Consumes("d", "4Gi")) +
                                       Claim("c", OneRequest()),
                                   Partitionable());
  EXPECT_EQ(duplicate_set.result.error, "invalid resource pools were encountered");
  // A bad reference in a slice for another node still invalidates the pool.
  Outcome other_node = Allocate(
      CounterSlice("slice-1", "pool-1", 3, kSet8Gi) +
          DeviceSlice("slice-2", "pool-1", 3, Consumes("device-2", "4Gi")) +
          DeviceSlice("slice-3", "pool-1", 3, unknown_set, "node-2") + Claim("c", OneRequest()),
      Partitionable());
  EXPECT_EQ(other_node.result.error, "invalid resource pools were encountered");
}

// Upstream case partitionable-devices-with-attribute-selector (counters and
// backtracking).
TEST(Partitionable, AttributeSelectorForcesBacktracking) {
  std::string devices = R"(
    {name: device-1, attributes: {special: {bool: true}}, consumesCounters: [
      {counterSet: counter-set-1, counters: {cpu1: {value: "1"}}},
      {counterSet: counter-set-2, counters: {mem: {value: 10Gi}}}]},
    {name: device-2, attributes: {special: {bool: false}}, consumesCounters: [
      {counterSet: counter-set-1, counters: {cpu2: {value: "1"}}},
      {counterSet: counter-set-2, counters: {mem: {value: 10Gi}}}]},
    {name: device-3, attributes: {special: {bool: false}}, consumesCounters: [
      {counterSet: counter-set-1, counters: {cpu3: {value: "1"}}},
      {counterSet: counter-set-2, counters: {mem: {value: 10Gi}}}]})";
  std::string sets =
      "{name: counter-set-1, counters: {cpu1: {value: \"1\"}, cpu2: {value: \"1\"}, cpu3: "
      "{value: \"1\"}}}, {name: counter-set-2, counters: {mem: {value: 30Gi}}}";
  std::string claim = Claim("claim-0", R"(
    requests:
    - {name: req-0, exactly: {deviceClassName: class-a, allocationMode: ExactCount, count: 2}}
    - name: req-1
      exactly:
        deviceClassName: class-a
        allocationMode: ExactCount
        count: 1
        selectors: [{cel: {expression: 'device.attributes["driver-a"].special'}}]
)");
  Outcome o = Allocate(DeviceSlice("slice-1", "pool-1", 2, devices) +
                           CounterSlice("slice-2", "pool-1", 2, sets) + claim,
                       Partitionable());
  EXPECT_THAT(o.devices, ElementsAre("req-0:driver-a/pool-1/device-2 "
                                     "req-0:driver-a/pool-1/device-3 "
                                     "req-1:driver-a/pool-1/device-1"));
  EXPECT_EQ(o.result.steps, 12u);
}

// Upstream case partitionable-devices-devices-on-different-nodes-consume-same-counter-set.
TEST(Partitionable, DevicesOnDifferentNodesConsumeTheSameCounterSet) {
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
      - {request: req-0, driver: driver-a, pool: pool-1, device: device-3}
---
)";
  auto mem = [](const std::string& q) { return ", capacity: {memory: {value: " + q + "}}"; };
  std::string at_least = R"(
      - name: subReq-%
        deviceClassName: class-a
        allocationMode: ExactCount
        count: 1
        selectors: [{cel: {expression: 'device.capacity["driver-a"].memory.compareTo(quantity("QQ")) >= 0'}}])";
  auto sub = [&](const std::string& i, const std::string& q) {
    std::string s = at_least;
    s.replace(s.find('%'), 1, i);
    s.replace(s.find("QQ"), 2, q);
    return s;
  };
  std::string claim =
      Claim("claim-0", "    requests:\n    - name: req-0\n      firstAvailable:" + sub("0", "6Gi") +
                           sub("1", "2Gi") + "\n");
  std::string slices = CounterSlice("slice-1", "pool-1", 3, kSet8Gi) +
                       DeviceSlice("slice-2", "pool-1", 3,
                                   Consumes("device-1", "6Gi", mem("6Gi")) + ", " +
                                       Consumes("device-2", "2Gi", mem("2Gi"))) +
                       DeviceSlice("slice-3", "pool-1", 3, Consumes("device-3", "6Gi"), "node-2");
  Outcome o = Allocate(slices + allocated + claim, Partitionable());
  EXPECT_THAT(o.devices, ElementsAre("req-0/subReq-1:driver-a/pool-1/device-2"));
  EXPECT_EQ(o.result.steps, 6u);
}

// A candidate rejected by its taint gives its counters back, so {B, C} fits
// (older upstream allocators kept them consumed; fixed upstream by
// kubernetes/kubernetes#140431).
TEST(Partitionable, CountersOfATaintRejectedCandidateAreReturned) {
  std::string devices = Consumes("device-a", "4Gi", ", taints: [{key: k, effect: NoSchedule}]") +
                        ", " + Consumes("device-b", "4Gi") + ", " + Consumes("device-c", "4Gi");
  Outcome o = Allocate(CounterSlice("slice-1", "pool-1", 2, kSet8Gi) +
                           DeviceSlice("slice-2", "pool-1", 2, devices) +
                           Claim("c", OneRequest("req-0", "class-a", 2)),
                       Partitionable());
  EXPECT_THAT(o.devices,
              ElementsAre("req-0:driver-a/pool-1/device-b req-0:driver-a/pool-1/device-c"));
}

}  // namespace
}  // namespace dra::allocator::testing
