// Device taints and tolerations (DRADeviceTaints): cases of upstream's shared
// allocator suite (release v0.37.2, see allocator_test_util.h), one test each.
#include <gtest/gtest.h>

#include <string>

#include "allocator_test_util.h"

namespace dra::allocator::catalog {
namespace {

const Features kDT = Feat("DeviceTaints");
const std::string kNoSchedule = "{key: taint-key, value: taint-value, effect: NoSchedule}";
const std::string kNoExecute = "{key: taint-key, value: taint-value-2, effect: NoExecute}";
const std::string kNone = "{key: taint-key, value: taint-value, effect: None}";
const std::string kTolerateNoSchedule = "{operator: Exists, key: taint-key, effect: NoSchedule}";
const std::string kTolerateNoExecute =
    "{operator: Equal, key: taint-key, value: taint-value-2, effect: NoExecute}";
const std::string kTolNoScheduleText = "taint-key:Exists::NoSchedule";
const std::string kTolNoExecuteText = "taint-key:Equal:taint-value-2:NoExecute";

std::string Tainted(const std::string& name, const std::string& taints) {
  return "{name: " + name + ", taints: [" + taints + "]}";
}
const std::string kTwoTaintedDevices =
    Devices("slice-1", "node-1", "pool-1", "driver-a",
            Tainted("device-1", kNoSchedule) + ", " + Tainted("device-2", kNoExecute));
const std::string kDoublyTainted = Devices("slice-1", "node-1", "pool-1", "driver-a",
                                           Tainted("device-1", kNoSchedule + ", " + kNoExecute));
const std::string kNoScheduleDevice =
    Devices("slice-1", "node-1", "pool-1", "driver-a", Tainted("device-1", kNoSchedule));
const std::string kOneRequest = ClaimYaml("claim-0", {Exact("req-0", "class-a", 1)});
const std::string kBThenA = ClaimYaml(
    "claim-0",
    {FirstAvailable("req-0", {Sub("subReq-0", "class-b", 1), Sub("subReq-1", "class-a", 1)})});

TEST(CatalogJ, TaintedTwoDevices) {
  Expect(kTwoTaintedDevices + kOneRequest, Variants(kDT), kUnschedulable);
}

TEST(CatalogJ, TaintedOneDeviceTwoTaints) {
  Expect(kDoublyTainted + kOneRequest, Variants(kDT), kUnschedulable);
}

TEST(CatalogJ, TaintedTwoDevicesTolerated) {
  Expect(kTwoTaintedDevices +
             ClaimYaml("claim-0", {Exact("req-0", "class-a", 1,
                                         ", tolerations: [" + kTolerateNoExecute + "]")}),
         Variants(kDT),
         std::string(kNode1) + "req-0 driver-a/pool-1/device-2 tol=" + kTolNoExecuteText + "\n");
}

TEST(CatalogJ, TaintedTwoDevicesPrioritizedListTolerated) {
  Expect(kTwoTaintedDevices +
             ClaimYaml(
                 "claim-0",
                 {FirstAvailable("req-0", {Sub("subReq-0", "class-a", 1),
                                           Sub("subReq-1", "class-a", 1,
                                               ", tolerations: [" + kTolerateNoExecute + "]")})}),
         Variants(Feat("DeviceTaints,PrioritizedList")),
         std::string(kNode1) + "req-0/subReq-1 driver-a/pool-1/device-2 tol=" + kTolNoExecuteText +
             "\n");
}

TEST(CatalogJ, TaintedNoEffect) {
  Expect(
      Devices("slice-1", "node-1", "pool-1", "driver-a", Tainted("device-1", kNone)) + kOneRequest,
      Variants(kDT), std::string(kNode1) + "req-0 driver-a/pool-1/device-1\n");
}

TEST(CatalogJ, TaintedOneDeviceTwoTaintsBothTolerated) {
  Expect(kDoublyTainted + ClaimYaml("claim-0", {Exact("req-0", "class-a", 1,
                                                      ", tolerations: [" + kTolerateNoSchedule +
                                                          ", " + kTolerateNoExecute + "]")}),
         Variants(kDT),
         std::string(kNode1) + "req-0 driver-a/pool-1/device-1 tol=" + kTolNoScheduleText + "," +
             kTolNoExecuteText + "\n");
}

TEST(CatalogJ, TaintedDisabled) {
  Expect(kDoublyTainted + kOneRequest, Variants({}),
         std::string(kNode1) + "req-0 driver-a/pool-1/device-1\n");
}

TEST(CatalogJ, TaintedPrioritizedList) {
  Expect(kNoScheduleDevice + kBThenA, Variants(Feat("DeviceTaints,PrioritizedList")),
         kUnschedulable);
}

TEST(CatalogJ, TaintedPrioritizedListDisabled) {
  Expect(kNoScheduleDevice + kBThenA, Variants(Feat("PrioritizedList")),
         std::string(kNode1) + "req-0/subReq-1 driver-a/pool-1/device-1\n");
}

const std::string kAdminOnAllocated =
    Allocated({"driver-a/pool-1/device-1", "driver-a/pool-1/device-2"}) +
    ClaimYaml("claim-0", {Exact("req-0", "class-a", 1, ", adminAccess: true")});

TEST(CatalogJ, TaintedAdminAccess) {
  Expect(kNoScheduleDevice + kAdminOnAllocated, Variants(Feat("DeviceTaints,AdminAccess")),
         kUnschedulable);
}

TEST(CatalogJ, TaintedAdminAccessDisabled) {
  Expect(kNoScheduleDevice + kAdminOnAllocated, Variants(Feat("AdminAccess")),
         std::string(kNode1) + "req-0 driver-a/pool-1/device-1 admin\n");
}

TEST(CatalogJ, TaintedAllDevicesSingle) {
  Expect(kNoScheduleDevice + ClaimYaml("claim-0", {AllOf("req-0", "class-a")}), Variants(kDT),
         kUnschedulable);
}

TEST(CatalogJ, TaintedAllDevicesSingleDisabled) {
  Expect(kNoScheduleDevice + ClaimYaml("claim-0", {AllOf("req-0", "class-a")}), Variants({}),
         std::string(kNode1) + "req-0 driver-a/pool-1/device-1\n");
}

}  // namespace
}  // namespace dra::allocator::catalog
