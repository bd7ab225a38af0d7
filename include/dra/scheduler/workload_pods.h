// The pods that Kubernetes' workload controllers create for the workload
// objects of a manifest (Deployment, ReplicaSet, StatefulSet and DaemonSet
// of apps/v1, Job of batch/v1), so that `dra simulate` schedules what a
// cluster would run: a tutorial's Deployment asks for its claims through its
// pod template, not through Pods of its own.
#pragma once

#include <string>
#include <vector>

#include "dra/api/core.h"
#include "dra/api/manifest.h"
#include "dra/util/result.h"

namespace dra::scheduler {

// The pods each workload's controller creates at once, in input order:
// - Deployment, ReplicaSet and StatefulSet: spec.replicas pods (default 1);
// - Job: spec.parallelism pods (default 1), at most spec.completions, none
//   while spec.suspend is true;
// - DaemonSet: one pod for each node of `nodes` whose labels match the
//   template's nodeSelector and required node affinity and whose NoSchedule
//   and NoExecute taints the template tolerates (with the tolerations the
//   DaemonSet controller adds), bound to that node by a required node
//   affinity on metadata.name, as the controller writes it.
// Pods are named `<workload>-<ordinal>` (StatefulSet's own rule; the other
// controllers add random suffixes, which a simulation cannot reproduce) and
// `<daemonset>-<node>`, a workload with only a generateName by its prefix
// without the trailing '-'; they get the template's labels and annotations and
// the workload's namespace (else `default_namespace`). Other kinds are
// skipped. Fails, naming the document, on a workload without a pod template
// or with a replica count that is not a non-negative integer.
Result<std::vector<api::Pod>> PodsOfWorkloads(const std::vector<api::UnmodeledDocument>& documents,
                                              const std::vector<api::Node>& nodes,
                                              const std::string& default_namespace);

}  // namespace dra::scheduler
