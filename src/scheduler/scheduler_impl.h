// The state of a Scheduler and its scheduling cycle, shared by the files that
// implement one phase each:
//   scheduler.cc           the public API, the queues, pods entering the cluster
//   claim_controller.cc    the resource-claim controller's part: template
//                          claims, deallocation and reservedFor pruning
//   extended_resources.cc  DRAExtendedResource: container requests served by DRA
//   scheduling_cycle.cc    one attempt: PreEnqueue/PreFilter, then the phases below
//   filter.cc              Filter on every node, in parallel, with the memo
//   score.cc               Score and the choice between feasible nodes
//   post_filter.cc         the FailedScheduling message, PostFilter's deallocation
//   bind.cc                Reserve, PreBind (binding conditions) and Bind
//   eviction.cc            the device taint eviction controller
//   explain_pod.cc         ExplainPod's dry runs
// Private to src/scheduler/. Not thread-safe: everything here runs on the
// thread calling Scheduler's members, except FilterNode's body, which the
// worker pool runs for distinct nodes at once (see filter.cc).
#pragma once

#include <chrono>
#include <cstddef>
#include <cstdint>
#include <map>
#include <memory>
#include <optional>
#include <set>
#include <string>
#include <unordered_map>
#include <utility>
#include <vector>

#include "dra/scheduler/scheduler.h"
#include "dra/util/mutex.h"
#include "dra/util/random.h"
#include "scheduler/claim_names.h"
#include "scheduler/filter_memo.h"
#include "scheduler/node_fit.h"
#include "scheduler/worker_pool.h"

namespace dra::scheduler {

inline constexpr const char* kDeleteProtectionFinalizer =
    "resource.kubernetes.io/delete-protection";
inline constexpr const char* kPodClaimNameAnnotation = "resource.kubernetes.io/pod-claim-name";
inline constexpr const char* kExtendedResourceClaimAnnotation =
    "resource.kubernetes.io/extended-resource-claim";
// ResourceClaimReservedForMaxSize of resource.k8s.io/v1.
inline constexpr std::size_t kMaxReservedFor = 256;

// DynamicResources' per-node Filter reasons.
inline constexpr const char* kCannotAllocate = "cannot allocate all claims";
inline constexpr const char* kNotAvailable = "resourceclaim not available on the node";

inline std::string Key(const std::string& ns, const std::string& name) { return ns + "/" + name; }
inline std::string Key(const api::ObjectMeta& m) { return Key(m.namespace_, m.name); }

std::uint64_t NanosSince(std::chrono::steady_clock::time_point start);
// The owner reference with controller: true, or nullptr.
const api::OwnerReference* ControllerOf(const api::ObjectMeta& meta);
// Whether the pod (by UID) is the claim's controlling owner.
bool OwnedByPod(const api::ResourceClaim& claim, const api::Pod& pod);
bool HasBindingConditions(const api::AllocationResult& a);
bool ReservedFor(const api::ResourceClaim& claim, const std::string& pod_uid);
// A pod owner reference of the kind the resource-claim controller writes on
// the claims it creates for the pod.
api::OwnerReference PodOwnerReference(const api::Pod& pod);

// The per-node outcome of one Filter run.
struct NodeResult {
  bool feasible = false;
  bool dra_failed = false;  // the allocator found no solution on this node
  // Why the node was rejected (kube-scheduler's reasons; several only from
  // NodeResourcesFit) and whether preemption could not help there.
  std::vector<std::string> reasons;
  bool unresolvable = false;
  // A framework error: aborts the pod's attempt. Held apart, as the
  // explanation below: a result per node is kept for every node.
  std::unique_ptr<Error> error;
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
  std::unique_ptr<allocator::Explanation> explanation;

  // DynamicResources rejects with UnschedulableAndUnresolvable only.
  void Reject(std::string reason) {
    reasons.push_back(std::move(reason));
    unresolvable = true;
  }
};

struct Scheduler::Impl {
  struct NodeInfo {
    NodeCapacity capacity;
    NodeUsage usage;
    // Priorities of the pods bound here, with their counts (preemption).
    SmallMap<std::int32_t, int> priorities;

