#include "allocator/capacity.h"

#include <algorithm>
#include <vector>

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

// Whether range arithmetic works in thousandths: every bound present is an
// exact multiple of 0.001 and the step at least 0.001.
bool UseMilli(const api::CapacityRequestPolicyRange& range, bool fractional) {
  if (!fractional) return false;
  for (const auto* q : {&range.min, &range.max, &range.step}) {
    if (*q && !(*q)->IsMilliExact()) return false;
  }
  return !range.step || range.step->MilliValue() >= 1;
}

bool ViolatesPolicy(const api::DeviceCapacity& capacity, const api::Quantity& v, bool fractional) {
  if (!capacity.request_policy) return false;
  const api::CapacityRequestPolicy& policy = *capacity.request_policy;
  if (policy.default_ && policy.default_->Compare(v) == 0) return false;
  if (policy.valid_range) {
    const api::CapacityRequestPolicyRange& range = *policy.valid_range;
    if (range.max && v.Compare(*range.max) > 0) return true;
    if (range.step) {
      const bool milli = UseMilli(range, fractional);
      if (milli && !v.IsMilliExact()) return true;
      auto units = [&](const api::Quantity& q) { return milli ? q.MilliValue() : q.Value(); };
      const std::int64_t min = range.min ? units(*range.min) : 0;
      const std::int64_t step = units(*range.step);
      return step != 0 && (units(v) - min) % step != 0;
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

namespace {

constexpr char kNotRepresentable[] =
    "capacity request cannot be represented in the device's range arithmetic";

// q in thousandths, when that is exact and fits in int64.
bool SafeMilli(const api::Quantity& q, std::int64_t* out) {
  static const api::Quantity kMax =
      api::Quantity::FromMilli(INT64_MAX, api::QuantityFormat::kDecimalSI);
  static const api::Quantity kMin =
      api::Quantity::FromMilli(INT64_MIN, api::QuantityFormat::kDecimalSI);
  if (!q.IsMilliExact() || q.Compare(kMax) > 0 || q.Compare(kMin) < 0) return false;
  *out = q.MilliValue();
  return true;
}

// Rounds `requested` (at least the minimum) up to the next step.
Result<api::Quantity> RoundUpToStep(const api::Quantity& requested,
                                    const api::CapacityRequestPolicyRange& range, bool fractional) {
  const api::QuantityFormat format = range.step->format();
  if (UseMilli(range, fractional)) {
    std::int64_t r = 0;
    if (!SafeMilli(requested, &r)) {
      return Error{std::string(kNotRepresentable) + ": request " + requested.String() +
                   " is not a representable milli value"};
    }
    const std::int64_t st = range.step->MilliValue(), m = range.min->MilliValue();
    const std::int64_t added = r - m;
    std::int64_t n = added / st + (added % st != 0 ? 1 : 0);
    if (n > (INT64_MAX - m) / st) {
      return Error{std::string(kNotRepresentable) + ": rounding request " + requested.String() +
                   " up to the next step passes the milli-value range"};
    }
    const std::int64_t v = m + st * n;
    return v % 1000 == 0 ? api::Quantity::FromInt(v / 1000, format)
                         : api::Quantity::FromMilli(v, format);
  }
  if (requested.Compare(api::Quantity::FromInt(INT64_MAX)) > 0) {
    return Error{std::string(kNotRepresentable) + ": request " + requested.String() +
                 " exceeds MaxInt64"};
  }
  const std::int64_t r = requested.Value(), st = range.step->Value(), m = range.min->Value();
  if (st <= 0) return requested;
  const std::int64_t added = r - m;
  const std::int64_t n = added / st + (added % st != 0 ? 1 : 0);
  if (m >= 0 && n > (INT64_MAX - m) / st) {
    return Error{std::string(kNotRepresentable) + ": rounding request " + requested.String() +
                 " up to the next step passes MaxInt64"};
  }
  return api::Quantity::FromInt(m + st * n, format);
}

// Go's %q of a capacity name (names are ASCII identifiers).
std::string Quoted(const std::string& name) { return "\"" + name + "\""; }

// What one pick consumes of every capacity of the device, requested or not.
Result<CapacityMap> ConsumptionOfAll(DeviceCapacities device, const CapacityMap* requests,
                                     bool fractional) {
  CapacityMap out;
  for (const NamedCapacity* c : device) {
    Result<api::Quantity> v = Consumption(c->capacity, Requested(requests, c->name), fractional);
    if (!v.ok()) return v.failure().WithPrefix("capacity " + Quoted(c->name) + ": ");
    out.emplace(c->name, std::move(*v));
  }
  return out;
}

}  // namespace

Result<api::Quantity> Consumption(const api::DeviceCapacity& capacity,
                                  const api::Quantity* requested, bool fractional) {
  const auto& policy = capacity.request_policy;
  if (requested == nullptr) {
    return policy && policy->default_ ? *policy->default_ : capacity.value;
  }
  if (!policy) return *requested;
  if (policy->valid_range && policy->valid_range->min) {
    const api::CapacityRequestPolicyRange& range = *policy->valid_range;
    if (requested->Compare(*range.min) < 0) return *range.min;
    if (!range.step) return *requested;
    return RoundUpToStep(*requested, range, fractional);
  }
  if (!policy->valid_values.empty()) {
    for (const api::Quantity& q : policy->valid_values) {
      if (q.Compare(*requested) >= 0) return q;
    }
  }
  return *requested;
}

Result<bool> CapacityFits(DeviceCapacities device, const CapacityMap* requests,
                          const CapacityMap* aggregated, const CapacityMap* picking,
                          bool fractional) {
  if (requests != nullptr) {
    for (const auto& request : *requests) {
      const std::string& name = request.first;
      if (std::none_of(device.begin(), device.end(),
                       [&](const NamedCapacity* c) { return c->name == name; })) {
        return false;
      }
    }
  }
  if (device.empty()) return true;  // nothing to consume
  // Nothing requested, nothing consumed yet, no policy, no negative value:
  // each capacity is consumed whole, which always fits.
  if (requests == nullptr && aggregated == nullptr && picking == nullptr &&
      std::none_of(device.begin(), device.end(), [](const NamedCapacity* c) {
        return c->capacity.request_policy.has_value() || c->capacity.value.Sign() < 0;
      })) {
    return true;
  }
  Result<CapacityMap> consumed = ConsumptionOfAll(device, requests, fractional);
  if (!consumed.ok()) return consumed.failure();
  for (const auto& [name, v] : *consumed) {
    if (v.Sign() < 0) return Error{"capacity " + Quoted(name) + ": capacity value is negative"};
  }
  for (const NamedCapacity* c : device) {
    const api::Quantity& v = consumed->at(c->name);
    if (ViolatesPolicy(c->capacity, v, fractional)) return false;
    api::Quantity total = Get(aggregated, c->name).Add(v).Add(Get(picking, c->name));
    if (total.Compare(c->capacity.value) > 0) return false;
  }
  return true;
}

Result<bool> CapacityFits(const api::Device& device, const CapacityMap* requests,
                          const CapacityMap* aggregated, const CapacityMap* picking,
                          bool fractional) {
  std::vector<NamedCapacity> owned;
  owned.reserve(device.capacity.size());
  for (const auto& [name, capacity] : device.capacity) owned.push_back({name, capacity, {}, {}});
  std::vector<const NamedCapacity*> list;
  list.reserve(owned.size());
  for (const NamedCapacity& c : owned) list.push_back(&c);
  return CapacityFits(DeviceCapacities(list), requests, aggregated, picking, fractional);
}

Result<CapacityMap> ConsumedCapacity(DeviceCapacities device, const CapacityMap* requests,
                                     bool fractional) {
  return ConsumptionOfAll(device, requests, fractional);
}

}  // namespace dra::allocator
