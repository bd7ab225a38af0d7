// Basic allocation, search order and backtracking: cases of upstream's shared
// allocator suite (release v0.37.2, see allocator_test_util.h), one test each, with the
// asserted search-step counts. The interrupt sub-tests are in
// catalog_o_interrupt_test.cc.
#include <gtest/gtest.h>

#include <string>

#include "allocator_test_util.h"

namespace dra::allocator::catalog {
namespace {

const std::string kMemory1Gi =
    Sel(R"(device.capacity["driver-a"].memory.compareTo(quantity("1Gi")) >= 0)");
const std::string kMemory2Gi =
    Sel(R"(device.capacity["driver-a"].memory.compareTo(quantity("2Gi")) >= 0)");

TEST(CatalogA, Empty) { Expect("", Variants({}), ""); }

TEST(CatalogA, Simple) {
  Expect(Devices("slice-1", "node-1", "pool-1", "driver-a", "{name: device-1}") +
             ClaimYaml("claim-0", {Exact("req-0", "class-a", 1)}),
         Variants({}), std::string(kNode1) + "req-0 driver-a/pool-1/device-1\n");
}

TEST(CatalogA, OtherNode) {
  RunOptions node2;
  node2.node = "node-2";
  Expect(Devices("slice-1", "node-1", "pool-1", "driver-b", "{name: device-1}") +
             Devices("slice-2", "node-2", "pool-2", "driver-a", "{name: device-1}") +
             ClaimYaml("claim-0", {Exact("req-0", "class-a", 1)}),
         Variants({}), "node: { F[metadata.name In node-2] }\nreq-0 driver-a/pool-2/device-1\n",
         node2);
}

TEST(CatalogA, SmallAndLarge) {
  Expect(Devices("slice-1", "node-1", "pool-1", "driver-a",
                 "{name: device-1, capacity: {memory: {value: 1Gi}}}, "
                 "{name: device-2, capacity: {memory: {value: 2Gi}}}") +
             ClaimYaml("claim-0", {Exact("req-0", "class-a", 1, kMemory1Gi),
                                   Exact("req-1", "class-a", 1, kMemory2Gi)}),
         Variants({}),
         std::string(kNode1) + "req-0 driver-a/pool-1/device-1\nreq-1 driver-a/pool-1/device-2\n");
}

// The large device is listed first, taken by the small request and must be
// given up again.
TEST(CatalogA, SmallAndLargeBacktrackRequests) {
  Expect(Devices("slice-1", "node-1", "pool-1", "driver-a",
                 "{name: device-2, capacity: {memory: {value: 2Gi}}}, "
                 "{name: device-1, capacity: {memory: {value: 1Gi}}}") +
             ClaimYaml("claim-0", {Exact("req-0", "class-a", 1, kMemory1Gi),
                                   Exact("req-1", "class-a", 1, kMemory2Gi)}),
         Variants({}),
         std::string(kNode1) + "req-0 driver-a/pool-1/device-1\nreq-1 driver-a/pool-1/device-2\n");
}

TEST(CatalogA, SmallAndLargeBacktrackClaims) {
  Expect(Devices("slice-1", "node-1", "pool-1", "driver-a",
                 "{name: device-2, capacity: {memory: {value: 2Gi}}}, "
                 "{name: device-1, capacity: {memory: {value: 1Gi}}}") +
             ClaimYaml("claim-0", {Exact("req-0", "class-a", 1, kMemory1Gi)}) +
             ClaimYaml("claim-1", {Exact("req-1", "class-a", 1, kMemory2Gi)}),
         Variants({}),
         std::string(kNode1) + "req-0 driver-a/pool-1/device-1\n--\n" + kNode1 +
             "req-1 driver-a/pool-1/device-2\n");
}

TEST(CatalogA, DevicesSplitAcrossDifferentSlices) {
  Expect(Devices("slice-1", "node-1", "pool-1", "driver-a", "{name: device-1}") +
             Devices("slice-2", "node-1", "pool-2", "driver-a", "{name: device-1}") +
             ClaimYaml("claim-0", {Exact("req-0", "class-a", 2)}),
         Variants({}),
         std::string(kNode1) + "req-0 driver-a/pool-1/device-1\nreq-0 driver-a/pool-2/device-1\n");
}

TEST(CatalogA, NotEnoughSuitableDevices) {
  Expect(Devices("slice-1", "node-1", "pool-1", "driver-a", "{name: device-1}") +
             ClaimYaml("claim-0", {Exact("req-0", "class-a", 1)}) +
             ClaimYaml("claim-0", {Exact("req-1", "class-a", 1)}),
         Variants({}), kUnschedulable);
}

TEST(CatalogA, SeveralDifferentDrivers) {
  Expect(Devices("slice-1", "node-1", "pool-1", "driver-a", "{name: device-1}, {name: device-2}") +
             Devices("slice-1", "node-1", "pool-1", "driver-b", "{name: device-1}") +
             ClaimYaml("claim-0", {Exact("req-0", "class-a", 1)}) +
             ClaimYaml("claim-0", {Exact("req-0", "class-b", 1)}),
         Variants({}),
         std::string(kNode1) + "req-0 driver-a/pool-1/device-1\n--\n" + kNode1 +
             "req-0 driver-b/pool-1/device-1\n");
}

TEST(CatalogA, AlreadyAllocatedDevices) {
  Expect(Devices("slice-1", "node-1", "pool-1", "driver-a", "{name: device-1}") +
             Allocated({"driver-a/pool-1/device-1", "driver-a/pool-1/device-2"}) +
             ClaimYaml("claim-0", {Exact("req-0", "class-a", 1)}),
         Variants({}), kUnschedulable);
}

TEST(CatalogA, MaxNumberDevices) {
  std::string devices, want = kNode1;
  for (int i = 0; i < 32; ++i) {
    devices += (i ? ", " : "") + std::string("{name: device-") + std::to_string(i) + "}";
    want += "req-0 driver-a/pool-1/device-" + std::to_string(i) + "\n";
  }
  Expect(Devices("slice-1", "node-1", "pool-1", "driver-a", devices) +
             ClaimYaml("claim-0", {Exact("req-0", "class-a", 32)}),
         Variants({}), want);
}

// Count 5 from 4 devices: the incubating search tries combinations (16
// steps); the stable one rescans from the first device for every further
// device (65 steps).
const std::string kFiveOfFour = ClaimYaml("claim-0", {Exact("req-0", "class-a", 5)});

TEST(CatalogA, CheckCombinationsWithinSingleRequestSinglePoolSingleSlice) {
  std::string in =
      Devices("slice-1", "node-1", "pool-1", "driver-a",
              "{name: device-1}, {name: device-2}, {name: device-3}, {name: device-4}") +
      kFiveOfFour;
  ExpectSteps(in, Feat(""), kUnschedulable, 65);
  ExpectSteps(in, Incubating(Feat("")), kUnschedulable, 16);
}

TEST(CatalogA, CheckCombinationsWithinSingleRequestSinglePoolMultipleSlices) {
  std::string in = Devices("slice-1", "node-1", Pool("pool-1", 2), "driver-a",
                           "{name: device-1}, {name: device-2}") +
                   Devices("slice-2", "node-1", Pool("pool-1", 2), "driver-a",
                           "{name: device-3}, {name: device-4}") +
                   kFiveOfFour;
  ExpectSteps(in, Feat(""), kUnschedulable, 65);
  ExpectSteps(in, Incubating(Feat("")), kUnschedulable, 16);
}

TEST(CatalogA, CheckCombinationsWithinSingleRequestMultiplePoolsMultipleSlices) {
  std::string in =
      Devices("slice-1", "node-1", Pool("pool-1", 2), "driver-a", "{name: device-1}") +
      Devices("slice-2", "node-1", Pool("pool-1", 2), "driver-a", "{name: device-2}") +
      Devices("slice-3", "node-1", "pool-2", "driver-a", "{name: device-3}, {name: device-4}") +
      kFiveOfFour;
  ExpectSteps(in, Feat(""), kUnschedulable, 65);
  ExpectSteps(in, Incubating(Feat("")), kUnschedulable, 16);
}

TEST(CatalogA, CheckCombinationsWithinSingleRequestManyPools) {
  std::string in = Devices("slice-1", "node-1", "pool-1", "driver-a", "{name: device-1}") +
                   Devices("slice-2", "node-1", "pool-2", "driver-a", "{name: device-2}") +
                   Devices("slice-3", "node-1", "pool-3", "driver-a", "{name: device-3}") +
                   Devices("slice-4", "node-1", "pool-4", "driver-a", "{name: device-4}") +
                   kFiveOfFour;
  ExpectSteps(in, Feat(""), kUnschedulable, 65);
  ExpectSteps(in, Incubating(Feat("")), kUnschedulable, 16);
}

const std::string kTypeX = Sel(R"(device.attributes["driver-a"].type == "X")");
const std::string kTypeY = Sel(R"(device.attributes["driver-a"].type == "Y")");
const std::string kXYY =
    "{name: device-1, attributes: {type: {string: \"X\"}}}, "
    "{name: device-2, attributes: {type: {string: \"Y\"}}}, "
    "{name: device-3, attributes: {type: {string: \"Y\"}}}";

// {1,2} and {1,3} fail because req-2 needs device-1; {2,3} succeeds, and the
// combination search never tries {2,1}.
TEST(CatalogA, CheckCombinationsWithBacktracking) {
  std::string in =
      Devices("slice-1", "node-1", "pool-1", "driver-a", kXYY) +
      ClaimYaml("claim-0", {Exact("req-1", "class-a", 2), Exact("req-2", "class-a", 1, kTypeX)});
  std::string want = std::string(kNode1) +
                     "req-1 driver-a/pool-1/device-2\nreq-1 driver-a/pool-1/device-3\n"
                     "req-2 driver-a/pool-1/device-1\n";
  ExpectSteps(in, Feat(""), want, 14);
  ExpectSteps(in, Incubating(Feat("")), want, 12);
}

// The pool with a binding-condition device is searched last.
TEST(CatalogA, CheckCombinationsWithBacktrackingAcrossSlicesAndPools) {
  std::string in =
      Devices("slice-1", "node-1", Pool("pool-1", 2), "driver-a",
              "{name: device-1, attributes: {type: {string: \"X\"}}}") +
      Devices("slice-2", "node-1", Pool("pool-1", 2), "driver-a",
              "{name: device-2, attributes: {type: {string: \"Y\"}}}") +
      Devices(
          "slice-3", "node-1", "pool-2", "driver-a",
          "{name: device-3, attributes: {type: {string: \"Y\"}}, bindingConditions: [IsPrepare], "
          "bindingFailureConditions: []}") +
      ClaimYaml("claim-0", {Exact("req-1", "class-a", 2), Exact("req-2", "class-a", 1, kTypeX)});
  ExpectSteps(in, Feat("DeviceBindingAndStatus"),
              std::string(kNode1) +
                  "req-1 driver-a/pool-1/device-2\n"
                  "req-1 driver-a/pool-2/device-3 bc=IsPrepare bfc=\n"
                  "req-2 driver-a/pool-1/device-1\n",
              12);
}

// req-1's subReq-0 wants three type-Y devices of two, and req-2's subReq-0 two
// devices of the one left, so both requests fall back to subReq-1.
TEST(CatalogA, CheckCombinationsWithPrioritizedList) {
  std::string in =
      Devices("slice-1", "node-1", "pool-1", "driver-a", kXYY) +
      ClaimYaml("claim-0", {FirstAvailable("req-1", {Sub("subReq-0", "class-a", 3, kTypeY),
                                                     Sub("subReq-1", "class-a", 2)}),
                            FirstAvailable("req-2", {Sub("subReq-0", "class-a", 2),
                                                     Sub("subReq-1", "class-a", 1, kTypeX)})});
  std::string want = std::string(kNode1) +
                     "req-1/subReq-1 driver-a/pool-1/device-2\n"
                     "req-1/subReq-1 driver-a/pool-1/device-3\n"
                     "req-2/subReq-1 driver-a/pool-1/device-1\n";
  ExpectSteps(in, Feat("PrioritizedList"), want, 32);
  ExpectSteps(in, Incubating(Feat("PrioritizedList")), want, 26);
}

}  // namespace
}  // namespace dra::allocator::catalog
