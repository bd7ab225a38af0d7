// resource.k8s.io/v1 objects (k8s.io/api/resource/v1/types.go). Field order follows the
// v1 Go types, which is also the JSON encoding order. Older versions
// (v1beta1, v1beta2) are decoded into these types and encoded from them.
#pragma once

#include <cstdint>
#include <map>
#include <optional>
#include <string>

#include "dra/api/core.h"
#include "dra/api/list.h"
#include "dra/api/meta.h"
#include "dra/api/quantity.h"

namespace dra::api {

// ---- ResourceSlice ---------------------------------------------------------

struct ResourcePool {
  std::string name;
  std::int64_t generation = 0;
  std::int64_t resource_slice_count = 0;
  bool operator==(const ResourcePool&) const = default;
};

struct Counter {
  Quantity value;
  bool operator==(const Counter&) const = default;
};

struct CounterSet {
  std::string name;
  std::map<std::string, Counter> counters;
  bool operator==(const CounterSet&) const = default;
};

// Exactly one member should be set (validation reports otherwise).
struct DeviceAttribute {
  std::optional<std::int64_t> int_value;
  std::optional<bool> bool_value;
  std::optional<std::string> string_value;
  std::optional<std::string> version_value;
  List<std::int64_t> int_values;
  List<bool> bool_values;
  List<std::string> string_values;
  List<std::string> version_values;
  bool operator==(const DeviceAttribute&) const = default;
};

struct CapacityRequestPolicyRange {
  std::optional<Quantity> min;
  std::optional<Quantity> max;
  std::optional<Quantity> step;
  bool operator==(const CapacityRequestPolicyRange&) const = default;
};

struct CapacityRequestPolicy {
  std::optional<Quantity> default_;
  List<Quantity> valid_values;
  std::optional<CapacityRequestPolicyRange> valid_range;
  bool operator==(const CapacityRequestPolicy&) const = default;
};

struct DeviceCapacity {
  Quantity value;
  std::optional<CapacityRequestPolicy> request_policy;
  bool operator==(const DeviceCapacity&) const = default;
};

struct DeviceCounterConsumption {
  std::string counter_set;
  std::map<std::string, Counter> counters;
  // DRADeviceCompatibilityGroups (alpha): devices consuming the same counter
  // set may be allocated together only when their groups intersect.
  List<std::string> compatibility_groups;
  bool operator==(const DeviceCounterConsumption&) const = default;
};

struct NodeAllocatableMapping {
  std::optional<std::string> capacity_key;
  std::optional<Quantity> capacity_multiplier;
  std::optional<Quantity> device_multiplier;
  bool operator==(const NodeAllocatableMapping&) const = default;
};

struct NodeAllocatableOverhead {
  std::optional<Quantity> per_pod;
  std::optional<Quantity> per_container;
  bool operator==(const NodeAllocatableOverhead&) const = default;
};

struct NodeAllocatableResource {
  std::optional<NodeAllocatableMapping> mapping;
  std::optional<NodeAllocatableOverhead> overhead;
  bool operator==(const NodeAllocatableResource&) const = default;
};

struct DeviceTaint {
  std::string key;
  std::string value;
  std::string effect;  // None, NoSchedule, NoExecute
  Time time_added;
  bool operator==(const DeviceTaint&) const = default;
};

struct Device {
  std::string name;
  std::map<std::string, DeviceAttribute> attributes;
  std::map<std::string, DeviceCapacity> capacity;
  List<DeviceCounterConsumption> consumes_counters;
  std::optional<std::string> node_name;
  std::optional<NodeSelector> node_selector;
  std::optional<bool> all_nodes;
  List<DeviceTaint> taints;
  std::optional<bool> binds_to_node;
  List<std::string> binding_conditions;
  List<std::string> binding_failure_conditions;
  std::optional<bool> allow_multiple_allocations;
  std::map<std::string, NodeAllocatableResource> node_allocatable_resources;
  bool operator==(const Device&) const = default;
};

struct ResourceSliceSpec {
  std::string driver;
  ResourcePool pool;
  std::optional<std::string> node_name;
  std::optional<NodeSelector> node_selector;
  std::optional<bool> all_nodes;
  List<Device> devices;
  std::optional<bool> per_device_node_selection;
  List<CounterSet> shared_counters;
  std::optional<std::string> partition_type_attribute;
  List<std::string> skip_node_operations;
  bool operator==(const ResourceSliceSpec&) const = default;
};

struct ResourceSlice {
  TypeMeta type;
  ObjectMeta metadata;
  ResourceSliceSpec spec;
};

// ---- DeviceClass -----------------------------------------------------------

struct CELDeviceSelector {
  std::string expression;
  bool operator==(const CELDeviceSelector&) const = default;
};

struct DeviceSelector {
  std::optional<CELDeviceSelector> cel;
  bool operator==(const DeviceSelector&) const = default;
};

struct OpaqueDeviceConfiguration {
  std::string driver;
  RawExtension parameters;
  bool operator==(const OpaqueDeviceConfiguration&) const = default;
};

struct DeviceConfiguration {
  std::optional<OpaqueDeviceConfiguration> opaque;
  bool operator==(const DeviceConfiguration&) const = default;
};

struct DeviceClassConfiguration {
  DeviceConfiguration config;  // inlined in JSON
  bool operator==(const DeviceClassConfiguration&) const = default;
};

struct DeviceClassSpec {
  List<DeviceSelector> selectors;
  List<DeviceClassConfiguration> config;
  std::optional<std::string> extended_resource_name;
  bool operator==(const DeviceClassSpec&) const = default;
};

struct DeviceClass {
  TypeMeta type;
  ObjectMeta metadata;
  DeviceClassSpec spec;
};

// ---- ResourceClaim ---------------------------------------------------------

struct DeviceToleration {
  std::string key;
  std::string operator_;  // Exists, Equal
  std::string value;
  std::string effect;
  std::optional<std::int64_t> toleration_seconds;
  bool operator==(const DeviceToleration&) const = default;
};

struct CapacityRequirements {
  std::map<std::string, Quantity> requests;
  bool operator==(const CapacityRequirements&) const = default;
};

// A value computed per candidate device by a CEL expression, for constraints
// (DRADerivedAttributes, KEP-5491, alpha in 1.37).
struct DeviceDerivedAttribute {
  std::string name;        // fully qualified attribute name
  std::string expression;  // CEL yielding a scalar or a list of scalars
  bool operator==(const DeviceDerivedAttribute&) const = default;
};

struct ExactDeviceRequest {
  std::string device_class_name;
  List<DeviceSelector> selectors;
  std::string allocation_mode;  // ExactCount, All
  std::int64_t count = 0;
  std::optional<bool> admin_access;
  List<DeviceToleration> tolerations;
  std::optional<CapacityRequirements> capacity;
  List<DeviceDerivedAttribute> derived_attributes;
  bool operator==(const ExactDeviceRequest&) const = default;
};

struct DeviceSubRequest {
  std::string name;
  std::string device_class_name;
  List<DeviceSelector> selectors;
  std::string allocation_mode;
  std::int64_t count = 0;
  List<DeviceToleration> tolerations;
  std::optional<CapacityRequirements> capacity;
  List<DeviceDerivedAttribute> derived_attributes;
  bool operator==(const DeviceSubRequest&) const = default;
};

struct DeviceRequest {
  std::string name;
  std::optional<ExactDeviceRequest> exactly;
  List<DeviceSubRequest> first_available;
  bool operator==(const DeviceRequest&) const = default;
};

struct DeviceConstraint {
  List<std::string> requests;
  std::optional<std::string> match_attribute;
  std::optional<std::string> distinct_attribute;
  bool operator==(const DeviceConstraint&) const = default;
};

struct DeviceClaimConfiguration {
  List<std::string> requests;
  DeviceConfiguration config;  // inlined in JSON
  bool operator==(const DeviceClaimConfiguration&) const = default;
};

struct DeviceClaim {
  List<DeviceRequest> requests;
  List<DeviceConstraint> constraints;
  List<DeviceClaimConfiguration> config;
  bool operator==(const DeviceClaim&) const = default;
};

struct ResourceClaimSpec {
  DeviceClaim devices;
  bool operator==(const ResourceClaimSpec&) const = default;
};

struct DeviceRequestAllocationResult {
  std::string request;
  std::string driver;
  std::string pool;
  std::string device;
  std::optional<bool> admin_access;
  List<DeviceToleration> tolerations;
  List<std::string> binding_conditions;
  List<std::string> binding_failure_conditions;
  std::optional<std::string> share_id;
  std::map<std::string, Quantity> consumed_capacity;
  List<std::string> skip_node_operations;
  bool operator==(const DeviceRequestAllocationResult&) const = default;
};

struct DeviceAllocationConfiguration {
  std::string source;  // FromClass, FromClaim
  List<std::string> requests;
  DeviceConfiguration config;  // inlined in JSON
  bool operator==(const DeviceAllocationConfiguration&) const = default;
};

struct DeviceAllocationResult {
  List<DeviceRequestAllocationResult> results;
  List<DeviceAllocationConfiguration> config;
  bool operator==(const DeviceAllocationResult&) const = default;
};

struct AllocationResult {
  DeviceAllocationResult devices;
  std::optional<NodeSelector> node_selector;
  Time allocation_timestamp;
  bool operator==(const AllocationResult&) const = default;
};

struct ResourceClaimConsumerReference {
  std::string api_group;
  std::string resource;
  std::string name;
  std::string uid;
  bool operator==(const ResourceClaimConsumerReference&) const = default;
};

struct NetworkDeviceData {
  std::string interface_name;
  List<std::string> ips;
  std::string hardware_address;
  bool operator==(const NetworkDeviceData&) const = default;
};

struct AllocatedDeviceStatus {
  std::string driver;
  std::string pool;
  std::string device;
  std::optional<std::string> share_id;
  List<Condition> conditions;
  std::optional<RawExtension> data;
  std::optional<NetworkDeviceData> network_data;
  bool operator==(const AllocatedDeviceStatus&) const = default;
};

struct ResourceClaimStatus {
  std::optional<AllocationResult> allocation;
  List<ResourceClaimConsumerReference> reserved_for;
  List<AllocatedDeviceStatus> devices;
  bool operator==(const ResourceClaimStatus&) const = default;
};

struct ResourceClaim {
  TypeMeta type;
  ObjectMeta metadata;
  ResourceClaimSpec spec;
  ResourceClaimStatus status;
};

struct ResourceClaimTemplateSpec {
  ObjectMeta metadata;
  ResourceClaimSpec spec;
  bool operator==(const ResourceClaimTemplateSpec&) const = default;
};

struct ResourceClaimTemplate {
  TypeMeta type;
  ObjectMeta metadata;
  ResourceClaimTemplateSpec spec;
};

// ---- DeviceTaintRule -------------------------------------------------------

struct DeviceTaintSelector {
  std::optional<std::string> driver;
  std::optional<std::string> pool;
  std::optional<std::string> device;
  bool operator==(const DeviceTaintSelector&) const = default;
};

struct DeviceTaintRuleSpec {
  std::optional<DeviceTaintSelector> device_selector;
  DeviceTaint taint;
  bool operator==(const DeviceTaintRuleSpec&) const = default;
};

struct DeviceTaintRuleStatus {
  List<Condition> conditions;
  bool operator==(const DeviceTaintRuleStatus&) const = default;
};

struct DeviceTaintRule {
  TypeMeta type;
  ObjectMeta metadata;
  DeviceTaintRuleSpec spec;
  DeviceTaintRuleStatus status;
};

// ---- ResourcePoolStatusRequest (v1alpha3 only; DRAResourcePoolStatus, KEP-5677)

struct ResourcePoolStatusRequestSpec {
  std::string driver;
  std::optional<std::string> pool_name;
  std::optional<std::int32_t> limit;                            // defaulted to 100
  std::optional<std::string> default_partition_type_attribute;  // DRAPartitionableDevicesType
  bool operator==(const ResourcePoolStatusRequestSpec&) const = default;
};

struct PartitionTypeStatus {
  std::string attribute;
  std::string type;
  std::optional<std::int32_t> total;
  std::optional<std::int32_t> allocatable;
  bool operator==(const PartitionTypeStatus&) const = default;
};

struct ShareableCapacityStatus {
  std::string name;
  std::optional<Quantity> total;
  std::optional<Quantity> consumed;
  std::optional<Quantity> available;
  bool operator==(const ShareableCapacityStatus&) const = default;
};

struct ShareableSummaryStatus {
  std::optional<std::int32_t> fully_available_devices;
  std::optional<std::int32_t> partially_available_devices;
  List<ShareableCapacityStatus> capacity;
  bool operator==(const ShareableSummaryStatus&) const = default;
};

struct PoolStatus {
  std::string driver;
  std::string pool_name;
  std::int64_t generation = 0;
  std::optional<std::int32_t> resource_slice_count;
  std::optional<std::int32_t> total_devices;
  std::optional<std::int32_t> allocated_devices;
  std::optional<std::int32_t> available_devices;
  std::optional<std::int32_t> unavailable_devices;
  std::optional<std::string> node_name;
  std::optional<std::string> validation_error;
  List<PartitionTypeStatus> partition_summary;
  std::optional<ShareableSummaryStatus> shareable_summary;
  bool operator==(const PoolStatus&) const = default;
};

struct ResourcePoolStatusRequestStatus {
  std::optional<std::int32_t> pool_count;
  List<PoolStatus> pools;
  List<Condition> conditions;
  bool operator==(const ResourcePoolStatusRequestStatus&) const = default;
};

// Cluster-scoped. The status is written by kube-controller-manager only; a
// create clears it.
struct ResourcePoolStatusRequest {
  TypeMeta type;
  ObjectMeta metadata;
  ResourcePoolStatusRequestSpec spec;
  std::optional<ResourcePoolStatusRequestStatus> status;
};

}  // namespace dra::api
