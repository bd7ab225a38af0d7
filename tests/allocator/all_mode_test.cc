// allocationMode All, after the All cases of upstream's shared allocator suite.
#include <gtest/gtest.h>

#include "allocator_test_util.h"

namespace dra::allocator::testing {
namespace {

using ::testing::ElementsAre;
using ::testing::HasSubstr;

const std::string kAll = R"(
    requests:
    - name: req-0
      exactly: {deviceClassName: class-a, allocationMode: All}
)";

std::string AllocatedClaim(const std::string& device) {
  return R"(apiVersion: resource.k8s.io/v1
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
      - {request: req-0, driver: driver-a, pool: pool-1, device: )" +
         device + "}\n---\n";
}

TEST(AllMode, SingleAndMany) {
  EXPECT_THAT(Allocate(Slice("slice-1", "pool-1", "{name: device-1}") + Claim("c", kAll)).devices,
              ElementsAre("req-0:driver-a/pool-1/device-1"));
  EXPECT_THAT(Allocate(Slice("slice-1", "pool-1", "{name: device-1}") +
                       Slice("slice-2", "pool-2", "{name: device-2}") + Claim("c", kAll))
                  .devices,
              ElementsAre("req-0:driver-a/pool-1/device-1 req-0:driver-a/pool-2/device-2"));
}

TEST(AllMode, IncompletePoolIsAnError) {
  Outcome o = Allocate(R"(apiVersion: resource.k8s.io/v1
kind: ResourceSlice
metadata: {name: slice-1}
spec:
  driver: driver-a
  nodeName: node-1
  pool: {name: pool-1, generation: 1, resourceSliceCount: 2}
  devices: [{name: device-1}]
---
)" + Claim("c", kAll));
  EXPECT_EQ(o.result.outcome, dra::allocator::Outcome::kError);
  EXPECT_THAT(o.result.error, HasSubstr("claim default/c, request req-0: asks for all devices, "
                                        "but resource pool driver-a/pool-1 is currently being "
                                        "updated"));
}

// Pools are visited in order: a device error in an earlier pool wins over a
// later incomplete pool.
TEST(AllMode, ErrorsSurfaceInPoolOrder) {
  Outcome o = Allocate(Slice("slice-1", "pool-1", "{name: device-1, attributes: {bad: {}}}") +
                       R"(apiVersion: resource.k8s.io/v1
kind: ResourceSlice
metadata: {name: slice-2}
spec:
  driver: driver-a
  nodeName: node-1
  pool: {name: pool-2, generation: 1, resourceSliceCount: 2}
  devices: [{name: device-2}]
---
)" + Claim("c", kAll));
  EXPECT_EQ(o.result.outcome, dra::allocator::Outcome::kError);
  EXPECT_THAT(
      o.result.error,
      HasSubstr(
          "class class-a: selector #0 on device driver-a/pool-1/device-1: CEL runtime error"));
}

TEST(AllMode, PlusAnotherInEitherOrder) {
  std::string slices = Slice("slice-1", "pool-1", "{name: device-1}, {name: device-2}") +
                       Slice("slice-2", "pool-1", "{name: device-1}", "driver-b");
  EXPECT_THAT(
      Allocate(slices + Claim("all", kAll) + Claim("b", OneRequest("req-0", "class-b"))).devices,
      ElementsAre("req-0:driver-a/pool-1/device-1 req-0:driver-a/pool-1/device-2",
                  "req-0:driver-b/pool-1/device-1"));
  EXPECT_THAT(
      Allocate(slices + Claim("b", OneRequest("req-0", "class-b")) + Claim("all", kAll)).devices,
      ElementsAre("req-0:driver-b/pool-1/device-1",
                  "req-0:driver-a/pool-1/device-1 req-0:driver-a/pool-1/device-2"));
}

TEST(AllMode, NoSolutionWhenAnotherClaimTakesADevice) {
  std::string slice = Slice("slice-1", "pool-1", "{name: device-1}");
  EXPECT_EQ(Allocate(slice + Claim("one", OneRequest()) + Claim("all", kAll)).result.outcome,
            dra::allocator::Outcome::kUnschedulable);
  EXPECT_EQ(Allocate(slice + Claim("all", kAll) + Claim("one", OneRequest())).result.outcome,
            dra::allocator::Outcome::kUnschedulable);
}

TEST(AllMode, ZeroDevicesFails) {
  EXPECT_EQ(Allocate(Slice("slice-1", "pool-1", "{name: device-1}", "driver-b") + Claim("c", kAll))
                .result.outcome,
            dra::allocator::Outcome::kUnschedulable);
  EXPECT_EQ(Allocate(Claim("c", kAll)).result.outcome, dra::allocator::Outcome::kUnschedulable);
}

TEST(AllMode, SomeAllocatedFails) {
  EXPECT_EQ(Allocate(Slice("slice-1", "pool-1", "{name: device-1}, {name: device-2}") +
                     AllocatedClaim("device-1") + Claim("c", kAll))
                .result.outcome,
            dra::allocator::Outcome::kUnschedulable);
}

TEST(AllMode, ConstraintRefusalIsAnError) {
  Outcome o = Allocate(Slice("slice-1", "pool-1",
                             "{name: device-1, attributes: {numa: {int: 1}}}, "
                             "{name: device-2, attributes: {numa: {int: 2}}}") +
                       Claim("c", kAll + "    constraints: [{matchAttribute: driver-a/numa}]\n"));
  EXPECT_EQ(o.result.outcome, dra::allocator::Outcome::kError);
  EXPECT_THAT(o.result.error, HasSubstr("request req-0: cannot add device "
                                        "driver-a/pool-1/device-2 because a claim constraint "
                                        "would not be satisfied"));
}

}  // namespace
}  // namespace dra::allocator::testing
