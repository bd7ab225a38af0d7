// A live cluster's DRA-relevant state, listed through the Kubernetes API with
// kubectl's connection flags: what `dra explain` schedules against and what
// `dra snapshot` writes. Never Secrets or ConfigMaps.
#pragma once

#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "dra/api/core.h"
#include "dra/kube/api_error.h"
#include "dra/kube/kubeconfig.h"
#include "dra/kube/resource_client.h"
#include "dra/scheduler/cluster.h"
#include "dra/util/result.h"

namespace dra::cli {

// A client for reading a live cluster once, configured as kubectl is
// (kubeconfig, context, -n, ...), with kubectl's own client limits (qps 50,
// burst 300: several lists side by side, unlike the 5/10 meant for
// controllers). Copies of `client` share one connection.
struct LiveReader {
  kube::TypedClient client;
  std::string namespace_;  // the context's namespace, or -n
  std::string server;
};

// The error is printable as is, in kubectl's words.
Result<LiveReader> ConnectLiveReader(const kube::ConfigFlags& flags);

// Gathers the outcomes of lists run side by side: a list that succeeded is
// moved into place; failures are kept once each, in kubectl's words. A kind
// the server does not serve (404) is an empty list when `optional_kind`
// (DeviceTaintRules: not in v1beta1, nor on every cluster).
class ListOutcomes {
 public:
  template <class T>
  void Take(kube::ApiResult<std::vector<T>> result, std::vector<T>& into, bool optional_kind) {
    if (result.ok()) {
      into = std::move(result).value();
    } else if (!(optional_kind && result.error().IsNotFound())) {
      Add(result.failure());
    }
  }
  bool ok() const { return !failure_; }
  // REQUIRES: !ok(). The failures, one per line; the first one's code.
  const Error& failure() const { return *failure_; }

 private:
  void Add(const Error& error);
  std::optional<Error> failure_;
};

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
