// skipNodeOperations of ResourceSlices and allocation results
// (validateSkipNodeOperations in k8s.io/kubernetes/pkg/apis/resource/validation,
// plus the declarative enum and uniqueness rules).
#pragma once

#include <string>

#include "dra/api/field_error.h"
#include "dra/api/list.h"

namespace dra::api::validation {

// Hand-written rule: NodePrepareResources may only be skipped together with
// NodeUnprepareResources (or "*").
void ValidateSkipNodeOperations(const List<std::string>& operations, const std::string& field,
                                FieldErrors& errors);

// Declarative rules (standard): set uniqueness, then each entry an enum value.
void ValidateSkipNodeOperationsDeclarative(const List<std::string>& operations,
                                           const std::string& field, FieldErrors& errors);

}  // namespace dra::api::validation
