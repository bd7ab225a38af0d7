#include "dra/scheduler/scheduler.h"

#include <algorithm>
#include <atomic>
#include <chrono>
#include <limits>
#include <map>
#include <memory>
#include <set>
#include <thread>
#include <unordered_map>
#include <utility>

#include "scheduler/claim_names.h"
#include "scheduler/filter_memo.h"
#include "scheduler/node_fit.h"
#include "scheduler/worker_pool.h"

namespace dra::scheduler {
namespace {

constexpr const char* kDeleteProtectionFinalizer = "resource.kubernetes.io/delete-protection";
constexpr const char* kPodClaimNameAnnotation = "resource.kubernetes.io/pod-claim-name";
constexpr const char* kExtendedResourceClaimAnnotation =
    "resource.kubernetes.io/extended-resource-claim";
constexpr std::size_t kMaxReservedFor = 256;
constexpr std::int64_t kMaxSubrequests = 8;

constexpr const char* kCannotAllocate = "cannot allocate all claims";
constexpr const char* kNotAvailable = "resourceclaim not available on the node";
// DefaultPreemption's per-node reasons.
constexpr const char* kPreemptionNotHelpful = "Preemption is not helpful for scheduling";
constexpr const char* kNoPreemptionVictims = "No preemption victims found for incoming pod";
constexpr const char* kPreemptionNotSimulated =
    "lower-priority pods could be preempted (not simulated)";

std::string Key(const std::string& ns, const std::string& name) { return ns + "/" + name; }
std::string Key(const api::ObjectMeta& m) { return Key(m.namespace_, m.name); }

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

bool Tolerates(const api::DeviceToleration& t, const api::DeviceTaint& taint) {
  if (!t.effect.empty() && t.effect != taint.effect) return false;
  if (t.operator_ == "Exists") return t.key.empty() || t.key == taint.key;
  return t.key == taint.key && t.value == taint.value;
}

// The per-node outcome of one Filter run.
struct NodeResult {
  bool feasible = false;
  bool dra_failed = false;  // the allocator found no solution on this node
  // Why the node was rejected (kube-scheduler's reasons; several only from
  // NodeResourcesFit) and whether preemption could not help there.
  std::vector<std::string> reasons;
  bool unresolvable = false;
  std::string error;  // a framework error: aborts the pod's attempt
  std::vector<api::AllocationResult> allocations;
  // DynamicResources' raw score of the claims Filter allocated (prioritized lists).
  std::int64_t dra_score = 0;
  std::vector<std::size_t> unavailable;  // indices of allocated claims whose node selector fails
  // Filter ran the allocator without building results (feasibility only);
  // the chosen node's results are built before Reserve.
  bool results_pending = false;
  // The extended-resource claim this node needs; its allocation is the last one.
  // Shared between the nodes that need the same variant.
  std::shared_ptr<const api::ResourceClaim> extended;
  // ExplainPod only: the allocator's explanation where DRA rejected the node.
  std::optional<allocator::Explanation> explanation;

  // DynamicResources rejects with UnschedulableAndUnresolvable only.
  void Reject(std::string reason) {
    reasons.push_back(std::move(reason));
    unresolvable = true;
  }
};

}  // namespace

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

struct Scheduler::Impl {
  struct NodeInfo {
    NodeCapacity capacity;
    NodeUsage usage;
    // Priorities of the pods bound here, with their counts (preemption).
    std::map<std::int32_t, int> priorities;

    std::int32_t LowestPriority() const {
      return priorities.empty() ? std::numeric_limits<std::int32_t>::max()
                                : priorities.begin()->first;
    }
    void AddPod(const api::Pod& pod, const PodRequests& requests, int sign) {
      usage.Add(requests, sign);
      std::int32_t p = pod.spec.priority.value_or(0);
      if (sign > 0) {
        ++priorities[p];
      } else if (auto it = priorities.find(p); it != priorities.end() && --it->second == 0) {
        priorities.erase(it);
      }
    }
  };

  // One pod's claims as resolved for an attempt.
  struct ResolvedClaim {
    std::string key;
    api::ResourceClaim* claim;
  };

  SchedulerOptions options;
  Cluster cluster;  // nodes, classes, slices, rules (pods and claims moved out)
  std::vector<NodeInfo> node_info;
  std::unordered_map<std::string, std::size_t> node_index;
  std::set<std::string> class_names;
  // The extended-resource bridge: resource name -> DeviceClass.
  std::map<std::string, std::string> extended_classes;
  std::set<std::string> dra_extended_names;  // its keys, for NodeResourcesFit
  std::unique_ptr<allocator::Allocator> alloc;
  std::optional<allocator::AllocatedState> in_use;
  // Claims by namespace/name. Values are stable: std::unordered_map never
  // moves its elements.
  std::unordered_map<std::string, api::ResourceClaim> claims;
  std::unordered_map<std::string, const api::ResourceClaimTemplate*> templates;
  // NoExecute taints the slices themselves carry, by driver/pool/device.
  std::unordered_map<std::string, std::vector<api::DeviceTaint>> no_execute_taints;
  // Decided in Reserve, not yet written in PreBind; keyed by claim UID.
  std::unordered_map<std::string, api::AllocationResult> in_flight;

  std::vector<PodRecord> pods;
  std::unordered_map<std::string, std::size_t> pod_index;
  std::set<std::size_t> active;         // pod indices: creation order
  std::set<std::size_t> unschedulable;  // waiting for an event
  // Pods left Pending for good (binding timeout): no event brings them back.
  std::set<std::size_t> parked;

  WorkerPool pool;
  Rng rng;
  std::size_t next_start_node = 0;
  std::vector<NodeResult> node_results;  // scratch, one per node
  FilterMemo memo{0};
  // Per node, the allocator's pools it sees (for the memo's state version);
  // filled on the node's first memoized Filter, by the thread evaluating it.
  std::vector<std::vector<std::uint32_t>> visible_pools;
  std::vector<char> visible_pools_known;
  SchedulerStats stats;
  // Set during ExplainPod's dry run: Filter visits every node and explains
  // each DRA rejection; nothing is bound, deallocated or requeued.
  PodVerdict* explaining = nullptr;

