// Shapes that exist only in resource.k8s.io/v1beta1 (k8s.io/api/resource/v1beta1). They
// are views over the v1 types so that one set of field tables serves both.
#pragma once

#include "api/codec/schema.h"

namespace dra::api::codec {

// v1beta1 Device = {name, basic: BasicDevice}; BasicDevice carries every
// other v1 Device field under the same JSON names.
struct BasicDevice : Device {};
struct BetaDevice {
  std::string name;
  BasicDevice basic;
};

// v1beta1 DeviceRequest is flat: the ExactDeviceRequest fields sit on the
// request itself, beside name and firstAvailable.
struct BetaDeviceRequest : ExactDeviceRequest {
  std::string name;
  List<DeviceSubRequest> first_available;
};

template <>
struct Schema<BasicDevice> {
  static constexpr std::string_view go_name = "BasicDevice";
  static constexpr GoPackage package = GoPackage::kResource;
  static constexpr auto fields = std::make_tuple(
      F("attributes", &Device::attributes, oe, "QualifiedName"),
      F("capacity", &Device::capacity, oe, "QualifiedName"),
      F("consumesCounters", &Device::consumes_counters, oe), F("nodeName", &Device::node_name, oe),
      F("nodeSelector", &Device::node_selector, oe), F("allNodes", &Device::all_nodes, oe),
      F("taints", &Device::taints, oe), F("bindsToNode", &Device::binds_to_node, oe),
      F("bindingConditions", &Device::binding_conditions, oe),
      F("bindingFailureConditions", &Device::binding_failure_conditions, oe),
      F("allowMultipleAllocations", &Device::allow_multiple_allocations, oe),
      F("nodeAllocatableResources", &Device::node_allocatable_resources, oe));
};

template <>
struct Schema<BetaDevice> {
  static constexpr std::string_view go_name = "Device";
  static constexpr GoPackage package = GoPackage::kResource;
  static constexpr auto fields =
      std::make_tuple(F("name", &BetaDevice::name), F("basic", &BetaDevice::basic, oe));
};

template <>
struct Schema<BetaDeviceRequest> {
  static constexpr std::string_view go_name = "DeviceRequest";
  static constexpr GoPackage package = GoPackage::kResource;
  static constexpr auto fields = std::make_tuple(
      F("name", &BetaDeviceRequest::name),
      F("deviceClassName", &ExactDeviceRequest::device_class_name),
      F("selectors", &ExactDeviceRequest::selectors, oe),
      F("allocationMode", &ExactDeviceRequest::allocation_mode, oe, "DeviceAllocationMode"),
      F("count", &ExactDeviceRequest::count, oe),
      F("adminAccess", &ExactDeviceRequest::admin_access, oe),
      F("firstAvailable", &BetaDeviceRequest::first_available, oe),
      F("tolerations", &ExactDeviceRequest::tolerations, oe),
      F("capacity", &ExactDeviceRequest::capacity, oe),
      F("derivedAttributes", &ExactDeviceRequest::derived_attributes, oe));
};

// Conversions between the v1beta1 views and the v1 types.
inline Device FromBeta(BetaDevice&& d) {
  Device out = std::move(static_cast<Device&>(d.basic));
  out.name = std::move(d.name);
  return out;
}

inline BetaDevice ToBeta(const Device& d) {
  BetaDevice out;
  static_cast<Device&>(out.basic) = d;
  out.basic.name.clear();
  out.name = d.name;
  return out;
}

// An `exactly` is created iff any flat field is set, as upstream's
// Convert_v1beta1_DeviceRequest_To_resource_DeviceRequest
// (k8s.io/kubernetes/pkg/apis/resource/v1beta1/conversion.go).
inline DeviceRequest FromBeta(BetaDeviceRequest&& r) {
  DeviceRequest out;
  out.name = std::move(r.name);
  out.first_available = std::move(r.first_available);
  const ExactDeviceRequest& e = r;
  bool any = !e.device_class_name.empty() || !e.selectors.nil() || !e.allocation_mode.empty() ||
             e.count != 0 || e.admin_access.has_value() || !e.tolerations.nil() ||
             e.capacity.has_value() || !e.derived_attributes.nil();
  if (any) out.exactly = std::move(static_cast<ExactDeviceRequest&>(r));
  return out;
}

inline BetaDeviceRequest ToBeta(const DeviceRequest& r) {
  BetaDeviceRequest out;
  if (r.exactly) static_cast<ExactDeviceRequest&>(out) = *r.exactly;
  out.name = r.name;
  out.first_available = r.first_available;
  return out;
}

}  // namespace dra::api::codec
