// The kubelet's part of DRA on one simulated node (k8s.io/kubernetes pkg/kubelet/cm/dra/manager.go,
// PrepareResources and UnprepareResources), end to end over real Unix sockets: for every driver of
// the node's allocated claims an example driver (`dra driver example` serving the node's
// ResourceSlices of that driver) runs in-process in a temporary directory; a KubeletClient
// registers it, prepares each pod's claims as the kubelet does before starting the pod (one
// NodePrepareResources per driver per pod, claims already prepared for an earlier pod not sent
// again), computes every container's CDI device IDs, then unprepares everything as the pods
// terminate and stops the drivers. Used by `dra simulate --prepare`.
#pragma once

#include <chrono>
#include <map>
#include <string>
#include <vector>

#include "dra/api/core.h"
#include "dra/api/resource.h"

namespace dra::driver {

// A pod bound to the node, with its claims resolved as the kubelet resolves
// them (pod.status.resourceClaimStatuses for generated claims).
struct NodeAgentPod {
  const api::Pod* pod = nullptr;
  // pod.spec.resourceClaims[].name -> its ResourceClaim. A name without an
  // entry has no claim (resolved to none) and is skipped.
  std::map<std::string, const api::ResourceClaim*> claims;
  // The claim of pod.status.extendedResourceClaimStatus, if any.
  const api::ResourceClaim* extended_resource_claim = nullptr;
};

struct NodeAgentInput {
  std::string node_name;
  // In the order the kubelet starts them; unprepared in the same order.
  std::vector<NodeAgentPod> pods;
  // The cluster's slices. A driver's inventory on the node is its slices
  // with spec.nodeName = the node plus the slices of the other pools its
  // allocated devices come from (reachable from the node, or the scheduler
  // would not have allocated them).
  const std::vector<api::ResourceSlice>* slices = nullptr;
};

struct NodeAgentOptions {
  // Bounds all gRPC calls of the node; cleanup gets a few more seconds.
  std::chrono::milliseconds node_timeout{60'000};
  // Parent of the per-driver temporary directories (short: socket paths
  // must stay under 108 bytes). Empty = $TMPDIR, else /dev/shm when it is a
  // writable directory (the drivers fsync every CDI spec and checkpoint
  // write, which costs nothing in memory), else /tmp.
  std::string temp_directory;
};

struct ContainerCdiDevices {
  std::string name;
  bool init = false;                        // an init container
  std::vector<std::string> cdi_device_ids;  // in the kubelet's order
};

struct NodeAgentPodResult {
  std::string namespace_;
  std::string name;
  // Every container of a pod whose claims were all prepared; empty when the
  // pod could not start.
  std::vector<ContainerCdiDevices> containers;
  // Why the pod could not start: "ResourceClaim ns/name: <driver's error>".
  std::vector<std::string> errors;
};

struct NodeAgentResult {
  std::string node;
  std::vector<std::string> drivers;      // sorted
  std::vector<NodeAgentPodResult> pods;  // the pods with claims, in input order
  // Problems not tied to one pod: a driver that did not start or register,
  // a failed unprepare, CDI spec files left behind.
  std::vector<std::string> errors;
  std::int64_t claims_prepared = 0;  // distinct claims prepared by all their drivers
  std::int64_t cdi_device_ids = 0;   // CDI IDs returned for those claims
  std::int64_t failures = 0;         // claims that failed plus node-level errors
  double seconds = 0;
};

NodeAgentResult SimulateNodeAgent(const NodeAgentInput& input,
                                  const NodeAgentOptions& options = {});

}  // namespace dra::driver
