// A kube-scheduler over an in-memory cluster with the DynamicResources
// plugin's semantics (dynamicresources in
// k8s.io/kubernetes/pkg/scheduler/framework/plugins), plus the parts of the
// resource-claim controller (k8s.io/kubernetes/pkg/controller/resourceclaim)
// it depends on: claims generated from templates, reservedFor pruning and
// deallocation when pods finish.
//
// One Allocator indexes the cluster's slices, classes and taint rules once;
// one AllocatedState holds every device in use (committed allocations and
// in-flight ones) and is updated as claims are reserved and released, so no
// two pods ever receive the same device.
#pragma once

#include <atomic>
#include <cstdint>
#include <functional>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "dra/allocator/allocator.h"
#include "dra/allocator/explanation.h"
#include "dra/scheduler/cluster.h"

namespace dra::scheduler {

struct SchedulerOptions {
  allocator::Features features;
  // Worker threads for the per-node Filter; 0 = std::thread::hardware_concurrency.
  int parallelism = 0;
  // Seeds claim-name suffixes, UIDs and the random tie-break between nodes
  // with equal scores (upstream picks uniformly at random among them).
  std::uint64_t seed = 1;
  // upstream's percentageOfNodesToScore; 0 = its adaptive default
  // (max(5, 50 - nodes/125) percent, at least 100 nodes).
  int percentage_of_nodes_to_score = 0;
  // Compute the allocator's explanation for pods left Pending by DRA.
  bool explain = true;
  std::uint64_t max_steps = allocator::AllocateOptions{}.max_steps;
  // Whether drivers eventually report every binding condition as met. When
  // false, a pod whose devices have binding conditions runs into the binding
  // timeout: it is unreserved, its claims are deallocated and it stays Pending.
  bool binding_conditions_met = true;
  // DRAExtendedResource: container requests for an extended resource that a
  // DeviceClass maps (spec.extendedResourceName, or the implicit
  // deviceclass.resource.kubernetes.io/<class>) are served by DRA on nodes
  // without allocatable for it, through a claim the scheduler creates.
  bool extended_resources = true;
  // Current time (seconds since the epoch): allocationTimestamp, taint eviction.
  std::int64_t now = 0;
  // Reuse the allocator's verdict for equal claim specs on a node whose pools
  // did not change since (see src/scheduler/filter_memo.h). Off only to check
  // that it changes no outcome.
  bool filter_memo = true;
  // The allocator's Snapshot::keep_node_pools.
  bool keep_node_pools = true;
};

enum class PodState : std::uint8_t {
  kPending,    // not bound; `reason` says why
  kBound,      // bound to `node`
  kSucceeded,  // finished (claims released)
  kFailed,     // finished unsuccessfully, e.g. evicted (claims released)
};

const char* PodStateName(PodState state);  // "Pending", "Bound", "Succeeded", "Failed"

// What the scheduler keeps of a Node: what its Filter plugins (NodeName,
// NodeUnschedulable, TaintToleration, NodeAffinity) and the allocator (node
// selectors, nodeName) read. NodeResourcesFit's numbers are kept apart. 120
// bytes where an api::Node is 704, most of it an ObjectMeta nothing here
// reads: over 5,000 nodes, 2.9 MB less.
struct NodeRecord {
  std::string name;
  api::StringMap labels;
  api::List<api::Taint> taints;  // spec.taints
  bool unschedulable = false;    // spec.unschedulable

