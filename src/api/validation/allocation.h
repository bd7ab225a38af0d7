// A newly set `status.allocation` of a ResourceClaim (validateAllocationResult
// in k8s.io/kubernetes/pkg/apis/resource/validation). A stored allocation
// cannot change, so only new ones are checked.
#pragma once

#include "api/validation/request_reference.h"
#include "dra/api/field_error.h"
#include "dra/api/resource.h"

namespace dra::api::validation {

// Hand-written rules; request references resolve against the claim's spec.
void ValidateAllocation(const AllocationResult& allocation, const RequestNames& names,
                        FieldErrors& errors);

// Declarative rules.
void ValidateAllocationDeclarative(const AllocationResult& allocation, FieldErrors& errors);

}  // namespace dra::api::validation
