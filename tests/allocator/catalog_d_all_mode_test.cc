// allocationMode All: cases of upstream's shared allocator suite (release
// v0.37.2, see allocator_test_util.h), one test each.
#include <gtest/gtest.h>

#include <string>

#include "allocator_test_util.h"

namespace dra::allocator::catalog {
namespace {

const std::string kAll = ClaimYaml("claim-0", {AllOf("req-0", "class-a")});

TEST(CatalogD, AllDevicesSingle) {
  Expect(Devices("slice-1", "node-1", "pool-1", "driver-a", "{name: device-1}") + kAll,
         Variants({}), std::string(kNode1) + "req-0 driver-a/pool-1/device-1\n");
}

TEST(CatalogD, AllDevicesMany) {
  Expect(Devices("slice-1", "node-1", "pool-1", "driver-a", "{name: device-1}") +
             Devices("slice-1", "node-1", "pool-2", "driver-a", "{name: device-1}") + kAll,
         Variants({}),
         std::string(kNode1) + "req-0 driver-a/pool-1/device-1\nreq-0 driver-a/pool-2/device-1\n");
}

TEST(CatalogD, AllDevicesOfTheIncompletePool) {
  ExpectError(Devices("slice-1", "node-1", Pool("pool-1", 2), "driver-a", "{name: device-1}") +
                  ClaimYaml("claim-0", {AllOf("req-0", "class-a", ", count: 1")}),
              Variants({}),
              "claim claim-0, request req-0: asks for all devices, but resource pool "
              "driver-a/pool-1 is currently being updated");
}

const std::string kOneAOneB =
    Devices("slice-1", "node-1", "pool-1", "driver-a", "{name: device-1}") +
    Devices("slice-1", "node-1", "pool-1", "driver-b", "{name: device-1}");
const std::string kTwoAOneB =
    Devices("slice-1", "node-1", "pool-1", "driver-a", "{name: device-1}, {name: device-2}") +
    Devices("slice-1", "node-1", "pool-1", "driver-b", "{name: device-1}");

TEST(CatalogD, AllDevicesPlusAnother) {
  Expect(kOneAOneB + ClaimYaml("claim-0", {AllOf("req-0", "class-a")}) +
             ClaimYaml("claim-1", {Exact("req-0", "class-b", 1)}),
         Variants({}),
         std::string(kNode1) + "req-0 driver-a/pool-1/device-1\n--\n" + kNode1 +
             "req-0 driver-b/pool-1/device-1\n");
}

TEST(CatalogD, AllDevicesPlusAnotherReversed) {
  Expect(kOneAOneB + ClaimYaml("claim-1", {Exact("req-0", "class-b", 1)}) +
             ClaimYaml("claim-0", {AllOf("req-0", "class-a")}),
         Variants({}),
         std::string(kNode1) + "req-0 driver-b/pool-1/device-1\n--\n" + kNode1 +
             "req-0 driver-a/pool-1/device-1\n");
}

TEST(CatalogD, AllDevicesManyPlusAnother) {
  Expect(kTwoAOneB + ClaimYaml("claim-0", {AllOf("req-0", "class-a")}) +
             ClaimYaml("claim-1", {Exact("req-0", "class-b", 1)}),
         Variants({}),
         std::string(kNode1) +
             "req-0 driver-a/pool-1/device-1\nreq-0 driver-a/pool-1/device-2\n--\n" + kNode1 +
             "req-0 driver-b/pool-1/device-1\n");
}

TEST(CatalogD, AllDevicesManyPlusAnotherReversed) {
  Expect(kTwoAOneB + ClaimYaml("claim-1", {Exact("req-0", "class-b", 1)}) +
             ClaimYaml("claim-0", {AllOf("req-0", "class-a")}),
         Variants({}),
         std::string(kNode1) + "req-0 driver-b/pool-1/device-1\n--\n" + kNode1 +
             "req-0 driver-a/pool-1/device-1\nreq-0 driver-a/pool-1/device-2\n");
}

TEST(CatalogD, AllDevicesNoSolution) {
  Expect(Devices("slice-1", "node-1", "pool-1", "driver-a", "{name: device-1}") +
             ClaimYaml("claim-1", {Exact("req-0", "class-a", 1)}) + kAll,
         Variants({}), kUnschedulable);
}

TEST(CatalogD, AllDevicesNoSolutionReversed) {
  Expect(Devices("slice-1", "node-1", "pool-1", "driver-a", "{name: device-1}") + kAll +
             ClaimYaml("claim-1", {Exact("req-0", "class-a", 1)}),
         Variants({}), kUnschedulable);
}

TEST(CatalogD, AllDevicesSliceWithoutDevices) {
  Expect(SliceYaml("slice-1", "node-1", "pool-1", "driver-a", "devices: []") + kAll, Variants({}),
         kUnschedulable);
}

TEST(CatalogD, AllDevicesNoSlices) { Expect(kAll, Variants({}), kUnschedulable); }

TEST(CatalogD, AllDevicesSomeAllocated) {
  Expect(Devices("slice-1", "node-1", "pool-1", "driver-a", "{name: device-1}, {name: device-2}") +
             Allocated({"driver-a/pool-1/device-1"}) + kAll,
         Variants({}), kUnschedulable);
}

}  // namespace
}  // namespace dra::allocator::catalog
