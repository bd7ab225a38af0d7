// Device tolerations in requests, sub-requests and allocation results
// (validateDeviceToleration in k8s.io/kubernetes/pkg/apis/resource/validation).
// No maximum count is enforced, as upstream.
#pragma once

#include <string>
#include <string_view>
#include <vector>

#include "dra/api/field_error.h"
#include "dra/api/resource.h"

namespace dra::api::validation {

// The taint effects, sorted as the declarative enum lists them.
inline const std::vector<std::string_view> kDeviceTaintEffects = {"NoExecute", "NoSchedule",
                                                                  "None"};

// Hand-written rules: the value against the operator, and an empty operator
// (which the declarative rules leave alone because the field is optional).
void ValidateToleration(const DeviceToleration& toleration, const std::string& field,
                        FieldErrors& errors);

// Declarative rules: key format, operator and effect enums.
void ValidateTolerationDeclarative(const DeviceToleration& toleration, const std::string& field,
                                   FieldErrors& errors);

}  // namespace dra::api::validation