    std::int32_t LowestPriority() const;
    void AddPod(const api::Pod& pod, const PodRequests& requests, int sign);
  };

  // One pod's claims as resolved for an attempt.
  struct ResolvedClaim {
    std::string key;
    api::ResourceClaim* claim;
  };

  // One container's request for an extended resource a DeviceClass maps.
  struct ExtendedDemand {
    std::string container;
    std::string resource;
    std::string class_name;
    std::string request;  // container-<i>-request-<j>
    std::int64_t count = 0;
  };

  // What one scheduling attempt works on, built by PreFilter and read by the
  // later phases. Pointers into `claims` stay valid for the attempt.
  struct Cycle {
    std::vector<ResolvedClaim> resolved;
    std::vector<std::size_t> to_allocate;  // indices into resolved: claims to allocate
    // Allocated claims with a node selector: indices into resolved.
    std::vector<std::pair<std::size_t, const api::NodeSelector*>> pinned;
    std::vector<api::ResourceClaim> alloc_claims;  // copies of the claims to allocate
    PodRequests requests;
    std::vector<ExtendedDemand> demands;
    // On nodes that serve none of `demands` by allocatable, DRA serves them
    // all with this claim, allocated after alloc_claims (all_dra_claims).
    std::shared_ptr<const api::ResourceClaim> all_dra_extended;
    std::vector<api::ResourceClaim> all_dra_claims;
  };

  // Where Filter started and how far it got.
  struct FilterPass {
    std::size_t start = 0;      // first node position (rotating)
    std::size_t evaluated = 0;  // positions [0, evaluated) were filtered
    std::size_t to_find = 0;    // feasible nodes wanted
  };

  // ---- State -----------------------------------------------------------------
  SchedulerOptions options;
  // Classes, templates, rules and warnings; its nodes, slices, pods and
  // claims are moved out (into `nodes`, the allocator's index and the
  // records below).
  Cluster cluster;
  // Node i is nodes[i], with NodeResourcesFit's view of it in node_info[i].
  std::vector<NodeRecord> nodes;
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
  util::SplitMix64 rng;  // claim-name suffixes, UIDs, tie-breaks: reproducible from options.seed
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
  // With ExplainOptions::distance: the closest explanations so far, at most
  // `keep`, ordered by (distance, node); the worker threads offer theirs
  // under closest_mu, and FilterNodes hands the survivors to their nodes.
  struct CloseExplanation {
    std::uint64_t distance;
    std::size_t node;
    allocator::Explanation explanation;
  };
  const ExplainOptions* pod_explain_options = nullptr;
  Mutex closest_mu;
  std::vector<CloseExplanation> closest DRA_GUARDED_BY(closest_mu);
  // Keeps `why` (node's explanation) when it is among the closest so far.
  void OfferExplanation(std::size_t node, allocator::Explanation why) DRA_EXCLUDES(closest_mu);

  Impl(Cluster c, SchedulerOptions o);

  // ---- Pods entering (scheduler.cc) ------------------------------------------
  // Appends `node` (its fields moved out) as the next of `nodes`, with its
  // node_info and node_index entry.
  void TakeNode(api::Node& node);
  // The constructor's last steps: the cluster's claims and held allocations
  // move in, then its pods and settled pods (Cluster says what each is).
  void TakeClaims();
  void TakePods();
  // A new pod: its record is appended, and it enters.
  void AddPodRecord(api::Pod pod);
  // The pod of pods[index] enters the cluster: it gets a uid if it has none,
  // is indexed, and is queued, bound (AddBoundPod) or finished by its state.
  void EnterPod(std::size_t index);
  void AddBoundPod(std::size_t index);
  void RequeueUnschedulable();
  void MarkPending(std::size_t index, std::string reason);