  // The allocator's view of the node; valid while the record is.
  allocator::NodeRef ref() const { return {name, labels}; }
};

// What happened to one pod. Indices follow the scheduling order (creation
// time, then input order).
struct PodRecord {
  api::Pod pod;
  PodState state = PodState::kPending;
  std::string node;    // set once bound
  std::string reason;  // Pending: upstream-shaped message; Failed: why
  // The allocator's explanation from one node that failed allocation, when
  // DRA kept the pod Pending and SchedulerOptions::explain is set.
  std::optional<allocator::Explanation> explanation;
  int attempts = 0;
  // Claims in use once bound ("namespace/name"), in pod.spec.resourceClaims order.
  std::vector<std::string> claims;
  // Set when the bound pod's devices carry binding conditions.
  bool waited_for_binding_conditions = false;
  // Deleted with DeletePod: kept for reporting, its name free for reuse.
  bool deleted = false;
};

// ExplainPod's answer: what kube-scheduler decides for one pod in the
// current state, node by node.
enum class Verdict : std::uint8_t {
  kScheduled,      // bound already
  kSchedulable,    // Pending, and a node fits it now
  kUnschedulable,  // Pending, and no node fits it
};

const char* VerdictName(Verdict verdict);  // "Scheduled", "Schedulable", "Unschedulable"

// How much of its work ExplainPod keeps.
struct ExplainOptions {
  // Unset: every node DRA rejected keeps the allocator's explanation. Set:
  // only the `keep` nodes that came closest do, those with the lowest
  // distance (ties in cluster order); the others' explanations are dropped
  // as soon as they are made, so that a verdict over thousands of nodes
  // holds a few (the nodes' reasons still say that DRA rejected them).
  // Called from the scheduler's worker threads, several at once.
  std::function<std::uint64_t(const allocator::Explanation&)> distance;
  std::size_t keep = 1;
  // False: PodVerdict::nodes lists only the nodes that kept an explanation,
  // for a caller that reads nothing else of them.
  bool every_node = true;
  // Set (by any thread, while ExplainPod runs or before): the nodes not yet
  // tried are skipped, and ExplainPod fails with "explanation cancelled",
  // the pod put back as after any ExplainPod. Lets a caller that needs the
  // memory or the time back end a pass over thousands of nodes within one
  // node's work. Borrowed for the call.
  const std::atomic<bool>* cancel = nullptr;
};

struct NodeVerdict {
  std::string node;
  bool feasible = false;
  // kube-scheduler's reasons for rejecting the node, as its FailedScheduling
  // message counts them ("Insufficient cpu", "cannot allocate all claims").
  std::vector<std::string> reasons;
  bool unresolvable = false;  // UnschedulableAndUnresolvable: preemption cannot help
  // Where DynamicResources rejected the node: the allocator's explanation.
  std::optional<allocator::Explanation> explanation;
};

struct PodVerdict {
  std::string namespace_, name;
  Verdict verdict = Verdict::kUnschedulable;
  // Scheduled: the pod's node; Schedulable: the node kube-scheduler would
  // pick now (ties between equal scores are broken at random, as upstream).
  std::string node;
  // Unschedulable: the PodScheduled message kube-scheduler writes (or, for a
  // rejection before Filter, the PreEnqueue plugin's message).
  std::string message;
  // True when PreEnqueue or PreFilter rejected the pod: no node was evaluated.
  bool rejected_before_filter = false;
  // Every node in cluster order, when Filter ran. For a Scheduled pod, the
  // pod tried again in the state without it (its share of the node and the
  // allocations only it holds set aside): which nodes would fit it now, its
  // own among them or not. Only the explained ones without
  // ExplainOptions::every_node.
  std::vector<NodeVerdict> nodes;
  // Scheduled: each claim's allocation; Schedulable: what Reserve would
  // write. Keys are "namespace/name" (the extended-resource claim of a
  // Schedulable pod is "<extended resources>").
  std::vector<std::pair<std::string, api::AllocationResult>> allocations;
};

// Timing of the scheduling attempts so far (steady clock, nanoseconds).
struct SchedulerStats {
  std::uint64_t attempts = 0;
  std::uint64_t bound = 0;
  std::uint64_t allocate_calls = 0;
  std::uint64_t filter_memo_hits = 0;  // Filter verdicts reused instead of calls
  std::uint64_t nodes_filtered = 0;
  std::uint64_t schedule_ns = 0;  // total time inside scheduling attempts
  std::uint64_t filter_ns = 0;    // of which node filtering (node fit + DRA)
};

// Thread safety: none. A Scheduler is used from one thread at a time; its
// members must not run concurrently, const ones included (Filter's worker
// threads are internal and have stopped when a member returns).
// Lifetime of what it hands out:
//   - pods(), FindPod(): the vector and the records stay valid until the next
//     AddPod (which may grow the vector); a record's contents change with
//     Run, FinishPod, DeletePod, EvictTaintedPods and ExplainPod.
//   - Claims(), FindClaim(): the pointers stay valid until the claim is
//     deleted (a generated claim, when its pod finishes) or the Scheduler is
//     destroyed; the claims' status changes with every scheduling call.
//   - nodes(), cluster(), stats(), allocator(): valid for the Scheduler's
//     life (stats() changes as pods are scheduled).
class Scheduler {
 public:
  Scheduler(Cluster cluster, SchedulerOptions options);
  ~Scheduler();
  Scheduler(const Scheduler&) = delete;
  Scheduler& operator=(const Scheduler&) = delete;

