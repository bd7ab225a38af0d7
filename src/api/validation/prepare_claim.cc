// Registry strategies before create (PrepareForCreate in
// k8s.io/kubernetes/pkg/registry/resource/*/strategy.go) for DeviceClass,
// ResourceClaim and ResourceClaimTemplate. Fields of disabled feature gates
// are dropped silently; a new object has no old one that could keep them.
#include "dra/api/validation.h"

namespace dra::api {
namespace {

void DropDisabledFields(ResourceClaimSpec& spec, const FeatureGates& gates) {
  const bool prioritized_list = gates.Enabled(Feature::kDRAPrioritizedList);
  const bool device_taints = gates.Enabled(Feature::kDRADeviceTaints);
  const bool admin_access = gates.Enabled(Feature::kDRAAdminAccess);
  const bool consumable_capacity = gates.Enabled(Feature::kDRAConsumableCapacity);
  const bool derived_attributes = gates.Enabled(Feature::kDRADerivedAttributes);
  for (DeviceRequest& request : spec.devices.requests) {
    if (!prioritized_list) request.first_available.set_nil();
    if (request.exactly) {
      if (!device_taints) request.exactly->tolerations.set_nil();
      if (!admin_access) request.exactly->admin_access.reset();
      if (!consumable_capacity) request.exactly->capacity.reset();
      if (!derived_attributes) request.exactly->derived_attributes.set_nil();
    }
    for (DeviceSubRequest& subrequest : request.first_available) {
      if (!device_taints) subrequest.tolerations.set_nil();
      if (!consumable_capacity) subrequest.capacity.reset();
      if (!derived_attributes) subrequest.derived_attributes.set_nil();
    }
  }
  if (!consumable_capacity) {
    for (DeviceConstraint& constraint : spec.devices.constraints) {
      constraint.distinct_attribute.reset();
    }
  }
}

}  // namespace

// DeviceClass has no gated fields at present.
void PrepareForCreate(DeviceClass& cls, const FeatureGates& /*gates*/) {
  cls.metadata.generation = 1;
}

void PrepareForCreate(ResourceClaim& claim, const FeatureGates& gates) {
  claim.status = ResourceClaimStatus{};
  DropDisabledFields(claim.spec, gates);
}

void PrepareForCreate(ResourceClaimTemplate& tmpl, const FeatureGates& gates) {
  DropDisabledFields(tmpl.spec.spec, gates);
}

}  // namespace dra::api
