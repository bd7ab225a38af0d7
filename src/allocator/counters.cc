#include "allocator/counters.h"

namespace dra::allocator {
namespace {

void Apply(CounterSets& sets, const api::List<api::DeviceCounterConsumption>& device, bool add) {
  for (const api::DeviceCounterConsumption& c : device) {
    auto& set = sets[c.counter_set];
    for (const auto& [name, counter] : c.counters) {
      api::Quantity& q = set[name];
      q = add ? q.Add(counter.value) : q.Sub(counter.value);
    }
  }
}

bool WithinLimits(const CounterSets& available, const CounterSets& consumed) {
  static const api::Quantity kZero;
  for (const auto& [set_name, counters] : available) {
    auto set = consumed.find(set_name);
    for (const auto& [name, value] : counters) {
      const api::Quantity* used = &kZero;
      if (set != consumed.end()) {
        if (auto it = set->second.find(name); it != set->second.end()) used = &it->second;
      }
      if (value.Compare(*used) < 0) return false;
    }
  }
  return true;
}

}  // namespace

// Counter sets minus what the pool's devices in use consume; may go negative.
const CounterSets& CounterLedger::Available(const Pool& pool) {
  auto it = available_.find(pool.pool);
  if (it != available_.end()) return it->second;
  CounterSets sets = pool.counters;
  for (const auto* list : {&pool.slices, &pool.other_slices}) {
    for (Index s : *list) {
      const SliceRecord& r = inventory_.slices()[s];
      for (Index d = r.first_device; d < r.first_device + r.device_count; ++d) {
        if (!inventory_.devices()[d].consumes_counters || !in_use_.in_use(d)) continue;
        for (const api::DeviceCounterConsumption& c : inventory_.extra(d).consumes_counters) {
          auto set = sets.find(c.counter_set);
          if (set == sets.end()) continue;
          for (const auto& [counter, amount] : c.counters) {
            auto q = set->second.find(counter);
            if (q != set->second.end()) q->second = q->second.Sub(amount.value);
          }
        }
      }
    }
  }
  return available_.emplace(pool.pool, std::move(sets)).first->second;
}

bool CounterLedger::TryConsume(const Pool& pool,
                               const api::List<api::DeviceCounterConsumption>& device) {
  const CounterSets& available = Available(pool);
  CounterSets& consumed = consumed_[pool.pool];
  Apply(consumed, device, true);
  if (WithinLimits(available, consumed)) return true;
  Apply(consumed, device, false);
  return false;
}

void CounterLedger::Release(const Pool& pool,
                            const api::List<api::DeviceCounterConsumption>& device) {
  Apply(consumed_[pool.pool], device, false);
}

bool CounterLedger::FitsAlone(const Pool& pool,
                              const api::List<api::DeviceCounterConsumption>& device) {
  CounterSets alone;
  Apply(alone, device, true);
  return WithinLimits(Available(pool), alone);
}

}  // namespace dra::allocator