  // Schedules pods from the active queue, in creation order, until it is
  // empty. Pods rejected wait for an event (a claim deallocated or created, a
  // pod finished) that moves them back. `progress`, when set, is called after
  // each attempt with (pods bound so far, pods in the cluster).
  void Run(const std::function<void(std::size_t, std::size_t)>& progress = {});

  // Adds a pod; it enters the active queue. Duplicate names are rejected.
  Status AddPod(api::Pod pod);
  // Adds a claim (e.g. a shared one); pods waiting for it are requeued.
  Status AddClaim(api::ResourceClaim claim);
  // The pod finished with `phase` (Succeeded or Failed): it leaves its node,
  // leaves reservedFor of its claims, claims nobody reserves any more are
  // deallocated (when the scheduler allocated them) and generated claims are
  // deleted, as the resource-claim controller does. Waiting pods are requeued.
  Status FinishPod(const std::string& namespace_, const std::string& name,
                   PodState phase = PodState::kSucceeded);
  // Deletes a pod (finishing it first when bound) and forgets it.
  Status DeletePod(const std::string& namespace_, const std::string& name);

  // What kube-scheduler would decide for the pod now, without binding it:
  // a bound pod is Scheduled (and tried again without itself, see
  // PodVerdict::nodes); a Pending one is tried on every node (no early stop
  // at percentageOfNodesToScore), each DRA rejection explained.
  // Nothing is bound, allocated or deallocated, but the pod's template
  // claims are created as the resource-claim controller would. Fails for an
  // unknown pod ("pods \"NAME\" not found") or one that has finished. Like
  // every other member it must not run concurrently with another call on
  // the same Scheduler; the verdict owns its data. `options` may keep only
  // the closest nodes' explanations, and may cancel the call.
  Result<PodVerdict> ExplainPod(const std::string& namespace_, const std::string& name,
                                const ExplainOptions& options = {});

  // The device taint eviction controller at time `now`: evicts (marks Failed,
  // reason DeletionByDeviceTaintManager) every bound pod using a device with
  // a NoExecute taint its allocation does not tolerate, or tolerates for
  // fewer seconds than have passed. Returns "namespace/name" of evicted pods.
  std::vector<std::string> EvictTaintedPods(std::int64_t now);

  const std::vector<PodRecord>& pods() const;
  const PodRecord* FindPod(const std::string& namespace_, const std::string& name) const;
  // Every claim that exists now (generated ones included), sorted by
  // namespace/name.
  std::vector<const api::ResourceClaim*> Claims() const;
  const api::ResourceClaim* FindClaim(const std::string& namespace_, const std::string& name) const;
  // The nodes (with those AddMissingNode added), in the order given.
  const std::vector<NodeRecord>& nodes() const;
  // Classes, templates, taint rules and warnings as loaded; nodes are kept
  // as nodes() and slices, pods and claims are not kept here.
  const Cluster& cluster() const;
  const SchedulerStats& stats() const;
  const allocator::Allocator& allocator() const;

 private:
  struct Impl;
  std::unique_ptr<Impl> impl_;
};

}  // namespace dra::scheduler
