// ResourceClaimTemplate validation (ValidateResourceClaimTemplate in
// k8s.io/kubernetes/pkg/apis/resource/validation): the claim spec at
// `spec.spec`, and metadata for the claims it creates at `spec.metadata`.
#include "api/validation/admin_access.h"
#include "api/validation/bad_values.h"
#include "api/validation/claim_spec.h"
#include "api/validation/error_lists.h"
#include "api/validation/formats.h"
#include "api/validation/template_object_meta.h"
#include "dra/api/validation.h"

namespace dra::api {

using validation::DeclarativeVersion;
using validation::ErrorLists;
using validation::ValidateAdminAccessForRequests;
using validation::ValidateClaimSpec;
using validation::ValidateClaimSpecDeclarative;
using validation::ValidateObjectMeta;
using validation::ValidateTemplateObjectMeta;

FieldErrors ValidateResourceClaimTemplate(const ResourceClaimTemplate& tmpl,
                                          const ValidationOptions& options) {
  ErrorLists errors;
  ValidateAdminAccessForRequests(tmpl.spec.spec.devices, tmpl.metadata.namespace_, options,
                                 errors.hv);
  ValidateObjectMeta(tmpl.metadata, /*namespaced=*/true, /*content_name=*/false, errors.hv);
  ValidateTemplateObjectMeta(tmpl.spec.metadata, "spec.metadata", errors.hv);
  ValidateClaimSpec(tmpl.spec.spec, "spec.spec", options, errors.hv);
  ValidateClaimSpecDeclarative(tmpl.spec.spec, "spec.spec",
                               DeclarativeVersion(options.request_version), errors.dv);
  return std::move(errors).Merged();
}

}  // namespace dra::api
