// Consumable capacity and allowMultipleAllocations (DRAConsumableCapacity):
// cases of upstream's shared allocator suite (release v0.37.2, see
// allocator_test_util.h), one test each, plus the release's additions:
// consumable-capacity-range-policy-* and -negative-request-aborts (requests
// that cannot be represented abort), consumable-capacity-requests-are-not-
// modified, consumable-capacity-rejection-rolls-back-constraints (a candidate
// refused by the capacity check leaves no constraint state behind),
// partitionable-empty-capacity-multiple-share-backtrack-keeps-
// counter-ownership and partitionable-consumable-capacity-shared-device-
// counter-not-recharged (a device shared earlier without recorded capacity
// does not pay its counters again).
//
// Upstream's aggregated capacity of earlier allocations is given as claims in
// use whose results carry a shareID and consumedCapacity.
#include <gtest/gtest.h>

#include <string>

#include "allocator_test_util.h"

namespace dra::allocator::catalog {
namespace {

const Features kCC = Feat("ConsumableCapacity");
RunOptions OwnClasses() {
  RunOptions o;
  o.classes = false;
  return o;
}
// classWithAllowMultipleAllocations(class-a, driver-a, multi).
std::string MultiClass(bool multi) {
  return ClassYaml(
      "class-a",
      std::string(R"(device.driver == "driver-a" && device.allowMultipleAllocations == )") +
          (multi ? "true" : "false"));
}
// A capacity with upstream's range policy: default 2, min 2, step 2, max 4.
std::string RangeCapacity(const std::string& name, const std::string& value) {
  return name + ": {value: \"" + value +
         "\", requestPolicy: {default: \"2\", validRange: {min: \"2\", step: \"2\", max: \"4\"}}}";
}
std::string ValidValuesCapacity(const std::string& value, const std::string& def,
                                const std::string& extra_values) {
  return "capacity-0: {value: \"" + value + "\", requestPolicy: {default: \"" + def +
         "\", validValues: [\"" + def + "\"" + extra_values + "]}}";
}
std::string Multi(const std::string& name, const std::string& capacities = "",
                  const std::string& extra = "") {
  return "{name: " + name + ", allowMultipleAllocations: true" +
         (capacities.empty() ? "" : ", capacity: {" + capacities + "}") + extra + "}";
}
std::string Cap0(const std::string& value) { return "capacity-0: {value: \"" + value + "\"}"; }
std::string Slice1(const std::string& devices) {
  return Devices("slice-1", "node-1", "pool-1", "driver-a", devices);
}
std::string Share(const std::string& device, const std::string& consumed = "") {
  return "{request: r, driver: driver-a, pool: pool-1, device: " + device +
         ", shareID: aaaaaaaa-aaaa-aaaa-aaaa-aaaaaaaaaaaa" +
         (consumed.empty() ? "" : ", consumedCapacity: {" + consumed + "}") + "}";
}
std::string OneClaim(const std::string& name, const std::string& extra = "") {
  return ClaimYaml(name, {Exact("req-0", "class-a", 1, extra)});
}
const std::string kTwoOneClaims = OneClaim("claim-0") + OneClaim("claim-1");

TEST(CatalogL, ConsumableCapacityDisabledFeature) {
  ExpectError(Slice1("{name: device-1}") + OneClaim("claim-0", CapReq("1")),
              Variants(Feat("DeviceBindingAndStatus")),
              "claim claim-0, request req-0: has capacity requests, but the DRAConsumableCapacity "
              "feature is disabled");
}

TEST(CatalogL, ConsumableCapacityDisabledFeatureWithPrioritizedList) {
  ExpectError(Slice1("{name: device-1}") +
                  ClaimYaml("claim-0", {FirstAvailable(
                                           "req-0", {Sub("subReq-0", "class-a", 1, CapReq("1")),
                                                     Sub("subReq-1", "class-a", 1, CapReq("1"))})}),
              Variants(Feat("PrioritizedList,DeviceBindingAndStatus")),
              "claim claim-0, subrequest subReq-0: has capacity requests, but the "
              "DRAConsumableCapacity feature is disabled");
}

TEST(CatalogL, ConsumableCapacityMultiAllocatableDeviceWithMissingCapacityRequest) {
  Expect(Slice1(Multi("device-1", "capacity-1: {value: \"1\"}")) + OneClaim("claim-0", CapReq("1")),
         Variants(kCC), kUnschedulable);
}

TEST(CatalogL,
     ConsumableCapacityMultiAllocatableDeviceAllocationModeAllWithMissingCapacityRequest) {
  Expect(MultiClass(true) + Slice1(Multi("device-1", "capacity-1: {value: \"1\"}")) +
             ClaimYaml("claim-0", {AllOf("req-0", "class-a", CapReq("1"))}),
         Variants(kCC), kUnschedulable, OwnClasses());
}

TEST(CatalogL, ConsumableCapacityMultiAllocatableDeviceWithoutCapacityWithoutCapacityRequest) {
  Expect(MultiClass(true) + Slice1(Multi("device-1")) + kTwoOneClaims, Variants(kCC),
         std::string(kNode1) + "req-0 driver-a/pool-1/device-1 share\n--\n" + kNode1 +
             "req-0 driver-a/pool-1/device-1 share\n",
         OwnClasses());
}

TEST(CatalogL, ConsumableCapacityMultiAllocatableDeviceWithoutPolicyWithoutCapacityRequest) {
  Expect(MultiClass(true) +
             Slice1(Multi("device-1", Cap0("1")) + ", " + Multi("device-2", Cap0("1"))) +
             kTwoOneClaims,
         Variants(kCC),
         std::string(kNode1) + "req-0 driver-a/pool-1/device-1 share cc=capacity-0=1\n--\n" +
             kNode1 + "req-0 driver-a/pool-1/device-2 share cc=capacity-0=1\n",
         OwnClasses());
}

TEST(CatalogL, ConsumableCapacityMultiAllocatableDeviceWithoutPolicyWithoutCapacityRequestBlock) {
  Expect(MultiClass(true) + Slice1(Multi("device-1", Cap0("2"))) + kTwoOneClaims, Variants(kCC),
         kUnschedulable, OwnClasses());
}

TEST(CatalogL, ConsumableCapacityMultiAllocatableDeviceWithoutPolicyWithCapacityRequest) {
  Expect(MultiClass(true) + Slice1(Multi("device-1", Cap0("2"))) +
             OneClaim("claim-0", CapReq("1")) + OneClaim("claim-1", CapReq("1")),
         Variants(kCC),
         std::string(kNode1) + "req-0 driver-a/pool-1/device-1 share cc=capacity-0=1\n--\n" +
             kNode1 + "req-0 driver-a/pool-1/device-1 share cc=capacity-0=1\n",
         OwnClasses());
}

TEST(CatalogL, ConsumableCapacityMultiAllocatableDeviceWithPolicyWithoutCapacityRequest) {
  Expect(MultiClass(true) + Slice1(Multi("device-1", RangeCapacity("capacity-0", "4"))) +
             kTwoOneClaims,
         Variants(kCC),
         std::string(kNode1) + "req-0 driver-a/pool-1/device-1 share cc=capacity-0=2\n--\n" +
             kNode1 + "req-0 driver-a/pool-1/device-1 share cc=capacity-0=2\n",
         OwnClasses());
}

TEST(CatalogL, ConsumableCapacityMultiAllocatableDeviceWithZeroRequestPolicy) {
  Expect(MultiClass(true) + Slice1(Multi("device-1", ValidValuesCapacity("1", "0", ""))) +
             kTwoOneClaims,
         Variants(kCC),
         std::string(kNode1) + "req-0 driver-a/pool-1/device-1 share cc=capacity-0=0\n--\n" +
             kNode1 + "req-0 driver-a/pool-1/device-1 share cc=capacity-0=0\n",
         OwnClasses());
}

TEST(CatalogL, ConsumableCapacityMultiAllocatableDeviceViolatesZeroRequestPolicy) {
  Expect(MultiClass(true) + Slice1(Multi("device-1", ValidValuesCapacity("1", "0", ""))) +
             OneClaim("claim-0", CapReq("1")),
         Variants(kCC), kUnschedulable, OwnClasses());
}

TEST(CatalogL, ConsumableCapacityMultiAllocatableDeviceWithRangePolicyWithCapacityRequest) {
  Expect(MultiClass(true) + Slice1(Multi("device-1", RangeCapacity("capacity-0", "4"))) +
             OneClaim("claim-0", CapReq("1")) + OneClaim("claim-1", CapReq("1")),
         Variants(kCC),
         std::string(kNode1) + "req-0 driver-a/pool-1/device-1 share cc=capacity-0=2\n--\n" +
             kNode1 + "req-0 driver-a/pool-1/device-1 share cc=capacity-0=2\n",
         OwnClasses());
}

TEST(CatalogL, ConsumableCapacityMultiAllocatableDeviceWithRangePolicyStep) {
  Expect(MultiClass(true) + Slice1(Multi("device-1", RangeCapacity("capacity-0", "4"))) +
             OneClaim("claim-0", CapReq("3")),
         Variants(kCC),
         std::string(kNode1) + "req-0 driver-a/pool-1/device-1 share cc=capacity-0=4\n",
         OwnClasses());
}

// Requests that cannot be represented as integers, or that round beyond
// int64, abort the allocation instead of skipping the device.
TEST(CatalogL, ConsumableCapacityRangePolicyRequestAboveInt64Rejected) {
  ExpectError(MultiClass(true) + Slice1(Multi("device-1", RangeCapacity("capacity-0", "4"))) +
                  OneClaim("claim-0", CapReq("18446744073709551616")),
              Variants(kCC), "cannot be represented", OwnClasses());
}

TEST(CatalogL, ConsumableCapacityRangePolicyRoundedValueOverflowRejected) {
  ExpectError(MultiClass(true) + Slice1(Multi("device-1", RangeCapacity("capacity-0", "4"))) +
                  OneClaim("claim-0", CapReq("9223372036854775807")),
              Variants(kCC), "cannot be represented", OwnClasses());
}

TEST(CatalogL, ConsumableCapacityRangePolicyOverflowAbortsNotSkip) {
  ExpectError(MultiClass(true) +
                  Slice1(Multi("device-1", RangeCapacity("capacity-0", "4")) + ", " +
                         Multi("device-2", Cap0("36893488147419103232"))) +
                  OneClaim("claim-0", CapReq("18446744073709551616")),
              Variants(kCC), "cannot be represented", OwnClasses());
}

TEST(CatalogL, ConsumableCapacityRangePolicyAllocationModeAllOverflowAborts) {
  ExpectError(MultiClass(true) + Slice1(Multi("device-1", RangeCapacity("capacity-0", "4"))) +
                  ClaimYaml("claim-0", {AllOf("req-0", "class-a", CapReq("18446744073709551616"))}),
              Variants(kCC), "cannot be represented", OwnClasses());
}

TEST(CatalogL, ConsumableCapacityNegativeRequestAborts) {
  ExpectError(
      MultiClass(true) + Slice1(Multi("device-1", Cap0("10"))) + OneClaim("claim-0", CapReq("-5")),
      Variants(kCC), "negative", OwnClasses());
}

// DRAFractionalCapacityRange off: the step arithmetic rounds 200m and 100m up
// to 1, so the request of 200m consumes 1.
TEST(CatalogL, ConsumableCapacityFractionalRangeGateDisabled) {
  Expect(MultiClass(true) +
             Slice1(Multi(
                 "device-1",
                 "capacity-0: {value: \"1\", requestPolicy: {default: 200m, validRange: {min: "
                 "200m, step: 100m, max: \"1\"}}}")) +
             OneClaim("claim-0", ", capacity: {requests: {capacity-0: 200m}}"),
         Variants(kCC),
         std::string(kNode1) + "req-0 driver-a/pool-1/device-1 share cc=capacity-0=1\n",
         OwnClasses());
}

TEST(CatalogL, ConsumableCapacityMultiAllocatableDeviceWithValidValuesPolicy) {
  Expect(MultiClass(true) + Slice1(Multi("device-1", ValidValuesCapacity("4", "1", ", \"2\""))) +
             OneClaim("claim-0", CapReq("2")),
         Variants(kCC),
         std::string(kNode1) + "req-0 driver-a/pool-1/device-1 share cc=capacity-0=2\n",
         OwnClasses());
}

TEST(CatalogL, ConsumableCapacityMultiAllocatableDeviceWithValidValuesPolicyRoundUp) {
  Expect(MultiClass(true) + Slice1(Multi("device-1", ValidValuesCapacity("3", "1", ", \"3\""))) +
             OneClaim("claim-0", CapReq("2")),
         Variants(kCC),
         std::string(kNode1) + "req-0 driver-a/pool-1/device-1 share cc=capacity-0=3\n",
         OwnClasses());
}

TEST(CatalogL, ConsumableCapacityMultiAllocatableDeviceWithExceededConsumableCapacityRequest) {
  Expect(MultiClass(true) + Slice1(Multi("device-1", RangeCapacity("capacity-0", "2"))) +
             OneClaim("claim-0", CapReq("1")) + OneClaim("claim-1", CapReq("2")),
         Variants(kCC), kUnschedulable, OwnClasses());
}

TEST(CatalogL, ConsumableCapacityMultiAllocatableDeviceWithRequestOverMaxSharingPolicy) {
  Expect(MultiClass(true) + Slice1(Multi("device-1", RangeCapacity("capacity-0", "10"))) +
             OneClaim("claim-0", CapReq("6")),
         Variants(kCC), kUnschedulable, OwnClasses());
}

TEST(CatalogL, ConsumableCapacityMultiAllocatableDeviceWithAllocatedCapacityUseRemaining) {
  Expect(MultiClass(true) + Slice1(Multi("device-1", RangeCapacity("capacity-0", "4"))) +
             InUse("in-use", {Share("device-1", "capacity-0: \"2\"")}) +
             OneClaim("claim-0", CapReq("2")),
         Variants(kCC),
         std::string(kNode1) + "req-0 driver-a/pool-1/device-1 share cc=capacity-0=2\n",
         OwnClasses());
}

TEST(CatalogL, ConsumableCapacityMultiAllocatableDeviceWithAllocatedCapacityNextDevice) {
  Expect(MultiClass(true) +
             Slice1(Multi("device-1", RangeCapacity("capacity-0", "2")) + ", " +
                    Multi("device-2", RangeCapacity("capacity-0", "2"))) +
             InUse("in-use", {Share("device-1", "capacity-0: \"2\"")}) +
             OneClaim("claim-0", CapReq("2")),
         Variants(kCC),
         std::string(kNode1) + "req-0 driver-a/pool-1/device-2 share cc=capacity-0=2\n",
         OwnClasses());
}

// req-0 first takes device-2, whose capacity then leaves no room for req-1, and
// device-1's attribute differs; backtracking puts req-0 and req-1 on device-1 and
// claim-1 on device-2.
TEST(CatalogL, ConsumableCapacityWithMultiAllocatableDeviceBacktrack) {
  Expect(Slice1(Multi("device-2", RangeCapacity("capacity-0", "2"),
                      ", attributes: {stringAttribute: {string: stringAttributeValue1}}") +
                ", " +
                Multi("device-1", RangeCapacity("capacity-0", "4"),
                      ", attributes: {stringAttribute: {string: stringAttributeValue2}}")) +
             ClaimYaml("claim-0",
                       {Exact("req-0", "class-a", 1, CapReq("2")),
                        Exact("req-1", "class-a", 1, CapReq("2"))},
                       "{matchAttribute: driver-a/stringAttribute}") +
             OneClaim("claim-1", CapReq("2")),
         Variants(kCC),
         std::string(kNode1) +
             "req-0 driver-a/pool-1/device-1 share cc=capacity-0=2\n"
             "req-1 driver-a/pool-1/device-1 share cc=capacity-0=2\n--\n" +
             kNode1 + "req-0 driver-a/pool-1/device-2 share cc=capacity-0=2\n");
}

TEST(CatalogL, ConsumableCapacityMultiAllocatableDeviceWithSubrequest) {
  Expect(
      MultiClass(true) + Slice1(Multi("device-1", RangeCapacity("capacity-0", "2"))) +
          ClaimYaml("claim-0", {FirstAvailable("req-0", {Sub("subReq-0", "class-a", 1, CapReq("4")),
                                                         Sub("subReq-1", "class-a", 1, CapReq("2")),
                                                         Sub("subReq-1", "class-a", 1)})}),
      Variants(Feat("ConsumableCapacity,PrioritizedList")),
      std::string(kNode1) + "req-0/subReq-1 driver-a/pool-1/device-1 share cc=capacity-0=2\n",
      OwnClasses());
}

TEST(CatalogL, ConsumableCapacityMultiAllocatableDeviceWithNoAvailableConsumableCapacity) {
  Expect(MultiClass(true) + Slice1(Multi("device-1", RangeCapacity("capacity-0", "2"))) +
             InUse("in-use", {Share("device-1", "capacity-0: \"2\"")}) +
             OneClaim("claim-0", CapReq("2")),
         Variants(kCC), kUnschedulable, OwnClasses());
}

TEST(CatalogL, ConsumableCapacityMultiAllocatableDeviceAllocationModeAllFilterOutNoCapacity) {
  Expect(MultiClass(true) + Slice1(Multi("device-1", Cap0("2")) + ", " + Multi("device-2")) +
             ClaimYaml("claim-0", {AllOf("req-0", "class-a", CapReq("2"))}),
         Variants(kCC),
         std::string(kNode1) + "req-0 driver-a/pool-1/device-1 share cc=capacity-0=2\n",
         OwnClasses());
}

TEST(CatalogL,
     ConsumableCapacityMultiAllocatableDeviceAllocationModeAllFilterOutInsufficientCapacity) {
  Expect(MultiClass(true) +
             Slice1(Multi("device-1", Cap0("2")) + ", " + Multi("device-2", Cap0("1"))) +
             ClaimYaml("claim-0", {AllOf("req-0", "class-a", CapReq("2"))}),
         Variants(kCC),
         std::string(kNode1) + "req-0 driver-a/pool-1/device-1 share cc=capacity-0=2\n",
         OwnClasses());
}

TEST(CatalogL, ConsumableCapacityMultiAllocatableDeviceAllocationModeAllAllocatingSufficient) {
  Expect(Slice1(Multi("device-1", Cap0("2")) + ", " + Multi("device-2", Cap0("1"))) +
             ClaimYaml("claim-0", {Exact("req-0", "class-a", 1, CapReq("1")),
                                   AllOf("req-1", "class-a", CapReq("1"))}),
         Variants(kCC),
         std::string(kNode1) +
             "req-0 driver-a/pool-1/device-1 share cc=capacity-0=1\n"
             "req-1 driver-a/pool-1/device-1 share cc=capacity-0=1\n"
             "req-1 driver-a/pool-1/device-2 share cc=capacity-0=1\n");
}

TEST(CatalogL, ConsumableCapacityMultiAllocatableDeviceAllocationModeAllInUseSufficient) {
  Expect(Slice1(Multi("device-1", Cap0("2")) + ", " + Multi("device-2", Cap0("1"))) +
             InUse("in-use", {Share("device-1", "capacity-0: \"1\"")}) +
             ClaimYaml("claim-0", {AllOf("req-0", "class-a", CapReq("1"))}),
         Variants(kCC),
         std::string(kNode1) +
             "req-0 driver-a/pool-1/device-1 share cc=capacity-0=1\n"
             "req-0 driver-a/pool-1/device-2 share cc=capacity-0=1\n");
}

TEST(CatalogL, ConsumableCapacityMultiAllocatableDeviceAllocationModeAllAllocatingInsufficient) {
  Expect(Slice1(Multi("device-1", Cap0("1")) + ", " + Multi("device-2", Cap0("1"))) +
             ClaimYaml("claim-0", {Exact("req-0", "class-a", 1, CapReq("1")),
                                   AllOf("req-1", "class-a", CapReq("1"))}),
         Variants(kCC), kUnschedulable);
}

// The release no longer drops the exhausted device-1 from the All list
// (older upstream allocators allocated device-2 alone): the All request fails.
TEST(CatalogL, ConsumableCapacityMultiAllocatableDeviceAllocationModeAllInUseInsufficient) {
  Expect(Slice1(Multi("device-1", Cap0("1")) + ", " + Multi("device-2", Cap0("1"))) +
             InUse("in-use", {Share("device-1", "capacity-0: \"1\"")}) +
             ClaimYaml("claim-0", {AllOf("req-0", "class-a", CapReq("1"))}),
         Variants(kCC), kUnschedulable);
}

TEST(CatalogL, ConsumableCapacityDedicatedDeviceWithConsumableCapacityRequest) {
  Expect(MultiClass(false) + Slice1("{name: device-1, capacity: {" + Cap0("1") + "}}") +
             OneClaim("claim-0", CapReq("1")),
         Variants(kCC), std::string(kNode1) + "req-0 driver-a/pool-1/device-1\n", OwnClasses());
}

TEST(CatalogL, ConsumableCapacityDedicatedDeviceWithMultipleConsumableCapacityRequest) {
  Expect(MultiClass(false) +
             Slice1("{name: device-1, capacity: {" + RangeCapacity("capacity-0", "2") + "}}") +
             OneClaim("claim-0", CapReq("1")) + OneClaim("claim-1", CapReq("1")),
         Variants(kCC), kUnschedulable, OwnClasses());
}

// The consumed 10^21 renders as "1": apimachinery's canonical text of a
// DecimalSI value beyond the E suffix (Go's resource.MustParse(
// "1000000000000000000000").String() is "1" too); the value itself is exact.
TEST(CatalogL, ConsumableCapacityRequestsAreNotModified) {
  Expect(Slice1(Multi("device-1",
                      "capacity-0: {value: \"1000000000000000000002\", requestPolicy: {default: "
                      "\"1000000000000000000000\", validRange: {min: \"2\"}}}")) +
             ClaimYaml("claim-0", {Exact("req-0", "class-a", 1, CapReq("2")),
                                   Exact("req-1", "class-a", 1, CapReq("1000000000000000000000"))}),
         Variants(kCC),
         std::string(kNode1) +
             "req-0 driver-a/pool-1/device-1 share cc=capacity-0=2\n"
             "req-1 driver-a/pool-1/device-1 share cc=capacity-0=1\n");
}

TEST(CatalogL, AllowMultipleAllocationsExcludeMultiAllocatableDeviceByClassSelector) {
  Expect(
      MultiClass(false) + Slice1(Multi("device-1", Cap0("1"))) + OneClaim("claim-0", CapReq("1")),
      Variants(kCC), kUnschedulable, OwnClasses());
}

TEST(CatalogL, AllowMultipleAllocationsNotAllocateMultiAllocatableDeviceWhichAlreadyDedicated) {
  Expect(MultiClass(true) + Slice1(Multi("device-1", RangeCapacity("capacity-0", "2"))) +
             Allocated({"driver-a/pool-1/device-1"}) + OneClaim("claim-0", CapReq("1")),
         Variants(kCC), kUnschedulable, OwnClasses());
}

TEST(CatalogL, AllowMultipleAllocationsNotAllocateDedicatedDeviceWhichChangeFromMultiAllocatable) {
  Expect(MultiClass(true) +
             Slice1("{name: device-1, capacity: {" + RangeCapacity("capacity-0", "2") + "}}") +
             InUse("in-use", {Share("device-1", "capacity-0: \"1\"")}) +
             OneClaim("claim-0", CapReq("1")),
         Variants(kCC), kUnschedulable, OwnClasses());
}

std::string Memory(const std::string& q) {
  return Sel(R"(device.capacity["driver-a"].memory.compareTo(quantity(")" + q + R"(")) >= 0)");
}

TEST(CatalogL, AllowMultipleAllocationsWithPartitionableDevice) {
  Expect(MultiClass(true) +
             Devices("slice-1", "node-1", Pool("pool-1", 2), "driver-a",
                     CounterDevice("device-1", "counter-set-1:memory=4Gi", true,
                                   ", allowMultipleAllocations: true") +
                         ", " +
                         CounterDevice("device-2", "counter-set-1:memory=6Gi", true,
                                       ", allowMultipleAllocations: true") +
                         ", " +
                         CounterDevice("device-3", "counter-set-1:memory=4Gi", true,
                                       ", allowMultipleAllocations: true")) +
             CounterSlice("slice-2", "node-1", Pool("pool-1", 2), "driver-a",
                          "counter-set-1:memory=8Gi") +
             ClaimYaml("claim-0",
                       {Exact("req-0", "class-a", 1),
                        FirstAvailable("req-1", {Sub("subReq-0", "class-a", 1, Memory("6Gi")),
                                                 Sub("subReq-1", "class-a", 1, Memory("4Gi"))})}),
         Variants(Feat("PrioritizedList,PartitionableDevices,ConsumableCapacity")),
         std::string(kNode1) +
             "req-0 driver-a/pool-1/device-1 share cc=memory=4Gi\n"
             "req-1/subReq-1 driver-a/pool-1/device-3 share cc=memory=4Gi\n",
         OwnClasses());
}

TEST(CatalogL, AllowMultipleAllocationsWithSharedDeviceCounterCrossCycle) {
  Expect(MultiClass(true) +
             Devices("slice-1", "node-1", Pool("pool-1", 2), "driver-a",
                     CounterDevice(
                         "device-1", "counter-set-1:capacity-0=1", true,
                         ", attributes: {mode: {string: a}}, allowMultipleAllocations: true") +
                         ", " +
                         CounterDevice(
                             "device-2", "counter-set-1:capacity-0=1", true,
                             ", attributes: {mode: {string: b}}, allowMultipleAllocations: true")) +
             CounterSlice("slice-2", "node-1", Pool("pool-1", 2), "driver-a",
                          "counter-set-1:capacity-0=1") +
             InUse("in-use", {Share("device-1", "capacity-0: \"1\"")}) +
             OneClaim("claim-0", CapReq("1") + Sel(R"(device.attributes["driver-a"].mode == "b")")),
         Variants(Feat("PartitionableDevices,ConsumableCapacity")), kUnschedulable, OwnClasses());
}

// device-1 is shared by an earlier allocation without recorded capacity; it
// paid its counter then and is not charged again.
TEST(CatalogL, PartitionableConsumableCapacitySharedDeviceCounterNotRecharged) {
  Expect(Devices("slice-1", "node-1", Pool("pool-1", 2), "driver-a",
                 CounterDevice("device-1", "counter-set-1:c=1", false,
                               ", allowMultipleAllocations: true")) +
             CounterSlice("slice-2", "node-1", Pool("pool-1", 2), "driver-a", "counter-set-1:c=1") +
             InUse("in-use", {Share("device-1")}) + OneClaim("claim-0"),
         Variants(Feat("PartitionableDevices,ConsumableCapacity")),
         std::string(kNode1) + "req-0 driver-a/pool-1/device-1 share\n");
}

// The All candidate refused by the late capacity check leaves no constraint
// state behind (older upstream allocators kept it; fixed by
// kubernetes/kubernetes#140431).
TEST(CatalogL, ConsumableCapacityRejectionRollsBackConstraints) {
  const std::string cap = Sel(R"(device.attributes["driver-a"].stringAttribute == "cap")");
  const std::string fb = Sel(R"(device.attributes["driver-a"].stringAttribute == "fb")");
  Expect(Slice1(Multi("device-1", Cap0("2"), ", attributes: {stringAttribute: {string: cap}}") +
                ", {name: device-2, attributes: {stringAttribute: {string: fb}}}") +
             ClaimYaml("claim-0", {Exact("req-0", "class-a", 1, CapReq("2") + cap)}) +
             ClaimYaml("claim-1",
                       {FirstAvailable("req-0", {SubAll("subReq-0", "class-a",
                                                        ", count: 1" + CapReq("2") + cap),
                                                 Sub("subReq-1", "class-a", 1, fb)})},
                       "{matchAttribute: driver-a/stringAttribute}"),
         Variants(Feat("ConsumableCapacity,PrioritizedList")),
         std::string(kNode1) + "req-0 driver-a/pool-1/device-1 share cc=capacity-0=2\n--\n" +
             kNode1 + "req-0/subReq-1 driver-a/pool-1/device-2\n");
}

// claim-1's req-1 tries device-1 as a second share, is undone because of the
// constraint with req-2, and req-3 shares device-1 again: claim-0's share
// still holds the counter, which is not charged twice.
TEST(CatalogL, PartitionableEmptyCapacityMultipleShareBacktrackKeepsCounterOwnership) {
  Expect(
      Devices(
          "slice-1", "node-1", Pool("pool-1", 2), "driver-a",
          CounterDevice("device-1", "counter-set-1:c=1", false,
                        ", attributes: {kind: {string: shared}, stringAttribute: {string: red}}, "
                        "allowMultipleAllocations: true") +
              ", {name: device-2, attributes: {kind: {string: fallback}, stringAttribute: "
              "{string: blue}}}, {name: device-3, attributes: {kind: {string: gate}, "
              "stringAttribute: {string: blue}}}") +
          CounterSlice("slice-2", "node-1", Pool("pool-1", 2), "driver-a", "counter-set-1:c=1") +
          ClaimYaml("claim-0", {Exact("req-0", "class-a", 1,
                                      Sel(R"(device.attributes["driver-a"].kind == "shared")"))}) +
          ClaimYaml(
              "claim-1",
              {Exact(
                   "req-1", "class-a", 1,
                   Sel(R"(device.attributes["driver-a"].kind == "shared" || device.attributes["driver-a"].kind == "fallback")")),
               Exact("req-2", "class-a", 1, Sel(R"(device.attributes["driver-a"].kind == "gate")")),
               Exact("req-3", "class-a", 1,
                     Sel(R"(device.attributes["driver-a"].kind == "shared")"))},
              "{matchAttribute: driver-a/stringAttribute, requests: [req-1, req-2]}"),
      Variants(Feat("PartitionableDevices,ConsumableCapacity")),
      std::string(kNode1) + "req-0 driver-a/pool-1/device-1 share\n--\n" + kNode1 +
          "req-1 driver-a/pool-1/device-2\nreq-2 driver-a/pool-1/device-3\n"
          "req-3 driver-a/pool-1/device-1 share\n");
}

// Shares of device-1 pay its counters once; req-2 does not fit device-1's
// capacity or device-2's counters and gets device-3; req-1 falls back to
// subReq-1 and shares device-1.
TEST(CatalogL, ConsumableCapacityWithPartitionableDeviceMultipleCapacityPools) {
  auto device = [](const std::string& name, const std::string& c0) {
    return "{name: " + name +
           ", allowMultipleAllocations: true, capacity: {capacity-0: {value: \"" + c0 + "\"}, " +
           RangeCapacity("capacity-1", "4") +
           "}, consumesCounters: [{counterSet: counter-set-1, counters: {capacity-0: {value: \"" +
           c0 + "\"}}}, {counterSet: counter-set-2, counters: {capacity-1: {value: \"4\"}}}]}";
  };
  const std::string at_least = R"(device.capacity["driver-a"]["capacity-0"].compareTo(quantity(")";
  Expect(
      Devices("slice-1", "node-1", Pool("pool-1", 2), "driver-a",
              device("device-1", "2") + ", " + device("device-2", "4") + ", " +
                  device("device-3", "2")) +
          CounterSlice("slice-2", "node-1", Pool("pool-1", 2), "driver-a",
                       "counter-set-1:capacity-0=4;counter-set-2:capacity-1=8") +
          ClaimYaml(
              "claim-0",
              {Exact("req-0", "class-a", 1, CapReq("1")), Exact("req-2", "class-a", 1, CapReq("2")),
               FirstAvailable(
                   "req-1",
                   {Sub("subReq-0", "class-a", 1, Sel(at_least + R"(4")) >= 0)") + CapReq("1")),
                    Sub("subReq-1", "class-a", 1, Sel(at_least + R"(2")) >= 0)") + CapReq("1"))})}),
      Variants(Feat("PrioritizedList,PartitionableDevices,ConsumableCapacity")),
      std::string(kNode1) +
          "req-0 driver-a/pool-1/device-1 share cc=capacity-0=1,capacity-1=2\n"
          "req-2 driver-a/pool-1/device-3 share cc=capacity-0=2,capacity-1=2\n"
          "req-1/subReq-1 driver-a/pool-1/device-1 share cc=capacity-0=1,capacity-1=2\n");
}

}  // namespace
}  // namespace dra::allocator::catalog
