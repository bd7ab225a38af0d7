// What claims in use hold, per device of an Inventory (upstream's "allocated
// state", structured/internal/allocatedstate.go): exclusive allocations,
// shares of multi-allocatable devices, and the capacity those shares consume.
// Counts rather than flags, so that removing one claim's allocation leaves the
// others' in place.
#pragma once

#include <cstdint>
#include <unordered_map>
#include <vector>

#include "allocator/capacity.h"
#include "allocator/inventory.h"
#include "dra/allocator/allocator.h"

namespace dra::allocator {

struct AllocatedState::Impl {
  explicit Impl(const Inventory& inv)
      : inventory(&inv),
        exclusive(inv.devices().size()),
        shared(inv.devices().size()),
        pool_version(inv.pool_count()) {}

  // Exclusively allocated: unavailable to everything but admin access.
  bool allocated(Index d) const { return exclusive[d] > 0; }
  // Any allocation at all: such devices reduce the available counters of their pool.
  bool in_use(Index d) const { return exclusive[d] > 0 || capacity_in_use(d); }
  // A share exists: a further share does not pay the device's counters again.
  bool capacity_in_use(Index d) const { return shared[d] > 0 || aggregated.count(d) > 0; }
  // What shares recorded as consumed capacity; null when none.
  const CapacityMap* aggregated_capacity(Index d) const {
    auto it = aggregated.find(d);
    return it == aggregated.end() ? nullptr : &it->second.total;
  }

  void Apply(const api::AllocationResult& allocation, bool add);

  struct Aggregate {
    std::uint32_t results = 0;  // results contributing to `total`
    CapacityMap total;
  };
  const Inventory* inventory;
  std::vector<std::uint32_t> exclusive;
  std::vector<std::uint32_t> shared;
  std::unordered_map<Index, Aggregate> aggregated;
  // Per Inventory pool: the value of `clock` when an allocation last touched
  // one of its devices (0: never). A node's outcome depends on the state only
  // through the pools it sees, so the sum over them changes whenever that
  // state does (every change raises one term); see AllocatedState::Version.
  std::vector<std::uint64_t> pool_version;
  std::uint64_t clock = 0;
};

}  // namespace dra::allocator
