// What a pod that no node fits is told: framework.FitError's histogram of
// node reasons, then PostFilter: DynamicResources frees an allocated claim
// that keeps the pod off every node, and DefaultPreemption reports per node
// (pkg/scheduler/framework/types.go, plugins/dynamicresources and
// plugins/defaultpreemption at the pinned release).
#include <algorithm>
#include <map>
#include <set>
#include <string>
#include <vector>

#include "scheduler/scheduler_impl.h"

namespace dra::scheduler {
namespace {

// DefaultPreemption's per-node reasons.
constexpr const char* kPreemptionNotHelpful = "Preemption is not helpful for scheduling";
constexpr const char* kNoPreemptionVictims = "No preemption victims found for incoming pod";
constexpr const char* kPreemptionNotSimulated =
    "lower-priority pods could be preempted (not simulated)";

}  // namespace

// The FailedScheduling message for a pod no node fits, after PostFilter.
std::string Scheduler::Impl::FitError(std::size_t index, const FilterPass& pass, const Cycle& cycle,
                                      bool& requeue) {
  PodRecord& rec = pods[index];
  const std::size_t n = nodes.size();
  const std::size_t evaluated = pass.evaluated;
  std::vector<std::size_t> order(evaluated);
  for (std::size_t pos = 0; pos < evaluated; ++pos) order[pos] = (pass.start + pos) % n;
  std::map<std::string, int> histogram;
  std::size_t first_dra_failure = order.size();
  std::set<std::size_t> unavailable;
  for (std::size_t pos = 0; pos < evaluated; ++pos) {
    const NodeResult& r = node_results[order[pos]];
    for (const std::string& reason : r.reasons) ++histogram[reason];
    if (r.dra_failed && first_dra_failure == order.size()) first_dra_failure = pos;
    unavailable.insert(r.unavailable.begin(), r.unavailable.end());
  }
  std::string message = NodesAvailableMessage(nodes.size(), histogram);

  if (options.explain && explaining == nullptr && first_dra_failure < order.size()) {
    allocator::AllocateOptions explain_options;
    explain_options.max_steps = options.max_steps;
    explain_options.explain = true;
    allocator::AllocateResult ar = alloc->Allocate(nodes[order[first_dra_failure]].ref(),
                                                   cycle.alloc_claims, *in_use, explain_options);
    if (ar.outcome == allocator::Outcome::kUnschedulable) {
      ar.explanation.node = nodes[order[first_dra_failure]].name;
      rec.explanation = std::move(ar.explanation);
    }
  }

  // PostFilter, DynamicResources first: free one allocated claim that keeps
  // the pod off every node. Its message and DefaultPreemption's are joined.
  std::vector<std::size_t> candidates;
  for (std::size_t i : unavailable) {
    const api::ResourceClaim& c = *cycle.resolved[i].claim;
    bool free = c.status.reserved_for.empty() ||
                (c.status.reserved_for.size() == 1 && ReservedFor(c, rec.pod.metadata.uid));
    if (free) candidates.push_back(i);
  }
  message += ' ';
  if (!candidates.empty()) {
    if (explaining == nullptr) {
      Deallocate(*cycle.resolved[candidates[rng.Below(candidates.size())]].claim);
      requeue = true;
    }
    message += "deallocation of ResourceClaim completed, ";
  }
  return message + PreemptionMessage(rec.pod, order, evaluated);
}

// DefaultPreemption's PostFilter message for a pod no node fits, in a
// cluster where it finds no victims: nodes whose rejection preemption
// cannot resolve are "not helpful"; on the others it looks for pods of lower
// priority. dra does not evict: where such pods exist the message says so
// instead of naming victims (docs/COMPATIBILITY.md).
std::string Scheduler::Impl::PreemptionMessage(const api::Pod& pod,
                                               const std::vector<std::size_t>& order,
                                               std::size_t evaluated) const {
  if (pod.spec.preemption_policy && *pod.spec.preemption_policy == "Never") {
    return "not eligible due to preemptionPolicy=Never.";
  }
  const std::int32_t priority = pod.spec.priority.value_or(0);
  std::map<std::string, int> histogram;
  for (std::size_t pos = 0; pos < evaluated; ++pos) {
    std::size_t node = order[pos];
    const NodeResult& r = node_results[node];
    if (r.unresolvable) {
      ++histogram[kPreemptionNotHelpful];
    } else if (node_info[node].LowestPriority() < priority) {
      ++histogram[kPreemptionNotSimulated];
    } else {
      ++histogram[kNoPreemptionVictims];
    }
  }
  if (evaluated < nodes.size()) {
    histogram[kPreemptionNotHelpful] += static_cast<int>(nodes.size() - evaluated);
  }
  return "preemption: " + NodesAvailableMessage(nodes.size(), histogram);
}

// A PreFilter rejection: the message of the plugin, then PostFilter's,
// which finds every node unresolvable.
std::string Scheduler::Impl::PreFilterMessage(const std::string& problem) const {
  std::map<std::string, int> all{{kPreemptionNotHelpful, static_cast<int>(nodes.size())}};
  std::string n = std::to_string(nodes.size());
  return "0/" + n + " nodes are available: " + problem +
         ". preemption: " + NodesAvailableMessage(nodes.size(), all);
}

}  // namespace dra::scheduler
