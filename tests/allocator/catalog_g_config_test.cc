// Device configuration in results: cases of upstream's shared allocator suite
// (release v0.37.2, see allocator_test_util.h), one test each. Configs of prioritized
// lists are in catalog_h_prioritized_list_test.cc.
#include <gtest/gtest.h>

#include <string>

#include "allocator_test_util.h"

namespace dra::allocator::catalog {
namespace {

RunOptions OwnClasses() {
  RunOptions o;
  o.classes = false;
  return o;
}

TEST(CatalogG, WithClassDeviceConfig) {
  Expect(DriverClass("class-a", "driver-a", "classAttribute") +
             Devices("slice-1", "node-1", "pool-1", "driver-a", "{name: device-1}") +
             ClaimYaml("claim-0", {Exact("req-0", "class-a", 1)}),
         Variants({}),
         std::string(kNode1) + "req-0 driver-a/pool-1/device-1\nconfig FromClass * " +
             OpaqueText("driver-a", "classAttribute") + "\n",
         OwnClasses());
}

TEST(CatalogG, WithClassDeviceConfigWithMultipleRequestAndConfigs) {
  Expect(
      DriverClass("class-a", "driver-a", "classAttribute-A") +
          DriverClass("class-b", "driver-b", "classAttribute-B") +
          Devices("slice-1", "node-1", "pool-1", "driver-a", "{name: device-0}, {name: device-1}") +
          Devices("slice-2", "node-1", "pool-1", "driver-b", "{name: device-1}") +
          ClaimYaml("claim-0", {Exact("req-0", "class-a", 1), Exact("req-1", "class-a", 1),
                                Exact("req-2", "class-b", 1)}),
      Variants({}),
      std::string(kNode1) +
          "req-0 driver-a/pool-1/device-0\nreq-1 driver-a/pool-1/device-1\n"
          "req-2 driver-b/pool-1/device-1\n"
          "config FromClass [req-0,req-1] " +
          OpaqueText("driver-a", "classAttribute-A") + "\nconfig FromClass [req-2] " +
          OpaqueText("driver-b", "classAttribute-B") + "\n",
      OwnClasses());
}

TEST(CatalogG, WithClaimConfigForTwoRequests) {
  Expect(Devices("slice-1", "node-1", "pool-1", "driver-a",
                 "{name: device-0}, {name: device-1}, {name: device-2}") +
             ClaimYaml("claim-0",
                       {Exact("req-0", "class-a", 1), Exact("req-1", "class-a", 1),
                        Exact("req-2", "class-a", 1)},
                       "",
                       "{requests: [req-0, req-1], opaque: {driver: driver-a, parameters: "
                       "{deviceAttribute: deviceAttributeValue}}}"),
         Variants({}),
         std::string(kNode1) +
             "req-0 driver-a/pool-1/device-0\nreq-1 driver-a/pool-1/device-1\n"
             "req-2 driver-a/pool-1/device-2\nconfig FromClaim [req-0,req-1] " +
             OpaqueText("driver-a", "deviceAttribute") + "\n");
}

TEST(CatalogG, ClaimWithDeviceConfig) {
  Expect(Devices("slice-1", "node-1", "pool-1", "driver-a", "{name: device-1}") +
             ClaimYaml("claim-0", {Exact("req-0", "class-a", 1)}, "",
                       Opaque("driver-a", "deviceAttribute")),
         Variants({}),
         std::string(kNode1) + "req-0 driver-a/pool-1/device-1\nconfig FromClaim * " +
             OpaqueText("driver-a", "deviceAttribute") + "\n");
}

}  // namespace
}  // namespace dra::allocator::catalog
