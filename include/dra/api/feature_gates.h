// Kubernetes feature gates that shape the resource.k8s.io API and allocation,
// with the defaults of the newest release (k8s.io/kubernetes/pkg/features/kube_features.go
// at v1.37.2).
#pragma once

#include <array>
#include <cstdint>
#include <string>
#include <string_view>

#include "dra/util/result.h"

namespace dra::api {

enum class Feature : std::uint8_t {
  kDynamicResourceAllocation,
  kDRAAdminAccess,
  kDRAPrioritizedList,
  kDRAResourceClaimDeviceStatus,
  kDRAExtendedResource,
  kDRADeviceTaints,
  kDRADeviceTaintRules,
  kDRAConsumableCapacity,
  kDRADeviceBindingConditions,
  kDRAPartitionableDevices,
  kDRAFractionalCapacityRange,
  kDRAResourceClaimGranularStatusAuthorization,
  kDRASchedulerFilterTimeout,
  kDRAListTypeAttributes,
  kDRANodeAllocatableResources,
  kDRAOptionalNodeOperations,
  kDRAPartitionableDevicesType,
  kDRAResourcePoolStatus,
  kDRAWorkloadResourceClaims,
  kDRADeviceCompatibilityGroups,
  kDRADerivedAttributes,
  kDeclarativeValidation,
  kDeclarativeValidationBeta,
  kCount,
};

struct FeatureInfo {
  std::string_view name;
  std::string_view stage;  // "GA", "beta", "alpha"
  bool default_value;
  bool locked;  // GA gates locked to their default
};

const FeatureInfo& InfoOf(Feature f);

class FeatureGates {
 public:
  // The defaults of Kubernetes 1.37.
  FeatureGates();

  bool Enabled(Feature f) const { return values_[static_cast<std::size_t>(f)]; }
  void Set(Feature f, bool enabled) { values_[static_cast<std::size_t>(f)] = enabled; }

  // Applies "Name=true,Other=false" as kube-apiserver's --feature-gates does.
  // Errors: "unrecognized feature gate: X", "invalid value of X=Y, err: ...",
  // "cannot set feature gate X to false, feature is locked to true".
  Status Apply(std::string_view spec);

  // "Name=true,..." for every gate that differs from its default.
  std::string ChangedString() const;

 private:
  std::array<bool, static_cast<std::size_t>(Feature::kCount)> values_{};
};

}  // namespace dra::api
