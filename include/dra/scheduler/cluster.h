// The objects a simulated cluster holds, as read from manifests: what the
// scheduler's informers would list (nodes, pods, claims, templates, classes,
// slices, taint rules). Duplicate names are kept out of the cluster and
// remembered, so the pods that reference them can be told why they wait.
#pragma once

#include <cstddef>
#include <functional>
#include <set>
#include <string>
#include <unordered_set>
#include <vector>

#include "dra/allocator/allocator.h"
#include "dra/api/codec.h"
#include "dra/api/manifest.h"
#include "dra/util/result.h"

namespace dra::scheduler {

// More objects of one kind, for a caller that decodes them one at a time: a
// Scheduler made from the cluster calls `next` until it returns false, while
// it is constructed, moving each object into its own records, so that the
// objects never exist twice. Nothing else reads them.
template <class T>
struct MoreObjects {
  // How many `next` gives at most: the Scheduler reserves room for them.
  std::size_t count = 0;
  std::function<bool(T&)> next;
};

struct Cluster {
  std::vector<api::Node> nodes;
  // More nodes, after `nodes`: the Scheduler keeps a NodeRecord of each as
  // it reads it, so that the Nodes are never all held at once.
  MoreObjects<api::Node> more_nodes;
  // In the order they were read; the scheduler orders them by creation time.
  std::vector<api::Pod> pods;
  // More pods, after `pods` in input order.
  MoreObjects<api::Pod> more_pods;
  std::vector<api::ResourceClaim> claims;
  // More claims, after `claims`.
  MoreObjects<api::ResourceClaim> more_claims;
  // For a caller that asks only about the pods not yet bound (dra serve's
  // explanations of waiting pods), what the rest of the cluster amounts to:
  //   settled_pods: pods bound to a node and not finished. Each takes its
  //     share of its node, as a pod of `pods` would, and is dropped: the
  //     Scheduler keeps no record of it (pods() and FindPod do not list it;
  //     it cannot be finished, deleted or evicted) and creates none of its
  //     template claims. A pod that names no node or has finished takes
  //     nothing.
  //   held_allocations: allocations of claims that no pod the Scheduler
  //     keeps refers to. Their devices and capacity are in use; no claim is
  //     kept for them.
  // Pods not yet bound schedule as in the whole cluster, except that the
  // random draws (ties between nodes, names of generated claims) may differ:
  // the whole cluster draws a uid for each object that lacks one, and a name
  // and uid for each claim a bound pod's template should have made but did
  // not; settled pods and held allocations draw nothing.
  MoreObjects<api::Pod> settled_pods;
  MoreObjects<api::AllocationResult> held_allocations;
  std::vector<api::ResourceClaimTemplate> templates;
  std::vector<api::DeviceClass> classes;
  std::vector<api::ResourceSlice> slices;
  // More slices, after `slices`, for a caller that decodes them one at a
  // time: a Scheduler made from the cluster reads them once, while it is
  // constructed, and never holds them all (allocator::SliceSource). Nothing
  // else reads them.
  allocator::SliceSource more_slices;
  std::vector<api::DeviceTaintRule> taint_rules;

  // "namespace/name" of claims and templates defined more than once; the first
  // definition is kept and pods referencing the name are rejected.
  std::set<std::string> duplicate_claims;
  std::set<std::string> duplicate_templates;
  // Objects other than claims and templates that were defined twice (the
  // first one is kept), e.g. "Node node-1", "Pod default/p".
  std::vector<std::string> warnings;
};

// Sorts the decoded objects of `set` into a cluster. Namespaced objects that
// name no namespace get `default_namespace`. Fails on the first read or decode
// error ("<source>: document <n>: <message>"), as a kubectl apply would.
Result<Cluster> ClusterFromManifests(const api::ManifestSet& set,
                                     const std::string& default_namespace);
// The same, moving the objects out of `set` instead of copying them.
Result<Cluster> ClusterFromManifests(api::ManifestSet&& set, const std::string& default_namespace);

// Appends objects (e.g. a generated workload) to `cluster`, with the same
// duplicate handling; namespaced objects without a namespace get "default".
void AddObjects(Cluster& cluster, std::vector<api::Object> objects);

// Adds a bare Node (labels kubernetes.io/hostname only; no cpu, memory or pod
// limits) for every node that node-local slices name but the cluster does not
// define, with a warning, so an inventory of slices works without Nodes.
void AddMissingNodes(Cluster& cluster);
// The same for one slice; `known` holds the names of the cluster's nodes and
// gains the name added, if any.
void AddMissingNode(Cluster& cluster, const api::ResourceSlice& slice,
                    std::unordered_set<std::string>& known);

}  // namespace dra::scheduler
