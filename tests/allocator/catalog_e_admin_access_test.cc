// Admin access (DRAAdminAccess): cases of upstream's shared allocator suite
// (release v0.37.2, see allocator_test_util.h), one test each.
#include <gtest/gtest.h>

#include <string>

#include "allocator_test_util.h"

namespace dra::allocator::catalog {
namespace {

const std::string kTwoDevices =
    Devices("slice-1", "node-1", "pool-1", "driver-a", "{name: device-1}, {name: device-2}");
const std::string kAdmin = ", adminAccess: true";

TEST(CatalogE, AllDevicesSomeAllocatedAdminAccess) {
  Expect(kTwoDevices + Allocated({"driver-a/pool-1/device-1"}) +
             ClaimYaml("claim-0", {AllOf("req-0", "class-a", kAdmin)}),
         Variants(Feat("AdminAccess")),
         std::string(kNode1) +
             "req-0 driver-a/pool-1/device-1 admin\nreq-0 driver-a/pool-1/device-2 admin\n");
}

// The All request cannot reuse the device the first admin request took.
TEST(CatalogE, AllDevicesSomeAllocatingAdminAccess) {
  Expect(kTwoDevices + ClaimYaml("claim-0", {Exact("req-0", "class-a", 1, kAdmin),
                                             AllOf("req-1", "class-a", ", count: 1" + kAdmin)}),
         Variants(Feat("AdminAccess")), kUnschedulable);
}

TEST(CatalogE, CountDevicesSomeAllocatedAdminAccess) {
  Expect(kTwoDevices + Allocated({"driver-a/pool-1/device-1"}) +
             ClaimYaml("claim-0", {Exact("req-0", "class-a", 2, kAdmin)}),
         Variants(Feat("AdminAccess")),
         std::string(kNode1) +
             "req-0 driver-a/pool-1/device-1 admin\nreq-0 driver-a/pool-1/device-2 admin\n");
}

TEST(CatalogE, SeparateClaimsShareDeviceAdminAccess) {
  Expect(kTwoDevices + ClaimYaml("claim-0", {Exact("req-0", "class-a", 1, kAdmin)}) +
             ClaimYaml("claim-1", {Exact("req-0", "class-a", 1, kAdmin)}),
         Variants(Feat("AdminAccess")),
         std::string(kNode1) + "req-0 driver-a/pool-1/device-1 admin\n--\n" + kNode1 +
             "req-0 driver-a/pool-1/device-1 admin\n");
}

TEST(CatalogE, AdminAccessClaimsDeviceAllocatingForNonAdminAccess) {
  Expect(kTwoDevices + ClaimYaml("claim-0", {Exact("req-0", "class-a", 1)}) +
             ClaimYaml("claim-1", {Exact("req-0", "class-a", 1, kAdmin)}),
         Variants(Feat("AdminAccess")),
         std::string(kNode1) + "req-0 driver-a/pool-1/device-1\n--\n" + kNode1 +
             "req-0 driver-a/pool-1/device-1 admin\n");
}

TEST(CatalogE, AdminAccessDisabled) {
  ExpectError(Devices("slice-1", "node-1", "pool-1", "driver-a", "{name: device-1}") +
                  ClaimYaml("claim-0", {Exact("req-0", "class-a", 1, kAdmin)}),
              Variants({}),
              "claim claim-0, request req-0: admin access is requested, but the feature is "
              "disabled");
}

TEST(CatalogE, AdminAccessEnabled) {
  Expect(Devices("slice-1", "node-1", "pool-1", "driver-a", "{name: device-1}") +
             Allocated({"driver-a/pool-1/device-1", "driver-a/pool-1/device-2"}) +
             ClaimYaml("claim-0", {Exact("req-0", "class-a", 1, kAdmin)}),
         Variants(Feat("AdminAccess")),
         std::string(kNode1) + "req-0 driver-a/pool-1/device-1 admin\n");
}

}  // namespace
}  // namespace dra::allocator::catalog
