// Filter: the node filters before DynamicResources (node_fit.h), then
// DynamicResources' own on every node the pod could use, in parallel from a
// rotating start until percentageOfNodesToScore's number of nodes fit, as
// kube-scheduler's findNodesThatPassFilters does
// (pkg/scheduler/schedule_one.go at the pinned release).
//
// Threads: FilterOneNode runs on the worker pool, one node per call and each
// node at most once per attempt; it writes only that node's slots of
// node_results, visible_pools and the memo, and the atomics of FilterShared.
// Everything else it reads is left unchanged until ParallelFor returns.
#include <algorithm>
#include <atomic>
#include <chrono>
#include <functional>
#include <memory>
#include <utility>
#include <vector>

#include "scheduler/scheduler_impl.h"

namespace dra::scheduler {

struct Scheduler::Impl::FilterShared {
  allocator::AllocateOptions allocate_options;
  // Results are needed in Filter only to score prioritized lists; otherwise
  // they are built once, for the chosen node.
  bool scores_need_results = false;
  // The memo's ids of the two shared claim lists (0: not memoized).
  std::uint64_t claims_signature = 0;
  std::uint64_t all_dra_signature = 0;
  std::size_t to_find = 0;
  std::size_t start = 0;
  std::atomic<std::size_t> found{0};
  std::atomic<std::size_t> evaluated{0};
  std::atomic<std::uint64_t> allocate_calls{0};
  std::atomic<std::uint64_t> memo_hits{0};
};

Scheduler::Impl::FilterPass Scheduler::Impl::FilterNodes(const PodRecord& rec, const Cycle& cycle) {
  const std::size_t n = nodes.size();
  FilterShared shared;
  shared.to_find = explaining != nullptr ? n : NumFeasibleNodesToFind(n);
  shared.start = next_start_node % n;
  if (options.features.prioritized_list) {
    for (const api::ResourceClaim& c : cycle.alloc_claims) {
      for (const api::DeviceRequest& req : c.spec.devices.requests) {
        shared.scores_need_results |= !req.first_available.empty();
      }
    }
  }
  shared.allocate_options.max_steps = options.max_steps;
  // Node-specific extended-resource claim lists are never memoized.
  if (options.filter_memo && !cycle.alloc_claims.empty()) {
    shared.claims_signature = memo.Signature(cycle.alloc_claims);
  }
  if (options.filter_memo && cycle.all_dra_extended) {
    shared.all_dra_signature = memo.Signature(cycle.all_dra_claims);
  }

  auto filter_start = std::chrono::steady_clock::now();
  std::function<void(std::size_t)> body = [&](std::size_t pos) {
    FilterOneNode(rec, cycle, shared, (shared.start + pos) % n);
  };
  const std::atomic<bool>* cancel = explaining != nullptr && pod_explain_options != nullptr
                                        ? pod_explain_options->cancel
                                        : nullptr;
  std::function<bool()> stop = [&] {
    return shared.found.load(std::memory_order_relaxed) >= shared.to_find ||
           (cancel != nullptr && cancel->load(std::memory_order_relaxed));
  };
  pool.ParallelFor(n, body, stop);
  stats.filter_ns += NanosSince(filter_start);

  if (explaining != nullptr) {
    {
      MutexLock lock(closest_mu);
      for (CloseExplanation& c : closest)
        node_results[c.node].explanation =
            std::make_unique<allocator::Explanation>(std::move(c.explanation));
      closest.clear();
    }
    explaining->rejected_before_filter = false;
    const bool every_node = pod_explain_options == nullptr || pod_explain_options->every_node;
    if (every_node) explaining->nodes.reserve(n);
    for (std::size_t node = 0; node < n; ++node) {
      NodeResult& r = node_results[node];
      if (!every_node && !r.explanation) continue;
      explaining->nodes.push_back(
          {nodes[node].name, r.feasible, r.reasons, r.unresolvable,
           r.explanation ? std::optional(std::move(*r.explanation)) : std::nullopt});
    }
  }
  stats.allocate_calls += shared.allocate_calls.load();
  stats.filter_memo_hits += shared.memo_hits.load();
  FilterPass pass;
  pass.start = shared.start;
  pass.evaluated = shared.evaluated.load();
  pass.to_find = shared.to_find;
  stats.nodes_filtered += pass.evaluated;
  return pass;
}

void Scheduler::Impl::OfferExplanation(std::size_t node, allocator::Explanation why) {
  const std::uint64_t distance = pod_explain_options->distance(why);
  MutexLock lock(closest_mu);
  auto closer = [](const CloseExplanation& a, std::uint64_t d, std::size_t n) {
    return a.distance != d ? a.distance < d : a.node < n;
  };
  auto at = std::find_if_not(closest.begin(), closest.end(),
                             [&](const CloseExplanation& a) { return closer(a, distance, node); });
  if (static_cast<std::size_t>(at - closest.begin()) >= pod_explain_options->keep) return;
  closest.insert(at, {distance, node, std::move(why)});
  if (closest.size() > pod_explain_options->keep) closest.pop_back();
}

void Scheduler::Impl::FilterOneNode(const PodRecord& rec, const Cycle& cycle, FilterShared& shared,
                                    std::size_t node) {
  NodeResult& r = node_results[node];
  r = NodeResult{};
  shared.evaluated.fetch_add(1, std::memory_order_relaxed);
  NodeFilterStatus fit = FilterNode(rec.pod, cycle.requests, nodes[node], node_info[node].capacity,
                                    node_info[node].usage, dra_extended_names);
  if (!fit.ok()) {
    r.reasons = std::move(fit.reasons);
    r.unresolvable = fit.unresolvable;
    return;
  }
  // The usual case, a node advertising none of the extended resources,
  // shares one prepared claim list; other nodes build their own variant.
  std::vector<api::ResourceClaim> own_claims;
  const std::vector<api::ResourceClaim>* claims_here = &cycle.alloc_claims;
  if (!cycle.demands.empty()) {
    if (ServesNone(cycle.demands, node_info[node].capacity)) {
      r.extended = cycle.all_dra_extended;
      if (r.extended) claims_here = &cycle.all_dra_claims;
    } else if (std::optional<api::ResourceClaim> variant =
                   ExtendedClaimFor(rec.pod, cycle.demands, node_info[node].capacity)) {
      r.extended = std::make_shared<const api::ResourceClaim>(*variant);
      own_claims = cycle.alloc_claims;
      own_claims.push_back(*variant);
      claims_here = &own_claims;
    }
  }
  if (!claims_here->empty() &&
      !FilterClaims(cycle, shared, node, *claims_here, claims_here == &own_claims)) {
    return;
  }
  for (const auto& [claim_index, selector] : cycle.pinned) {
    if (!MatchesNodeSelector(*selector, nodes[node])) {
      r.unavailable.push_back(claim_index);
    }
  }
  if (!r.unavailable.empty()) {
    r.Reject(kNotAvailable);
    return;
  }
  r.feasible = true;
  shared.found.fetch_add(1, std::memory_order_relaxed);
}

bool Scheduler::Impl::FilterClaims(const Cycle& cycle, FilterShared& shared, std::size_t node,
                                   const std::vector<api::ResourceClaim>& claims_here,
                                   bool node_specific) {
  NodeResult& r = node_results[node];
  const bool memoized = options.filter_memo && explaining == nullptr && !node_specific;
  const std::uint64_t signature =
      &claims_here == &cycle.all_dra_claims ? shared.all_dra_signature : shared.claims_signature;
  if (memoized && !visible_pools_known[node]) {
    visible_pools[node] = alloc->VisiblePools(nodes[node].ref());
    visible_pools_known[node] = 1;
  }
  const std::uint64_t version = memoized ? in_use->Version(visible_pools[node]) : 0;
  if (const FilterMemo::Verdict* known = memoized ? memo.Find(node, signature, version) : nullptr) {
    shared.memo_hits.fetch_add(1, std::memory_order_relaxed);
    if (!known->feasible) {
      r.Reject(kCannotAllocate);
      r.dra_failed = true;
      return false;
    }
    r.dra_score = known->score;
    r.results_pending = true;
    return true;
  }
  shared.allocate_calls.fetch_add(1, std::memory_order_relaxed);
  allocator::AllocateOptions node_options = shared.allocate_options;
  // A node-specific claim list does not outlive this call: build its results now.
  node_options.build_results = shared.scores_need_results || node_specific || explaining != nullptr;
  allocator::AllocateResult ar =
      alloc->Allocate(nodes[node].ref(), claims_here, *in_use, node_options);
  switch (ar.outcome) {
    case allocator::Outcome::kAllocated:
      r.allocations = std::move(ar.allocations);
      r.results_pending = !node_options.build_results;
      if (shared.scores_need_results) {
        for (std::size_t j = 0; j < cycle.to_allocate.size(); ++j) {
          r.dra_score +=
              PrioritizedListScore(*cycle.resolved[cycle.to_allocate[j]].claim, r.allocations[j]);
        }
      }
      if (memoized) memo.Store(node, signature, version, {true, r.dra_score});
      return true;
    case allocator::Outcome::kUnschedulable:
      r.Reject(kCannotAllocate);
      r.dra_failed = true;
      if (explaining != nullptr) {
        allocator::AllocateOptions explain_options = shared.allocate_options;
        explain_options.explain = true;
        allocator::AllocateResult why =
            alloc->Allocate(nodes[node].ref(), claims_here, *in_use, explain_options);
        if (why.outcome == allocator::Outcome::kUnschedulable) {
          why.explanation.node = nodes[node].name;
          if (pod_explain_options != nullptr && pod_explain_options->distance) {
            OfferExplanation(node, std::move(why.explanation));
          } else {
            r.explanation = std::make_unique<allocator::Explanation>(std::move(why.explanation));
          }
        }
      }
      if (memoized) memo.Store(node, signature, version, {false, 0});
      return false;
    case allocator::Outcome::kError:
      r.Reject(ar.error);
      if (ar.node_local_error) {
        r.dra_failed = true;
      } else {
        r.error = std::make_unique<Error>(Error{ar.error});
      }
      return false;
  }
  return false;
}

Result<std::vector<std::size_t>> Scheduler::Impl::FeasibleNodes(const FilterPass& pass) {
  // Every position below `evaluated` was filtered; the first `to_find`
  // feasible ones are the same whatever the threads' timing.
  const std::size_t n = nodes.size();
  std::vector<std::size_t> feasible;
  std::size_t last_pos = 0;
  for (std::size_t pos = 0; pos < pass.evaluated && feasible.size() < pass.to_find; ++pos) {
    std::size_t node = (pass.start + pos) % n;
    if (node_results[node].error) return *node_results[node].error;
    if (node_results[node].feasible) {
      feasible.push_back(node);
      last_pos = pos;
    }
  }
  if (!feasible.empty()) {
    next_start_node =
        feasible.size() >= pass.to_find ? (pass.start + last_pos + 1) % n : pass.start;
  }
  return feasible;
}

}  // namespace dra::scheduler