  Impl(Cluster c, SchedulerOptions o)
      : options(o),
        cluster(std::move(c)),
        pool(o.parallelism > 0
                 ? o.parallelism
                 : std::max(1, static_cast<int>(std::thread::hardware_concurrency()))),
        rng(o.seed) {
    AddMissingNodes(cluster);
    node_info.reserve(cluster.nodes.size());
    for (api::Node& n : cluster.nodes) {
      node_index[n.metadata.name] = node_info.size();
      node_info.push_back({CapacityOf(n), {}, {}});
      // NodeResourcesFit reads node_info from here on, and the status maps
      // are most of a Node's memory; nothing else reads them.
      n.status.capacity.clear();
      n.status.allocatable.clear();
    }
    for (const api::DeviceClass& dc : cluster.classes) class_names.insert(dc.metadata.name);
    if (options.extended_resources) MapExtendedResources();
    for (const api::ResourceClaimTemplate& t : cluster.templates) templates[Key(t.metadata)] = &t;

    allocator::Snapshot snapshot;
    for (const api::ResourceSlice& slice : cluster.slices) {
      for (const api::Device& d : slice.spec.devices) {
        for (const api::DeviceTaint& t : d.taints) {
          if (t.effect != "NoExecute") continue;
          no_execute_taints[slice.spec.driver + "/" + slice.spec.pool.name + "/" + d.name]
              .push_back(t);
        }
      }
    }
    // The allocator's index is the only copy of the slices the scheduler keeps.
    snapshot.slices = std::move(cluster.slices);
    cluster.slices.clear();
    snapshot.classes = cluster.classes;
    snapshot.taint_rules = cluster.taint_rules;
    snapshot.features = options.features;
    alloc = std::make_unique<allocator::Allocator>(std::move(snapshot));
    in_use.emplace(alloc->NewAllocatedState());

    for (api::ResourceClaim& claim : cluster.claims) {
      if (claim.metadata.uid.empty()) claim.metadata.uid = NewUid(rng);
      if (claim.status.allocation) in_use->Add(*claim.status.allocation);
      std::string key = Key(claim.metadata);
      claims.emplace(std::move(key), std::move(claim));
    }
    cluster.claims.clear();

    // Creation order: creationTimestamp, then input order.
    std::vector<api::Pod> input = std::move(cluster.pods);
    cluster.pods.clear();
    std::stable_sort(input.begin(), input.end(), [](const api::Pod& a, const api::Pod& b) {
      return a.metadata.creation_timestamp.seconds < b.metadata.creation_timestamp.seconds;
    });
    for (api::Pod& p : input) AddPodRecord(std::move(p));
    node_results.resize(cluster.nodes.size());
    memo = FilterMemo(cluster.nodes.size());
    visible_pools.resize(cluster.nodes.size());
    visible_pools_known.resize(cluster.nodes.size(), 0);
  }

  // Several classes naming one resource: the newest wins, then the smaller
  // name. Every class also serves its implicit name.
  void MapExtendedResources() {
    std::map<std::string, const api::DeviceClass*> explicit_names;
    for (const api::DeviceClass& dc : cluster.classes) {
      extended_classes["deviceclass.resource.kubernetes.io/" + dc.metadata.name] = dc.metadata.name;
      if (!dc.spec.extended_resource_name) continue;
      const api::DeviceClass*& best = explicit_names[*dc.spec.extended_resource_name];
      if (best == nullptr ||
          dc.metadata.creation_timestamp.seconds > best->metadata.creation_timestamp.seconds ||
          (dc.metadata.creation_timestamp.seconds == best->metadata.creation_timestamp.seconds &&
           dc.metadata.name < best->metadata.name)) {
        best = &dc;
      }
    }
    for (const auto& [name, dc] : explicit_names) extended_classes[name] = dc->metadata.name;
    for (const auto& [name, cls] : extended_classes) dra_extended_names.insert(name);
  }

  // One container's request for an extended resource a DeviceClass maps.
  struct ExtendedDemand {
    std::string container;
    std::string resource;
    std::string class_name;
    std::string request;  // container-<i>-request-<j>
    std::int64_t count = 0;
  };

  std::vector<ExtendedDemand> ExtendedDemands(const api::Pod& pod) const {
    std::vector<ExtendedDemand> out;
    if (extended_classes.empty()) return out;
    for (std::size_t i = 0; i < pod.spec.containers.size(); ++i) {
      const api::Container& c = pod.spec.containers[i];
      api::ResourceList merged = c.resources.requests;
      for (const auto& [name, q] : c.resources.limits) merged.emplace(name, q);
      std::size_t j = 0;
      for (const auto& [name, q] : merged) {
        auto cls = extended_classes.find(name);
        if (cls != extended_classes.end() && q.Value() > 0) {
          out.push_back({c.name, name, cls->second,
                         "container-" + std::to_string(i) + "-request-" + std::to_string(j),
                         q.Value()});
        }
        ++j;
      }
    }
    std::sort(out.begin(), out.end(), [](const ExtendedDemand& a, const ExtendedDemand& b) {
      return a.request < b.request;
    });
    return out;
  }

  // True when the node advertises none of the demanded resources.
  static bool ServesNone(const std::vector<ExtendedDemand>& demands, const NodeCapacity& capacity) {
    for (const ExtendedDemand& d : demands) {
      auto have = capacity.scalar.find(d.resource);
      if (have != capacity.scalar.end() && have->second > 0) return false;
    }
    return true;
  }

  // The node's variant of the special claim: requests for the demands the
  // node's allocatable does not cover (those DRA must serve there).
  std::optional<api::ResourceClaim> ExtendedClaimFor(const api::Pod& pod,
                                                     const std::vector<ExtendedDemand>& demands,
                                                     const NodeCapacity& capacity) const {
    std::optional<api::ResourceClaim> claim;
    for (const ExtendedDemand& d : demands) {
      auto have = capacity.scalar.find(d.resource);
      if (have != capacity.scalar.end() && have->second > 0) continue;  // device plugin
      if (!claim) {
        claim.emplace();
        claim->metadata.name = "<extended-resources>";
        claim->metadata.namespace_ = pod.metadata.namespace_;
        claim->metadata.uid = "extended-resources/" + pod.metadata.uid;
      }
      api::DeviceRequest req;
      req.name = d.request;
      req.exactly.emplace();
      req.exactly->device_class_name = d.class_name;
      req.exactly->allocation_mode = "ExactCount";
      req.exactly->count = d.count;
      claim->spec.devices.requests.push_back(std::move(req));
    }
    return claim;
  }

