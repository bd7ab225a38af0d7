// Seeded random cluster workloads for the differential test against the real
// kube-scheduler (tests/cluster/explain_differential.sh): the shared
// scenario generator's devices, classes and claims (scenario_generator.h),
// turned into a cluster that kube-scheduler and `dra simulate` both
// schedule: Nodes with allocatable, taints and cordons, claims as templates,
// an extended resource served by DRA on some nodes and by a device plugin on
// others, and Pods that use them with tolerations, node selectors and
// requests too large for any node.
//
// Pods are shaped so that a Pending pod's FailedScheduling message cannot go
// stale while later pods bind (kube-scheduler does not retry a pod when
// others take resources): cpu and pod counts never run out, so a node's
// first failing filter for a Pending pod stays the same as the cluster fills.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "dra/api/codec.h"
#include "dra/util/result.h"

namespace dra::testing {

struct ClusterWorkloadParams {
  std::uint64_t seed = 1;
  int nodes = 6;
  int pods = 30;                 // at most 10 per node: cpu never runs out
  int templates = 4;             // ResourceClaimTemplates, from the generator's claims
  double p_node_taint = 0.3;     // a node is tainted dedicated=<team>:NoSchedule
  double p_cordoned = 0.1;       // a node has spec.unschedulable
  double p_device_plugin = 0.3;  // a node advertises example.com/gpu itself
  double p_toleration = 0.4;     // a pod tolerates a dedicated taint
  double p_node_selector = 0.2;  // a pod selects a zone
  double p_extended = 0.15;      // a pod asks for example.com/gpu in a container
  double p_too_big = 0.05;       // a pod asks for more cpu than any node has
  double p_claims = 0.6;         // a pod uses one or two template claims
};

struct ClusterWorkload {
  ClusterWorkloadParams params;
  // Nodes, DeviceClasses, ResourceSlices, DeviceTaintRules,
  // ResourceClaimTemplates, then the Pods in creation order.
  std::vector<api::Object> objects;
};

ClusterWorkload GenerateClusterWorkload(const ClusterWorkloadParams& params);

// Multi-document YAML in resource.k8s.io/v1 and core/v1, creatable with
// `kubectl create -f` in the default namespace.
Result<std::string> ClusterWorkloadYaml(const ClusterWorkload& workload);

}  // namespace dra::testing
