// The AllocationResult of one claim from its picks: device
// results, class and claim configuration with their sources, node selector.
#pragma once

#include <vector>

#include "allocator/search.h"

namespace dra::allocator {

// Errors: a node selector with more than one term (upstream cannot merge it).
Result<api::AllocationResult> BuildAllocation(const Inventory& inventory, const ClaimPlan& plan,
                                              const std::vector<Pick>& picks,
                                              const std::vector<int>& selected, NodeRef node);

}  // namespace dra::allocator
