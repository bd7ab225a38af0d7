// Explaining an unschedulable outcome: each request entry's devices run
// through the filters one stage at a time (selection, then each admission
// check in isolation), so that the report says how many devices each stage
// removed.
#pragma once

#include <span>

#include "allocator/allocated_state.h"
#include "allocator/claim_plan.h"
#include "dra/allocator/explanation.h"

namespace dra::allocator {

Explanation Explain(const Inventory& inventory, const AllocatedState::Impl& in_use,
                    const GatheredPools& pools, const Scan& scan,
                    const std::vector<ClaimPlan>& plans, Selection& selection, NodeRef node);

}  // namespace dra::allocator
