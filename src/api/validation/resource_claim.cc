// ResourceClaim validation: create, update and status update
// (ValidateResourceClaim, ValidateResourceClaimUpdate and
// ValidateResourceClaimStatusUpdate in k8s.io/kubernetes/pkg/apis/resource/validation).
#include "api/validation/admin_access.h"
#include "api/validation/bad_values.h"
#include "api/validation/claim_spec.h"
#include "api/validation/claim_status.h"
#include "api/validation/error_lists.h"
#include "api/validation/formats.h"
#include "dra/api/validation.h"

namespace dra::api {

using validation::DeclarativeVersion;
using validation::ErrorLists;
using validation::ValidateAdminAccessForAllocation;
using validation::ValidateAdminAccessForRequests;
using validation::ValidateClaimSpec;
using validation::ValidateClaimSpecDeclarative;
using validation::ValidateClaimStatus;
using validation::ValidateClaimStatusDeclarative;
using validation::ValidateObjectMeta;
using validation::ValidateObjectMetaUpdate;

FieldErrors ValidateResourceClaim(const ResourceClaim& claim, const ValidationOptions& options) {
  ErrorLists errors;
  ValidateAdminAccessForRequests(claim.spec.devices, claim.metadata.namespace_, options, errors.hv);
  ValidateObjectMeta(claim.metadata, /*namespaced=*/true, /*content_name=*/false, errors.hv);
  ValidateClaimSpec(claim.spec, "spec", options, errors.hv);
  ValidateClaimSpecDeclarative(claim.spec, "spec", DeclarativeVersion(options.request_version),
                               errors.dv);
  return std::move(errors).Merged();
}

FieldErrors ValidateResourceClaimUpdate(const ResourceClaim& claim, const ResourceClaim& old,
                                        const ValidationOptions& /*options*/) {
  // The spec is immutable, so it is not validated again: a change is the only
  // error it can have.
  ErrorLists errors;
  ValidateObjectMeta(claim.metadata, /*namespaced=*/true, /*content_name=*/false, errors.hv);
  ValidateObjectMetaUpdate(claim.metadata, old.metadata, errors.hv);
  if (!(claim.spec == old.spec)) {
    errors.dv.push_back(Invalid("spec", "null", "field is immutable"));
  }
  return std::move(errors).Merged();
}

FieldErrors ValidateResourceClaimStatusUpdate(const ResourceClaim& claim, const ResourceClaim& old,
                                              const ValidationOptions& options) {
  ErrorLists errors;
  ValidateAdminAccessForAllocation(claim.status, old.status, claim.metadata.namespace_, options,
                                   errors.hv);
  ValidateObjectMetaUpdate(claim.metadata, old.metadata, errors.hv);
  ValidateClaimStatus(claim, old, errors.hv);
  ValidateClaimStatusDeclarative(claim.status, old.status,
                                 DeclarativeVersion(options.request_version), errors.dv);
  return std::move(errors).Merged();
}

}  // namespace dra::api
