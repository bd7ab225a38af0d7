// ResourcePoolStatusRequest (resource.k8s.io/v1alpha3, KEP-5677): create-time
// strategy and validation as kube-apiserver v1.37.2 runs them. The hand-written
// part (ValidateResourcePoolStatusRequest in
// k8s.io/kubernetes/pkg/apis/resource/validation) checks only the metadata;
// the spec's rules are the declarative tags of k8s.io/api/resource/v1alpha3
// (required driver in the caseless long-name format, optional pool name in
// the resource-pool-name format, limit in [1, 1000], the partition-type
// attribute only with DRAPartitionableDevicesType).
#include "api/validation/error_lists.h"
#include "api/validation/formats.h"
#include "dra/api/validation.h"

namespace dra::api {

void PrepareForCreate(ResourcePoolStatusRequest& request, const FeatureGates& gates) {
  // The status is the controller's answer; a client cannot set it.
  request.status.reset();
  if (!gates.Enabled(Feature::kDRAPartitionableDevicesType)) {
    request.spec.default_partition_type_attribute.reset();
  }
}

FieldErrors ValidateResourcePoolStatusRequest(const ResourcePoolStatusRequest& request,
                                              const ValidationOptions& options) {
  validation::ErrorLists errors;
  validation::ValidateObjectMeta(request.metadata, /*namespaced=*/false, /*content_name=*/false,
                                 errors.hv);
  const ResourcePoolStatusRequestSpec& spec = request.spec;
  if (spec.driver.empty()) {
    errors.dv.push_back(Required("spec.driver"));
  } else {
    validation::ValidateCaselessSubdomain(spec.driver, "spec.driver", errors.dv);
  }
  if (spec.pool_name) {
    validation::ValidatePoolNameDeclarative(*spec.pool_name, "spec.poolName", errors.dv);
  }
  if (!spec.limit) {
    errors.dv.push_back(Required("spec.limit"));
  } else if (*spec.limit > 1000) {
    errors.dv.push_back(
        Invalid("spec.limit", RenderInt(*spec.limit), "must be less than or equal to 1000"));
  } else if (*spec.limit < 1) {
    errors.dv.push_back(
        Invalid("spec.limit", RenderInt(*spec.limit), "must be greater than or equal to 1"));
  }
  if (spec.default_partition_type_attribute) {
    if (options.gates.Enabled(Feature::kDRAPartitionableDevicesType)) {
      validation::ValidateFullyQualifiedNameDeclarative(
          *spec.default_partition_type_attribute, "spec.defaultPartitionTypeAttribute", errors.dv);
    } else {
      errors.dv.push_back(Forbidden("spec.defaultPartitionTypeAttribute", ""));
    }
  }
  return std::move(errors).Merged();
}

}  // namespace dra::api
