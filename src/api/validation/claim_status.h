// The status of a ResourceClaim on a `/status` update
// (validateResourceClaimStatusUpdate in
// k8s.io/kubernetes/pkg/apis/resource/validation): reservedFor,
// status.devices and a newly set allocation.
#pragma once

#include "dra/api/codec.h"
#include "dra/api/field_error.h"
#include "dra/api/resource.h"

namespace dra::api::validation {

// Hand-written rules. Where the declarative rules skip data unchanged from
// `old`, the hand-written rules they cover report with their own texts.
void ValidateClaimStatus(const ResourceClaim& claim, const ResourceClaim& old, FieldErrors& errors);

// Declarative rules for what changed from `old`, with JSON in `version`.
void ValidateClaimStatusDeclarative(const ResourceClaimStatus& status,
                                    const ResourceClaimStatus& old, ApiVersion version,
                                    FieldErrors& errors);

}  // namespace dra::api::validation
