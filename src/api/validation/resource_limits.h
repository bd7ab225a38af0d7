// Size limits of DeviceClass, ResourceClaim and ResourceClaimTemplate fields,
// under their upstream names (k8s.io/api/resource/v1/types.go).
#pragma once

#include <cstddef>

namespace dra::api::validation {

inline constexpr std::size_t kDeviceRequestsMaxSize = 32;
inline constexpr std::size_t kDeviceConstraintsMaxSize = 32;
inline constexpr std::size_t kDeviceConfigMaxSize = 32;
inline constexpr std::size_t kDeviceSelectorsMaxSize = 32;
inline constexpr std::size_t kDeviceDerivedAttributesMaxSize = 32;  // DRADerivedAttributes
inline constexpr std::size_t kFirstAvailableDeviceRequestMaxSize = 8;
inline constexpr std::size_t kAllocationResultsMaxSize = 32;
// Class and claim configuration together.
inline constexpr std::size_t kAllocationConfigMaxSize = 2 * kDeviceConfigMaxSize;
inline constexpr std::size_t kBindingConditionsMaxSize = 4;
inline constexpr std::size_t kBindingFailureConditionsMaxSize = 4;
inline constexpr std::size_t kResourceClaimReservedForMaxSize = 256;
inline constexpr std::size_t kAllocatedDeviceStatusMaxConditions = 8;
inline constexpr long kAllocatedDeviceStatusDataMaxLength = 10 * 1024;
inline constexpr std::size_t kNetworkDeviceDataMaxIPs = 16;
inline constexpr std::size_t kNetworkDeviceDataInterfaceNameMaxLength = 256;
inline constexpr std::size_t kNetworkDeviceDataHardwareAddressMaxLength = 128;
inline constexpr long kOpaqueParametersMaxLength = 10 * 1024;
inline constexpr std::size_t kCELSelectorExpressionMaxLength = 10 * 1024;

}  // namespace dra::api::validation
