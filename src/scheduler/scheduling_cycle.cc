// One scheduling attempt of one pod, as kube-scheduler's scheduling cycle
// runs the DynamicResources plugin (pkg/scheduler/framework/plugins/
// dynamicresources/dynamicresources.go at the pinned release) among the
// others: PreEnqueue and PreFilter here, then Filter (filter.cc), Score
// (score.cc), PostFilter (post_filter.cc) and Reserve/PreBind/Bind (bind.cc).
#include <map>
#include <memory>
#include <string>
#include <utility>
#include <vector>

#include "scheduler/scheduler_impl.h"

namespace dra::scheduler {

void Scheduler::Impl::Attempt(std::size_t index) {
  PodRecord& rec = pods[index];
  ++rec.attempts;
  ++stats.attempts;
  rec.explanation.reset();
  std::string reason;
  if (!CreateTemplateClaims(rec, reason)) return MarkPending(index, reason);
  Cycle cycle;
  if (!ResolveClaims(rec, cycle.resolved, reason)) return MarkPending(index, reason);
  if (std::optional<std::string> rejected = PreFilter(rec, cycle)) {
    return MarkPending(index, std::move(*rejected));
  }

  const FilterPass pass = FilterNodes(rec, cycle);
  Result<std::vector<std::size_t>> feasible = FeasibleNodes(pass);
  if (!feasible.ok()) {
    return MarkPending(index, "running \"DynamicResources\" filter plugin: " + feasible.error());
  }
  if (feasible->empty()) {
    bool requeue = false;
    std::string message = FitError(index, pass, cycle, requeue);
    MarkPending(index, std::move(message));
    if (requeue) RequeueUnschedulable();
    return;
  }

  const std::size_t chosen = ChooseNode(cycle, *feasible);
  NodeResult& winner = node_results[chosen];
  if (winner.results_pending) {
    const std::vector<api::ResourceClaim>& claims_here =
        winner.extended && winner.extended == cycle.all_dra_extended ? cycle.all_dra_claims
                                                                     : cycle.alloc_claims;
    allocator::AllocateOptions allocate_options;
    allocate_options.max_steps = options.max_steps;
    allocator::AllocateResult ar =
        alloc->Allocate(nodes[chosen].ref(), claims_here, *in_use, allocate_options);
    if (ar.outcome != allocator::Outcome::kAllocated) {
      // Only result building can fail where the feasibility check passed.
      return MarkPending(index, "running \"DynamicResources\" filter plugin: " + ar.error);
    }
    winner.allocations = std::move(ar.allocations);
    winner.results_pending = false;
  }
  if (explaining != nullptr) return RecordSchedulable(chosen, cycle, winner);
  Bind(index, chosen, cycle, winner);
}

std::optional<std::string> Scheduler::Impl::PreFilter(const PodRecord& rec, Cycle& cycle) {
  for (std::size_t i = 0; i < cycle.resolved.size(); ++i) {
    const api::ResourceClaim& claim = *cycle.resolved[i].claim;
    if (claim.status.allocation) {
      if (!ReservedFor(claim, rec.pod.metadata.uid) &&
          claim.status.reserved_for.size() >= kMaxReservedFor) {
        return PreFilterMessage("resourceclaim in use");
      }
      if (claim.status.allocation->node_selector) {
        cycle.pinned.emplace_back(i, &*claim.status.allocation->node_selector);
      }
      continue;
    }
    if (Status s = CheckClaimToAllocate(cycle.resolved[i]); !s.ok()) {
      return PreFilterMessage(s.error());
    }
    cycle.to_allocate.push_back(i);
  }
  cycle.alloc_claims.reserve(cycle.to_allocate.size());
  for (std::size_t i : cycle.to_allocate) cycle.alloc_claims.push_back(*cycle.resolved[i].claim);

  if (nodes.empty()) return "0/0 nodes are available: no nodes in the cluster.";
  cycle.requests = RequestsOf(rec.pod);
  cycle.demands = ExtendedDemands(rec.pod);
  if (!cycle.demands.empty()) {
    if (std::optional<api::ResourceClaim> c = ExtendedClaimFor(rec.pod, cycle.demands, {})) {
      cycle.all_dra_extended = std::make_shared<const api::ResourceClaim>(std::move(*c));
      cycle.all_dra_claims = cycle.alloc_claims;
      cycle.all_dra_claims.push_back(*cycle.all_dra_extended);
    }
  }
  return std::nullopt;
}

// Resolves the pod's claims as PreEnqueue does. False with `reason` when a
// claim is missing, being deleted, or not the pod's own.
bool Scheduler::Impl::ResolveClaims(const PodRecord& rec, std::vector<ResolvedClaim>& out,
                                    std::string& reason) {
  const api::Pod& pod = rec.pod;
  const std::string& ns = pod.metadata.namespace_;
  std::map<std::string, std::string> seen;  // claim key -> entry name
  for (const api::PodResourceClaim& entry : pod.spec.resource_claims) {
    std::string name;
    bool from_template = entry.resource_claim_template_name.has_value();
    if (from_template) {
      const api::PodResourceClaimStatus* status = nullptr;
      for (const api::PodResourceClaimStatus& s : pod.status.resource_claim_statuses) {
        if (s.name == entry.name) status = &s;
      }
      if (status == nullptr) {
        reason = "pod \"" + Key(pod.metadata) + "\": ResourceClaim not created yet";
        return false;
      }
      if (!status->resource_claim_name || status->resource_claim_name->empty()) continue;
      name = *status->resource_claim_name;
    } else {
      name = entry.resource_claim_name.value_or("");
    }
    std::string key = Key(ns, name);
    if (cluster.duplicate_claims.contains(key)) {
      reason = "ResourceClaim " + key + " is defined more than once in the input";
      return false;
    }
    auto it = claims.find(key);
    if (it == claims.end()) {
      reason = "resourceclaim.resource.k8s.io \"" + name + "\" not found";
      return false;
    }
    api::ResourceClaim& claim = it->second;
    if (claim.metadata.deletion_timestamp.set) {
      reason = "resourceclaim \"" + name + "\" is being deleted";
      return false;
    }
    const api::OwnerReference* owner = ControllerOf(claim.metadata);
    bool foreign = owner != nullptr && owner->kind == "Pod" && owner->uid != pod.metadata.uid &&
                   !(owner->uid.empty() && owner->name == pod.metadata.name);
    if ((from_template && !OwnedByPod(claim, pod)) || (!from_template && foreign)) {
      reason = "ResourceClaim " + key + " was not created for pod " + Key(pod.metadata) +
               " (pod is not owner)";
      return false;
    }
    auto [prev, inserted] = seen.emplace(key, entry.name);
    if (!inserted) {
      reason = "ResourceClaim " + key + " is referenced twice, by pod.spec.resourceClaims " +
               prev->second + " and " + entry.name;
      return false;
    }
    out.push_back({key, &claim});
  }
  return true;
}

// PreFilter's checks of unallocated claims; "" when the claim may be allocated.
Status Scheduler::Impl::CheckClaimToAllocate(const ResolvedClaim& rc) {
  const api::ResourceClaim& claim = *rc.claim;
  if (in_flight.contains(claim.metadata.uid)) {
    return Error{"resource claim " + rc.key + " is in the process of being allocated"};
  }
  for (const api::DeviceRequest& req : claim.spec.devices.requests) {
    if (req.exactly) {
      if (!class_names.contains(req.exactly->device_class_name)) {
        return Error{"request " + req.name + ": device class " + req.exactly->device_class_name +
                     " does not exist"};
      }
    } else if (!req.first_available.empty()) {
      if (!options.features.prioritized_list) {
        return Error{"resource claim " + rc.key + ", request " + req.name +
                     ": has subrequests, but the DRAPrioritizedList feature is disabled"};
      }
      for (const api::DeviceSubRequest& sub : req.first_available) {
        if (!class_names.contains(sub.device_class_name)) {
          return Error{"request " + req.name + "/" + sub.name + ": device class " +
                       sub.device_class_name + " does not exist"};
        }
      }
    } else {
      return Error{"resource claim " + rc.key + ", request " + req.name + ": unknown request type"};
    }
  }
  return {};
}

}  // namespace dra::scheduler