  void AddPodRecord(api::Pod pod) {
    if (pod.metadata.uid.empty()) pod.metadata.uid = NewUid(rng);
    std::size_t index = pods.size();
    pod_index[Key(pod.metadata)] = index;
    PodRecord rec;
    rec.pod = std::move(pod);
    const std::string& phase = rec.pod.status.phase;
    pods.push_back(std::move(rec));
    if (phase == "Succeeded" || phase == "Failed") {
      pods[index].state = phase == "Succeeded" ? PodState::kSucceeded : PodState::kFailed;
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
  void AddBoundPod(std::size_t index) {
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

  // ---- Resource-claim controller ------------------------------------------

  // Creates the claims of template entries that have none yet and records them
  // in pod.status.resourceClaimStatuses. False with `reason` when a template
  // is missing (upstream: event FailedResourceClaimCreation).
  bool CreateTemplateClaims(PodRecord& rec, std::string& reason) {
    api::Pod& pod = rec.pod;
    const std::string& ns = pod.metadata.namespace_;
    for (std::size_t i = 0; i < pod.spec.resource_claims.size(); ++i) {
      const api::PodResourceClaim& entry = pod.spec.resource_claims[i];
      if (entry.resource_claim_name.has_value() == entry.resource_claim_template_name.has_value()) {
        reason = "spec.resourceClaims[" + std::to_string(i) +
                 "]: must specify one of: `resourceClaimName`, `resourceClaimTemplateName`";
        return false;
      }
      if (!entry.resource_claim_template_name) continue;
      api::PodResourceClaimStatus* status = nullptr;
      for (api::PodResourceClaimStatus& s : pod.status.resource_claim_statuses) {
        if (s.name == entry.name) status = &s;
      }
      if (status != nullptr) {
        // An empty name means "intentionally not created".
        if (!status->resource_claim_name || status->resource_claim_name->empty()) continue;
        auto it = claims.find(Key(ns, *status->resource_claim_name));
        if (it != claims.end() && OwnedByPod(it->second, pod)) continue;
      }
      const std::string& tname = *entry.resource_claim_template_name;
      std::string tkey = Key(ns, tname);
      if (cluster.duplicate_templates.contains(tkey)) {
        reason = "FailedResourceClaimCreation: ResourceClaimTemplate " + tkey +
                 " is defined more than once in the input";
        return false;
      }
      auto t = templates.find(tkey);
      if (t == templates.end()) {
        reason = "FailedResourceClaimCreation: PodResourceClaim " + entry.name;
        reason += ": resource claim template \"" + tname;
        reason += "\": resourceclaimtemplate.resource.k8s.io \"" + tname + "\" not found";
        return false;
      }
      std::string name = CreateClaimFromTemplate(pod, entry.name, *t->second);
      if (status == nullptr) {
        pod.status.resource_claim_statuses.push_back({entry.name, name});
      } else {
        status->resource_claim_name = name;
      }
    }
    return true;
  }

  std::string CreateClaimFromTemplate(const api::Pod& pod, const std::string& entry,
                                      const api::ResourceClaimTemplate& tmpl) {
    api::ResourceClaim claim;
    claim.type = {"ResourceClaim", "resource.k8s.io/v1"};
    std::string prefix = ClaimNamePrefix(pod.metadata.name, entry);
    std::string name;
    do {
      name = GenerateName(prefix, rng);
    } while (claims.contains(Key(pod.metadata.namespace_, name)));
    claim.metadata.name = name;
    claim.metadata.generate_name = prefix;
    claim.metadata.namespace_ = pod.metadata.namespace_;
    claim.metadata.uid = NewUid(rng);
    claim.metadata.creation_timestamp = api::Time::FromUnix(options.now);
    claim.metadata.labels = tmpl.spec.metadata.labels;
    claim.metadata.annotations = tmpl.spec.metadata.annotations;
    claim.metadata.annotations[kPodClaimNameAnnotation] = entry;
    api::OwnerReference owner;
    owner.api_version = "v1";
    owner.kind = "Pod";
    owner.name = pod.metadata.name;
    owner.uid = pod.metadata.uid;
    owner.controller = true;
    owner.block_owner_deletion = true;
    claim.metadata.owner_references.push_back(owner);
    claim.spec = tmpl.spec.spec;
    claims.emplace(Key(pod.metadata.namespace_, name), std::move(claim));
    return name;
  }

  // ---- PreEnqueue / PreFilter ---------------------------------------------

  // Resolves the pod's claims as PreEnqueue does. False with `reason` when a
  // claim is missing, being deleted, or not the pod's own.
  bool ResolveClaims(const PodRecord& rec, std::vector<ResolvedClaim>& out, std::string& reason) {
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
  std::string CheckClaimToAllocate(const ResolvedClaim& rc) {
    const api::ResourceClaim& claim = *rc.claim;
    if (in_flight.contains(claim.metadata.uid)) {
      return "resource claim " + rc.key + " is in the process of being allocated";
    }
    for (const api::DeviceRequest& req : claim.spec.devices.requests) {
      if (req.exactly) {
        if (!class_names.contains(req.exactly->device_class_name)) {
          return "request " + req.name + ": device class " + req.exactly->device_class_name +
                 " does not exist";
        }
      } else if (!req.first_available.empty()) {
        if (!options.features.prioritized_list) {
          return "resource claim " + rc.key + ", request " + req.name +
                 ": has subrequests, but the DRAPrioritizedList feature is disabled";
        }
        for (const api::DeviceSubRequest& sub : req.first_available) {
          if (!class_names.contains(sub.device_class_name)) {
            return "request " + req.name + "/" + sub.name + ": device class " +
                   sub.device_class_name + " does not exist";
          }
        }
      } else {
        return "resource claim " + rc.key + ", request " + req.name + ": unknown request type";
      }
    }
    return "";
  }

  // ---- Node choice ----------------------------------------------------------

  std::size_t NumFeasibleNodesToFind(std::size_t n) const {
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
  static std::int64_t PrioritizedListScore(const api::ResourceClaim& claim,
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

  // ---- Claim state changes --------------------------------------------------

  void Deallocate(api::ResourceClaim& claim) {
    if (claim.status.allocation) in_use->Remove(*claim.status.allocation);
    claim.status.allocation.reset();
    claim.status.reserved_for.clear();
    claim.status.devices.clear();
    auto& f = claim.metadata.finalizers;
    f.erase(std::remove(f.begin(), f.end(), kDeleteProtectionFinalizer), f.end());
  }

  void RequeueUnschedulable() {
    active.insert(unschedulable.begin(), unschedulable.end());
    unschedulable.clear();
  }

  void MarkPending(std::size_t index, std::string reason) {
    PodRecord& rec = pods[index];
    rec.state = PodState::kPending;
    rec.reason = std::move(reason);
    unschedulable.insert(index);
  }

  // ---- ExplainPod ----------------------------------------------------------

  // The dry run found a node: what Reserve would have written there.
  void RecordSchedulable(std::size_t chosen, const std::vector<ResolvedClaim>& resolved,
                         const std::vector<std::size_t>& to_allocate, const NodeResult& winner) {
    PodVerdict& v = *explaining;
    v.verdict = Verdict::kSchedulable;
    v.node = cluster.nodes[chosen].metadata.name;
    for (std::size_t j = 0; j < to_allocate.size() && j < winner.allocations.size(); ++j) {
      v.allocations.push_back({resolved[to_allocate[j]].key, winner.allocations[j]});
    }
    if (winner.extended && winner.allocations.size() > to_allocate.size()) {
      v.allocations.push_back({"<extended resources>", winner.allocations.back()});
    }
  }

  // A bound pod tried again in the state without it: its share of the node
  // and the allocations only it holds are set aside, Filter runs on every
  // node in dry-run mode, and everything is put back. `v.nodes` then says
  // which nodes would have fitted it, its own among them (or not).
  void RecheckBoundPod(std::size_t index, PodVerdict& v) {
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
      bool only_this_pod = std::all_of(
          rf.begin(), rf.end(), [&](const auto& r) { return r.uid == rec.pod.metadata.uid; });
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

  // ---- Messages ------------------------------------------------------------

  // framework.FitError's text: "0/N nodes are available: " and the reasons
  // with their node counts, sorted as strings, then ".".
  static std::string NodesAvailableMessage(std::size_t nodes,
                                           const std::map<std::string, int>& histogram) {
    std::vector<std::string> counted;
    counted.reserve(histogram.size());
    for (const auto& [reason, count] : histogram) {
      counted.push_back(std::to_string(count) + " " + reason);
    }
    std::sort(counted.begin(), counted.end());
    std::string message = "0/" + std::to_string(nodes) + " nodes are available: ";
    for (std::size_t i = 0; i < counted.size(); ++i) {
      message += (i == 0 ? "" : ", ") + counted[i];
    }
    return message + ".";
  }

  // DefaultPreemption's PostFilter message for a pod no node fits, in a
  // cluster where it finds no victims: nodes whose rejection preemption
  // cannot resolve are "not helpful"; on the others it looks for pods of lower
  // priority. dra does not evict: where such pods exist the message says so
  // instead of naming victims (docs/COMPATIBILITY.md).
  std::string PreemptionMessage(const api::Pod& pod, const std::vector<std::size_t>& order,
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
    if (evaluated < cluster.nodes.size()) {
      histogram[kPreemptionNotHelpful] += static_cast<int>(cluster.nodes.size() - evaluated);
    }
    return "preemption: " + NodesAvailableMessage(cluster.nodes.size(), histogram);
  }

  // A PreFilter rejection: the message of the plugin, then PostFilter's,
  // which finds every node unresolvable.
  std::string PreFilterMessage(const std::string& problem) const {
    std::map<std::string, int> all{{kPreemptionNotHelpful, static_cast<int>(cluster.nodes.size())}};
    std::string n = std::to_string(cluster.nodes.size());
    return "0/" + n + " nodes are available: " + problem +
           ". preemption: " + NodesAvailableMessage(cluster.nodes.size(), all);
  }

  // ---- One scheduling attempt ----------------------------------------------

  void Attempt(std::size_t index);
  void Bind(std::size_t index, std::size_t node, std::vector<ResolvedClaim>& resolved,
            std::vector<std::size_t> to_allocate, NodeResult& result);
  std::string FitError(std::size_t index, const std::vector<std::size_t>& order,
                       std::size_t evaluated, const std::vector<ResolvedClaim>& resolved,
                       const std::vector<api::ResourceClaim>& alloc_claims, bool& requeue);
  void Release(std::size_t index, PodState phase, std::string reason);
};

void Scheduler::Impl::Attempt(std::size_t index) {
  PodRecord& rec = pods[index];
  ++rec.attempts;
  ++stats.attempts;
  rec.explanation.reset();
  std::string reason;
  if (!CreateTemplateClaims(rec, reason)) return MarkPending(index, reason);
  std::vector<ResolvedClaim> resolved;
  if (!ResolveClaims(rec, resolved, reason)) return MarkPending(index, reason);

  const std::size_t n = cluster.nodes.size();

  // PreFilter.
  std::vector<std::size_t> to_allocate;                                  // indices into resolved
  std::vector<std::pair<std::size_t, const api::NodeSelector*>> pinned;  // allocated claims
  for (std::size_t i = 0; i < resolved.size(); ++i) {
    const api::ResourceClaim& claim = *resolved[i].claim;
    if (claim.status.allocation) {
      if (!ReservedFor(claim, rec.pod.metadata.uid) &&
          claim.status.reserved_for.size() >= kMaxReservedFor) {
        return MarkPending(index, PreFilterMessage("resourceclaim in use"));
      }
      if (claim.status.allocation->node_selector) {
        pinned.emplace_back(i, &*claim.status.allocation->node_selector);
      }
      continue;
    }
    std::string problem = CheckClaimToAllocate(resolved[i]);
    if (!problem.empty()) return MarkPending(index, PreFilterMessage(problem));
    to_allocate.push_back(i);
  }
  std::vector<api::ResourceClaim> alloc_claims;
  alloc_claims.reserve(to_allocate.size());
  for (std::size_t i : to_allocate) alloc_claims.push_back(*resolved[i].claim);

  if (n == 0) return MarkPending(index, "0/0 nodes are available: no nodes in the cluster.");
  const std::vector<ExtendedDemand> demands = ExtendedDemands(rec.pod);
  std::shared_ptr<const api::ResourceClaim> all_dra_extended;
  std::vector<api::ResourceClaim> all_dra_claims;
  if (!demands.empty()) {
    if (std::optional<api::ResourceClaim> c = ExtendedClaimFor(rec.pod, demands, {})) {
      all_dra_extended = std::make_shared<const api::ResourceClaim>(std::move(*c));
      all_dra_claims = alloc_claims;
      all_dra_claims.push_back(*all_dra_extended);
    }
  }

  // Filter, in parallel, from a rotating start, until enough nodes fit.
  const PodRequests requests = RequestsOf(rec.pod);
  const std::size_t to_find = explaining != nullptr ? n : NumFeasibleNodesToFind(n);
  const std::size_t start = next_start_node % n;
  std::atomic<std::size_t> found{0};
  std::atomic<std::size_t> evaluated{0};
  std::atomic<std::uint64_t> allocate_calls{0};
  // Results are needed in Filter only to score prioritized lists; otherwise
  // they are built once, for the chosen node.
  bool scores_need_results = false;
  if (options.features.prioritized_list) {
    for (const api::ResourceClaim& c : alloc_claims) {
      for (const api::DeviceRequest& req : c.spec.devices.requests) {
        scores_need_results |= !req.first_available.empty();
      }
    }
  }
  allocator::AllocateOptions allocate_options;
  allocate_options.max_steps = options.max_steps;
  // Node-specific extended-resource claim lists are never memoized.
  const std::uint64_t claims_signature =
      options.filter_memo && !alloc_claims.empty() ? memo.Signature(alloc_claims) : 0;
  const std::uint64_t all_dra_signature =
      options.filter_memo && all_dra_extended ? memo.Signature(all_dra_claims) : 0;
  std::atomic<std::uint64_t> memo_hits{0};
  auto filter_start = std::chrono::steady_clock::now();
  std::function<void(std::size_t)> body = [&](std::size_t pos) {
    std::size_t node = (start + pos) % n;
    NodeResult& r = node_results[node];
    r = NodeResult{};
    evaluated.fetch_add(1, std::memory_order_relaxed);
    NodeFilterStatus fit =
        FilterNode(rec.pod, requests, cluster.nodes[node], node_info[node].capacity,
                   node_info[node].usage, dra_extended_names);
    if (!fit.ok()) {
      r.reasons = std::move(fit.reasons);
      r.unresolvable = fit.unresolvable;
      return;
    }
    // The usual case, a node advertising none of the extended resources,
    // shares one prepared claim list; other nodes build their own variant.
    std::vector<api::ResourceClaim> own_claims;
    const std::vector<api::ResourceClaim>* claims_here = &alloc_claims;
    if (!demands.empty()) {
      if (ServesNone(demands, node_info[node].capacity)) {
        r.extended = all_dra_extended;
        if (r.extended) claims_here = &all_dra_claims;
      } else if (std::optional<api::ResourceClaim> variant =
                     ExtendedClaimFor(rec.pod, demands, node_info[node].capacity)) {
        r.extended = std::make_shared<const api::ResourceClaim>(*variant);
        own_claims = alloc_claims;
        own_claims.push_back(*variant);
        claims_here = &own_claims;
      }
    }
    if (!claims_here->empty()) {
      const bool memoized =
          options.filter_memo && explaining == nullptr && claims_here != &own_claims;
      const std::uint64_t signature =
          claims_here == &all_dra_claims ? all_dra_signature : claims_signature;
      if (memoized && !visible_pools_known[node]) {
        visible_pools[node] = alloc->VisiblePools(cluster.nodes[node]);
        visible_pools_known[node] = 1;
      }
      const std::uint64_t version = memoized ? in_use->Version(visible_pools[node]) : 0;
      const FilterMemo::Verdict* known = memoized ? memo.Find(node, signature, version) : nullptr;
      if (known != nullptr) {
        memo_hits.fetch_add(1, std::memory_order_relaxed);
        if (!known->feasible) {
          r.Reject(kCannotAllocate);
          r.dra_failed = true;
          return;
        }
        r.dra_score = known->score;
        r.results_pending = true;
      } else {
        allocate_calls.fetch_add(1, std::memory_order_relaxed);
        allocator::AllocateOptions node_options = allocate_options;
        // A node-specific claim list does not outlive this call: build its results now.
        node_options.build_results =
            scores_need_results || claims_here == &own_claims || explaining != nullptr;
        allocator::AllocateResult ar =
            alloc->Allocate(cluster.nodes[node], *claims_here, *in_use, node_options);
        switch (ar.outcome) {
          case allocator::Outcome::kAllocated:
            r.allocations = std::move(ar.allocations);
            r.results_pending = !node_options.build_results;
            if (scores_need_results) {
              for (std::size_t j = 0; j < to_allocate.size(); ++j) {
                r.dra_score +=
                    PrioritizedListScore(*resolved[to_allocate[j]].claim, r.allocations[j]);
              }
            }
            if (memoized) memo.Store(node, signature, version, {true, r.dra_score});
            break;
          case allocator::Outcome::kUnschedulable:
            r.Reject(kCannotAllocate);
            r.dra_failed = true;
            if (explaining != nullptr) {
              allocator::AllocateOptions explain_options = allocate_options;
              explain_options.explain = true;
              allocator::AllocateResult why =
                  alloc->Allocate(cluster.nodes[node], *claims_here, *in_use, explain_options);
              if (why.outcome == allocator::Outcome::kUnschedulable) {
                why.explanation.node = cluster.nodes[node].metadata.name;
                r.explanation = std::move(why.explanation);
              }
            }
            if (memoized) memo.Store(node, signature, version, {false, 0});
            return;
          case allocator::Outcome::kError:
            if (ar.node_local_error) {
              r.Reject(ar.error);
              r.dra_failed = true;
            } else {
              r.Reject(ar.error);
              r.error = ar.error;
            }
            return;
        }
      }
    }
    for (const auto& [claim_index, selector] : pinned) {
      if (!MatchesNodeSelector(*selector, cluster.nodes[node])) {
        r.unavailable.push_back(claim_index);
      }
    }
    if (!r.unavailable.empty()) {
      r.Reject(kNotAvailable);
      return;
    }
    r.feasible = true;
    found.fetch_add(1, std::memory_order_relaxed);
  };
  std::function<bool()> stop = [&] { return found.load(std::memory_order_relaxed) >= to_find; };
  pool.ParallelFor(n, body, stop);
  stats.filter_ns += NanosSince(filter_start);
  if (explaining != nullptr) {
    explaining->rejected_before_filter = false;
    explaining->nodes.reserve(n);
    for (std::size_t node = 0; node < n; ++node) {
      NodeResult& r = node_results[node];
      explaining->nodes.push_back({cluster.nodes[node].metadata.name, r.feasible, r.reasons,
                                   r.unresolvable, std::move(r.explanation)});
    }
  }
  stats.allocate_calls += allocate_calls.load();
  stats.filter_memo_hits += memo_hits.load();
  std::size_t done = evaluated.load();
  stats.nodes_filtered += done;

  // Every position below `done` was evaluated; the first `to_find` feasible
  // ones are the same whatever the threads' timing.
  std::vector<std::size_t> feasible;
  std::size_t last_pos = 0;
  for (std::size_t pos = 0; pos < done && feasible.size() < to_find; ++pos) {
    std::size_t node = (start + pos) % n;
    if (!node_results[node].error.empty()) {
      return MarkPending(index,
                         "running \"DynamicResources\" filter plugin: " + node_results[node].error);
    }
    if (node_results[node].feasible) {
      feasible.push_back(node);
      last_pos = pos;
    }
  }
  if (feasible.empty()) {
    std::vector<std::size_t> order(done);
    for (std::size_t pos = 0; pos < done; ++pos) order[pos] = (start + pos) % n;
    bool requeue = false;
    std::string message = FitError(index, order, done, resolved, alloc_claims, requeue);
    MarkPending(index, std::move(message));
    if (requeue) RequeueUnschedulable();
    return;
  }
  next_start_node = feasible.size() >= to_find ? (start + last_pos + 1) % n : start;

  // Score and pick: highest total, ties broken at random (reservoir sampling).
  std::size_t chosen = feasible.front();
  if (feasible.size() > 1) {
    bool any_first_available = false;
    for (const ResolvedClaim& rc : resolved) {
      for (const api::DeviceRequest& req : rc.claim->spec.devices.requests) {
        any_first_available |= !req.first_available.empty();
      }
    }
    std::vector<std::int64_t> dra_raw(feasible.size(), 0);
    std::int64_t dra_max = 0;
    if (any_first_available && options.features.prioritized_list) {
      for (std::size_t f = 0; f < feasible.size(); ++f) {
        std::int64_t s = node_results[feasible[f]].dra_score;
        for (const ResolvedClaim& rc : resolved) {
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
      std::int64_t score = LeastAllocatedScore(requests, info.capacity, info.usage) +
                           BalancedAllocationScore(requests, info.capacity, info.usage);
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
  }
  NodeResult& winner = node_results[chosen];
  if (winner.results_pending) {
    const std::vector<api::ResourceClaim>& claims =
        winner.extended && winner.extended == all_dra_extended ? all_dra_claims : alloc_claims;
    allocator::AllocateResult ar =
        alloc->Allocate(cluster.nodes[chosen], claims, *in_use, allocate_options);
    if (ar.outcome != allocator::Outcome::kAllocated) {
      // Only result building can fail where the feasibility check passed.
      return MarkPending(index, "running \"DynamicResources\" filter plugin: " + ar.error);
    }
    winner.allocations = std::move(ar.allocations);
    winner.results_pending = false;
  }
  if (explaining != nullptr) return RecordSchedulable(chosen, resolved, to_allocate, winner);
  Bind(index, chosen, resolved, to_allocate, winner);
}

// The FailedScheduling message for a pod no node fits, after PostFilter.
std::string Scheduler::Impl::FitError(std::size_t index, const std::vector<std::size_t>& order,
                                      std::size_t evaluated,
                                      const std::vector<ResolvedClaim>& resolved,
                                      const std::vector<api::ResourceClaim>& alloc_claims,
                                      bool& requeue) {
  PodRecord& rec = pods[index];
  std::map<std::string, int> histogram;
  std::size_t first_dra_failure = order.size();
  std::set<std::size_t> unavailable;
  for (std::size_t pos = 0; pos < evaluated; ++pos) {
    const NodeResult& r = node_results[order[pos]];
    for (const std::string& reason : r.reasons) ++histogram[reason];
    if (r.dra_failed && first_dra_failure == order.size()) first_dra_failure = pos;
    unavailable.insert(r.unavailable.begin(), r.unavailable.end());
  }
  std::string message = NodesAvailableMessage(cluster.nodes.size(), histogram);

  if (options.explain && explaining == nullptr && first_dra_failure < order.size()) {
    allocator::AllocateOptions explain_options;
    explain_options.max_steps = options.max_steps;
    explain_options.explain = true;
    allocator::AllocateResult ar = alloc->Allocate(cluster.nodes[order[first_dra_failure]],
                                                   alloc_claims, *in_use, explain_options);
    if (ar.outcome == allocator::Outcome::kUnschedulable) {
      ar.explanation.node = cluster.nodes[order[first_dra_failure]].metadata.name;
      rec.explanation = std::move(ar.explanation);
    }
  }

  // PostFilter, DynamicResources first: free one allocated claim that keeps
  // the pod off every node. Its message and DefaultPreemption's are joined.
  std::vector<std::size_t> candidates;
  for (std::size_t i : unavailable) {
    const api::ResourceClaim& c = *resolved[i].claim;
    bool free = c.status.reserved_for.empty() ||
                (c.status.reserved_for.size() == 1 && ReservedFor(c, rec.pod.metadata.uid));
    if (free) candidates.push_back(i);
  }
  message += ' ';
  if (!candidates.empty()) {
    if (explaining == nullptr) {
      Deallocate(*resolved[candidates[rng.Below(candidates.size())]].claim);
      requeue = true;
    }
    message += "deallocation of ResourceClaim completed, ";
  }
  return message + PreemptionMessage(rec.pod, order, evaluated);
}

void Scheduler::Impl::Bind(std::size_t index, std::size_t node,
                           std::vector<ResolvedClaim>& resolved,
                           std::vector<std::size_t> to_allocate, NodeResult& result) {
  PodRecord& rec = pods[index];
  const api::Pod& pod = rec.pod;
  if (result.extended) {
    // The extended-resource claim becomes a real object now, owned by the
    // pod; from here on it is handled like the pod's other claims.
    api::ResourceClaim claim;
    claim.type = {"ResourceClaim", "resource.k8s.io/v1"};
    std::string prefix = pod.metadata.name + "-extended-resources-";
    do {
      claim.metadata.name = GenerateName(prefix, rng);
    } while (claims.contains(Key(pod.metadata.namespace_, claim.metadata.name)));
    claim.metadata.generate_name = prefix;
    claim.metadata.namespace_ = pod.metadata.namespace_;
    claim.metadata.uid = NewUid(rng);
    claim.metadata.creation_timestamp = api::Time::FromUnix(options.now);
    claim.metadata.annotations[kExtendedResourceClaimAnnotation] = "true";
    api::OwnerReference owner;
    owner.api_version = "v1";
    owner.kind = "Pod";
    owner.name = pod.metadata.name;
    owner.uid = pod.metadata.uid;
    owner.controller = true;
    owner.block_owner_deletion = true;
    claim.metadata.owner_references.push_back(owner);
    claim.spec = result.extended->spec;
    std::string key = Key(claim.metadata);
    api::PodExtendedResourceClaimStatus status;
    status.resource_claim_name = claim.metadata.name;
    for (const ExtendedDemand& d : ExtendedDemands(pod)) {
      for (const api::DeviceRequest& req : claim.spec.devices.requests) {
        if (req.name == d.request)
          status.request_mappings.push_back({d.container, d.resource, d.request});
      }
    }
    auto [it, inserted] = claims.emplace(key, std::move(claim));
    to_allocate.push_back(resolved.size());
    resolved.push_back({key, &it->second});
    rec.pod.status.extended_resource_claim_status = std::move(status);
  }
  // Reserve: the devices count as taken from here on.
  for (std::size_t j = 0; j < to_allocate.size(); ++j) {
    const api::ResourceClaim& claim = *resolved[to_allocate[j]].claim;
    in_use->Add(result.allocations[j]);
    in_flight[claim.metadata.uid] = result.allocations[j];
  }
  // PreBind: allocation and reservation written together, in-flight entry dropped.
  bool binding_conditions = false;
  for (std::size_t i = 0; i < resolved.size(); ++i) {
    api::ResourceClaim& claim = *resolved[i].claim;
    auto flight = in_flight.find(claim.metadata.uid);
    if (flight != in_flight.end()) {
      auto& f = claim.metadata.finalizers;
      if (std::find(f.begin(), f.end(), kDeleteProtectionFinalizer) == f.end()) {
        f.push_back(kDeleteProtectionFinalizer);
      }
      claim.status.allocation = std::move(flight->second);
      if (HasBindingConditions(*claim.status.allocation) &&
          claim.status.allocation->allocation_timestamp.IsZero()) {
        claim.status.allocation->allocation_timestamp = api::Time::FromUnix(options.now);
      }
      in_flight.erase(flight);
    }
    if (!ReservedFor(claim, pod.metadata.uid)) {
      claim.status.reserved_for.push_back({"", "pods", pod.metadata.name, pod.metadata.uid});
    }
    binding_conditions |= HasBindingConditions(*claim.status.allocation);
  }
  rec.claims.clear();
  for (const ResolvedClaim& rc : resolved) rec.claims.push_back(rc.key);

  if (binding_conditions && !options.binding_conditions_met) {
    // Binding timeout: Unreserve, and the next cycle's PostFilter frees the
    // allocations nobody else reserves.
    for (ResolvedClaim& rc : resolved) {
      auto& rf = rc.claim->status.reserved_for;
      rf.erase(std::remove_if(rf.begin(), rf.end(),
                              [&](const api::ResourceClaimConsumerReference& r) {
                                return r.uid == pod.metadata.uid;
                              }),
               rf.end());
      if (rf.empty() && rc.claim->status.allocation) Deallocate(*rc.claim);
    }
    rec.claims.clear();
    rec.state = PodState::kPending;
    rec.reason = "device binding timeout";
    parked.insert(index);
    return;
  }
  if (binding_conditions) {
    // The drivers report every binding condition as met.
    rec.waited_for_binding_conditions = true;
    for (ResolvedClaim& rc : resolved) {
      api::ResourceClaim& claim = *rc.claim;
      for (const api::DeviceRequestAllocationResult& r : claim.status.allocation->devices.results) {
        if (r.binding_conditions.empty()) continue;
        api::AllocatedDeviceStatus ds;
        ds.driver = r.driver;
        ds.pool = r.pool;
        ds.device = r.device;
        ds.share_id = r.share_id;
        for (const std::string& cond : r.binding_conditions) {
          api::Condition c;
          c.type = cond;
          c.status = "True";
          c.reason = "Simulated";
          c.last_transition_time = api::Time::FromUnix(options.now);
          ds.conditions.push_back(std::move(c));
        }
        claim.status.devices.push_back(std::move(ds));
      }
    }
  }
  // Bind.
  rec.state = PodState::kBound;
  rec.node = cluster.nodes[node].metadata.name;
  rec.reason.clear();
  rec.pod.spec.node_name = rec.node;
  rec.pod.status.phase = "Running";
  node_info[node].AddPod(rec.pod, RequestsOf(rec.pod), 1);
  ++stats.bound;
}

void Scheduler::Impl::Release(std::size_t index, PodState phase, std::string reason) {
  PodRecord& rec = pods[index];
  const api::Pod& pod = rec.pod;
  if (rec.state == PodState::kBound) {
    auto node = node_index.find(rec.node);
    if (node != node_index.end()) node_info[node->second].AddPod(pod, RequestsOf(pod), -1);
  }
  active.erase(index);
  unschedulable.erase(index);
  parked.erase(index);
  rec.state = phase;
  rec.reason = std::move(reason);
  rec.pod.status.phase = phase == PodState::kSucceeded ? "Succeeded" : "Failed";

  // The resource-claim controller: prune reservedFor, deallocate what the
  // scheduler allocated and nobody uses, delete the pod's generated claims.
  std::vector<std::string> keys;
  for (const api::PodResourceClaim& entry : pod.spec.resource_claims) {
    std::string name;
    if (entry.resource_claim_name) {
      name = *entry.resource_claim_name;
    } else {
      for (const api::PodResourceClaimStatus& s : pod.status.resource_claim_statuses) {
        if (s.name == entry.name && s.resource_claim_name) name = *s.resource_claim_name;
      }
    }
    if (!name.empty()) keys.push_back(Key(pod.metadata.namespace_, name));
  }
  if (pod.status.extended_resource_claim_status) {
    keys.push_back(Key(pod.metadata.namespace_,
                       pod.status.extended_resource_claim_status->resource_claim_name));
  }
  for (const std::string& key : keys) {
    auto it = claims.find(key);
    if (it == claims.end()) continue;
    api::ResourceClaim& claim = it->second;
    auto& rf = claim.status.reserved_for;
    std::size_t before = rf.size();
    rf.erase(std::remove_if(rf.begin(), rf.end(),
                            [&](const api::ResourceClaimConsumerReference& r) {
                              return r.resource == "pods" && r.uid == pod.metadata.uid;
                            }),
             rf.end());
    bool ours = std::find(claim.metadata.finalizers.begin(), claim.metadata.finalizers.end(),
                          kDeleteProtectionFinalizer) != claim.metadata.finalizers.end();
    if (rf.empty() && before > 0 && ours) Deallocate(claim);
    if (rf.empty() && OwnedByPod(claim, pod)) {
      if (claim.status.allocation) Deallocate(claim);
      claims.erase(it);
    }
  }
  RequeueUnschedulable();
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
  if (claim.metadata.uid.empty()) claim.metadata.uid = NewUid(impl_->rng);
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

std::vector<std::string> Scheduler::EvictTaintedPods(std::int64_t now) {
  Impl& s = *impl_;
  // The NoExecute taints of an allocated device: the slice's own and those
  // of the DeviceTaintRules selecting it.
  std::vector<const api::DeviceTaint*> taints;
  auto collect = [&](const api::DeviceRequestAllocationResult& r) {
    taints.clear();
    auto own = s.no_execute_taints.find(r.driver + "/" + r.pool + "/" + r.device);
    if (own != s.no_execute_taints.end()) {
      for (const api::DeviceTaint& t : own->second) taints.push_back(&t);
    }
    for (const api::DeviceTaintRule& rule : s.cluster.taint_rules) {
      if (rule.spec.taint.effect != "NoExecute") continue;
      if (rule.spec.device_selector) {
        const api::DeviceTaintSelector& sel = *rule.spec.device_selector;
        if ((sel.driver && *sel.driver != r.driver) || (sel.pool && *sel.pool != r.pool) ||
            (sel.device && *sel.device != r.device)) {
          continue;
        }
      }
      taints.push_back(&rule.spec.taint);
    }
  };
  std::vector<std::string> evicted;
  for (std::size_t index = 0; index < s.pods.size(); ++index) {
    PodRecord& rec = s.pods[index];
    if (rec.state != PodState::kBound || rec.deleted) continue;
    bool evict = false;
    for (const std::string& key : rec.claims) {
      auto it = s.claims.find(key);
      if (it == s.claims.end() || !it->second.status.allocation) continue;
      for (const api::DeviceRequestAllocationResult& r :
           it->second.status.allocation->devices.results) {
        collect(r);
        for (const api::DeviceTaint* taint : taints) {
          // Tolerated without tolerationSeconds: never evicted; with them:
          // after the smallest; not tolerated: at once.
          bool forever = false;
          std::optional<std::int64_t> seconds;
          for (const api::DeviceToleration& tol : r.tolerations) {
            if (!Tolerates(tol, *taint)) continue;
            if (!tol.toleration_seconds) {
              forever = true;
              break;
            }
            std::int64_t sec = std::max<std::int64_t>(0, *tol.toleration_seconds);
            seconds = seconds ? std::min(*seconds, sec) : sec;
          }
          if (forever) continue;
          std::int64_t added = taint->time_added.set ? taint->time_added.seconds : now;
          if (added + seconds.value_or(0) <= now) evict = true;
        }
      }
    }
    if (!evict) continue;
    evicted.push_back(Key(rec.pod.metadata));
    s.Release(index, PodState::kFailed, "DeletionByDeviceTaintManager");
  }
  return evicted;
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

Result<PodVerdict> Scheduler::ExplainPod(const std::string& namespace_, const std::string& name) {
  Impl& s = *impl_;
  auto it = s.pod_index.find(Key(namespace_, name));
  if (it == s.pod_index.end()) return Error{"pods \"" + name + "\" not found"};
  const std::size_t index = it->second;
  PodRecord& rec = s.pods[index];
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
  return v;
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

const std::vector<api::Node>& Scheduler::nodes() const { return impl_->cluster.nodes; }
const Cluster& Scheduler::cluster() const { return impl_->cluster; }
const SchedulerStats& Scheduler::stats() const { return impl_->stats; }
const allocator::Allocator& Scheduler::allocator() const { return *impl_->alloc; }

}  // namespace dra::scheduler
