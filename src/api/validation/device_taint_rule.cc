// DeviceTaintRule validation (ValidateDeviceTaintRule, ValidateDeviceTaintRuleUpdate and
// ValidateDeviceTaintRuleStatusUpdate in k8s.io/kubernetes/pkg/apis/resource/validation).
#include <string>

#include "api/validation/error_lists.h"
#include "api/validation/formats.h"
#include "dra/api/validation.h"

namespace dra::api {
namespace {

void ValidateSpec(const DeviceTaintRuleSpec& spec, const DeviceTaintRuleSpec* old,
                  validation::ErrorLists& errors) {
  if (spec.device_selector) {
    const DeviceTaintSelector& selector = *spec.device_selector;
    if (selector.driver) {
      validation::ValidateDriverName(*selector.driver, "spec.deviceSelector.driver", errors.hv);
    }
    if (selector.pool) {
      validation::ValidatePoolName(*selector.pool, "spec.deviceSelector.pool", errors.hv);
    }
    if (selector.device) {
      validation::ValidateDnsLabel(*selector.device, "spec.deviceSelector.device", errors.hv);
    }
  }
  validation::ValidateDeviceTaintKeyAndValue(spec.taint, "spec.taint", errors.hv);
  // A stored effect stays acceptable even if it is no longer known.
  if (old == nullptr || old->taint.effect != spec.taint.effect) {
    validation::ValidateDeviceTaintEffect(spec.taint.effect, "spec.taint.effect", errors.dv);
  }
}

}  // namespace

FieldErrors ValidateDeviceTaintRule(const DeviceTaintRule& rule, const ValidationOptions&) {
  validation::ErrorLists errors;
  validation::ValidateObjectMeta(rule.metadata, /*namespaced=*/false, /*content_name=*/false,
                                 errors.hv);
  ValidateSpec(rule.spec, nullptr, errors);
  return std::move(errors).Merged();
}

FieldErrors ValidateDeviceTaintRuleUpdate(const DeviceTaintRule& rule, const DeviceTaintRule& old,
                                          const ValidationOptions& options) {
  // Through v1 the store refuses unconditional updates before validating.
  if (options.request_version == "v1" && rule.metadata.resource_version.empty()) {
    return {Invalid("metadata.resourceVersion", "0", "must be specified for an update")};
  }
  validation::ErrorLists errors;
  validation::ValidateObjectMetaUpdate(rule.metadata, old.metadata, errors.hv);
  ValidateSpec(rule.spec, &old.spec, errors);
  return std::move(errors).Merged();
}

}  // namespace dra::api
