#include <variant>

#include "dra/api/validation.h"

namespace dra::api {
FieldErrors ValidateForCreate(
    const std::variant<ResourceSlice, DeviceClass, ResourceClaim, ResourceClaimTemplate,
                       DeviceTaintRule, Node, Pod, Namespace, ResourcePoolStatusRequest>& object,
    const ValidationOptions& options) {
  FieldErrors errors;
  auto append = [&errors](FieldErrors more) {
    for (FieldError& e : more) errors.push_back(std::move(e));
  };
  if (const auto* slice = std::get_if<ResourceSlice>(&object)) {
    ResourceSlice prepared = *slice;
    PrepareForCreate(prepared, options.gates);
    append(ValidateResourceSlice(prepared, options));
  } else if (const auto* cls = std::get_if<DeviceClass>(&object)) {
    DeviceClass prepared = *cls;
    PrepareForCreate(prepared, options.gates);
    append(ValidateDeviceClass(prepared, options));
  } else if (const auto* claim = std::get_if<ResourceClaim>(&object)) {
    // The registry's PrepareForCreate clears the status: a claim's status
    // is written through the status subresource only, so what a manifest
    // says there is neither stored nor checked.
    ResourceClaim created = *claim;
    PrepareForCreate(created, options.gates);
    append(ValidateResourceClaim(created, options));
  } else if (const auto* tmpl = std::get_if<ResourceClaimTemplate>(&object)) {
    ResourceClaimTemplate prepared = *tmpl;
    PrepareForCreate(prepared, options.gates);
    append(ValidateResourceClaimTemplate(prepared, options));
  } else if (const auto* rule = std::get_if<DeviceTaintRule>(&object)) {
    DeviceTaintRule prepared = *rule;
    PrepareForCreate(prepared, options.gates);
    append(ValidateDeviceTaintRule(prepared, options));
  } else if (const auto* request = std::get_if<ResourcePoolStatusRequest>(&object)) {
    ResourcePoolStatusRequest prepared = *request;
    PrepareForCreate(prepared, options.gates);
    append(ValidateResourcePoolStatusRequest(prepared, options));
  } else if (const auto* pod = std::get_if<Pod>(&object)) {
    append(ValidatePodClaims(*pod, options));
  }
  return errors;
}

}  // namespace dra::api
