#include "allocator/allocated_state.h"

namespace dra::allocator {

// How the scheduler turns allocated claims into the allocator's state:
// admin-access results never block; with consumable capacity, results
// carrying a shareID are shares, everything else is exclusive.
void AllocatedState::Impl::Apply(const api::AllocationResult& allocation, bool add) {
  const bool shares = inventory->features().consumable_capacity;
  for (const auto& r : allocation.devices.results) {
    if (r.admin_access.value_or(false)) continue;
    for (Index d = inventory->FindDevice(r.driver, r.pool, r.device); d != kNoIndex;
         d = inventory->next_same_id(d)) {
      pool_version[inventory->slices()[inventory->devices()[d].slice].pool] = ++clock;
      if (!(shares && r.share_id)) {
        exclusive[d] = add ? exclusive[d] + 1 : (exclusive[d] > 0 ? exclusive[d] - 1 : 0);
        continue;
      }
      shared[d] = add ? shared[d] + 1 : (shared[d] > 0 ? shared[d] - 1 : 0);
      if (r.consumed_capacity.empty()) continue;
      if (add) {
        Aggregate& a = aggregated[d];
        ++a.results;
        for (const auto& [name, q] : r.consumed_capacity) a.total[name] = a.total[name].Add(q);
        continue;
      }
      auto it = aggregated.find(d);
      if (it == aggregated.end()) continue;
      if (--it->second.results == 0) {
        aggregated.erase(it);
        continue;
      }
      for (const auto& [name, q] : r.consumed_capacity) {
        it->second.total[name] = it->second.total[name].Sub(q);
      }
    }
  }
}

AllocatedState::AllocatedState(std::unique_ptr<Impl> impl) : impl_(std::move(impl)) {}
AllocatedState::~AllocatedState() = default;
AllocatedState::AllocatedState(AllocatedState&&) noexcept = default;
AllocatedState& AllocatedState::operator=(AllocatedState&&) noexcept = default;
AllocatedState::AllocatedState(const AllocatedState& other)
    : impl_(std::make_unique<Impl>(*other.impl_)) {}
AllocatedState& AllocatedState::operator=(const AllocatedState& other) {
  if (this != &other) impl_ = std::make_unique<Impl>(*other.impl_);
  return *this;
}

void AllocatedState::Add(const api::AllocationResult& allocation) {
  impl_->Apply(allocation, true);
}
void AllocatedState::Remove(const api::AllocationResult& allocation) {
  impl_->Apply(allocation, false);
}

std::uint64_t AllocatedState::Version(std::span<const std::uint32_t> pools) const {
  std::uint64_t sum = 0;
  for (std::uint32_t p : pools) sum += impl_->pool_version[p];
  return sum;
}

}  // namespace dra::allocator
