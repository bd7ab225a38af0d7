// Shared counters of partitionable devices (KEP-4815): what devices in use
// left available, and what picks of the current call consume. Keyed by pool
// (driver and name), not by pool name alone as upstream did before
// kubernetes/kubernetes#140435, and built per call, so nothing leaks between calls.
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
  // overdrawn, even one the device does not use (an over-committed pool blocks
  // every counter-consuming device), takes it back and returns false.
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
