// Binding conditions and bindsToNode: cases of upstream's shared allocator
// suite (release v0.37.2, see allocator_test_util.h), one test each (upstream compares
// these results in order).
#include <gtest/gtest.h>

#include <string>

#include "allocator_test_util.h"

namespace dra::allocator::catalog {
namespace {

const Features kBC = Feat("DeviceBindingAndStatus");
const Features kPDBC = Feat("PartitionableDevices,DeviceBindingAndStatus");

std::string Conditions(const std::string& ok, const std::string& failed) {
  return ", bindingConditions: [" + ok + "], bindingFailureConditions: [" + failed + "]";
}

TEST(CatalogK, DeviceBindingConditions) {
  Expect(Devices("slice-1", "node-1", "pool-1", "driver-a",
                 "{name: device-1" + Conditions("IsPrepare", "BindingFailed") + "}") +
             ClaimYaml("claim-0", {Exact("req-0", "class-a", 1)}),
         Variants(kBC),
         std::string(kNode1) + "req-0 driver-a/pool-1/device-1 bc=IsPrepare bfc=BindingFailed\n");
}

TEST(CatalogK, BindingConditionsMultipleDevices) {
  Expect(Devices("slice-1", "node-1", "pool-1", "driver-a",
                 "{name: device-1" + Conditions("IsPrepare", "BindingFailed") +
                     "}, {name: device-2" + Conditions("IsPrepare2", "BindingFailed2") +
                     "}, {name: device-3" + Conditions("IsPrepare3", "BindingFailed3") + "}") +
             ClaimYaml("claim-0", {Exact("req-0", "class-a", 2), Exact("req-1", "class-a", 1)}),
         Variants(kBC),
         std::string(kNode1) +
             "req-0 driver-a/pool-1/device-1 bc=IsPrepare bfc=BindingFailed\n"
             "req-0 driver-a/pool-1/device-2 bc=IsPrepare2 bfc=BindingFailed2\n"
             "req-1 driver-a/pool-1/device-3 bc=IsPrepare3 bfc=BindingFailed3\n");
}

TEST(CatalogK, BindingConditionsWithAndWithout) {
  Expect(Devices(
             "slice-1", "node-1", "pool-1", "driver-a",
             "{name: device-1}, {name: device-2" + Conditions("IsPrepare", "BindingFailed") + "}") +
             ClaimYaml("claim-0", {Exact("req-0", "class-a", 1), Exact("req-1", "class-a", 1)}),
         Variants(kBC),
         std::string(kNode1) +
             "req-0 driver-a/pool-1/device-1\n"
             "req-1 driver-a/pool-1/device-2 bc=IsPrepare bfc=BindingFailed\n");
}

TEST(CatalogK, BindingConditionsWithoutFeatureGate) {
  Expect(Devices("slice-1", "node-1", "pool-1", "driver-a",
                 "{name: device-1" + Conditions("IsPrepare", "BindingFailed") + "}") +
             ClaimYaml("claim-0", {Exact("req-0", "class-a", 1)}),
         Variants({}), kUnschedulable);
}

TEST(CatalogK, NodeRestriction) {
  Expect(Devices("slice-1", LabelSelector("planet", "earth"), "pool-1", "driver-a",
                 "{name: device-1, bindsToNode: true}") +
             ClaimYaml("claim-0", {Exact("req-0", "class-a", 1)}),
         Variants(kBC), std::string(kNode1) + "req-0 driver-a/pool-1/device-1\n");
}

const std::string kCounterSlice8Gi =
    CounterSlice("slice-2", "node-1", Pool("pool-1", 2), "driver-a", "counter-set-1:memory=8Gi");

TEST(CatalogK, PartitionableDevicesWithBindingConditions) {
  Expect(Devices("slice-1", "node-1", Pool("pool-1", 2), "driver-a",
                 CounterDevice("device-1", "counter-set-1:memory=4Gi", true,
                               Conditions("IsPrepare", "BindingFailed"))) +
             kCounterSlice8Gi + ClaimYaml("claim-0", {Exact("req-0", "class-a", 1)}),
         Variants(kPDBC),
         std::string(kNode1) + "req-0 driver-a/pool-1/device-1 bc=IsPrepare bfc=BindingFailed\n");
}

TEST(CatalogK, PartitionableDevicesWithBindingConditionsMultiple) {
  Expect(Devices("slice-1", "node-1", Pool("pool-1", 2), "driver-a",
                 CounterDevice("device-1", "counter-set-1:memory=4Gi", true,
                               Conditions("IsPrepare", "BindingFailed")) +
                     ", " +
                     CounterDevice("device-2", "counter-set-1:memory=4Gi", true,
                                   Conditions("IsPrepare2", "BindingFailed2"))) +
             kCounterSlice8Gi + ClaimYaml("claim-0", {Exact("req-0", "class-a", 2)}),
         Variants(kPDBC),
         std::string(kNode1) +
             "req-0 driver-a/pool-1/device-1 bc=IsPrepare bfc=BindingFailed\n"
             "req-0 driver-a/pool-1/device-2 bc=IsPrepare2 bfc=BindingFailed2\n");
}

TEST(CatalogK, PartitionableDevicesWithBindingConditionsSomeDevicesNoConditions) {
  Expect(Devices("slice-1", "node-1", Pool("pool-1", 2), "driver-a",
                 CounterDevice("device-1", "counter-set-1:memory=2Gi", true,
                               Conditions("IsPrepare", "BindingFailed")) +
                     ", " + CounterDevice("device-2", "counter-set-1:memory=2Gi", true) + ", " +
                     CounterDevice("device-3", "counter-set-1:memory=4Gi", true,
                                   Conditions("IsReady", "BindingTimeout"))) +
             kCounterSlice8Gi + ClaimYaml("claim-0", {Exact("req-0", "class-a", 3)}),
         Variants(kPDBC),
         std::string(kNode1) +
             "req-0 driver-a/pool-1/device-1 bc=IsPrepare bfc=BindingFailed\n"
             "req-0 driver-a/pool-1/device-2\n"
             "req-0 driver-a/pool-1/device-3 bc=IsReady bfc=BindingTimeout\n");
}

// Slices are searched by name: device-2 (slice-2) before device-1 (slice-4).
TEST(CatalogK, PartitionableDevicesWithBindingConditionsMultiSlices) {
  Expect(Devices("slice-4", "node-1", Pool("pool-1", 4), "driver-a",
                 CounterDevice("device-1", "counter-set-1:memory=4Gi", true,
                               Conditions("IsPrepare", "BindingFailed"))) +
             CounterSlice("slice-3", "node-1", Pool("pool-1", 4), "driver-a",
                          "counter-set-1:memory=8Gi") +
             Devices("slice-2", "node-1", Pool("pool-1", 4), "driver-a",
                     CounterDevice("device-2", "counter-set-2:memory=4Gi", true)) +
             CounterSlice("slice-1", "node-1", Pool("pool-1", 4), "driver-a",
                          "counter-set-2:memory=8Gi") +
             ClaimYaml("claim-0", {Exact("req-0", "class-a", 2)}),
         Variants(kPDBC),
         std::string(kNode1) +
             "req-0 driver-a/pool-1/device-2\n"
             "req-0 driver-a/pool-1/device-1 bc=IsPrepare bfc=BindingFailed\n");
}

const std::string kKey1Taint = ", taints: [{key: key1, value: value1, effect: NoSchedule}]";

// The pool announces one slice but has two: incomplete.
TEST(CatalogK, PartitionableDevicesWithBindingConditionsAndTaints) {
  Expect(Devices("slice-1", "node-1", "pool-1", "driver-a",
                 CounterDevice("device-1", "counter-set-1:memory=4Gi", true,
                               Conditions("IsPrepare", "BindingFailed") + kKey1Taint) +
                     ", " + CounterDevice("device-2", "counter-set-1:memory=4Gi", true)) +
             CounterSlice("slice-2", "node-1", "pool-1", "driver-a", "counter-set-1:memory=8Gi") +
             ClaimYaml("claim-0", {Exact("req-0", "class-a", 2)}),
         Variants(Feat("PartitionableDevices,DeviceBindingAndStatus,DeviceTaints")),
         kUnschedulable);
}

TEST(CatalogK, PartitionableDevicesWithBindingConditionsAndTaintsTolerated) {
  Expect(Devices("slice-1", "node-1", Pool("pool-1", 2), "driver-a",
                 CounterDevice("device-1", "counter-set-1:memory=4Gi", true,
                               Conditions("IsPrepare", "BindingFailed") + kKey1Taint) +
                     ", " + CounterDevice("device-2", "counter-set-1:memory=4Gi", true)) +
             kCounterSlice8Gi +
             ClaimYaml("claim-0", {Exact("req-0", "class-a", 2,
                                         ", tolerations: [{operator: Exists, key: key1, effect: "
                                         "NoSchedule}]")}),
         Variants(Feat("PartitionableDevices,DeviceBindingAndStatus,DeviceTaints")),
         std::string(kNode1) +
             "req-0 driver-a/pool-1/device-1 tol=key1:Exists::NoSchedule bc=IsPrepare "
             "bfc=BindingFailed\n"
             "req-0 driver-a/pool-1/device-2 tol=key1:Exists::NoSchedule\n");
}

}  // namespace
}  // namespace dra::allocator::catalog