  // ---- Resource-claim controller (claim_controller.cc) ----------------------
  bool CreateTemplateClaims(PodRecord& rec, std::string& reason);
  std::string CreateClaimFromTemplate(const api::Pod& pod, const std::string& entry,
                                      const api::ResourceClaimTemplate& tmpl);
  void Deallocate(api::ResourceClaim& claim);
  void ReleaseClaims(const api::Pod& pod);
  void Release(std::size_t index, PodState phase, std::string reason);

  // ---- Extended resources (extended_resources.cc) ---------------------------
  void MapExtendedResources();
  std::vector<ExtendedDemand> ExtendedDemands(const api::Pod& pod) const;
  static bool ServesNone(const std::vector<ExtendedDemand>& demands, const NodeCapacity& capacity);
  std::optional<api::ResourceClaim> ExtendedClaimFor(const api::Pod& pod,
                                                     const std::vector<ExtendedDemand>& demands,
                                                     const NodeCapacity& capacity) const;
  // Reserve's first step for a node that needs an extended-resource claim:
  // the claim becomes a real object owned by the pod and joins the cycle.
  void CreateExtendedClaim(PodRecord& rec, Cycle& cycle, const NodeResult& result);

  // ---- One attempt (scheduling_cycle.cc) -------------------------------------
  void Attempt(std::size_t index);
  bool ResolveClaims(const PodRecord& rec, std::vector<ResolvedClaim>& out, std::string& reason);
  // PreFilter's checks of a claim to allocate.
  Status CheckClaimToAllocate(const ResolvedClaim& rc);
  // PreFilter: fills the cycle; the rejection message when it rejects the pod.
  std::optional<std::string> PreFilter(const PodRecord& rec, Cycle& cycle);

  // ---- Filter (filter.cc) ------------------------------------------------------
  struct FilterShared;  // one attempt's Filter inputs and counters, shared by the workers
  FilterPass FilterNodes(const PodRecord& rec, const Cycle& cycle);
  // Filter on one node: fills node_results[node]. Runs on a worker thread;
  // touches only that node's slots of node_results, memo and visible_pools.
  void FilterOneNode(const PodRecord& rec, const Cycle& cycle, FilterShared& shared,
                     std::size_t node);
  // DynamicResources' Filter on one node for `claims_here` (the pod's claims
  // to allocate, with the node's extended-resource claim when it needs one);
  // false when it rejected the node.
  bool FilterClaims(const Cycle& cycle, FilterShared& shared, std::size_t node,
                    const std::vector<api::ResourceClaim>& claims_here, bool node_specific);
  // The first pass.to_find feasible nodes in filter order, or the framework
  // error that aborts the attempt.
  Result<std::vector<std::size_t>> FeasibleNodes(const FilterPass& pass);

  // ---- Score (score.cc) ----------------------------------------------------------
  std::size_t NumFeasibleNodesToFind(std::size_t n) const;
  static std::int64_t PrioritizedListScore(const api::ResourceClaim& claim,
                                           const api::AllocationResult& allocation);
  std::size_t ChooseNode(const Cycle& cycle, const std::vector<std::size_t>& feasible);

  // ---- PostFilter and messages (post_filter.cc) ------------------------------
  std::string FitError(std::size_t index, const FilterPass& pass, const Cycle& cycle,
                       bool& requeue);
  std::string PreemptionMessage(const api::Pod& pod, const std::vector<std::size_t>& order,
                                std::size_t evaluated) const;
  std::string PreFilterMessage(const std::string& problem) const;

  // ---- Reserve, PreBind, Bind (bind.cc) ----------------------------------------
  void Bind(std::size_t index, std::size_t node, Cycle& cycle, NodeResult& result);
  // PreBind's wait for binding conditions; false when the pod timed out and
  // was parked.
  bool AwaitBindingConditions(std::size_t index, Cycle& cycle);

  // ---- ExplainPod (explain_pod.cc) ---------------------------------------------
  void RecordSchedulable(std::size_t chosen, const Cycle& cycle, const NodeResult& winner);
  void RecheckBoundPod(std::size_t index, PodVerdict& v);
};

}  // namespace dra::scheduler
