#include "allocator/capacity.h"

#include <algorithm>

namespace dra::allocator {
namespace {

const api::Quantity* Requested(const CapacityMap* requests, const std::string& name) {
  if (requests == nullptr) return nullptr;
  auto it = requests->find(name);
  return it == requests->end() ? nullptr : &it->second;
}

const api::Quantity& Get(const CapacityMap* map, const std::string& name) {
  static const api::Quantity kZero;
  if (map == nullptr) return kZero;
  auto it = map->find(name);
  return it == map->end() ? kZero : it->second;
}

bool ViolatesPolicy(const api::DeviceCapacity& capacity, const api::Quantity& v) {
  if (!capacity.request_policy) return false;
  const api::CapacityRequestPolicy& policy = *capacity.request_policy;
  if (policy.default_ && policy.default_->Compare(v) == 0) return false;
  if (policy.valid_range) {
    const api::CapacityRequestPolicyRange& range = *policy.valid_range;
    if (range.max && v.Compare(*range.max) > 0) return true;
    if (range.step) {
      std::int64_t min = range.min ? range.min->Value() : 0;
      std::int64_t step = range.step->Value();
      return step != 0 && (v.Value() - min) % step != 0;
    }
    return false;
  }
  if (!policy.valid_values.empty()) {
    return std::none_of(policy.valid_values.begin(), policy.valid_values.end(),
                        [&](const api::Quantity& q) { return q.Compare(v) == 0; });
  }
  return false;
}

}  // namespace

api::Quantity Consumption(const api::DeviceCapacity& capacity, const api::Quantity* requested) {
  const auto& policy = capacity.request_policy;
  if (requested == nullptr) {
    return policy && policy->default_ ? *policy->default_ : capacity.value;
  }
  if (!policy) return *requested;
  if (policy->valid_range && policy->valid_range->min) {
    const api::CapacityRequestPolicyRange& range = *policy->valid_range;
    if (requested->Compare(*range.min) < 0) return *range.min;
    if (!range.step) return *requested;
    std::int64_t r = requested->Value(), m = range.min->Value(), st = range.step->Value();
    if (st <= 0) return *requested;
    std::int64_t steps = (r - m + st - 1) / st;
    return api::Quantity::FromInt(m + st * steps, api::QuantityFormat::kBinarySI);
  }
  if (!policy->valid_values.empty()) {
    for (const api::Quantity& q : policy->valid_values) {
      if (q.Compare(*requested) >= 0) return q;
    }
  }
  return *requested;
}

bool CapacityFits(const api::Device& device, const CapacityMap* requests,
                  const CapacityMap* aggregated, const CapacityMap* picking) {
  if (requests != nullptr) {
    for (const auto& [name, _] : *requests) {
      if (!device.capacity.count(name)) return false;
    }
  }
  for (const auto& [name, capacity] : device.capacity) {
    api::Quantity v = Consumption(capacity, Requested(requests, name));
    if (ViolatesPolicy(capacity, v)) return false;
    api::Quantity total = Get(aggregated, name).Add(v).Add(Get(picking, name));
    if (total.Compare(capacity.value) > 0) return false;
  }
  return true;
}

CapacityMap ConsumedCapacity(const api::Device& device, const CapacityMap* requests) {
  CapacityMap out;
  for (const auto& [name, capacity] : device.capacity) {
    out.emplace(name, Consumption(capacity, Requested(requests, name)));
  }
  return out;
}

}  // namespace dra::allocator
