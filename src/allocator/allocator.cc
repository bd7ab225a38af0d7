#include "dra/allocator/allocator.h"

#include <atomic>
#include <mutex>

#include "allocator/allocated_state.h"
#include "allocator/claim_plan.h"
#include "allocator/explain.h"
#include "allocator/inventory.h"
#include "allocator/node_pools.h"
#include "allocator/pools.h"
#include "allocator/results.h"
#include "allocator/search.h"
#include "dra/cel/compile_cache.h"

namespace dra::allocator {

Features Features::FromGates(const api::FeatureGates& gates) {
  using api::Feature;
  Features f;
  f.admin_access = gates.Enabled(Feature::kDRAAdminAccess);
  f.prioritized_list = gates.Enabled(Feature::kDRAPrioritizedList);
  f.partitionable_devices = gates.Enabled(Feature::kDRAPartitionableDevices);
  f.device_taints = gates.Enabled(Feature::kDRADeviceTaints);
  f.device_binding_and_status = gates.Enabled(Feature::kDRADeviceBindingConditions) &&
                                gates.Enabled(Feature::kDRAResourceClaimDeviceStatus);
  f.consumable_capacity = gates.Enabled(Feature::kDRAConsumableCapacity);
  f.list_type_attributes = gates.Enabled(Feature::kDRAListTypeAttributes);
  f.fractional_capacity_range = gates.Enabled(Feature::kDRAFractionalCapacityRange);
  f.optional_node_operations = gates.Enabled(Feature::kDRAOptionalNodeOperations);
  return f;
}

struct Allocator::Impl {
  explicit Impl(Snapshot snapshot)
      : inventory(std::move(snapshot)),
        selectors(inventory, cache),
        nodes(inventory, inventory.snapshot().keep_node_pools) {}

  // Built on first use: callers that pass their own state (the scheduler)
  // never pay for it.
  const AllocatedState::Impl& DefaultState() {
    std::call_once(in_use_once, [&] {
      in_use = std::make_unique<AllocatedState::Impl>(inventory);
      for (const api::ResourceClaim& claim : inventory.snapshot().allocated_claims) {
        if (claim.status.allocation) in_use->Apply(*claim.status.allocation, true);
      }
      in_use_built.store(in_use.get(), std::memory_order_release);
    });
    return *in_use;
  }

  Inventory inventory;
  // Shared by all calls, as upstream shares its CEL cache.
  cel::CompileCache cache;
  SelectorCache selectors;
  NodePoolsCache nodes;
  // The snapshot's allocated claims, for calls without an explicit state.
  // Written once, inside in_use_once; in_use_built publishes it to readers
  // that must not wait for or trigger the build (MemoryBytes).
  std::once_flag in_use_once;
  std::unique_ptr<AllocatedState::Impl> in_use;
  std::atomic<const AllocatedState::Impl*> in_use_built{nullptr};
};

Allocator::Allocator(Snapshot snapshot) : impl_(std::make_unique<Impl>(std::move(snapshot))) {}
Allocator::~Allocator() = default;

const Features& Allocator::features() const { return impl_->inventory.features(); }

std::size_t Allocator::MemoryBytes() const {
  // Per-node pool lists are small and not counted.
  std::size_t state = 0;
  // Never impl_->in_use itself: another thread may be building it.
  if (const AllocatedState::Impl* built = impl_->in_use_built.load(std::memory_order_acquire)) {
    state = built->exclusive.capacity() * sizeof(std::uint32_t) * 2;
  }
  return impl_->inventory.bytes() + impl_->selectors.bytes() + state;
}

std::vector<std::uint32_t> Allocator::VisiblePools(NodeRef node) const {
  std::vector<std::uint32_t> out;
  const std::shared_ptr<const NodePools> node_pools = impl_->nodes.Get(node);
  if (!node_pools->pools.ok()) return out;
  for (const Pool& p : node_pools->pools->pools) out.push_back(p.pool);
  return out;
}

AllocatedState Allocator::NewAllocatedState() const {
  return AllocatedState(std::make_unique<AllocatedState::Impl>(impl_->inventory));
}

AllocatedState Allocator::NewAllocatedState(std::span<const api::ResourceClaim> claims) const {
  AllocatedState state = NewAllocatedState();
  for (const api::ResourceClaim& claim : claims) {
    if (claim.status.allocation) state.Add(*claim.status.allocation);
  }
  return state;
}

AllocateResult Allocator::Allocate(NodeRef node, std::span<const api::ResourceClaim> claims,
                                   const AllocateOptions& options) const {
  return Run(node, claims, impl_->DefaultState(), options);
}

AllocateResult Allocator::Allocate(NodeRef node, std::span<const api::ResourceClaim> claims,
                                   const AllocatedState& in_use,
                                   const AllocateOptions& options) const {
  return Run(node, claims, *in_use.impl_, options);
}

AllocateResult Allocator::Run(NodeRef node, std::span<const api::ResourceClaim> claims,
                              const AllocatedState::Impl& in_use,
                              const AllocateOptions& options) const {
  const Inventory& inv = impl_->inventory;
  AllocateResult out;
  auto fail = [&](std::string message) {
    out.outcome = Outcome::kError;
    out.error = std::move(message);
    return std::move(out);
  };
  const std::shared_ptr<const NodePools> node_pools = impl_->nodes.Get(node);
  const Result<GatheredPools>& pools = node_pools->pools;
  if (!pools.ok()) return fail(pools.error());
  const Scan& scan = node_pools->scan;
  Selection selection(inv, impl_->selectors, node, scan, options.cancelled);
  Result<std::vector<ClaimPlan>> plans = PlanClaims(inv, *pools, scan, claims, selection);
  if (!plans.ok()) return fail(plans.error());

  Search search(inv, in_use, scan, *plans, selection, options.max_steps, options.cancelled);
  Search::Outcome outcome = search.Run();
  out.steps = search.steps();
  if (outcome == Search::Outcome::kError) return fail(search.error());
  if (outcome == Search::Outcome::kSuccess) {
    for (std::size_t c = 0; options.build_results && c < plans->size(); ++c) {
      Result<api::AllocationResult> r =
          BuildAllocation(inv, (*plans)[c], search.picks()[c], search.selected()[c], node);
      if (!r.ok()) return fail(r.error());
      out.allocations.push_back(std::move(*r));
    }
    out.outcome = Outcome::kAllocated;
    return out;
  }
  if (pools->any_invalid) {
    out.node_local_error = true;
    return fail("invalid resource pools were encountered");
  }
  out.outcome = Outcome::kUnschedulable;
  if (options.explain) {
    out.explanation = Explain(inv, in_use, *pools, scan, *plans, selection, node);
  }
  return out;
}

}  // namespace dra::allocator
