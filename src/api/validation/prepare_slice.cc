// Registry strategies for ResourceSlice and DeviceTaintRule (strategy.go in
// k8s.io/kubernetes/pkg/registry/resource/resourceslice and devicetaintrule):
// on create generation 1, no status, the fields of disabled feature gates
// dropped silently, and the create warnings; the DeviceTaintRule update.
#include <algorithm>

#include "dra/api/validation.h"

namespace dra::api {

void PrepareForCreate(ResourceSlice& slice, const FeatureGates& gates) {
  slice.metadata.generation = 1;
  ResourceSliceSpec& spec = slice.spec;

  if (!gates.Enabled(Feature::kDRAPartitionableDevices)) {
    spec.shared_counters.set_nil();
    spec.per_device_node_selection.reset();
  }
  if (!gates.Enabled(Feature::kDRAPartitionableDevicesType)) {
    spec.partition_type_attribute.reset();
  }
  if (!gates.Enabled(Feature::kDRAOptionalNodeOperations)) spec.skip_node_operations.set_nil();

  const bool binding_conditions = gates.Enabled(Feature::kDRADeviceBindingConditions) &&
                                  gates.Enabled(Feature::kDRAResourceClaimDeviceStatus);
  for (Device& device : spec.devices) {
    if (!gates.Enabled(Feature::kDRADeviceTaints)) device.taints.set_nil();
    if (!gates.Enabled(Feature::kDRADeviceCompatibilityGroups)) {
      for (DeviceCounterConsumption& c : device.consumes_counters) c.compatibility_groups.set_nil();
    }
    if (!gates.Enabled(Feature::kDRAPartitionableDevices)) {
      device.consumes_counters.set_nil();
      device.node_name.reset();
      device.node_selector.reset();
      device.all_nodes.reset();
    }
    if (!binding_conditions) {
      device.binding_conditions.set_nil();
      device.binding_failure_conditions.set_nil();
      device.binds_to_node.reset();
    }
    if (!gates.Enabled(Feature::kDRAConsumableCapacity)) {
      device.allow_multiple_allocations.reset();
      for (auto& [name, capacity] : device.capacity) capacity.request_policy.reset();
    }
    if (!gates.Enabled(Feature::kDRANodeAllocatableResources)) {
      device.node_allocatable_resources.clear();
    }
    if (!gates.Enabled(Feature::kDRAListTypeAttributes)) {
      // The attribute stays, possibly without any value left.
      for (auto& [name, attribute] : device.attributes) {
        attribute.int_values.set_nil();
        attribute.bool_values.set_nil();
        attribute.string_values.set_nil();
        attribute.version_values.set_nil();
      }
    }
  }
}

void PrepareForCreate(DeviceTaintRule& rule, const FeatureGates& /*gates*/) {
  rule.metadata.generation = 1;
  rule.status = DeviceTaintRuleStatus{};
}

// The update strategy (deviceTaintRuleStrategy.PrepareForUpdate): status is
// the stored one, a changed effect sent with the stored timeAdded gets the
// current time, and the generation counts spec changes.
void PrepareForUpdate(DeviceTaintRule& rule, const DeviceTaintRule& old, std::int64_t now) {
  rule.status = old.status;
  DeviceTaint& taint = rule.spec.taint;
  if (taint.effect != old.spec.taint.effect && taint.time_added == old.spec.taint.time_added) {
    taint.time_added = Time::FromUnix(now);
  }
  rule.metadata.generation = old.metadata.generation + (rule.spec == old.spec ? 0 : 1);
}

std::vector<std::string> WarningsOnCreate(const ResourceSlice& slice) {
  const std::string& driver = slice.spec.driver;
  if (std::none_of(driver.begin(), driver.end(), [](char c) { return c >= 'A' && c <= 'Z'; })) {
    return {};
  }
  return {"spec.driver: driver names should be lowercase; " + GoQuote(driver) +
          " contains uppercase characters"};
}

}  // namespace dra::api
