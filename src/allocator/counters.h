// Shared counters of partitionable devices (spec 10): what allocated devices
// left available, and what picks of the current call consume. Both are keyed
// by pool name alone, as upstream's snapshot does (spec 17.1).
#pragma once

#include <string>
#include <unordered_map>

#include "allocator/pools.h"

namespace dra::allocator {

class CounterLedger {
 public:
  explicit CounterLedger(const Inventory& inventory) : inventory_(inventory) {}

  // Adds the device's consumption; when any counter of the pool would be
  // overdrawn, takes it back and returns false (spec 10.3).
  bool TryConsume(const Pool& pool, const api::Device& device);
  void Release(const Pool& pool, const api::Device& device);

  // Whether the device alone fits what allocated devices left (for explanations).
  bool FitsAlone(const Pool& pool, const api::Device& device);

 private:
  const CounterSets& Available(const Pool& pool);

  const Inventory& inventory_;
  std::unordered_map<std::string, CounterSets> available_;
  std::unordered_map<std::string, CounterSets> consumed_;
};

}  // namespace dra::allocator
