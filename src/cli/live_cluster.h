// A live cluster's DRA-relevant state, listed through the Kubernetes API with
// kubectl's connection flags: what `dra explain` schedules against and what
// `dra snapshot` writes. Never Secrets or ConfigMaps.
#pragma once

#include <string>
#include <vector>

#include "dra/api/core.h"
#include "dra/kube/kubeconfig.h"
#include "dra/scheduler/cluster.h"
#include "dra/util/result.h"

namespace dra::cli {

struct LiveCluster {
  // Nodes, Pods, ResourceClaims, ResourceClaimTemplates, DeviceClasses,
  // ResourceSlices and DeviceTaintRules of every namespace, decoded into
  // dra's v1 model (fields dra does not model are dropped).
  scheduler::Cluster cluster;
  std::vector<api::Namespace> namespaces;
  // The namespace of the kubeconfig context (or -n), for names given
  // without one.
  std::string namespace_;
  std::string server;
};

// Lists every kind side by side (one HTTP/2 connection; pages of 500 as
// kubectl does). DeviceTaintRules are optional: a server that does not
// serve them has none. The error is printable as is, in kubectl's words
// ("error: ...", "Error from server (Forbidden): ...").
Result<LiveCluster> LoadLiveCluster(const kube::ConfigFlags& flags);

}  // namespace dra::cli
