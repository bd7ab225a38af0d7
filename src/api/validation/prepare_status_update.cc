// The ResourceClaim status strategy (resourceclaimStatusStrategy.PrepareForUpdate
// in k8s.io/kubernetes/pkg/registry/resource/resourceclaim): what the registry
// does to a status update before validating it.
#include <algorithm>
#include <tuple>

#include "dra/api/validation.h"

namespace dra::api {
namespace {

using ResultList = List<DeviceRequestAllocationResult>;

const ResultList* ResultsOf(const ResourceClaimStatus& s) {
  return s.allocation ? &s.allocation->devices.results : nullptr;
}

template <class Pred>
bool AnyResult(const ResourceClaimStatus& s, Pred pred) {
  const ResultList* results = ResultsOf(s);
  return results != nullptr && std::any_of(results->begin(), results->end(), pred);
}

// Drops fields of disabled gates unless the old status already used the
// feature ("used" is judged over the whole old object).
void DropDisabledStatusFields(ResourceClaimStatus& status, const ResourceClaimStatus& old,
                              const FeatureGates& gates) {
  const bool admin_access =
      gates.Enabled(Feature::kDRAAdminAccess) ||
      AnyResult(old, [](const auto& r) { return r.admin_access.has_value(); });
  const bool taints = gates.Enabled(Feature::kDRADeviceTaints) ||
                      AnyResult(old, [](const auto& r) { return !r.tolerations.empty(); });
  const bool consumable = gates.Enabled(Feature::kDRAConsumableCapacity) ||
                          AnyResult(old,
                                    [](const auto& r) {
                                      return r.share_id.has_value() || !r.consumed_capacity.empty();
                                    }) ||
                          std::any_of(old.devices.begin(), old.devices.end(),
                                      [](const auto& d) { return d.share_id.has_value(); });
  const bool binding =
      (gates.Enabled(Feature::kDRADeviceBindingConditions) &&
       gates.Enabled(Feature::kDRAResourceClaimDeviceStatus)) ||
      AnyResult(old, [](const auto& r) {
        return !r.binding_conditions.empty() || !r.binding_failure_conditions.empty();
      });
  const bool skip_node_operations =
      gates.Enabled(Feature::kDRAOptionalNodeOperations) ||
      AnyResult(old, [](const auto& r) { return !r.skip_node_operations.empty(); });
  const bool device_status =
      gates.Enabled(Feature::kDRAResourceClaimDeviceStatus) || !old.devices.empty();

  if (status.allocation) {
    for (DeviceRequestAllocationResult& r : status.allocation->devices.results) {
      if (!admin_access) r.admin_access.reset();
      if (!taints) r.tolerations.set_nil();
      if (!consumable) {
        r.share_id.reset();
        r.consumed_capacity.clear();
      }
      if (!binding) {
        r.binding_conditions.set_nil();
        r.binding_failure_conditions.set_nil();
      }
      if (!skip_node_operations) r.skip_node_operations.set_nil();
    }
  }
  if (!device_status) status.devices.set_nil();
  if (!consumable) {
    for (AllocatedDeviceStatus& d : status.devices) d.share_id.reset();
  }
}

auto DeviceKey(const std::string& driver, const std::string& pool, const std::string& device,
               const std::optional<std::string>& share_id) {
  return std::tie(driver, pool, device, share_id);
}

bool Allocates(const ResourceClaimStatus& s, const AllocatedDeviceStatus& d) {
  return AnyResult(s, [&](const DeviceRequestAllocationResult& r) {
    return DeviceKey(r.driver, r.pool, r.device, r.share_id) ==
           DeviceKey(d.driver, d.pool, d.device, d.share_id);
  });
}

}  // namespace

void PrepareForStatusUpdate(ResourceClaim& claim, const ResourceClaim& old,
                            const FeatureGates& gates) {
  claim.spec = old.spec;
  ObjectMeta& meta = claim.metadata;
  meta.labels = old.metadata.labels;
  meta.annotations = old.metadata.annotations;
  meta.finalizers = old.metadata.finalizers;
  meta.owner_references = old.metadata.owner_references;
  meta.deletion_timestamp = old.metadata.deletion_timestamp;
  meta.generation = old.metadata.generation;
  DropDisabledStatusFields(claim.status, old.status, gates);
  // Status entries of devices that the old allocation had and the new one
  // no longer has are removed silently.
  List<AllocatedDeviceStatus>& devices = claim.status.devices;
  devices.erase(std::remove_if(devices.begin(), devices.end(),
                               [&](const AllocatedDeviceStatus& d) {
                                 return Allocates(old.status, d) && !Allocates(claim.status, d);
                               }),
                devices.end());
}

}  // namespace dra::api
