// ExplainPod: a scheduling attempt in dry-run mode (Scheduler::Impl::explaining
// set), on every node, each DRA rejection explained; a bound pod is tried
// again in the state without it.
#include <algorithm>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "scheduler/scheduler_impl.h"

namespace dra::scheduler {

// The dry run found a node: what Reserve would have written there.
void Scheduler::Impl::RecordSchedulable(std::size_t chosen, const Cycle& cycle,
                                        const NodeResult& winner) {
  PodVerdict& v = *explaining;
  v.verdict = Verdict::kSchedulable;
  v.node = nodes[chosen].name;
  for (std::size_t j = 0; j < cycle.to_allocate.size() && j < winner.allocations.size(); ++j) {
    v.allocations.push_back({cycle.resolved[cycle.to_allocate[j]].key, winner.allocations[j]});
  }
  if (winner.extended && winner.allocations.size() > cycle.to_allocate.size()) {
    v.allocations.push_back({"<extended resources>", winner.allocations.back()});
  }
}

// A bound pod tried again in the state without it: its share of the node
// and the allocations only it holds are set aside, Filter runs on every
// node in dry-run mode, and everything is put back. `v.nodes` then says
// which nodes would have fitted it, its own among them (or not).
void Scheduler::Impl::RecheckBoundPod(std::size_t index, PodVerdict& v) {
  PodRecord& rec = pods[index];
  struct SetAside {
    api::ResourceClaim* claim;
    api::ResourceClaimStatus status;
  };
  std::vector<SetAside> aside;
  for (const std::string& key : rec.claims) {
    auto it = claims.find(key);
    if (it == claims.end() || !it->second.status.allocation) continue;
    api::ResourceClaim& claim = it->second;
    const auto& rf = claim.status.reserved_for;
    bool only_this_pod = std::all_of(rf.begin(), rf.end(),
                                     [&](const auto& r) { return r.uid == rec.pod.metadata.uid; });
    if (!only_this_pod) continue;  // shared: stays allocated, pinning the pod
    aside.push_back({&claim, claim.status});
    in_use->Remove(*claim.status.allocation);
    claim.status.allocation.reset();
    claim.status.reserved_for.clear();
    claim.status.devices.clear();
  }
  // The extended-resource claim is planned again per node, as on the
  // first attempt.
  std::optional<api::PodExtendedResourceClaimStatus> extended =
      std::move(rec.pod.status.extended_resource_claim_status);
  rec.pod.status.extended_resource_claim_status.reset();
  const std::string node_name = rec.node;
  const PodRequests requests = RequestsOf(rec.pod);
  auto node = node_index.find(node_name);
  if (node != node_index.end()) node_info[node->second].AddPod(rec.pod, requests, -1);
  const std::vector<std::string> claim_keys = rec.claims;
  rec.pod.spec.node_name.clear();
  rec.state = PodState::kPending;

  PodVerdict probe;
  explaining = &probe;
  Attempt(index);
  explaining = nullptr;
  unschedulable.erase(index);
  v.nodes = std::move(probe.nodes);

  rec.state = PodState::kBound;
  rec.node = node_name;
  rec.reason.clear();
  rec.pod.spec.node_name = node_name;
  rec.claims = claim_keys;
  rec.pod.status.extended_resource_claim_status = std::move(extended);
  if (node != node_index.end()) node_info[node->second].AddPod(rec.pod, requests, 1);
  for (SetAside& a : aside) {
    a.claim->status = std::move(a.status);
    in_use->Add(*a.claim->status.allocation);
  }
}

const char* VerdictName(Verdict verdict) {
  switch (verdict) {
    case Verdict::kScheduled:
      return "Scheduled";
    case Verdict::kSchedulable:
      return "Schedulable";
    case Verdict::kUnschedulable:
      return "Unschedulable";
  }
  return "Unknown";
}

Result<PodVerdict> Scheduler::ExplainPod(const std::string& namespace_, const std::string& name,
                                         const ExplainOptions& options) {
  Impl& s = *impl_;
  s.pod_explain_options = &options;
  struct Forget {
    Impl& s;
    ~Forget() { s.pod_explain_options = nullptr; }
  } forget{s};
  auto it = s.pod_index.find(Key(namespace_, name));
  if (it == s.pod_index.end()) return Error{"pods \"" + name + "\" not found"};
  const std::size_t index = it->second;
  PodRecord& rec = s.pods[index];
  // Checked after the attempt, once the pod is put back: if set, nodes were
  // skipped and the verdict would be of some nodes only.
  auto cancelled = [&options] { return options.cancel != nullptr && options.cancel->load(); };
  static constexpr const char* kCancelled = "explanation cancelled";
  PodVerdict v;
  v.namespace_ = namespace_;
  v.name = name;
  auto add_allocations = [&] {
    for (const std::string& key : rec.claims) {
      auto c = s.claims.find(key);
      if (c != s.claims.end() && c->second.status.allocation) {
        v.allocations.push_back({key, *c->second.status.allocation});
      }
    }
  };
  switch (rec.state) {
    case PodState::kBound:
      v.verdict = Verdict::kScheduled;
      v.node = rec.node;
      add_allocations();
      s.RecheckBoundPod(index, v);
      if (cancelled()) return Error{kCancelled};
      return v;
    case PodState::kSucceeded:
    case PodState::kFailed:
      return Error{"pod " + Key(namespace_, name) + " has finished (" + PodStateName(rec.state) +
                   ")"};
    case PodState::kPending:
      break;
  }
  if (!rec.pod.spec.scheduling_gates.empty()) {
    v.message = rec.reason;
    v.rejected_before_filter = true;
    return v;
  }
  v.rejected_before_filter = true;  // until Filter runs
  // The pod keeps its place in the queues.
  const bool was_active = s.active.erase(index) > 0;
  const bool was_waiting = s.unschedulable.erase(index) > 0;
  const std::string reason = rec.reason;
  s.explaining = &v;
  s.Attempt(index);
  s.explaining = nullptr;
  s.unschedulable.erase(index);
  if (was_active) s.active.insert(index);
  if (was_waiting) s.unschedulable.insert(index);
  if (v.verdict == Verdict::kUnschedulable) v.message = rec.reason;
  rec.state = PodState::kPending;
  rec.reason = reason;
  if (cancelled()) return Error{kCancelled};
  return v;
}

}  // namespace dra::scheduler
