#include "dra/allocator/allocator.h"

#include "allocator/claim_plan.h"
#include "allocator/explain.h"
#include "allocator/inventory.h"
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
  return f;
}

struct Allocator::Impl {
  explicit Impl(Snapshot snapshot) : inventory(std::move(snapshot)) {}
  Inventory inventory;
  // Shared by all calls, as upstream shares its CEL cache.
  mutable cel::CompileCache cache;
};

Allocator::Allocator(Snapshot snapshot) : impl_(std::make_unique<Impl>(std::move(snapshot))) {}
Allocator::~Allocator() = default;

AllocateResult Allocator::Allocate(const api::Node& node,
                                   std::span<const api::ResourceClaim> claims,
                                   const AllocateOptions& options) const {
  const Inventory& inv = impl_->inventory;
  AllocateResult out;
  auto fail = [&](std::string message) {
    out.outcome = Outcome::kError;
    out.error = std::move(message);
    return std::move(out);
  };
  Result<GatheredPools> pools = GatherPools(inv, node);
  if (!pools.ok()) return fail(pools.error());
  const Scan scan = ScanOrder(inv, *pools);
  Selection selection(inv, node, scan, impl_->cache, options.cancelled);
  Result<std::vector<ClaimPlan>> plans = PlanClaims(inv, *pools, scan, claims, selection);
  if (!plans.ok()) return fail(plans.error());

  Search search(inv, scan, *plans, selection, options.max_steps, options.cancelled);
  Search::Outcome outcome = search.Run();
  out.steps = search.steps();
  if (outcome == Search::Outcome::kError) return fail(search.error());
  if (outcome == Search::Outcome::kSuccess) {
    for (std::size_t c = 0; c < plans->size(); ++c) {
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
  if (options.explain) out.explanation = Explain(inv, *pools, scan, *plans, selection, node);
  return out;
}

}  // namespace dra::allocator
