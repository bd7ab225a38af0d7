// The filters kube-scheduler runs before DynamicResources, reduced to what a
// simulation needs: NodeUnschedulable, NodeName, NodeAffinity (nodeSelector
// and required node affinity on labels and metadata.name) and
// NodeResourcesFit (cpu, memory, pods and other resources against
// allocatable), plus NodeResourcesFit's LeastAllocated and
// NodeResourcesBalancedAllocation scores.
#pragma once

#include <cstdint>
#include <map>
#include <set>
#include <string>

#include "dra/api/core.h"

namespace dra::scheduler {

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
  std::map<std::string, std::int64_t> scalar;
  std::int64_t non_zero_milli_cpu = 0;
  std::int64_t non_zero_memory = 0;

  void Add(const PodRequests& r, int sign);
};

struct NodeCapacity {
  std::int64_t milli_cpu = 0;
  std::int64_t memory = 0;
  std::int64_t pods = 0;
  std::map<std::string, std::int64_t> scalar;
  // Node.status.allocatable was given at all; without it the node is
  // treated as unbounded for cpu, memory and pods (a bare Node object).
  bool known = false;
};

NodeCapacity CapacityOf(const api::Node& node);

// Upstream's per-node rejection messages.
inline constexpr const char* kReasonNodeName = "node(s) didn't match the requested node name";
inline constexpr const char* kReasonAffinity = "node(s) didn't match Pod's node affinity/selector";
inline constexpr const char* kReasonUnschedulable = "node(s) were unschedulable";
inline constexpr const char* kReasonTooManyPods = "Too many pods";

bool MatchesNodeSelector(const api::NodeSelector& selector, const api::Node& node);

// The first reason the node does not fit the pod, or "" when it fits.
// Resources in `dra_resources` (extended resources a DeviceClass maps) are
// left to DRA on nodes without allocatable for them, as NodeResourcesFit does.
std::string NodeFitFailure(const api::Pod& pod, const PodRequests& requests, const api::Node& node,
                           const NodeCapacity& capacity, const NodeUsage& usage,
                           const std::set<std::string>& dra_resources);

// LeastAllocated (cpu and memory, equal weights) and BalancedAllocation
// scores in [0, 100] for the node with the pod added.
std::int64_t LeastAllocatedScore(const PodRequests& requests, const NodeCapacity& capacity,
                                 const NodeUsage& usage);
std::int64_t BalancedAllocationScore(const PodRequests& requests, const NodeCapacity& capacity,
                                     const NodeUsage& usage);

}  // namespace dra::scheduler
