// Device taints and tolerations (DRADeviceTaints), after the taint cases of
// upstream's shared allocator suite, plus DeviceTaintRules applied to the
// snapshot.
#include <gtest/gtest.h>

#include "allocator_test_util.h"

namespace dra::allocator::testing {
namespace {

using ::testing::ElementsAre;

Features Taints() {
  Features f = Base();
  f.device_taints = true;
  f.prioritized_list = true;
  f.admin_access = true;
  return f;
}

const std::string kTaintedDevices =
    Slice("slice-1", "pool-1",
          "{name: device-1, taints: [{key: taint-key, value: taint-value, effect: NoSchedule}]}, "
          "{name: device-2, taints: [{key: taint-key, value: taint-value, effect: NoExecute}]}");

TEST(Taints, UntoleratedTaintsBlock) {
  EXPECT_EQ(Allocate(kTaintedDevices + Claim("c", OneRequest()), Taints()).result.outcome,
            dra::allocator::Outcome::kUnschedulable);
}

TEST(Taints, ToleratedTaintSelectsDeviceAndCopiesTolerations) {
  Outcome o = Allocate(kTaintedDevices + Claim("c", R"(
    requests:
    - name: req-0
      exactly:
        deviceClassName: class-a
        tolerations: [{key: taint-key, operator: Equal, value: taint-value, effect: NoExecute}]
)"),
                       Taints());
  ASSERT_THAT(o.devices, ElementsAre("req-0:driver-a/pool-1/device-2"));
  const auto& tolerations = o.result.allocations[0].devices.results[0].tolerations;
  ASSERT_EQ(tolerations.size(), 1u);
  EXPECT_EQ(tolerations[0].effect, "NoExecute");
}

TEST(Taints, ExistsOperatorAndEffectNone) {
  EXPECT_THAT(Allocate(kTaintedDevices + Claim("c", R"(
    requests:
    - name: req-0
      exactly:
        deviceClassName: class-a
        tolerations: [{key: taint-key, operator: Exists}]
)"),
                       Taints())
                  .devices,
              ElementsAre("req-0:driver-a/pool-1/device-1"));
  EXPECT_THAT(
      Allocate(Slice("slice-1", "pool-1", "{name: device-1, taints: [{key: k, effect: None}]}") +
                   Claim("c", OneRequest()),
               Taints())
          .devices,
      ElementsAre("req-0:driver-a/pool-1/device-1"));
}

TEST(Taints, FeatureOffIgnoresTaints) {
  EXPECT_THAT(Allocate(kTaintedDevices + Claim("c", OneRequest())).devices,
              ElementsAre("req-0:driver-a/pool-1/device-1"));
}

TEST(Taints, OnlyTheToleratingSubrequestIsUsed) {
  Outcome o = Allocate(kTaintedDevices + Claim("c", R"(
    requests:
    - name: req-0
      firstAvailable:
      - {name: subReq-0, deviceClassName: class-a}
      - name: subReq-1
        deviceClassName: class-a
        tolerations: [{key: taint-key, operator: Exists, effect: NoSchedule}]
)"),
                       Taints());
  EXPECT_THAT(o.devices, ElementsAre("req-0/subReq-1:driver-a/pool-1/device-1"));
}

TEST(Taints, AdminAccessDoesNotBypassTaints) {
  EXPECT_EQ(Allocate(kTaintedDevices + Claim("c", R"(
    requests:
    - name: req-0
      exactly: {deviceClassName: class-a, adminAccess: true}
)"),
                     Taints())
                .result.outcome,
            dra::allocator::Outcome::kUnschedulable);
}

TEST(Taints, AllModeOverTaintedDeviceIsUnschedulable) {
  Outcome o = Allocate(kTaintedDevices + Claim("c", R"(
    requests:
    - name: req-0
      exactly: {deviceClassName: class-a, allocationMode: All}
)"),
                       Taints());
  EXPECT_EQ(o.result.outcome, dra::allocator::Outcome::kUnschedulable);
}

TEST(Taints, DeviceTaintRuleTaintsSelectedDevices) {
  std::string rule = R"(apiVersion: resource.k8s.io/v1beta2
kind: DeviceTaintRule
metadata: {name: rule-1}
spec:
  deviceSelector: {driver: driver-a, pool: pool-1, device: device-1}
  taint: {key: maintenance, effect: NoSchedule}
---
)";
  Outcome o = Allocate(Slice("slice-1", "pool-1", "{name: device-1}, {name: device-2}") + rule +
                           Claim("c", OneRequest()),
                       Taints());
  EXPECT_THAT(o.devices, ElementsAre("req-0:driver-a/pool-1/device-2"));
}

}  // namespace
}  // namespace dra::allocator::testing
