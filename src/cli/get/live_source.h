// The live-cluster source of `dra get`: lists the DRA objects through the
// Kubernetes API with kubectl's connection flags. Used when no -f is given.
#pragma once

#include <string>

#include "cli/get/cluster_objects.h"
#include "dra/util/result.h"

namespace dra::cli::get {

struct LiveSourceOptions {
  std::string kubeconfig, context, cluster, user, namespace_, server, token, request_timeout;
  bool all_namespaces = false;
  // --node: that Node is read too, for node selectors over its labels
  // (empty: no Node is read).
  std::string with_node;
};

// Lists ResourceSlices, ResourceClaims (of all namespaces with
// all_namespaces; else of namespace_, or of the context's namespace when
// namespace_ is empty), DeviceClasses and DeviceTaintRules (Pods and Nodes
// optionally). The error is printable as is ("error: ...").
Result<ClusterObjects> LoadLiveObjects(const LiveSourceOptions& options);

}  // namespace dra::cli::get
