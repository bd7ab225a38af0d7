// The claim spec shared by ResourceClaim and ResourceClaimTemplate
// (validateResourceClaimSpec in k8s.io/kubernetes/pkg/apis/resource/validation),
// at `path` ("spec" for claims, "spec.spec" for templates).
#pragma once

#include <string>

#include "dra/api/codec.h"
#include "dra/api/field_error.h"
#include "dra/api/resource.h"
#include "dra/api/validation.h"

namespace dra::api::validation {

// Hand-written rules, paths in the v1 shape.
void ValidateClaimSpec(const ResourceClaimSpec& spec, const std::string& path,
                       const ValidationOptions& options, FieldErrors& errors);

// Declarative rules of a new spec, in the field order of `version`, with
// that version's paths and JSON.
void ValidateClaimSpecDeclarative(const ResourceClaimSpec& spec, const std::string& path,
                                  ApiVersion version, FieldErrors& errors);

}  // namespace dra::api::validation
