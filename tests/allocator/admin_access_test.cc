// Admin access (DRAAdminAccess), after the admin-access cases of upstream's shared
// allocator suite.
#include <gtest/gtest.h>

#include "allocator_test_util.h"

namespace dra::allocator::testing {
namespace {

using ::testing::ElementsAre;

Features Admin() {
  Features f = Base();
  f.admin_access = true;
  return f;
}

std::string AdminRequest(const std::string& mode, int count = 1) {
  return "    requests:\n    - name: req-0\n      exactly: {deviceClassName: class-a, "
         "allocationMode: " +
         mode + ", count: " + std::to_string(count) + ", adminAccess: true}\n";
}

const std::string kAllocatedDevice1 = R"(apiVersion: resource.k8s.io/v1
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

const std::string kTwoDevices = Slice("slice-1", "pool-1", "{name: device-1}, {name: device-2}");

TEST(AdminAccess, AllIgnoresAllocatedDevices) {
  Outcome o = Allocate(kTwoDevices + kAllocatedDevice1 + Claim("c", AdminRequest("All")), Admin());
  ASSERT_THAT(o.devices,
              ElementsAre("req-0:driver-a/pool-1/device-1 req-0:driver-a/pool-1/device-2"));
  for (const auto& r : o.result.allocations[0].devices.results) {
    EXPECT_EQ(r.admin_access, std::optional<bool>(true));
  }
}

TEST(AdminAccess, CountUsesAllocatedDevice) {
  Outcome o = Allocate(kTwoDevices + kAllocatedDevice1 + Claim("c", AdminRequest("ExactCount", 2)),
                       Admin());
  EXPECT_THAT(o.devices,
              ElementsAre("req-0:driver-a/pool-1/device-1 req-0:driver-a/pool-1/device-2"));
}

TEST(AdminAccess, SameClaimCannotReuseADevice) {
  std::string two_all = R"(
    requests:
    - name: req-0
      exactly: {deviceClassName: class-a, allocationMode: ExactCount, count: 1, adminAccess: true}
    - name: req-1
      exactly: {deviceClassName: class-a, allocationMode: All, adminAccess: true}
)";
  EXPECT_EQ(Allocate(kTwoDevices + Claim("c", two_all), Admin()).result.outcome,
            dra::allocator::Outcome::kUnschedulable);
}

TEST(AdminAccess, SeparateClaimsShareADevice) {
  Outcome o =
      Allocate(Slice("slice-1", "pool-1", "{name: device-1}") +
                   Claim("a", AdminRequest("ExactCount")) + Claim("b", AdminRequest("ExactCount")),
               Admin());
  EXPECT_THAT(o.devices,
              ElementsAre("req-0:driver-a/pool-1/device-1", "req-0:driver-a/pool-1/device-1"));
}

TEST(AdminAccess, AdminAfterNormalClaimButNotBefore) {
  std::string one = Slice("slice-1", "pool-1", "{name: device-1}");
  EXPECT_THAT(
      Allocate(one + Claim("normal", OneRequest()) + Claim("admin", AdminRequest("ExactCount")),
               Admin())
          .devices,
      ElementsAre("req-0:driver-a/pool-1/device-1", "req-0:driver-a/pool-1/device-1"));
  // An admin pick marks the device busy for later non-admin claims of the same call.
  EXPECT_EQ(
      Allocate(one + Claim("admin", AdminRequest("ExactCount")) + Claim("normal", OneRequest()),
               Admin())
          .result.outcome,
      dra::allocator::Outcome::kUnschedulable);
}

TEST(AdminAccess, AllocatedAdminResultsDoNotBlock) {
  std::string admin_in_use = R"(apiVersion: resource.k8s.io/v1
kind: ResourceClaim
metadata: {name: in-use, namespace: default}
spec:
  devices:
    requests:
    - name: req-0
      exactly: {deviceClassName: class-a, adminAccess: true}
status:
  allocation:
    devices:
      results:
      - {request: req-0, driver: driver-a, pool: pool-1, device: device-1, adminAccess: true}
---
)";
  EXPECT_THAT(Allocate(Slice("slice-1", "pool-1", "{name: device-1}") + admin_in_use +
                           Claim("c", OneRequest()),
                       Admin())
                  .devices,
              ElementsAre("req-0:driver-a/pool-1/device-1"));
}

}  // namespace
}  // namespace dra::allocator::testing
