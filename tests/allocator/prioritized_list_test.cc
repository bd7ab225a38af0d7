// firstAvailable subrequests (DRAPrioritizedList), after the prioritized-list
// cases of upstream's shared allocator suite.
#include <gtest/gtest.h>

#include "allocator_test_util.h"

namespace dra::allocator::testing {
namespace {

using ::testing::ElementsAre;

Features Prioritized() {
  Features f = Base();
  f.prioritized_list = true;
  return f;
}

std::string MemoryDevices() {
  return Slice("slice-1", "pool-1",
               "{name: large, capacity: {memory: {value: 8Gi}}}, "
               "{name: small, capacity: {memory: {value: 4Gi}}}");
}

std::string AtLeast(const std::string& q) {
  return "[{cel: {expression: 'device.capacity[\"driver-a\"].memory.compareTo(quantity(\"" + q +
         "\")) >= 0'}}]";
}

TEST(PrioritizedList, FirstUnavailableFallsBack) {
  Outcome o = Allocate(Slice("slice-1", "pool-1", "{name: device-1}") + Claim("c", R"(
    requests:
    - name: req-0
      firstAvailable:
      - {name: subReq-0, deviceClassName: class-b}
      - {name: subReq-1, deviceClassName: class-a}
)"),
                       Prioritized());
  EXPECT_THAT(o.devices, ElementsAre("req-0/subReq-1:driver-a/pool-1/device-1"));
}

TEST(PrioritizedList, NoneAvailable) {
  Outcome o = Allocate(Slice("slice-1", "pool-1", "{name: device-1}") + Claim("c", R"(
    requests:
    - name: req-0
      firstAvailable:
      - {name: subReq-0, deviceClassName: class-a, count: 2}
      - {name: subReq-1, deviceClassName: class-b, count: 2}
)"),
                       Prioritized());
  EXPECT_EQ(o.result.outcome, dra::allocator::Outcome::kUnschedulable);
}

TEST(PrioritizedList, BacktracksWhenALaterRequestNeedsTheDevice) {
  Outcome o = Allocate(MemoryDevices() + Claim("c", R"(
    requests:
    - name: req-0
      firstAvailable:
      - {name: subReq-0, deviceClassName: class-a, selectors: )" +
                                                        AtLeast("8Gi") + R"(}
      - {name: subReq-1, deviceClassName: class-a, selectors: )" +
                                                        AtLeast("4Gi") + R"(}
    - {name: req-1, exactly: {deviceClassName: class-a, selectors: )" +
                                                        AtLeast("8Gi") + R"(}}
)"),
                       Prioritized());
  EXPECT_THAT(o.devices, ElementsAre("req-0/subReq-1:driver-a/pool-1/small "
                                     "req-1:driver-a/pool-1/large"));
}

TEST(PrioritizedList, TooManyInFirstSubrequestIsNotAValidationError) {
  Outcome o = Allocate(Slice("slice-1", "pool-1", "{name: device-1}") + Claim("c", R"(
    requests:
    - name: req-0
      firstAvailable:
      - {name: subReq-0, deviceClassName: class-a, count: 500}
      - {name: subReq-1, deviceClassName: class-a, count: 1}
)"),
                       Prioritized());
  EXPECT_THAT(o.devices, ElementsAre("req-0/subReq-1:driver-a/pool-1/device-1"));
}

TEST(PrioritizedList, AllSubrequestFailsOnAllocatedDevice) {
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
      - {request: req-0, driver: driver-a, pool: pool-1, device: device-1}
---
)";
  Outcome o = Allocate(
      Slice("slice-1", "pool-1", "{name: device-1}, {name: device-2}") + in_use + Claim("c", R"(
    requests:
    - name: req-0
      firstAvailable:
      - {name: subReq-0, deviceClassName: class-a, allocationMode: All}
      - {name: subReq-1, deviceClassName: class-a}
)"),
      Prioritized());
  EXPECT_THAT(o.devices, ElementsAre("req-0/subReq-1:driver-a/pool-1/device-2"));
}

// Upstream case prioritized-list-subrequests-with-constraints-ref-parent-request.
TEST(PrioritizedList, ConstraintOnParentAppliesToSubrequests) {
  std::string slices = Slice("slice-1", "pool-1",
                             "{name: device-1, capacity: {memory: {value: 8Gi}}, attributes: "
                             "{driverVersion: {version: 1.0.0}}}") +
                       Slice("slice-2", "pool-2",
                             "{name: device-2, capacity: {memory: {value: 2Gi}}, attributes: "
                             "{driverVersion: {version: 2.0.0}}}, "
                             "{name: device-3, capacity: {memory: {value: 1Gi}}, attributes: "
                             "{driverVersion: {version: 1.0.0}}}");
  auto claim = [&](const std::string& scope) {
    return Claim("claim-0", R"(
    constraints:
    - {requests: [req-0, )" + scope +
                                R"(], matchAttribute: driver-a/driverVersion}
    requests:
    - {name: req-0, exactly: {deviceClassName: class-a, selectors: )" +
                                AtLeast("8Gi") + R"(}}
    - name: req-1
      firstAvailable:
      - {name: subReq-0, deviceClassName: class-a, selectors: )" +
                                AtLeast("2Gi") + R"(}
      - {name: subReq-1, deviceClassName: class-a, selectors: )" +
                                AtLeast("1Gi") + R"(}
)");
  };
  Outcome parent = Allocate(slices + claim("req-1"), Prioritized());
  EXPECT_THAT(parent.devices, ElementsAre("req-0:driver-a/pool-1/device-1 "
                                          "req-1/subReq-1:driver-a/pool-2/device-3"));
  EXPECT_EQ(parent.result.steps, 8u);
  Outcome sub = Allocate(slices + claim("req-1/subReq-1"), Prioritized());
  EXPECT_THAT(sub.devices, ElementsAre("req-0:driver-a/pool-1/device-1 "
                                       "req-1/subReq-0:driver-a/pool-2/device-2"));
}

// Upstream case prioritized-list-max-allocation-limit-request (32-device limit).
TEST(PrioritizedList, MaxAllocationLimitRequest) {
  std::string devices;
  for (int i = 0; i < 32; ++i) {
    devices += (i ? ", " : "") + std::string("{name: device-") + std::to_string(i) + "}";
  }
  Outcome o = Allocate(Slice("slice-1", "pool-1", devices) + Claim("claim-0", R"(
    requests:
    - name: req-0
      firstAvailable:
      - {name: subReq-0, deviceClassName: class-a, allocationMode: ExactCount, count: 32}
      - {name: subReq-1, deviceClassName: class-a, allocationMode: ExactCount, count: 16}
    - name: req-1
      firstAvailable:
      - {name: subReq-0, deviceClassName: class-a, allocationMode: ExactCount, count: 32}
      - {name: subReq-1, deviceClassName: class-a, allocationMode: ExactCount, count: 16}
)"),
                       Prioritized());
  ASSERT_EQ(o.result.outcome, dra::allocator::Outcome::kAllocated) << o.result.error;
  const auto& results = o.result.allocations[0].devices.results;
  ASSERT_EQ(results.size(), 32u);
  for (int i = 0; i < 32; ++i) {
    EXPECT_EQ(results[i].request, i < 16 ? "req-0/subReq-1" : "req-1/subReq-1");
    EXPECT_EQ(results[i].device, "device-" + std::to_string(i));
  }
  EXPECT_EQ(o.result.steps, 75u);
}

TEST(PrioritizedList, MaxAllocationWithAllMode) {
  std::string devices;
  for (int i = 0; i < 31; ++i) {
    devices += (i ? ", " : "") + std::string("{name: device-") + std::to_string(i) + "}";
  }
  Outcome o =
      Allocate(Slice("slice-1", "pool-1", devices) +
                   Slice("slice-2", "pool-2", "{name: device-a}, {name: device-b}", "driver-b") +
                   Claim("claim-0", R"(
    requests:
    - name: req-0
      firstAvailable:
      - {name: subReq-0, deviceClassName: class-a, allocationMode: All}
      - {name: subReq-1, deviceClassName: class-a, allocationMode: ExactCount, count: 2}
    - {name: req-1, exactly: {deviceClassName: class-b, count: 2}}
)"),
               Prioritized());
  ASSERT_EQ(o.result.outcome, dra::allocator::Outcome::kAllocated) << o.result.error;
  EXPECT_THAT(o.devices,
              ElementsAre("req-0/subReq-1:driver-a/pool-1/device-0 "
                          "req-0/subReq-1:driver-a/pool-1/device-1 "
                          "req-1:driver-b/pool-2/device-a req-1:driver-b/pool-2/device-b"));
}

}  // namespace
}  // namespace dra::allocator::testing
