// The metadata of a ResourceClaimTemplate's spec, which is copied into the
// claims it creates: only labels and annotations may be set
// (ValidateTemplateObjectMeta in k8s.io/kubernetes/pkg/apis/core/validation).
#pragma once

#include <string>

#include "dra/api/field_error.h"
#include "dra/api/meta.h"

namespace dra::api::validation {

// Annotations, then labels, then `<field>.<name>: Forbidden: cannot be set`
// for every other field that is set, named as upstream derives it from the
// Go field name (e.g. `uID`). An empty but present list counts as set.
void ValidateTemplateObjectMeta(const ObjectMeta& meta, const std::string& field,
                                FieldErrors& errors);

}  // namespace dra::api::validation
