// The inventory of given ResourceSlices, for `dra driver example` serving
// devices it did not invent (e.g. the hand-written slices of a simulated
// cluster, `dra simulate --prepare`).
#pragma once

#include <string>
#include <vector>

#include "dra/api/resource.h"
#include "dra/driver/driver.h"
#include "dra/util/result.h"

namespace dra::driver::example {

// One Pool per spec.pool.name (first-seen order), holding the devices and
// shared counter sets of that pool's slices with the highest pool
// generation, in slice order. Slices of other drivers are an error naming
// the slice; so are duplicate device or counter-set names within a pool.
Result<Inventory> InventoryFromSlices(const std::vector<api::ResourceSlice>& slices,
                                      const std::string& driver_name);

}  // namespace dra::driver::example
