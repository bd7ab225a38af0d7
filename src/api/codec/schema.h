// Field tables: for each object type, its JSON field names in Go declaration
// order (which is also the encoding order), the members they map to, and
// whether Go's encoding/json omits them when empty. The decoder and encoder
// are generic over these tables.
#pragma once

#include <cstdint>
#include <string_view>
#include <tuple>
#include <type_traits>

#include "dra/api/core.h"
#include "dra/api/meta.h"
#include "dra/api/resource.h"

namespace dra::api::codec {

enum FieldFlags : std::uint8_t {
  kPlain = 0,
  kOmitEmpty = 1,
  // The member's own fields appear directly in the parent object (Go's
  // embedded struct with `json:",inline"`).
  kInline = 2,
};

template <class S, class M>
struct FieldDef {
  std::string_view name;
  M S::*member;
  std::uint8_t flags;
  // The Go named type of the member's strings, for type errors: of a string
  // (or a pointer to one), of a list's elements, of a map's keys
  // ("DeviceTaintEffect", "QualifiedName"); empty for plain strings.
  std::string_view go_type;
};

template <class S, class M>
constexpr FieldDef<S, M> F(std::string_view name, M S::*member, std::uint8_t flags = kPlain,
                           std::string_view go_type = {}) {
  return {name, member, flags, go_type};
}

// Types whose fields are always inlined into the parent object (kInline).
template <class T>
struct IsInlined : std::false_type {};
template <>
struct IsInlined<DeviceConfiguration> : std::true_type {};

// Package a type lives in, for Go-style type names in decode errors.
enum class GoPackage : std::uint8_t { kResource, kCore, kMeta };

// Schema<T>::go_name, ::package and ::fields (a tuple of FieldDef).
template <class T>
struct Schema;

#define DRA_SCHEMA_NAMED(Type, GoName, Package, ...)             \
  template <>                                                    \
  struct Schema<Type> {                                          \
    static constexpr std::string_view go_name = GoName;          \
    static constexpr GoPackage package = GoPackage::Package;     \
    static constexpr auto fields = std::make_tuple(__VA_ARGS__); \
  }
#define DRA_SCHEMA(Type, Package, ...) DRA_SCHEMA_NAMED(Type, #Type, Package, __VA_ARGS__)

constexpr std::uint8_t oe = kOmitEmpty;

// ---- meta/v1 ---------------------------------------------------------------
DRA_SCHEMA(OwnerReference, kMeta, F("apiVersion", &OwnerReference::api_version),
           F("kind", &OwnerReference::kind), F("name", &OwnerReference::name),
           F("uid", &OwnerReference::uid), F("controller", &OwnerReference::controller, oe),
           F("blockOwnerDeletion", &OwnerReference::block_owner_deletion, oe));
DRA_SCHEMA(ManagedFieldsEntry, kMeta, F("manager", &ManagedFieldsEntry::manager, oe),
           F("operation", &ManagedFieldsEntry::operation, oe),
           F("apiVersion", &ManagedFieldsEntry::api_version, oe),
           F("time", &ManagedFieldsEntry::time, oe),
           F("fieldsType", &ManagedFieldsEntry::fields_type, oe),
           F("fieldsV1", &ManagedFieldsEntry::fields_v1, oe),
           F("subresource", &ManagedFieldsEntry::subresource, oe));
DRA_SCHEMA(ObjectMeta, kMeta, F("name", &ObjectMeta::name, oe),
           F("generateName", &ObjectMeta::generate_name, oe),
           F("namespace", &ObjectMeta::namespace_, oe), F("selfLink", &ObjectMeta::self_link, oe),
           F("uid", &ObjectMeta::uid, oe), F("resourceVersion", &ObjectMeta::resource_version, oe),
           F("generation", &ObjectMeta::generation, oe),
           F("creationTimestamp", &ObjectMeta::creation_timestamp, oe),
           F("deletionTimestamp", &ObjectMeta::deletion_timestamp, oe),
           F("deletionGracePeriodSeconds", &ObjectMeta::deletion_grace_period_seconds, oe),
           F("labels", &ObjectMeta::labels, oe), F("annotations", &ObjectMeta::annotations, oe),
           F("ownerReferences", &ObjectMeta::owner_references, oe),
           F("finalizers", &ObjectMeta::finalizers, oe),
           F("managedFields", &ObjectMeta::managed_fields, oe));
DRA_SCHEMA(Condition, kMeta, F("type", &Condition::type), F("status", &Condition::status),
           F("observedGeneration", &Condition::observed_generation, oe),
           F("lastTransitionTime", &Condition::last_transition_time),
           F("reason", &Condition::reason), F("message", &Condition::message));

// ---- core/v1 ---------------------------------------------------------------
DRA_SCHEMA(NodeSelectorRequirement, kCore, F("key", &NodeSelectorRequirement::key),
           F("operator", &NodeSelectorRequirement::operator_),
           F("values", &NodeSelectorRequirement::values, oe));
DRA_SCHEMA(NodeSelectorTerm, kCore, F("matchExpressions", &NodeSelectorTerm::match_expressions, oe),
           F("matchFields", &NodeSelectorTerm::match_fields, oe));
DRA_SCHEMA(NodeSelector, kCore, F("nodeSelectorTerms", &NodeSelector::node_selector_terms));
DRA_SCHEMA(Taint, kCore, F("key", &Taint::key), F("value", &Taint::value, oe),
           F("effect", &Taint::effect), F("timeAdded", &Taint::time_added, oe));
DRA_SCHEMA(NodeSpec, kCore, F("podCIDR", &NodeSpec::pod_cidr, oe),
           F("providerID", &NodeSpec::provider_id, oe),
           F("unschedulable", &NodeSpec::unschedulable, oe), F("taints", &NodeSpec::taints, oe));
DRA_SCHEMA(NodeStatus, kCore, F("capacity", &NodeStatus::capacity, oe),
           F("allocatable", &NodeStatus::allocatable, oe));
DRA_SCHEMA(PodResourceClaim, kCore, F("name", &PodResourceClaim::name),
           F("resourceClaimName", &PodResourceClaim::resource_claim_name, oe),
           F("resourceClaimTemplateName", &PodResourceClaim::resource_claim_template_name, oe));
// core/v1's type is named ResourceClaim (as resource.k8s.io's).
DRA_SCHEMA_NAMED(ContainerResourceClaim, "ResourceClaim", kCore,
                 F("name", &ContainerResourceClaim::name),
                 F("request", &ContainerResourceClaim::request, oe));
DRA_SCHEMA(ResourceRequirements, kCore, F("limits", &ResourceRequirements::limits, oe),
           F("requests", &ResourceRequirements::requests, oe),
           F("claims", &ResourceRequirements::claims, oe));
DRA_SCHEMA(Container, kCore, F("name", &Container::name), F("image", &Container::image, oe),
           F("resources", &Container::resources, oe));
DRA_SCHEMA(NodeAffinity, kCore,
           F("requiredDuringSchedulingIgnoredDuringExecution",
             &NodeAffinity::required_during_scheduling_ignored_during_execution, oe));
DRA_SCHEMA(Affinity, kCore, F("nodeAffinity", &Affinity::node_affinity, oe));
DRA_SCHEMA(Toleration, kCore, F("key", &Toleration::key, oe),
           F("operator", &Toleration::operator_, oe), F("value", &Toleration::value, oe),
           F("effect", &Toleration::effect, oe),
           F("tolerationSeconds", &Toleration::toleration_seconds, oe));
DRA_SCHEMA(PodSchedulingGate, kCore, F("name", &PodSchedulingGate::name));
DRA_SCHEMA(PodSpec, kCore, F("initContainers", &PodSpec::init_containers, oe),
           F("containers", &PodSpec::containers), F("nodeSelector", &PodSpec::node_selector, oe),
           F("nodeName", &PodSpec::node_name, oe), F("affinity", &PodSpec::affinity, oe),
           F("schedulerName", &PodSpec::scheduler_name, oe),
           F("tolerations", &PodSpec::tolerations, oe), F("priority", &PodSpec::priority, oe),
           F("preemptionPolicy", &PodSpec::preemption_policy, oe),
           F("schedulingGates", &PodSpec::scheduling_gates, oe),
           F("resourceClaims", &PodSpec::resource_claims, oe));
DRA_SCHEMA(PodResourceClaimStatus, kCore, F("name", &PodResourceClaimStatus::name),
           F("resourceClaimName", &PodResourceClaimStatus::resource_claim_name, oe));
DRA_SCHEMA(ContainerExtendedResourceRequest, kCore,
           F("containerName", &ContainerExtendedResourceRequest::container_name),
           F("resourceName", &ContainerExtendedResourceRequest::resource_name),
           F("requestName", &ContainerExtendedResourceRequest::request_name));
DRA_SCHEMA(PodExtendedResourceClaimStatus, kCore,
           F("requestMappings", &PodExtendedResourceClaimStatus::request_mappings),
           F("resourceClaimName", &PodExtendedResourceClaimStatus::resource_claim_name));
DRA_SCHEMA(PodCondition, kCore, F("type", &PodCondition::type), F("status", &PodCondition::status),
           F("reason", &PodCondition::reason, oe), F("message", &PodCondition::message, oe),
           F("lastTransitionTime", &PodCondition::last_transition_time, oe));
DRA_SCHEMA(PodStatus, kCore, F("phase", &PodStatus::phase, oe),
           F("conditions", &PodStatus::conditions, oe),
           F("resourceClaimStatuses", &PodStatus::resource_claim_statuses, oe),
           F("extendedResourceClaimStatus", &PodStatus::extended_resource_claim_status, oe));

// ---- resource.k8s.io/v1 ----------------------------------------------------
DRA_SCHEMA(ResourcePool, kResource, F("name", &ResourcePool::name),
           F("generation", &ResourcePool::generation),
           F("resourceSliceCount", &ResourcePool::resource_slice_count));
DRA_SCHEMA(Counter, kResource, F("value", &Counter::value));
DRA_SCHEMA(CounterSet, kResource, F("name", &CounterSet::name),
           F("counters", &CounterSet::counters, oe));
DRA_SCHEMA(DeviceAttribute, kResource, F("int", &DeviceAttribute::int_value, oe),
           F("bool", &DeviceAttribute::bool_value, oe),
           F("string", &DeviceAttribute::string_value, oe),
           F("version", &DeviceAttribute::version_value, oe),
           F("ints", &DeviceAttribute::int_values, oe),
           F("bools", &DeviceAttribute::bool_values, oe),
           F("strings", &DeviceAttribute::string_values, oe),
           F("versions", &DeviceAttribute::version_values, oe));
DRA_SCHEMA(CapacityRequestPolicyRange, kResource, F("min", &CapacityRequestPolicyRange::min, oe),
           F("max", &CapacityRequestPolicyRange::max, oe),
           F("step", &CapacityRequestPolicyRange::step, oe));
DRA_SCHEMA(CapacityRequestPolicy, kResource, F("default", &CapacityRequestPolicy::default_),
           F("validValues", &CapacityRequestPolicy::valid_values, oe),
           F("validRange", &CapacityRequestPolicy::valid_range, oe));
DRA_SCHEMA(DeviceCapacity, kResource, F("value", &DeviceCapacity::value),
           F("requestPolicy", &DeviceCapacity::request_policy, oe));
DRA_SCHEMA(DeviceCounterConsumption, kResource,
           F("counterSet", &DeviceCounterConsumption::counter_set),
           F("counters", &DeviceCounterConsumption::counters, oe),
           F("compatibilityGroups", &DeviceCounterConsumption::compatibility_groups, oe));
DRA_SCHEMA(NodeAllocatableMapping, kResource,
           F("capacityKey", &NodeAllocatableMapping::capacity_key, oe, "QualifiedName"),
           F("capacityMultiplier", &NodeAllocatableMapping::capacity_multiplier, oe),
           F("deviceMultiplier", &NodeAllocatableMapping::device_multiplier, oe));
DRA_SCHEMA(NodeAllocatableOverhead, kResource, F("perPod", &NodeAllocatableOverhead::per_pod, oe),
           F("perContainer", &NodeAllocatableOverhead::per_container, oe));
DRA_SCHEMA(NodeAllocatableResource, kResource, F("mapping", &NodeAllocatableResource::mapping, oe),
           F("overhead", &NodeAllocatableResource::overhead, oe));
DRA_SCHEMA(DeviceTaint, kResource, F("key", &DeviceTaint::key), F("value", &DeviceTaint::value, oe),
           F("effect", &DeviceTaint::effect, kPlain, "DeviceTaintEffect"),
           F("timeAdded", &DeviceTaint::time_added, oe));
DRA_SCHEMA(Device, kResource, F("name", &Device::name),
           F("attributes", &Device::attributes, oe, "QualifiedName"),
           F("capacity", &Device::capacity, oe, "QualifiedName"),
           F("consumesCounters", &Device::consumes_counters, oe),
           F("nodeName", &Device::node_name, oe), F("nodeSelector", &Device::node_selector, oe),
           F("allNodes", &Device::all_nodes, oe), F("taints", &Device::taints, oe),
           F("bindsToNode", &Device::binds_to_node, oe),
           F("bindingConditions", &Device::binding_conditions, oe),
           F("bindingFailureConditions", &Device::binding_failure_conditions, oe),
           F("allowMultipleAllocations", &Device::allow_multiple_allocations, oe),
           F("nodeAllocatableResources", &Device::node_allocatable_resources, oe));
DRA_SCHEMA(ResourceSliceSpec, kResource, F("driver", &ResourceSliceSpec::driver),
           F("pool", &ResourceSliceSpec::pool), F("nodeName", &ResourceSliceSpec::node_name, oe),
           F("nodeSelector", &ResourceSliceSpec::node_selector, oe),
           F("allNodes", &ResourceSliceSpec::all_nodes, oe),
           F("devices", &ResourceSliceSpec::devices, oe),
           F("perDeviceNodeSelection", &ResourceSliceSpec::per_device_node_selection, oe),
           F("sharedCounters", &ResourceSliceSpec::shared_counters, oe),
           F("partitionTypeAttribute", &ResourceSliceSpec::partition_type_attribute, oe,
             "FullyQualifiedName"),
           F("skipNodeOperations", &ResourceSliceSpec::skip_node_operations, oe,
             "SkipNodeOperation"));
DRA_SCHEMA(CELDeviceSelector, kResource, F("expression", &CELDeviceSelector::expression));
DRA_SCHEMA(DeviceSelector, kResource, F("cel", &DeviceSelector::cel, oe));
DRA_SCHEMA(OpaqueDeviceConfiguration, kResource, F("driver", &OpaqueDeviceConfiguration::driver),
           F("parameters", &OpaqueDeviceConfiguration::parameters));
DRA_SCHEMA(DeviceConfiguration, kResource, F("opaque", &DeviceConfiguration::opaque, oe));
DRA_SCHEMA(DeviceClassConfiguration, kResource, F("", &DeviceClassConfiguration::config, kInline));
DRA_SCHEMA(DeviceClassSpec, kResource, F("selectors", &DeviceClassSpec::selectors, oe),
           F("config", &DeviceClassSpec::config, oe),
           F("extendedResourceName", &DeviceClassSpec::extended_resource_name, oe));
DRA_SCHEMA(DeviceToleration, kResource, F("key", &DeviceToleration::key, oe),
           F("operator", &DeviceToleration::operator_, oe, "DeviceTolerationOperator"),
           F("value", &DeviceToleration::value, oe),
           F("effect", &DeviceToleration::effect, oe, "DeviceTaintEffect"),
           F("tolerationSeconds", &DeviceToleration::toleration_seconds, oe));
DRA_SCHEMA(DeviceDerivedAttribute, kResource,
           F("name", &DeviceDerivedAttribute::name, kPlain, "FullyQualifiedName"),
           F("expression", &DeviceDerivedAttribute::expression));
DRA_SCHEMA(CapacityRequirements, kResource,
           F("requests", &CapacityRequirements::requests, oe, "QualifiedName"));
DRA_SCHEMA(ExactDeviceRequest, kResource,
           F("deviceClassName", &ExactDeviceRequest::device_class_name),
           F("selectors", &ExactDeviceRequest::selectors, oe),
           F("allocationMode", &ExactDeviceRequest::allocation_mode, oe, "DeviceAllocationMode"),
           F("count", &ExactDeviceRequest::count, oe),
           F("adminAccess", &ExactDeviceRequest::admin_access, oe),
           F("tolerations", &ExactDeviceRequest::tolerations, oe),
           F("capacity", &ExactDeviceRequest::capacity, oe),
           F("derivedAttributes", &ExactDeviceRequest::derived_attributes, oe));
DRA_SCHEMA(DeviceSubRequest, kResource, F("name", &DeviceSubRequest::name),
           F("deviceClassName", &DeviceSubRequest::device_class_name),
           F("selectors", &DeviceSubRequest::selectors, oe),
           F("allocationMode", &DeviceSubRequest::allocation_mode, oe, "DeviceAllocationMode"),
           F("count", &DeviceSubRequest::count, oe),
           F("tolerations", &DeviceSubRequest::tolerations, oe),
           F("capacity", &DeviceSubRequest::capacity, oe),
           F("derivedAttributes", &DeviceSubRequest::derived_attributes, oe));
DRA_SCHEMA(DeviceRequest, kResource, F("name", &DeviceRequest::name),
           F("exactly", &DeviceRequest::exactly, oe),
           F("firstAvailable", &DeviceRequest::first_available, oe));
DRA_SCHEMA(DeviceConstraint, kResource, F("requests", &DeviceConstraint::requests, oe),
           F("matchAttribute", &DeviceConstraint::match_attribute, oe, "FullyQualifiedName"),
           F("distinctAttribute", &DeviceConstraint::distinct_attribute, oe, "FullyQualifiedName"));
DRA_SCHEMA(DeviceClaimConfiguration, kResource,
           F("requests", &DeviceClaimConfiguration::requests, oe),
           F("", &DeviceClaimConfiguration::config, kInline));
DRA_SCHEMA(DeviceClaim, kResource, F("requests", &DeviceClaim::requests),
           F("constraints", &DeviceClaim::constraints, oe), F("config", &DeviceClaim::config, oe));
DRA_SCHEMA(ResourceClaimSpec, kResource, F("devices", &ResourceClaimSpec::devices));
DRA_SCHEMA(
    DeviceRequestAllocationResult, kResource, F("request", &DeviceRequestAllocationResult::request),
    F("driver", &DeviceRequestAllocationResult::driver),
    F("pool", &DeviceRequestAllocationResult::pool),
    F("device", &DeviceRequestAllocationResult::device),
    F("adminAccess", &DeviceRequestAllocationResult::admin_access, oe),
    F("tolerations", &DeviceRequestAllocationResult::tolerations, oe),
    F("bindingConditions", &DeviceRequestAllocationResult::binding_conditions, oe),
    F("bindingFailureConditions", &DeviceRequestAllocationResult::binding_failure_conditions, oe),
    F("shareID", &DeviceRequestAllocationResult::share_id, oe),
    F("consumedCapacity", &DeviceRequestAllocationResult::consumed_capacity, oe, "QualifiedName"),
    F("skipNodeOperations", &DeviceRequestAllocationResult::skip_node_operations, oe,
      "SkipNodeOperation"));
DRA_SCHEMA(DeviceAllocationConfiguration, kResource,
           F("source", &DeviceAllocationConfiguration::source, kPlain, "AllocationConfigSource"),
           F("requests", &DeviceAllocationConfiguration::requests, oe),
           F("", &DeviceAllocationConfiguration::config, kInline));
DRA_SCHEMA(DeviceAllocationResult, kResource, F("results", &DeviceAllocationResult::results, oe),
           F("config", &DeviceAllocationResult::config, oe));
DRA_SCHEMA(AllocationResult, kResource, F("devices", &AllocationResult::devices, oe),
           F("nodeSelector", &AllocationResult::node_selector, oe),
           F("allocationTimestamp", &AllocationResult::allocation_timestamp, oe));
DRA_SCHEMA(ResourceClaimConsumerReference, kResource,
           F("apiGroup", &ResourceClaimConsumerReference::api_group, oe),
           F("resource", &ResourceClaimConsumerReference::resource),
           F("name", &ResourceClaimConsumerReference::name),
           F("uid", &ResourceClaimConsumerReference::uid));
DRA_SCHEMA(NetworkDeviceData, kResource, F("interfaceName", &NetworkDeviceData::interface_name, oe),
           F("ips", &NetworkDeviceData::ips, oe),
           F("hardwareAddress", &NetworkDeviceData::hardware_address, oe));
DRA_SCHEMA(AllocatedDeviceStatus, kResource, F("driver", &AllocatedDeviceStatus::driver),
           F("pool", &AllocatedDeviceStatus::pool), F("device", &AllocatedDeviceStatus::device),
           F("shareID", &AllocatedDeviceStatus::share_id, oe),
           F("conditions", &AllocatedDeviceStatus::conditions),
           F("data", &AllocatedDeviceStatus::data, oe),
           F("networkData", &AllocatedDeviceStatus::network_data, oe));
DRA_SCHEMA(ResourceClaimStatus, kResource, F("allocation", &ResourceClaimStatus::allocation, oe),
           F("reservedFor", &ResourceClaimStatus::reserved_for, oe),
           F("devices", &ResourceClaimStatus::devices, oe));
DRA_SCHEMA(ResourceClaimTemplateSpec, kResource,
           F("metadata", &ResourceClaimTemplateSpec::metadata, oe),
           F("spec", &ResourceClaimTemplateSpec::spec));
DRA_SCHEMA(DeviceTaintSelector, kResource, F("driver", &DeviceTaintSelector::driver, oe),
           F("pool", &DeviceTaintSelector::pool, oe),
           F("device", &DeviceTaintSelector::device, oe));
DRA_SCHEMA(DeviceTaintRuleSpec, kResource,
           F("deviceSelector", &DeviceTaintRuleSpec::device_selector, oe),
           F("taint", &DeviceTaintRuleSpec::taint, oe));
DRA_SCHEMA(DeviceTaintRuleStatus, kResource,
           F("conditions", &DeviceTaintRuleStatus::conditions, oe));
DRA_SCHEMA(ResourcePoolStatusRequestSpec, kResource,
           F("driver", &ResourcePoolStatusRequestSpec::driver),
           F("poolName", &ResourcePoolStatusRequestSpec::pool_name, oe),
           F("limit", &ResourcePoolStatusRequestSpec::limit, oe),
           F("defaultPartitionTypeAttribute",
             &ResourcePoolStatusRequestSpec::default_partition_type_attribute, oe));
DRA_SCHEMA(PartitionTypeStatus, kResource, F("attribute", &PartitionTypeStatus::attribute, oe),
           F("type", &PartitionTypeStatus::type, oe), F("total", &PartitionTypeStatus::total, oe),
           F("allocatable", &PartitionTypeStatus::allocatable, oe));
DRA_SCHEMA(ShareableCapacityStatus, kResource, F("name", &ShareableCapacityStatus::name, oe),
           F("total", &ShareableCapacityStatus::total, oe),
           F("consumed", &ShareableCapacityStatus::consumed, oe),
           F("available", &ShareableCapacityStatus::available, oe));
DRA_SCHEMA(ShareableSummaryStatus, kResource,
           F("fullyAvailableDevices", &ShareableSummaryStatus::fully_available_devices, oe),
           F("partiallyAvailableDevices", &ShareableSummaryStatus::partially_available_devices, oe),
           F("capacity", &ShareableSummaryStatus::capacity, oe));
DRA_SCHEMA(PoolStatus, kResource, F("driver", &PoolStatus::driver, oe),
           F("poolName", &PoolStatus::pool_name, oe), F("generation", &PoolStatus::generation),
           F("resourceSliceCount", &PoolStatus::resource_slice_count, oe),
           F("totalDevices", &PoolStatus::total_devices, oe),
           F("allocatedDevices", &PoolStatus::allocated_devices, oe),
           F("availableDevices", &PoolStatus::available_devices, oe),
           F("unavailableDevices", &PoolStatus::unavailable_devices, oe),
           F("nodeName", &PoolStatus::node_name, oe),
           F("validationError", &PoolStatus::validation_error, oe),
           F("partitionSummary", &PoolStatus::partition_summary, oe),
           F("shareableSummary", &PoolStatus::shareable_summary, oe));
DRA_SCHEMA(ResourcePoolStatusRequestStatus, kResource,
           F("poolCount", &ResourcePoolStatusRequestStatus::pool_count, oe),
           F("pools", &ResourcePoolStatusRequestStatus::pools, oe),
           F("conditions", &ResourcePoolStatusRequestStatus::conditions, oe));

// Top-level kinds: TypeMeta is handled by the object codec, so only the
// remaining fields are listed.
DRA_SCHEMA(ResourceSlice, kResource, F("metadata", &ResourceSlice::metadata, oe),
           F("spec", &ResourceSlice::spec));
DRA_SCHEMA(DeviceClass, kResource, F("metadata", &DeviceClass::metadata, oe),
           F("spec", &DeviceClass::spec));
DRA_SCHEMA(ResourceClaim, kResource, F("metadata", &ResourceClaim::metadata, oe),
           F("spec", &ResourceClaim::spec), F("status", &ResourceClaim::status, oe));
DRA_SCHEMA(ResourceClaimTemplate, kResource, F("metadata", &ResourceClaimTemplate::metadata, oe),
           F("spec", &ResourceClaimTemplate::spec));
DRA_SCHEMA(DeviceTaintRule, kResource, F("metadata", &DeviceTaintRule::metadata, oe),
           F("spec", &DeviceTaintRule::spec), F("status", &DeviceTaintRule::status, oe));
DRA_SCHEMA(ResourcePoolStatusRequest, kResource,
           F("metadata", &ResourcePoolStatusRequest::metadata, oe),
           F("spec", &ResourcePoolStatusRequest::spec),
           F("status", &ResourcePoolStatusRequest::status, oe));
DRA_SCHEMA(Node, kCore, F("metadata", &Node::metadata, oe), F("spec", &Node::spec, oe),
           F("status", &Node::status, oe));
DRA_SCHEMA(Pod, kCore, F("metadata", &Pod::metadata, oe), F("spec", &Pod::spec, oe),
           F("status", &Pod::status, oe));
DRA_SCHEMA(Namespace, kCore, F("metadata", &Namespace::metadata, oe));

#undef DRA_SCHEMA

}  // namespace dra::api::codec
