// The filters kube-scheduler runs before DynamicResources, reduced to what a
// simulation needs: NodeName, NodeUnschedulable, TaintToleration,
// NodeAffinity (nodeSelector and required node affinity on labels and
// metadata.name) and NodeResourcesFit (cpu, memory, pods and other resources
// against allocatable), plus NodeResourcesFit's LeastAllocated and
// NodeResourcesBalancedAllocation scores. Not modelled: NodePorts, volumes,
// PodTopologySpread and InterPodAffinity (docs/COMPATIBILITY.md).
#pragma once

#include <cstdint>
#include <map>
#include <set>
#include <string>
#include <vector>

#include "dra/api/core.h"
#include "dra/scheduler/scheduler.h"
#include "scheduler/small_map.h"

namespace dra::scheduler {

// What the filters read of a node, made from a Node or the scheduler's
// NodeRecord of one; a view, valid while that is.
struct NodeView {
  // Implicit: either passes where a view is asked for.
  NodeView(const api::Node& node)
      : name(node.metadata.name),
        labels(node.metadata.labels),
        taints(node.spec.taints),
        unschedulable(node.spec.unschedulable) {}
  NodeView(const NodeRecord& node)
      : name(node.name),
        labels(node.labels),
        taints(node.taints),
        unschedulable(node.unschedulable) {}
  const std::string& name;
  const api::StringMap& labels;
  const api::List<api::Taint>& taints;
  bool unschedulable;
};

// A pod's effective requests: the sum over containers, raised to the largest
// init container (milli-units for cpu, plain units for everything else).
struct PodRequests {
  std::int64_t milli_cpu = 0;
  std::int64_t memory = 0;
  std::map<std::string, std::int64_t> scalar;  // other resources (extended, hugepages, ...)
  // Scoring uses upstream's non-zero defaults for containers without requests.
  std::int64_t non_zero_milli_cpu = 0;
  std::int64_t non_zero_memory = 0;
};

PodRequests RequestsOf(const api::Pod& pod);

struct NodeUsage {
  std::int64_t milli_cpu = 0;
  std::int64_t memory = 0;
  std::int64_t pods = 0;
  SmallMap<std::string, std::int64_t> scalar;
  std::int64_t non_zero_milli_cpu = 0;
  std::int64_t non_zero_memory = 0;

  void Add(const PodRequests& r, int sign);
};

struct NodeCapacity {
  std::int64_t milli_cpu = 0;
  std::int64_t memory = 0;
  std::int64_t pods = 0;
  SmallMap<std::string, std::int64_t> scalar;
  // Node.status.allocatable was given at all; without it the node is
  // treated as unbounded for cpu, memory and pods (a bare Node object).
  bool known = false;
};

NodeCapacity CapacityOf(const api::Node& node);

// Upstream's per-node rejection messages (the Filter plugins of
// pkg/scheduler/framework/plugins at the pinned release).
inline constexpr const char* kReasonNodeName = "node(s) didn't match the requested node name";
inline constexpr const char* kReasonAffinity = "node(s) didn't match Pod's node affinity/selector";
inline constexpr const char* kReasonUnschedulable = "node(s) were unschedulable";
inline constexpr const char* kReasonTaints = "node(s) had untolerated taint(s)";
inline constexpr const char* kReasonTooManyPods = "Too many pods";

bool MatchesNodeSelector(const api::NodeSelector& selector, NodeView node);

// core/v1 Toleration.ToleratesTaint: empty effect matches every effect, empty
// key with Exists every key, Equal (or empty) compares values; Gt and Lt
// (TaintTolerationComparisonOperators, alpha and off in 1.37) never match.
bool ToleratesTaint(const api::Toleration& toleration, const api::Taint& taint);

// The first NoSchedule/NoExecute taint of `node` that no toleration
// tolerates, or nullptr.
const api::Taint* UntoleratedTaint(NodeView node, const api::List<api::Toleration>& tolerations);

// A node's verdict from the filters before DynamicResources.
struct NodeFilterStatus {
  // Empty when the node passes; else the failing plugin's reasons (several
  // only for NodeResourcesFit, which names every insufficient resource).
  std::vector<std::string> reasons;
  // UnschedulableAndUnresolvable: preemption cannot help on this node. Every
  // plugin here says so except NodeResourcesFit, where only a request larger
  // than the node's allocatable is unresolvable.
  bool unresolvable = false;
  bool ok() const { return reasons.empty(); }
};

// Runs NodeName, NodeUnschedulable, TaintToleration, NodeAffinity and
// NodeResourcesFit in kube-scheduler's default order, stopping at the first
// that rejects the node. Resources in `dra_resources` (extended resources a
// DeviceClass maps) are left to DRA on nodes without allocatable for them, as
// NodeResourcesFit does.
NodeFilterStatus FilterNode(const api::Pod& pod, const PodRequests& requests, NodeView node,
                            const NodeCapacity& capacity, const NodeUsage& usage,
                            const std::set<std::string>& dra_resources);

// LeastAllocated (cpu and memory, equal weights) and BalancedAllocation
// scores in [0, 100] for the node with the pod added.
std::int64_t LeastAllocatedScore(const PodRequests& requests, const NodeCapacity& capacity,
                                 const NodeUsage& usage);
std::int64_t BalancedAllocationScore(const PodRequests& requests, const NodeCapacity& capacity,
                                     const NodeUsage& usage);

// framework.FitError's text: "0/N nodes are available: ", the reasons with
// their node counts sorted as strings and joined by ", ", then ".".
std::string NodesAvailableMessage(std::size_t nodes, const std::map<std::string, int>& histogram);

}  // namespace dra::scheduler
