// Shared counters of partitionable devices (spec 10): what devices in use
// left available, and what picks of the current call consume. Keyed by pool
// (driver and name), not by pool name alone as upstream's older snapshot did
// (spec 17.1), and built per call, so nothing leaks between calls.
#pragma once

#include <unordered_map>

#include "allocator/allocated_state.h"
#include "allocator/pools.h"

namespace dra::allocator {

class CounterLedger {
 public:
  CounterLedger(const Inventory& inventory, const AllocatedState::Impl& in_use)
      : inventory_(inventory), in_use_(in_use) {}

  // Adds the device's consumption; when any counter of the pool would be
  // overdrawn, takes it back and returns false (spec 10.3).
  bool TryConsume(const Pool& pool, const api::List<api::DeviceCounterConsumption>& device);
  void Release(const Pool& pool, const api::List<api::DeviceCounterConsumption>& device);

  // Whether the device alone fits what devices in use left (for explanations).
  bool FitsAlone(const Pool& pool, const api::List<api::DeviceCounterConsumption>& device);

 private:
  const CounterSets& Available(const Pool& pool);

  const Inventory& inventory_;
  const AllocatedState::Impl& in_use_;
  std::unordered_map<Index, CounterSets> available_;
  std::unordered_map<Index, CounterSets> consumed_;
};

}  // namespace dra::allocator
