// Pools, slices, generations and node selection: cases of upstream's shared
// allocator suite (release v0.37.2, see allocator_test_util.h), one test each.
#include <gtest/gtest.h>

#include <string>

#include "allocator_test_util.h"

namespace dra::allocator::catalog {
namespace {

const std::string kOneRequest = ClaimYaml("claim-0", {Exact("req-0", "class-a", 1)});

TEST(CatalogB, ObsoleteSlice) {
  Expect(Devices("slice-1-obsolete", "node-1", Pool("pool-1", 2), "driver-a", "{name: device-1}") +
             Devices("slice-1-obsolete", "node-1", Pool("pool-1", 2, 2), "driver-a",
                     "{name: device-2}") +
             kOneRequest,
         Variants({}), kUnschedulable);
}

TEST(CatalogB, DuplicateSlice) {
  std::string in =
      Devices("slice-1", "node-1", Pool("pool-1", 2), "driver-a", "{name: device-1}") +
      Devices("slice-1-2", "node-1", Pool("pool-1", 2), "driver-a", "{name: device-1}") +
      kOneRequest;
  Expect(in, Variants({}), "error: invalid resource pools were encountered\n");
  for (const Features& f : Variants({})) EXPECT_TRUE(RunCase(in, f).node_local_error);
}

TEST(CatalogB, NoSlices) { Expect(kOneRequest, Variants({}), kUnschedulable); }

TEST(CatalogB, NetworkAttachedDevice) {
  Expect(Devices("slice-1", LabelSelector("region", "region-1"), "pool-1", "driver-a",
                 "{name: device-1}") +
             kOneRequest,
         Variants({}), "node: { E[region In region-1] }\nreq-0 driver-a/pool-1/device-1\n");
}

TEST(CatalogB, UnsuccessfulAllocationNetworkAttachedDevice) {
  RunOptions node2;
  node2.node = "node-2";
  Expect(Devices("slice-1", LabelSelector("region", "region-1"), "pool-1", "driver-a",
                 "{name: device-1}") +
             kOneRequest,
         Variants({}), kUnschedulable, node2);
}

// The result selector is the union of the slices' selectors.
TEST(CatalogB, ManyNetworkAttachedDevices) {
  Expect(Devices("slice-1", LabelSelector("region", "region-1"), "pool-1", "driver-a",
                 "{name: device-1}") +
             Devices("slice-1", "all", "pool-2", "driver-a", "{name: device-1}") +
             Devices("slice-1", LabelSelector("planet", "earth"), "pool-3", "driver-a",
                     "{name: device-1}") +
             Devices("slice-1", NameSelector("node-1"), "pool-4", "driver-a", "{name: device-1}") +
             ClaimYaml("claim-0", {Exact("req-0", "class-a", 4)}),
         Variants({}),
         "node: { E[region In region-1] E[planet In earth] F[metadata.name In node-1] }\n"
         "req-0 driver-a/pool-1/device-1\nreq-0 driver-a/pool-2/device-1\n"
         "req-0 driver-a/pool-3/device-1\nreq-0 driver-a/pool-4/device-1\n");
}

TEST(CatalogB, LocalAndNetworkAttachedDevices) {
  Expect(Devices("slice-1", LabelSelector("region", "region-1"), "pool-1", "driver-a",
                 "{name: device-1}") +
             Devices("slice-1", "node-1", "pool-2", "driver-a", "{name: device-1}") +
             ClaimYaml("claim-0", {Exact("req-0", "class-a", 2)}),
         Variants({}),
         std::string(kNode1) + "req-0 driver-a/pool-1/device-1\nreq-0 driver-a/pool-2/device-1\n");
}

TEST(CatalogB, AllocationModeAllWithMultiHostResourcePool) {
  Expect(Devices("slice-1", "node-1", Pool("pool-1", 2), "driver-a", "{name: device-1}") +
             Devices("slice-2", "node-2", Pool("pool-1", 2), "driver-a", "{name: device-2}") +
             ClaimYaml("claim-0", {AllOf("req-0", "class-a")}),
         Variants({}), std::string(kNode1) + "req-0 driver-a/pool-1/device-1\n");
}

TEST(CatalogB, MultiHostResourcePoolWithStaleSliceForCurrentNode) {
  Expect(Devices("slice-1", "node-1", Pool("pool-1", 2, 1), "driver-a", "{name: device-1}") +
             Devices("slice-2", "node-2", Pool("pool-1", 2, 2), "driver-a", "{name: device-2}") +
             kOneRequest,
         Variants({}), kUnschedulable);
}

// The old generation looks complete from node-1 and is used (a documented
// limitation upstream).
TEST(CatalogB, MultiHostResourcePoolCompleteUpdateFromNode1ToNode2) {
  Expect(Devices("slice-1", "node-1", Pool("pool-1", 2, 1), "driver-a", "{name: device-1}") +
             Devices("slice-1", "node-1", Pool("pool-1", 2, 1), "driver-a", "{name: device-2}") +
             Devices("slice-2", "node-2", Pool("pool-1", 2, 2), "driver-a", "{name: device-1}") +
             Devices("slice-2", "node-2", Pool("pool-1", 2, 2), "driver-a", "{name: device-2}") +
             kOneRequest,
         Variants({}), std::string(kNode1) + "req-0 driver-a/pool-1/device-1\n");
}

TEST(CatalogB, MultiHostResourcePoolCompleteUpdateFromNode2ToNode1) {
  Expect(Devices("slice-1", "node-2", Pool("pool-1", 2, 1), "driver-a", "{name: device-1}") +
             Devices("slice-1", "node-2", Pool("pool-1", 2, 1), "driver-a", "{name: device-2}") +
             Devices("slice-2", "node-1", Pool("pool-1", 2, 2), "driver-a", "{name: device-1}") +
             Devices("slice-2", "node-1", Pool("pool-1", 2, 2), "driver-a", "{name: device-2}") +
             kOneRequest,
         Variants({}), std::string(kNode1) + "req-0 driver-a/pool-1/device-1\n");
}

TEST(CatalogB, MultiHostResourcePoolIncompleteUpdateFromNode1ToNode2) {
  Expect(Devices("slice-1", "node-1", Pool("pool-1", 2, 1), "driver-a", "{name: device-1}") +
             Devices("slice-1", "node-1", Pool("pool-1", 2, 1), "driver-a", "{name: device-2}") +
             Devices("slice-2", "node-2", Pool("pool-1", 2, 2), "driver-a", "{name: device-1}") +
             kOneRequest,
         Variants({}), std::string(kNode1) + "req-0 driver-a/pool-1/device-1\n");
}

TEST(CatalogB, MultiHostResourcePoolIncompleteUpdateFromNode2ToNode1) {
  Expect(Devices("slice-1", "node-2", Pool("pool-1", 2, 1), "driver-a", "{name: device-1}") +
             Devices("slice-1", "node-2", Pool("pool-1", 2, 1), "driver-a", "{name: device-2}") +
             Devices("slice-2", "node-1", Pool("pool-1", 2, 2), "driver-a", "{name: device-1}") +
             kOneRequest,
         Variants({}), kUnschedulable);
}

TEST(CatalogB, DifferentResourceslicesInPoolCanTargetDifferentNodes) {
  Expect(Devices("slice-1", "node-2", Pool("pool-1", 2), "driver-a", "{name: device-1}") +
             Devices("slice-2", "node-1", Pool("pool-1", 2), "driver-a", "{name: device-2}") +
             kOneRequest,
         Variants({}), std::string(kNode1) + "req-0 driver-a/pool-1/device-2\n");
}

const std::string kInvalidPoolAndValidPool =
    Devices("slice-1", "node-1", Pool("pool-1", 2), "driver-a", "{name: device-1}") +
    Devices("slice-2", "node-1", Pool("pool-1", 2), "driver-a", "{name: device-1}") +
    Devices("slice-3", "node-1", Pool("pool-2", 1), "driver-a", "{name: device-2}");

TEST(CatalogB, InvalidPoolIsOkIfDevicesCanBeAllocatedFromOther) {
  Expect(kInvalidPoolAndValidPool + kOneRequest, Variants({}),
         std::string(kNode1) + "req-0 driver-a/pool-2/device-2\n");
}

TEST(CatalogB, InvalidPoolIsErrorIfNoOtherDeviceCanBeAllocated) {
  std::string in = kInvalidPoolAndValidPool + Allocated({"driver-a/pool-2/device-2"}) + kOneRequest;
  Expect(in, Variants({}), "error: invalid resource pools were encountered\n");
  for (const Features& f : Variants({})) EXPECT_TRUE(RunCase(in, f).node_local_error);
}

TEST(CatalogB, NoAllocationFromIncompletePools) {
  Expect(
      Devices("slice-1", "node-1", Pool("pool-1", 2), "driver-a", "{name: device-1}") + kOneRequest,
      Variants({}), kUnschedulable);
}

}  // namespace
}  // namespace dra::allocator::catalog
