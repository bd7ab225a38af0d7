// The Scheduler's public API, its queues, and pods entering the cluster.
// The phases of a scheduling attempt live in the files scheduler_impl.h lists.
#include "dra/scheduler/scheduler.h"

#include <algorithm>
#include <chrono>
#include <limits>
#include <memory>
#include <numeric>
#include <thread>
#include <unordered_set>
#include <utility>

#include "scheduler/scheduler_impl.h"

namespace dra::scheduler {

std::uint64_t NanosSince(std::chrono::steady_clock::time_point start) {
  return static_cast<std::uint64_t>(
      std::chrono::duration_cast<std::chrono::nanoseconds>(std::chrono::steady_clock::now() - start)
          .count());
}

const api::OwnerReference* ControllerOf(const api::ObjectMeta& meta) {
  for (const api::OwnerReference& o : meta.owner_references) {
    if (o.controller.value_or(false)) return &o;
  }
  return nullptr;
}

bool OwnedByPod(const api::ResourceClaim& claim, const api::Pod& pod) {
  const api::OwnerReference* owner = ControllerOf(claim.metadata);
  return owner != nullptr && owner->kind == "Pod" && owner->uid == pod.metadata.uid;
}

bool HasBindingConditions(const api::AllocationResult& a) {
  for (const api::DeviceRequestAllocationResult& r : a.devices.results) {
    if (!r.binding_conditions.empty()) return true;
  }
  return false;
}

bool ReservedFor(const api::ResourceClaim& claim, const std::string& pod_uid) {
  for (const api::ResourceClaimConsumerReference& r : claim.status.reserved_for) {
    if (r.resource == "pods" && r.uid == pod_uid) return true;
  }
  return false;
}

api::OwnerReference PodOwnerReference(const api::Pod& pod) {
  api::OwnerReference owner;
  owner.api_version = "v1";
  owner.kind = "Pod";
  owner.name = pod.metadata.name;
  owner.uid = pod.metadata.uid;
  owner.controller = true;
  owner.block_owner_deletion = true;
  return owner;
}

const char* PodStateName(PodState state) {
  switch (state) {
    case PodState::kPending:
      return "Pending";
    case PodState::kBound:
      return "Bound";
    case PodState::kSucceeded:
      return "Succeeded";
    case PodState::kFailed:
      return "Failed";
  }
  return "Unknown";
}

std::int32_t Scheduler::Impl::NodeInfo::LowestPriority() const {
  return priorities.empty() ? std::numeric_limits<std::int32_t>::max() : priorities.begin()->first;
}

void Scheduler::Impl::NodeInfo::AddPod(const api::Pod& pod, const PodRequests& requests, int sign) {
  usage.Add(requests, sign);
  std::int32_t p = pod.spec.priority.value_or(0);
  if (sign > 0) {
    ++priorities[p];
  } else if (auto it = priorities.find(p); it != priorities.end() && --it->second == 0) {
    priorities.erase(it);
  }
}

namespace {

bool Finished(const api::Pod& pod) {
  return pod.status.phase == "Succeeded" || pod.status.phase == "Failed";
}

// A record of `pod`, appended to `records`; the pod has not entered yet.
void AppendRecord(std::vector<PodRecord>& records, api::Pod& pod) {
  PodRecord rec;
  rec.pod = std::move(pod);
  records.push_back(std::move(rec));
}

// Sorts `records` by their pods' creationTimestamp, keeping the order of
// equal ones, by moving each record once along the cycles of the
// permutation: no second copy of the records is made.
void PutInCreationOrder(std::vector<PodRecord>& records) {
  std::vector<std::size_t> from(records.size());
  std::iota(from.begin(), from.end(), std::size_t{0});
  std::stable_sort(from.begin(), from.end(), [&records](std::size_t a, std::size_t b) {
    return records[a].pod.metadata.creation_timestamp.seconds <
           records[b].pod.metadata.creation_timestamp.seconds;
  });
  // Position i takes the record now at from[i]; placed[i] once it has.
  std::vector<bool> placed(records.size(), false);
  for (std::size_t start = 0; start < records.size(); ++start) {
    if (placed[start] || from[start] == start) continue;
    PodRecord held = std::move(records[start]);
    std::size_t at = start;
    while (from[at] != start) {
      records[at] = std::move(records[from[at]]);
      placed[at] = true;
      at = from[at];
    }
    records[at] = std::move(held);
    placed[at] = true;
  }
}

}  // namespace

Scheduler::Impl::Impl(Cluster c, SchedulerOptions o)
    : options(o),
      cluster(std::move(c)),
      pool(o.parallelism > 0 ? o.parallelism
                             : std::max(1, static_cast<int>(std::thread::hardware_concurrency()))),
      rng(o.seed) {
  // The slices pass through here once on their way into the allocator's
  // index, the only copy the scheduler keeps: their NoExecute taints are
  // noted, and the nodes they name that the cluster lacks are added.
  // The nodes become records first, so that the Nodes are freed before the
  // index is built. The node index is what says which nodes exist (a set of
  // their names beside it would be freed as holes among the index's memory).
  const std::size_t node_count = cluster.nodes.size() + cluster.more_nodes.count;
  nodes.reserve(node_count);
  node_info.reserve(node_count);
  node_index.reserve(node_count);
  for (api::Node& n : cluster.nodes) TakeNode(n);
  cluster.nodes = {};
  if (cluster.more_nodes.next) {
    for (api::Node n; cluster.more_nodes.next(n); n = {}) TakeNode(n);
    cluster.more_nodes = {};
  }
  auto note = [this](const api::ResourceSlice& slice) {
    const std::optional<std::string>& node = slice.spec.node_name;
    if (node && !node->empty() && !node_index.contains(*node)) {
      std::unordered_set<std::string> known;
      AddMissingNode(cluster, slice, known);
      TakeNode(cluster.nodes.back());
      cluster.nodes.clear();
    }
    for (const api::Device& d : slice.spec.devices) {
      for (const api::DeviceTaint& t : d.taints) {
        if (t.effect != "NoExecute") continue;
        no_execute_taints[slice.spec.driver + "/" + slice.spec.pool.name + "/" + d.name].push_back(
            t);
      }
    }
  };
  allocator::Snapshot snapshot;
  for (const api::ResourceSlice& slice : cluster.slices) note(slice);
  snapshot.slices = std::move(cluster.slices);
  cluster.slices.clear();
  if (cluster.more_slices) {
    snapshot.more_slices = [&note, more = std::move(cluster.more_slices)](api::ResourceSlice& s) {
      if (!more(s)) return false;
      note(s);
      return true;
    };
    cluster.more_slices = nullptr;
  }
  snapshot.classes = cluster.classes;
  snapshot.taint_rules = cluster.taint_rules;
  snapshot.features = options.features;
  snapshot.keep_node_pools = options.keep_node_pools;
  alloc = std::make_unique<allocator::Allocator>(std::move(snapshot));

  for (const api::DeviceClass& dc : cluster.classes) class_names.insert(dc.metadata.name);
  if (options.extended_resources) MapExtendedResources();
  for (const api::ResourceClaimTemplate& t : cluster.templates) templates[Key(t.metadata)] = &t;
  in_use.emplace(alloc->NewAllocatedState());

  TakeClaims();
  TakePods();
  node_results.resize(nodes.size());
  memo = FilterMemo(nodes.size());
  visible_pools.resize(nodes.size());
  visible_pools_known.resize(nodes.size(), 0);
}

void Scheduler::Impl::TakeNode(api::Node& node) {
  node_index[node.metadata.name] = nodes.size();  // the last of equal names
  node_info.push_back({CapacityOf(node), {}, {}});
  nodes.push_back({std::move(node.metadata.name), std::move(node.metadata.labels),
                   std::move(node.spec.taints), node.spec.unschedulable});
}

void Scheduler::Impl::TakeClaims() {
  auto add_claim = [this](api::ResourceClaim& claim) {
    if (claim.metadata.uid.empty()) claim.metadata.uid = util::UuidV4(rng);
    if (claim.status.allocation) in_use->Add(*claim.status.allocation);
    std::string key = Key(claim.metadata);
    claims.emplace(std::move(key), std::move(claim));
  };
  claims.reserve(cluster.claims.size() + cluster.more_claims.count);
  for (api::ResourceClaim& claim : cluster.claims) add_claim(claim);
  // The moved-from claims, not only their contents, go now.
  cluster.claims = {};
  if (cluster.more_claims.next) {
    for (api::ResourceClaim claim; cluster.more_claims.next(claim); claim = {}) add_claim(claim);
    cluster.more_claims = {};
  }
  if (cluster.held_allocations.next) {
    for (api::AllocationResult a; cluster.held_allocations.next(a); a = {}) in_use->Add(a);
    cluster.held_allocations = {};
  }
}

void Scheduler::Impl::TakePods() {
  // The records are made in input order and then put in creation order
  // (creationTimestamp, then input order) where they are, so that no pod is
  // held twice; then the pods enter the cluster in that order.
  pods.reserve(cluster.pods.size() + cluster.more_pods.count);
  for (api::Pod& p : cluster.pods) AppendRecord(pods, p);
  cluster.pods = {};
  if (cluster.more_pods.next) {
    for (api::Pod p; cluster.more_pods.next(p); p = {}) AppendRecord(pods, p);
    cluster.more_pods = {};
  }
  PutInCreationOrder(pods);
  pod_index.reserve(pods.size());
  for (std::size_t i = 0; i < pods.size(); ++i) EnterPod(i);
  if (cluster.settled_pods.next) {
    for (api::Pod p; cluster.settled_pods.next(p); p = {}) {
      auto node = node_index.find(p.spec.node_name);
      if (Finished(p) || node == node_index.end()) continue;
      node_info[node->second].AddPod(p, RequestsOf(p), 1);
    }
    cluster.settled_pods = {};
  }
}

void Scheduler::Impl::AddPodRecord(api::Pod pod) {
  AppendRecord(pods, pod);
  EnterPod(pods.size() - 1);
}

void Scheduler::Impl::EnterPod(std::size_t index) {
  api::Pod& pod = pods[index].pod;
  if (pod.metadata.uid.empty()) pod.metadata.uid = util::UuidV4(rng);
  pod_index[Key(pod.metadata)] = index;
  if (Finished(pod)) {
    pods[index].state = pod.status.phase == "Succeeded" ? PodState::kSucceeded : PodState::kFailed;
    pods[index].reason = "finished before the simulation";
    return;
  }
  if (!pods[index].pod.spec.node_name.empty()) return AddBoundPod(index);
  if (!pods[index].pod.spec.scheduling_gates.empty()) {
    // The SchedulingGates PreEnqueue plugin; PodScheduled's message.
    pods[index].reason = "Scheduling is blocked due to non-empty scheduling gates";
    parked.insert(index);
    return;
  }
  active.insert(index);
}

// A pod that names its node is there already (kube-scheduler never sees
// it): it takes its share of the node, and its claims are whatever they
// are (the resource-claim controller still creates template claims).
void Scheduler::Impl::AddBoundPod(std::size_t index) {
  PodRecord& rec = pods[index];
  rec.state = PodState::kBound;
  rec.node = rec.pod.spec.node_name;
  std::string ignored;
  CreateTemplateClaims(rec, ignored);
  const api::Pod& pod = rec.pod;
  auto claim_key = [&](const std::string& name) { return Key(pod.metadata.namespace_, name); };
  for (const api::PodResourceClaim& entry : pod.spec.resource_claims) {
    std::optional<std::string> name = entry.resource_claim_name;
    for (const api::PodResourceClaimStatus& st : pod.status.resource_claim_statuses) {
      if (!name && st.name == entry.name) name = st.resource_claim_name;
    }
    if (name && !name->empty() && claims.contains(claim_key(*name))) {
      rec.claims.push_back(claim_key(*name));
    }
  }
  if (const auto& ext = pod.status.extended_resource_claim_status) {
    if (claims.contains(claim_key(ext->resource_claim_name))) {
      rec.claims.push_back(claim_key(ext->resource_claim_name));
    }
  }
  auto node = node_index.find(rec.node);
  if (node != node_index.end()) node_info[node->second].AddPod(pod, RequestsOf(pod), 1);
}

void Scheduler::Impl::RequeueUnschedulable() {
  active.insert(unschedulable.begin(), unschedulable.end());
  unschedulable.clear();
}

void Scheduler::Impl::MarkPending(std::size_t index, std::string reason) {
  PodRecord& rec = pods[index];
  rec.state = PodState::kPending;
  rec.reason = std::move(reason);
  unschedulable.insert(index);
}

Scheduler::Scheduler(Cluster cluster, SchedulerOptions options)
    : impl_(std::make_unique<Impl>(std::move(cluster), options)) {}

Scheduler::~Scheduler() = default;

void Scheduler::Run(const std::function<void(std::size_t, std::size_t)>& progress) {
  Impl& s = *impl_;
  while (!s.active.empty()) {
    std::size_t index = *s.active.begin();
    s.active.erase(s.active.begin());
    auto start = std::chrono::steady_clock::now();
    s.Attempt(index);
    s.stats.schedule_ns += NanosSince(start);
    if (progress) progress(s.stats.bound, s.pods.size());
  }
}

Status Scheduler::AddPod(api::Pod pod) {
  if (pod.metadata.namespace_.empty()) pod.metadata.namespace_ = "default";
  std::string key = Key(pod.metadata);
  if (impl_->pod_index.contains(key)) return Error{"Pod " + key + " already exists"};
  impl_->AddPodRecord(std::move(pod));
  return {};
}

Status Scheduler::AddClaim(api::ResourceClaim claim) {
  if (claim.metadata.namespace_.empty()) claim.metadata.namespace_ = "default";
  std::string key = Key(claim.metadata);
  if (impl_->claims.contains(key)) return Error{"ResourceClaim " + key + " already exists"};
  if (claim.metadata.uid.empty()) claim.metadata.uid = util::UuidV4(impl_->rng);
  if (claim.status.allocation) impl_->in_use->Add(*claim.status.allocation);
  impl_->claims.emplace(key, std::move(claim));
  impl_->RequeueUnschedulable();
  return {};
}

Status Scheduler::FinishPod(const std::string& namespace_, const std::string& name,
                            PodState phase) {
  if (phase != PodState::kSucceeded && phase != PodState::kFailed) {
    return Error{"a pod can only finish as Succeeded or Failed"};
  }
  auto it = impl_->pod_index.find(Key(namespace_, name));
  if (it == impl_->pod_index.end()) return Error{"Pod " + Key(namespace_, name) + " not found"};
  PodRecord& rec = impl_->pods[it->second];
  if (rec.state == PodState::kSucceeded || rec.state == PodState::kFailed) {
    return Error{"Pod " + Key(namespace_, name) + " has already finished"};
  }
  impl_->Release(it->second, phase, "");
  return {};
}

Status Scheduler::DeletePod(const std::string& namespace_, const std::string& name) {
  auto it = impl_->pod_index.find(Key(namespace_, name));
  if (it == impl_->pod_index.end()) return Error{"Pod " + Key(namespace_, name) + " not found"};
  std::size_t index = it->second;
  PodRecord& rec = impl_->pods[index];
  if (rec.state != PodState::kSucceeded && rec.state != PodState::kFailed) {
    impl_->Release(index, PodState::kSucceeded, "deleted");
  }
  rec.deleted = true;
  impl_->pod_index.erase(it);
  return {};
}

const std::vector<PodRecord>& Scheduler::pods() const { return impl_->pods; }

const PodRecord* Scheduler::FindPod(const std::string& namespace_, const std::string& name) const {
  auto it = impl_->pod_index.find(Key(namespace_, name));
  return it == impl_->pod_index.end() ? nullptr : &impl_->pods[it->second];
}

std::vector<const api::ResourceClaim*> Scheduler::Claims() const {
  std::vector<std::pair<const std::string*, const api::ResourceClaim*>> sorted;
  for (const auto& [key, claim] : impl_->claims) sorted.emplace_back(&key, &claim);
  std::sort(sorted.begin(), sorted.end(),
            [](const auto& a, const auto& b) { return *a.first < *b.first; });
  std::vector<const api::ResourceClaim*> out;
  out.reserve(sorted.size());
  for (const auto& [key, claim] : sorted) out.push_back(claim);
  return out;
}

const api::ResourceClaim* Scheduler::FindClaim(const std::string& namespace_,
                                               const std::string& name) const {
  auto it = impl_->claims.find(Key(namespace_, name));
  return it == impl_->claims.end() ? nullptr : &it->second;
}

const std::vector<NodeRecord>& Scheduler::nodes() const { return impl_->nodes; }
const Cluster& Scheduler::cluster() const { return impl_->cluster; }
const SchedulerStats& Scheduler::stats() const { return impl_->stats; }
const allocator::Allocator& Scheduler::allocator() const { return *impl_->alloc; }

}  // namespace dra::scheduler
