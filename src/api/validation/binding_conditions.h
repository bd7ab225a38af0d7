// bindingConditions and bindingFailureConditions of slice devices and of
// allocation results (validateDeviceBindingParameters in
// k8s.io/kubernetes/pkg/apis/resource/validation), under `parent` (the device
// or result path).
#pragma once

#include <string>

#include "dra/api/field_error.h"
#include "dra/api/list.h"

namespace dra::api::validation {

// Hand-written rules: label-key entries (not for a list over its size limit,
// which the declarative rule reports), no repeats, no overlap, and each list
// requiring the other.
void ValidateBindingConditions(const List<std::string>& conditions,
                               const List<std::string>& failure_conditions,
                               const std::string& parent, FieldErrors& errors);

// Declarative rules: at most 4 entries in each list.
void ValidateBindingConditionsDeclarative(const List<std::string>& conditions,
                                          const List<std::string>& failure_conditions,
                                          const std::string& parent, FieldErrors& errors);

}  // namespace dra::api::validation
