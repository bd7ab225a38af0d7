// Consumable capacity of devices (KEP-5075): what one pick of a device
// consumes of each capacity under its request policy, and whether that fits
// next to what earlier allocations and picks of this call consumed.
#pragma once

#include <map>
#include <span>
#include <string>
#include <string_view>

#include "dra/api/resource.h"
#include "dra/util/result.h"

namespace dra::allocator {

// capacity name -> quantity
using CapacityMap = std::map<std::string, api::Quantity>;

// One capacity of a device as published. Never moves once made: `domain`
// and `id`, CEL's split of the name, point into it or the driver's name.
struct NamedCapacity {
  std::string name;
  api::DeviceCapacity capacity;
  std::string_view domain;
  std::string_view id;
};
// A device's capacities in name order.
using DeviceCapacities = std::span<const NamedCapacity* const>;

// One pick's consumption of a capacity: the policy default, or the whole value, when nothing
// is requested; otherwise the request rounded up by the policy's range or valid values.
// With `fractional` (DRAFractionalCapacityRange), range steps are computed in
// thousandths when every bound of the range is a multiple of 0.001.
// Errors (upstream's texts) when a rounded value does not fit the int64
// arithmetic of the range.
Result<api::Quantity> Consumption(const api::DeviceCapacity& capacity,
                                  const api::Quantity* requested, bool fractional);

// Whether one more pick fits: the device has every requested capacity, and each consumption
// obeys the capacity's policy and, with what is already consumed, stays within the value.
// `requests` may be null (no capacity requests); `aggregated`
// (earlier allocations) and `picking` (this call) may be null (nothing used).
// Errors: a consumption that cannot be computed, or a negative one
// ("capacity \"<name>\": ...").
Result<bool> CapacityFits(DeviceCapacities device, const CapacityMap* requests,
                          const CapacityMap* aggregated, const CapacityMap* picking,
                          bool fractional);
Result<bool> CapacityFits(const api::Device& device, const CapacityMap* requests,
                          const CapacityMap* aggregated, const CapacityMap* picking,
                          bool fractional);

// Every capacity of the device with what one pick consumes of it.
Result<CapacityMap> ConsumedCapacity(DeviceCapacities device, const CapacityMap* requests,
                                     bool fractional);

}  // namespace dra::allocator
