// Where `dra serve` gets the cluster from: informers on a live cluster (kept
// current by list and watch), or manifests read once (-f, e.g. a directory
// written by `dra snapshot`).
#pragma once

#include <chrono>
#include <cstdint>
#include <memory>
#include <string>
#include <vector>

#include "cli/serve/kept_objects.h"
#include "dra/kube/informer.h"
#include "dra/kube/kubeconfig.h"
#include "dra/scheduler/cluster.h"
#include "dra/util/result.h"

namespace dra::cli::serve {

// What one informer says of itself.
struct ResourceHealth {
  std::string resource;  // "resourceslices.resource.k8s.io"
  bool synced = false;
  kube::InformerStats stats;
};

// The cluster's DRA objects at one moment (shared with the source, never
// copied), and how current they are.
struct SourceSnapshot {
  KeptCluster objects;
  std::vector<ResourceHealth> health;  // empty for manifests
  // Unix seconds since which the source has not been able to follow the
  // cluster (a list or watch failing, nothing succeeding since); 0 when it
  // is current. `stale_reason` is the last error then.
  std::int64_t stale_since = 0;
  std::string stale_reason;
};

// Thread-safety: every method may be called from any thread.
class ClusterSource {
 public:
  virtual ~ClusterSource() = default;
  // The objects as they are now.
  virtual SourceSnapshot Snapshot() = 0;
  // A number that grows with every change of the objects or of the health.
  virtual std::uint64_t Version() const = 0;
  // Returns once Version() differs from `seen`, or after `timeout`.
  virtual std::uint64_t WaitForChange(std::uint64_t seen, std::chrono::milliseconds timeout) = 0;
  // Whether every informer has delivered its first list.
  virtual bool Synced() const = 0;
  // Stops following the cluster (informers stop); wakes waiters.
  virtual void Stop() = 0;
  // Where the objects come from: the API server's URL, or the files.
  virtual std::string Origin() const = 0;
};

// A source that never changes.
std::unique_ptr<ClusterSource> NewManifestSource(KeptCluster objects, std::string origin);

// Connects as kubectl does (kubeconfig, or in-cluster configuration inside a
// pod) and starts one informer per kind: Nodes, Pods, ResourceClaims,
// ResourceClaimTemplates, DeviceClasses, ResourceSlices and, where the
// server serves them, DeviceTaintRules. Fails when the server cannot be
// reached or refuses to list (the message in kubectl's words).
Result<std::unique_ptr<ClusterSource>> StartLiveSource(const kube::ConfigFlags& flags);

}  // namespace dra::cli::serve
