// Lexicographical pool order: upstream's lexicographical table
// (allocatortesting/lexicographical_testing.go, release v0.37.2), which runs on
// the incubating and experimental variants only. Where the stable variant's
// answer is defined (it keeps a pool's slices in input order) it is checked
// too; its pool order is unspecified upstream.
#include <gtest/gtest.h>

#include <string>

#include "allocator_test_util.h"

namespace dra::allocator::catalog {
namespace {

const std::string kTwo = ClaimYaml("claim-0", {Exact("req-0", "class-a", 2)});
const std::string kConditions =
    ", bindingConditions: [IsPrepare], bindingFailureConditions: [BindingFailed]";

TEST(CatalogP, LexicographicalSortingPools) {
  Expect(Devices("slice-1", "node-1", "pool-3", "driver-a", "{name: device-1}") +
             Devices("slice-2", "node-1", "pool-2", "driver-a", "{name: device-1}") +
             Devices("slice-3", "node-1", "pool-1", "driver-a", "{name: device-1}") + kTwo,
         {Incubating({})},
         std::string(kNode1) + "req-0 driver-a/pool-1/device-1\nreq-0 driver-a/pool-2/device-1\n");
}

// pool-1 holds a device with binding conditions and goes last.
TEST(CatalogP, LexicographicalSortingPoolsWithBindingConditions) {
  Expect(Devices("slice-1", "node-1", "pool-1", "driver-a", "{name: device-1" + kConditions + "}") +
             Devices("slice-3", "node-1", "pool-3", "driver-a", "{name: device-3}") +
             Devices("slice-2", "node-1", "pool-2", "driver-a", "{name: device-2}") + kTwo,
         {Feat("DeviceBindingAndStatus")},
         std::string(kNode1) + "req-0 driver-a/pool-2/device-2\nreq-0 driver-a/pool-3/device-3\n");
}

const std::string kSlicesReversed =
    Devices("slice-3", "node-1", Pool("pool-1", 3), "driver-a", "{name: device-3}") +
    Devices("slice-2", "node-1", Pool("pool-1", 3), "driver-a", "{name: device-2}") +
    Devices("slice-1", "node-1", Pool("pool-1", 3), "driver-a", "{name: device-1}");

TEST(CatalogP, LexicographicalSortingSlices) {
  Expect(kSlicesReversed + kTwo, {Incubating({})},
         std::string(kNode1) + "req-0 driver-a/pool-1/device-1\nreq-0 driver-a/pool-1/device-2\n");
  // Not in upstream's table: the stable variant keeps the input order.
  Expect(kSlicesReversed + kTwo, {Feat("")},
         std::string(kNode1) + "req-0 driver-a/pool-1/device-3\nreq-0 driver-a/pool-1/device-2\n");
}

// Within one pool binding conditions do not reorder slices.
TEST(CatalogP, LexicographicalSortingSlicesWithBindingConditions) {
  Expect(Devices("slice-1", "node-1", Pool("pool-1", 3), "driver-a",
                 "{name: device-1" + kConditions + "}") +
             Devices("slice-3", "node-1", Pool("pool-1", 3), "driver-a", "{name: device-3}") +
             Devices("slice-2", "node-1", Pool("pool-1", 3), "driver-a", "{name: device-2}") + kTwo,
         {Feat("DeviceBindingAndStatus")},
         std::string(kNode1) +
             "req-0 driver-a/pool-1/device-1 bc=IsPrepare bfc=BindingFailed\n"
             "req-0 driver-a/pool-1/device-2\n");
}

}  // namespace
}  // namespace dra::allocator::catalog
