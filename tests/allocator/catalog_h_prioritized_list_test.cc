// Prioritized lists (firstAvailable, DRAPrioritizedList): cases of upstream's
// shared allocator suite (release v0.37.2, see allocator_test_util.h), one test each,
// with the asserted search-step counts, plus the
// release's prioritized-list-minimum-sum-exceeds-claim-limit and
// prioritized-list-overflowing-first-subrequest-is-pruned.
#include <gtest/gtest.h>

#include <string>

#include "allocator_test_util.h"

namespace dra::allocator::catalog {
namespace {

const Features kPL = Feat("PrioritizedList");

std::string Memory(const std::string& q) {
  return Sel(R"(device.capacity["driver-a"].memory.compareTo(quantity(")" + q + R"(")) >= 0)");
}
std::string Generation(const std::string& g) {
  return Sel(R"(device.attributes["driver-a"].generation == ")" + g + R"(")");
}
RunOptions OwnClasses() {
  RunOptions o;
  o.classes = false;
  return o;
}
std::string NumberedDevices(int n) {
  std::string out;
  for (int i = 0; i < n; ++i)
    out += (i ? ", " : "") + std::string("{name: device-") + std::to_string(i) + "}";
  return out;
}

TEST(CatalogH, PrioritizedListFirstUnavailable) {
  Expect(Devices("slice-1", "node-1", "pool-1", "driver-a", "{name: device-1}") +
             ClaimYaml("claim-0", {FirstAvailable("req-0", {Sub("subReq-0", "class-b", 1),
                                                            Sub("subReq-1", "class-a", 1)})}),
         Variants(kPL), std::string(kNode1) + "req-0/subReq-1 driver-a/pool-1/device-1\n");
}

TEST(CatalogH, PrioritizedListNonAvailable) {
  Expect(Devices("slice-1", "node-1", "pool-1", "driver-a", "{name: device-1}") +
             Devices("slice-2", "node-1", "pool-2", "driver-b", "{name: device-1}") +
             ClaimYaml("claim-0", {FirstAvailable("req-0", {Sub("subReq-0", "class-b", 2),
                                                            Sub("subReq-1", "class-a", 2)})}),
         Variants(kPL), kUnschedulable);
}

TEST(CatalogH, PrioritizedListDeviceConfig) {
  Expect(Devices("slice-1", "node-1", "pool-1", "driver-b",
                 "{name: device-1, attributes: {}}, {name: device-2, attributes: {}}") +
             ClaimYaml("claim-0",
                       {FirstAvailable("req-0", {Sub("subReq-0", "class-a", 1),
                                                 Sub("subReq-1", "class-b", 2)})},
                       "",
                       "{requests: [req-0/subReq-0], opaque: {driver: driver-a, parameters: {foo: "
                       "fooValue}}}, {requests: [req-0/subReq-1], opaque: {driver: driver-b, "
                       "parameters: {bar: barValue}}}"),
         Variants(kPL),
         std::string(kNode1) +
             "req-0/subReq-1 driver-b/pool-1/device-1\nreq-0/subReq-1 driver-b/pool-1/device-2\n"
             "config FromClaim * " +
             OpaqueText("driver-b", "bar") + "\n");
}

TEST(CatalogH, PrioritizedListClassConfig) {
  Expect(
      DriverClass("class-a", "driver-a", "foo") + DriverClass("class-b", "driver-b", "bar") +
          Devices("slice-1", "node-1", "pool-1", "driver-b", "{name: device-1}, {name: device-2}") +
          Devices("slice-2", "node-1", "pool-2", "driver-a", "{name: device-3}") +
          ClaimYaml("claim-0", {FirstAvailable("req-0", {Sub("subReq-0", "class-a", 2),
                                                         Sub("subReq-1", "class-b", 2)})}),
      Variants(kPL),
      std::string(kNode1) +
          "req-0/subReq-1 driver-b/pool-1/device-1\nreq-0/subReq-1 driver-b/pool-1/device-2\n"
          "config FromClass * " +
          OpaqueText("driver-b", "bar") + "\n",
      OwnClasses());
}

TEST(CatalogH, ClaimConfigScopedToSubrequestsOfOneRequest) {
  Expect(Devices("slice-1", "node-1", "pool-1", "driver-a", NumberedDevices(2)) +
             ClaimYaml("claim-0",
                       {FirstAvailable("req-0", {Sub("subReq-0", "class-a", 1),
                                                 Sub("subReq-1", "class-b", 1)}),
                        Exact("req-1", "class-a", 1)},
                       "",
                       "{requests: [req-0/subReq-0, req-0/subReq-1], opaque: {driver: driver-a, "
                       "parameters: {scoped: scopedValue}}}"),
         Variants(kPL),
         std::string(kNode1) +
             "req-0/subReq-0 driver-a/pool-1/device-0\nreq-1 driver-a/pool-1/device-1\n"
             "config FromClaim [req-0/subReq-0,req-0/subReq-1] " +
             OpaqueText("driver-a", "scoped") + "\n");
}

TEST(CatalogH, ClaimConfigCoveringAllRequestsIsCleared) {
  Expect(Devices("slice-1", "node-1", "pool-1", "driver-a", NumberedDevices(2)) +
             ClaimYaml("claim-0",
                       {FirstAvailable("req-0", {Sub("subReq-0", "class-a", 1),
                                                 Sub("subReq-1", "class-b", 1)}),
                        Exact("req-1", "class-a", 1)},
                       "",
                       "{requests: [req-0/subReq-0, req-1], opaque: {driver: driver-a, "
                       "parameters: {all: allValue}}}"),
         Variants(kPL),
         std::string(kNode1) +
             "req-0/subReq-0 driver-a/pool-1/device-0\nreq-1 driver-a/pool-1/device-1\n"
             "config FromClaim * " +
             OpaqueText("driver-a", "all") + "\n");
}

TEST(CatalogH, PrioritizedListSubrequestsWithExpressions) {
  Expect(Devices("slice-1", "node-1", "pool-1", "driver-a",
                 "{name: device-1, capacity: {memory: {value: 2Gi}}}, "
                 "{name: device-2, capacity: {memory: {value: 2Gi}}}, "
                 "{name: device-3, capacity: {memory: {value: 1Gi}}}") +
             ClaimYaml("claim-0",
                       {Exact("req-0", "class-a", 1, Memory("1Gi")),
                        FirstAvailable("req-1", {Sub("subReq-0", "class-a", 1, Memory("4Gi")),
                                                 Sub("subReq-1", "class-a", 2, Memory("2Gi"))})}),
         Variants(kPL),
         std::string(kNode1) +
             "req-0 driver-a/pool-1/device-3\nreq-1/subReq-1 driver-a/pool-1/device-1\n"
             "req-1/subReq-1 driver-a/pool-1/device-2\n");
}

const std::string kVersionedMemoryDevices =
    Devices("slice-1", "node-1", "pool-1", "driver-a",
            "{name: device-1, capacity: {memory: {value: 8Gi}}, attributes: {driverVersion: "
            "{version: 1.0.0}}}");

// A constraint naming the parent request binds its subrequests.
TEST(CatalogH, PrioritizedListSubrequestsWithConstraintsRefParentRequest) {
  Expect(kVersionedMemoryDevices +
             Devices("slice-2", "node-1", "pool-2", "driver-a",
                     "{name: device-2, capacity: {memory: {value: 2Gi}}, attributes: "
                     "{driverVersion: {version: 2.0.0}}}, "
                     "{name: device-3, capacity: {memory: {value: 1Gi}}, attributes: "
                     "{driverVersion: {version: 1.0.0}}}") +
             ClaimYaml("claim-0",
                       {Exact("req-0", "class-a", 1, Memory("8Gi")),
                        FirstAvailable("req-1", {Sub("subReq-0", "class-a", 1, Memory("2Gi")),
                                                 Sub("subReq-1", "class-a", 1, Memory("1Gi"))})},
                       "{requests: [req-0, req-1], matchAttribute: driver-a/driverVersion}"),
         Variants(kPL),
         std::string(kNode1) +
             "req-0 driver-a/pool-1/device-1\nreq-1/subReq-1 driver-a/pool-2/device-3\n");
}

// A constraint naming req-1/subReq-0 does not bind req-1/subReq-1.
TEST(CatalogH, PrioritizedListSubrequestsWithConstraintsRefSubRequest) {
  Expect(
      kVersionedMemoryDevices +
          Devices("slice-2", "node-1", "pool-2", "driver-a",
                  "{name: device-2, capacity: {memory: {value: 2Gi}}, attributes: "
                  "{driverVersion: {version: 2.0.0}}}") +
          ClaimYaml("claim-0",
                    {Exact("req-0", "class-a", 1, Memory("8Gi")),
                     FirstAvailable("req-1", {Sub("subReq-0", "class-a", 1, Memory("2Gi")),
                                              Sub("subReq-1", "class-a", 1, Memory("1Gi"))})},
                    "{requests: [req-0, req-1/subReq-0], matchAttribute: driver-a/driverVersion}"),
      Variants(kPL),
      std::string(kNode1) +
          "req-0 driver-a/pool-1/device-1\nreq-1/subReq-1 driver-a/pool-2/device-2\n");
}

const std::string kTwoDevices =
    Devices("slice-1", "node-1", "pool-1", "driver-a", "{name: device-1}, {name: device-2}");

TEST(CatalogH, PrioritizedListSubrequestsWithAllocationModeAll) {
  Expect(kTwoDevices + Allocated({"driver-a/pool-1/device-1"}) +
             ClaimYaml("claim-0", {FirstAvailable("req-0", {SubAll("subReq-0", "class-a"),
                                                            Sub("subReq-1", "class-a", 1)})}),
         Variants(kPL), std::string(kNode1) + "req-0/subReq-1 driver-a/pool-1/device-2\n");
}

TEST(CatalogH, PrioritizedListAllocationModeAllMultipleRequests) {
  Expect(kTwoDevices +
             ClaimYaml("claim-0", {Exact("req-0", "class-a", 1),
                                   FirstAvailable("req-1", {SubAll("subReq-0", "class-a"),
                                                            Sub("subReq-1", "class-a", 1)})}),
         Variants(kPL),
         std::string(kNode1) +
             "req-0 driver-a/pool-1/device-1\nreq-1/subReq-1 driver-a/pool-1/device-2\n");
}

TEST(CatalogH, PrioritizedListDisabled) {
  ExpectError(Devices("slice-1", "node-1", "pool-1", "driver-a", "{name: device-1}") +
                  ClaimYaml("claim-0", {FirstAvailable("req-0", {Sub("subReq-0", "class-a", 1)})}),
              Variants({}),
              "claim claim-0, request req-0: has subrequests, but the DRAPrioritizedList feature "
              "is disabled");
}

const std::string k8GiAnd4Gi =
    Devices("slice-1", "node-1", "pool-1", "driver-a",
            "{name: device-1, capacity: {memory: {value: 8Gi}}, attributes: {}}") +
    Devices("slice-2", "node-1", "pool-2", "driver-a",
            "{name: device-2, capacity: {memory: {value: 4Gi}}, attributes: {}}");

TEST(CatalogH, PrioritizedListMultiRequest) {
  Expect(k8GiAnd4Gi +
             ClaimYaml("claim-0",
                       {Exact("req-1", "class-a", 1, Memory("8Gi")),
                        FirstAvailable("req-0", {Sub("subReq-0", "class-a", 1, Memory("8Gi")),
                                                 Sub("subReq-1", "class-a", 1, Memory("4Gi"))})}),
         Variants(kPL),
         std::string(kNode1) +
             "req-1 driver-a/pool-1/device-1\nreq-0/subReq-1 driver-a/pool-2/device-2\n");
}

TEST(CatalogH, PrioritizedListWithBacktracking) {
  Expect(k8GiAnd4Gi +
             ClaimYaml("claim-0",
                       {FirstAvailable("req-0", {Sub("subReq-0", "class-a", 1, Memory("8Gi")),
                                                 Sub("subReq-1", "class-a", 1, Memory("4Gi"))}),
                        Exact("req-1", "class-a", 1, Memory("8Gi"))}),
         Variants(kPL),
         std::string(kNode1) +
             "req-0/subReq-1 driver-a/pool-2/device-2\nreq-1 driver-a/pool-1/device-1\n");
}

TEST(CatalogH, PrioritizedListTooManyInFirstSubrequest) {
  Expect(Devices("slice-1", "node-1", "pool-1", "driver-a", "{name: device-1}") +
             ClaimYaml("claim-0", {FirstAvailable("req-0", {Sub("subReq-0", "class-b", 500),
                                                            Sub("subReq-1", "class-a", 1)})}),
         Variants(kPL), std::string(kNode1) + "req-0/subReq-1 driver-a/pool-1/device-1\n");
}

// A prioritized list counts with its smallest alternative: 20 + min(20, 24).
TEST(CatalogH, PrioritizedListMinimumSumExceedsClaimLimit) {
  ExpectError(ClaimYaml("claim-0", {Exact("req-0", "class-a", 20),
                                    FirstAvailable("req-1", {Sub("subReq-0", "class-a", 20),
                                                             Sub("subReq-1", "class-a", 24)})}),
              Variants(kPL),
              "claim claim-0, request req-1: adding 20 devices exceeds the claim limit of 32, "
              "with 20 already accounted for");
}

// A subrequest of MaxInt devices behind an earlier pick is given up at once
// (no overflow of the running total): 8 search steps.
TEST(CatalogH, PrioritizedListOverflowingFirstSubrequestIsPruned) {
  std::string in = kTwoDevices +
                   ClaimYaml("claim-0", {Exact("req-0", "class-a", 1),
                                         FirstAvailable("req-1", {Sub("subReq-0", "class-a", 1),
                                                                  Sub("subReq-1", "class-a", 1)})});
  in.replace(in.find("count: 1}, {name: subReq-1"), 8, "count: 9223372036854775807");
  for (const Features& f : Variants(kPL)) {
    ExpectSteps(in, f,
                std::string(kNode1) +
                    "req-0 driver-a/pool-1/device-1\nreq-1/subReq-1 driver-a/pool-1/device-2\n",
                8);
  }
}

const std::string kAllThenB = ClaimYaml(
    "claim-0",
    {FirstAvailable("req-0", {SubAll("subReq-0", "class-a"), Sub("subReq-1", "class-b", 1)})});

TEST(CatalogH, AllDevicesSliceWithoutDevicesPrioritizedList) {
  Expect(SliceYaml("slice-1", "node-1", "pool-1", "driver-a", "devices: []") +
             Devices("slice-2", "node-1", "pool-2", "driver-b", "{name: device-1}") + kAllThenB,
         Variants(kPL), std::string(kNode1) + "req-0/subReq-1 driver-b/pool-2/device-1\n");
}

TEST(CatalogH, AllDevicesNoSlicesPrioritizedList) {
  Expect(Devices("slice-2", "node-1", "pool-2", "driver-b", "{name: device-1}") + kAllThenB,
         Variants(kPL), std::string(kNode1) + "req-0/subReq-1 driver-b/pool-2/device-1\n");
}

TEST(CatalogH, AllDevicesSomeAllocatedPrioritizedList) {
  Expect(kTwoDevices + Devices("slice-2", "node-1", "pool-2", "driver-b", "{name: device-1}") +
             Allocated({"driver-a/pool-1/device-1"}) + kAllThenB,
         Variants(kPL), std::string(kNode1) + "req-0/subReq-1 driver-b/pool-2/device-1\n");
}

TEST(CatalogH, PrioritizedListAllocationModeAll) {
  Expect(kTwoDevices + Allocated({"driver-a/pool-1/device-2"}) +
             ClaimYaml("claim-0", {FirstAvailable("req-0", {SubAll("subReq-0", "class-a"),
                                                            Sub("subReq-1", "class-a", 1)})}),
         Variants(kPL), std::string(kNode1) + "req-0/subReq-1 driver-a/pool-1/device-1\n");
}

const std::string kV6ThenV5 = ClaimYaml(
    "claim-0", {FirstAvailable("req-0", {SubAll("subReq-0", "class-a", Generation("v6")),
                                         SubAll("subReq-1", "class-a", Generation("v5"))})});

TEST(CatalogH, PrioritizedListAllocationModeAllWithSelectors) {
  Expect(Devices("slice-1", "node-1", "pool-1", "driver-a",
                 "{name: device-1, attributes: {generation: {string: v5}}}") +
             kV6ThenV5,
         Variants(kPL), std::string(kNode1) + "req-0/subReq-1 driver-a/pool-1/device-1\n");
}

TEST(CatalogH, PrioritizedListAllocationModeAllWithSelectorsMultiplePools) {
  Expect(Devices("slice-1", "node-1", "pool-1", "driver-a",
                 "{name: device-1, attributes: {generation: {string: v5}}}") +
             Devices("slice-2", "node-1", "pool-2", "driver-a",
                     "{name: device-1, attributes: {generation: {string: v5}}}") +
             kV6ThenV5,
         Variants(kPL),
         std::string(kNode1) +
             "req-0/subReq-1 driver-a/pool-1/device-1\nreq-0/subReq-1 driver-a/pool-2/device-1\n");
}

TEST(CatalogH, PrioritizedListAllocationModeAllWithSelectorsMultiplePoolsAcrossNodes) {
  Expect(Devices("slice-1", "node-1", "pool-1", "driver-a",
                 "{name: device-1, attributes: {generation: {string: v5}}}") +
             Devices("slice-2", "node-2", "pool-2", "driver-a",
                     "{name: device-1, attributes: {generation: {string: v5}}}, "
                     "{name: device-2, attributes: {generation: {string: v6}}}") +
             kV6ThenV5,
         Variants(kPL), std::string(kNode1) + "req-0/subReq-1 driver-a/pool-1/device-1\n");
}

TEST(CatalogH, PrioritizedListAllocationModeAllWithSelectorsDeviceclassSubset) {
  Expect(
      ClassYaml("class-a",
                R"(device.driver == "driver-a" && device.attributes["driver-a"].selected)") +
          Devices(
              "slice-1", "node-1", "pool-1", "driver-a",
              "{name: device-1, attributes: {generation: {string: v6}, selected: {bool: false}}}, "
              "{name: device-2, attributes: {generation: {string: v5}, selected: {bool: false}}}, "
              "{name: device-3, attributes: {generation: {string: v5}, selected: {bool: true}}}") +
          kV6ThenV5,
      Variants(kPL), std::string(kNode1) + "req-0/subReq-1 driver-a/pool-1/device-3\n",
      OwnClasses());
}

// Both requests fall back to 16 devices; 75 search steps.
TEST(CatalogH, PrioritizedListMaxAllocationLimitRequest) {
  std::string want = kNode1;
  for (int i = 0; i < 32; ++i) {
    want += std::string(i < 16 ? "req-0/subReq-1" : "req-1/subReq-1") + " driver-a/pool-1/device-" +
            std::to_string(i) + "\n";
  }
  std::string in =
      Devices("slice-1", "node-1", "pool-1", "driver-a", NumberedDevices(64)) +
      ClaimYaml("claim-0", {FirstAvailable("req-0", {Sub("subReq-0", "class-a", 32),
                                                     Sub("subReq-1", "class-a", 16)}),
                            FirstAvailable("req-1", {Sub("subReq-0", "class-a", 32),
                                                     Sub("subReq-1", "class-a", 16)})});
  for (const Features& f : Variants(kPL)) ExpectSteps(in, f, want, 75);
}

// The All subrequest (31 devices) plus req-1's 2 would exceed 32.
TEST(CatalogH, PrioritizedListMaxAllocationAllocationModeAll) {
  std::string in = Devices("slice-1", "node-1", "pool-1", "driver-a", NumberedDevices(31)) +
                   Devices("slice-2", "node-1", "pool-2", "driver-b", NumberedDevices(2)) +
                   ClaimYaml("claim-0", {FirstAvailable("req-0", {SubAll("subReq-0", "class-a"),
                                                                  Sub("subReq-1", "class-a", 2)}),
                                         Exact("req-1", "class-b", 2)});
  for (const Features& f : Variants(kPL)) {
    ExpectSteps(
        in, f,
        std::string(kNode1) +
            "req-0/subReq-1 driver-a/pool-1/device-0\nreq-0/subReq-1 driver-a/pool-1/device-1\n"
            "req-1 driver-b/pool-2/device-0\nreq-1 driver-b/pool-2/device-1\n",
        42);
  }
}

}  // namespace
}  // namespace dra::allocator::catalog
