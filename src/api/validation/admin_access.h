// Admin access to devices needs the `resource.kubernetes.io/admin-access:
// true` label on the claim's namespace (AuthorizedForAdmin and
// AuthorizedForAdminStatus in k8s.io/kubernetes/pkg/registry/resource/utils.go).
// The registry checks it before validation, so these errors come first.
#pragma once

#include <string_view>

#include "dra/api/field_error.h"
#include "dra/api/resource.h"
#include "dra/api/validation.h"

namespace dra::api::validation {

// New claims and templates: checked for the first request with
// `exactly.adminAccess: true`, at `spec.devices.requests[i].adminAccess` for
// both kinds.
void ValidateAdminAccessForRequests(const DeviceClaim& claim, std::string_view ns,
                                    const ValidationOptions& options, FieldErrors& errors);

// Status updates: checked only when the old allocation granted no admin
// access and the new one does.
void ValidateAdminAccessForAllocation(const ResourceClaimStatus& status,
                                      const ResourceClaimStatus& old, std::string_view ns,
                                      const ValidationOptions& options, FieldErrors& errors);

}  // namespace dra::api::validation
