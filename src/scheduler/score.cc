// Score: NodeResourcesFit's LeastAllocated, NodeResourcesBalancedAllocation
// and DynamicResources' prioritized-list score over the feasible nodes, the
// highest total winning and ties broken at random, as kube-scheduler's
// prioritizeNodes and selectHost (pkg/scheduler/schedule_one.go at the
// pinned release).
#include <algorithm>
#include <vector>

#include "scheduler/scheduler_impl.h"

namespace dra::scheduler {
namespace {

// The most subrequests a firstAvailable request may have
// (FirstAvailableDeviceRequestMaxSize of resource.k8s.io/v1).
constexpr std::int64_t kMaxSubrequests = 8;

}  // namespace

std::size_t Scheduler::Impl::NumFeasibleNodesToFind(std::size_t n) const {
  constexpr std::size_t kMinFeasible = 100;
  if (n < kMinFeasible) return n;
  std::int64_t percentage = options.percentage_of_nodes_to_score;
  if (percentage <= 0) {
    percentage = std::max<std::int64_t>(5, 50 - static_cast<std::int64_t>(n) / 125);
  }
  if (percentage >= 100) return n;
  std::size_t count = n * static_cast<std::size_t>(percentage) / 100;
  return std::max(count, kMinFeasible);
}

// The DynamicResources score: 8 - i for every firstAvailable request that
// got its subrequest at position i.
std::int64_t Scheduler::Impl::PrioritizedListScore(const api::ResourceClaim& claim,
                                                   const api::AllocationResult& allocation) {
  std::int64_t score = 0;
  for (const api::DeviceRequest& req : claim.spec.devices.requests) {
    if (req.first_available.empty()) continue;
    std::string prefix = req.name + "/";
    for (const api::DeviceRequestAllocationResult& r : allocation.devices.results) {
      if (r.request.compare(0, prefix.size(), prefix) != 0) continue;
      std::string sub = r.request.substr(prefix.size());
      for (std::size_t i = 0; i < req.first_available.size(); ++i) {
        if (req.first_available[i].name == sub) {
          score += kMaxSubrequests - static_cast<std::int64_t>(i);
          break;
        }
      }
      break;
    }
  }
  return score;
}

std::size_t Scheduler::Impl::ChooseNode(const Cycle& cycle,
                                        const std::vector<std::size_t>& feasible) {
  // Score and pick: highest total, ties broken at random (reservoir sampling).
  std::size_t chosen = feasible.front();
  if (feasible.size() == 1) return chosen;
  bool any_first_available = false;
  for (const ResolvedClaim& rc : cycle.resolved) {
    for (const api::DeviceRequest& req : rc.claim->spec.devices.requests) {
      any_first_available |= !req.first_available.empty();
    }
  }
  std::vector<std::int64_t> dra_raw(feasible.size(), 0);
  std::int64_t dra_max = 0;
  if (any_first_available && options.features.prioritized_list) {
    for (std::size_t f = 0; f < feasible.size(); ++f) {
      std::int64_t s = node_results[feasible[f]].dra_score;
      for (const ResolvedClaim& rc : cycle.resolved) {
        if (rc.claim->status.allocation) {
          s += PrioritizedListScore(*rc.claim, *rc.claim->status.allocation);
        }
      }
      dra_raw[f] = s;
      dra_max = std::max(dra_max, s);
    }
  }
  std::int64_t best = -1;
  std::uint64_t ties = 0;
  for (std::size_t f = 0; f < feasible.size(); ++f) {
    const NodeInfo& info = node_info[feasible[f]];
    std::int64_t score = LeastAllocatedScore(cycle.requests, info.capacity, info.usage) +
                         BalancedAllocationScore(cycle.requests, info.capacity, info.usage);
    if (dra_max > 0) score += dra_raw[f] * 100 / dra_max;
    if (score > best) {
      best = score;
      chosen = feasible[f];
      ties = 1;
    } else if (score == best) {
      ++ties;
      if (rng.Below(ties) == 0) chosen = feasible[f];
    }
  }
  return chosen;
}

}  // namespace dra::scheduler
