// The outcome of Allocate as `dra allocate` prints it (docs/ALLOCATE.md):
// a JSON tree (also rendered as YAML) or plain text.
#pragma once

#include <span>
#include <string>

#include "dra/allocator/allocator.h"
#include "dra/json/value.h"

namespace dra::allocator {

// One AllocationResult exactly as kube-apiserver encodes status.allocation
// (resource.k8s.io/v1 field names, order and omitempty rules).
Result<json::Value> AllocationResultJson(const api::AllocationResult& allocation);

// {"node", "outcome", "steps", "claims": [{"namespace", "name", "allocation"?}],
//  "error"?, "nodeLocal"?, "explanation"?}
Result<json::Value> ReportJson(const std::string& node, std::span<const api::ResourceClaim> claims,
                               const AllocateResult& result);

std::string ReportText(const std::string& node, std::span<const api::ResourceClaim> claims,
                       const AllocateResult& result);

}  // namespace dra::allocator
