// Device selectors of classes, requests and sub-requests (validateSelector and
// validateCELExpression in k8s.io/kubernetes/pkg/apis/resource/validation).
#pragma once

#include <string>

#include "dra/api/field_error.h"
#include "dra/api/resource.h"
#include "dra/api/validation.h"

namespace dra::api::validation {

// Hand-written rules for the selector list at `field`: each needs `cel`,
// whose expression must fit 10240 bytes and pass the CEL seam. `stored`
// selects the lenient environment for unchanged stored expressions. A list
// over its size limit is left to the declarative maxItems rule.
void ValidateSelectors(const List<DeviceSelector>& selectors, const std::string& field, bool stored,
                       const ValidationOptions& options, FieldErrors& errors);

}  // namespace dra::api::validation
