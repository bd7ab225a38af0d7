// The DRA workloads of Kubernetes' scheduler_perf
// (k8s.io/kubernetes/test/integration/scheduler_perf/dra/performance-config.yaml
// and its sub-directories) as manifests, at any scale: the same node template,
// device inventory, classes and claim shapes, so our benchmark and
// `dra simulate` run what upstream measures. Upstream's pre-allocated init
// claims are written as init pods scheduled first; steady-state workloads list
// the pods that stay pending.
#pragma once

#include <string>
#include <vector>

#include "dra/util/result.h"

namespace dra::scheduler {

struct WorkloadInfo {
  std::string name;
  std::string upstream;  // the scheduler_perf test it reproduces
  std::string description;
  int default_nodes = 0;
  int default_pods = 0;  // measured pods
  bool steady_state = false;
};

const std::vector<WorkloadInfo>& Workloads();

struct WorkloadManifests {
  // Nodes, DeviceClasses, ResourceSlices, DeviceTaintRules, templates and
  // shared claims, then the init pods (pre-filling the cluster).
  std::string cluster;
  // The measured pods (steady-state workloads: the pods kept pending).
  std::string pods;
  int init_pods = 0;
  int measured_pods = 0;
};

// `nodes` or `pods` <= 0 take the workload's defaults. Unknown names fail
// with the list of known ones.
Result<WorkloadManifests> MakeWorkload(const std::string& name, int nodes, int pods);

// One measured pod of the workload, named `name` (for steady-state runs that
// replace each scheduled pod with a new one).
std::string WorkloadPod(const std::string& workload, const std::string& name, int index);

}  // namespace dra::scheduler
