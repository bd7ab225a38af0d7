// How dra serve keeps a cluster between states: each object as the compact
// JSON of what dra's model reads of it (the API server's own watch cache
// keeps serialized objects too), compressed with a dictionary per kind
// (kube::TextCompressor), and decoded only while a state or an explanation
// is computed. A decoded ResourceSlice device takes about 2.7 KiB; kept,
// under 10 bytes. A state decodes the slices one pool at a time and only the
// pods that wait, so what it decodes at once stays small.
#pragma once

#include <memory>
#include <set>
#include <string>
#include <vector>

#include "dra/api/codec.h"
#include "dra/kube/compressed_text.h"
#include "dra/scheduler/cluster.h"
#include "dra/util/result.h"

namespace dra::cli::serve {

// A kept object: its compact JSON (apiVersion and kind included),
// compressed, labelled with its summary: what a state reads of the object
// without decoding it, by kind:
//   Pod            its KeptPodState as one letter, then, for a pod not
//                  bound and not finished, "namespace/name" (KeptPodStateOf,
//                  KeptPodName);
//   ResourceSlice  driver + '\n' + pool + '\n' + name (the newline sorts
//                  before any character a name may have: these sort as
//                  triples; SlicePool gives the first two);
//   Node           its name;
//   ResourceClaim  its facts (EncodeClaimFacts);
//   others         "".
// Immutable; safe to share between threads.
using KeptObject = kube::CompressedText;
using KeptPtr = std::shared_ptr<const KeptObject>;
inline std::string_view Summary(const KeptObject& kept) { return kept.label(); }
// A kept slice's driver + '\n' + pool, from its summary.
std::string_view SlicePool(const KeptObject& slice);
// Where a kept pod is, as its summary says.
enum class KeptPodState : char {
  kWaiting = 'W',   // IsWaitingPod
  kUnbound = 'U',   // not bound, not finished, and uses no DRA
  kBound = 'B',     // bound to a node, not finished
  kFinished = 'F',  // Succeeded or Failed
};
KeptPodState KeptPodStateOf(const KeptObject& pod);
inline bool KeptPodWaits(const KeptObject& pod) {
  return KeptPodStateOf(pod) == KeptPodState::kWaiting;
}
// A kept pod's "namespace/name", from its summary; empty for a pod bound
// or finished.
std::string_view KeptPodName(const KeptObject& pod);

// A cluster's objects as kept. Copies share the objects.
struct KeptCluster {
  std::vector<KeptPtr> nodes, pods, claims, templates, classes, slices, taint_rules;
  // From manifests only (scheduler::Cluster's fields of the same names).
  std::set<std::string> duplicate_claims, duplicate_templates;
  // Objects defined twice, and objects that could not be kept.
  std::vector<std::string> warnings;
  // Manifests: each kind in the order read, which the scheduler keeps among
  // pods created at the same time (as dra simulate does). Informers: false,
  // their order means nothing, and Unpack sorts by namespace and name.
  bool in_input_order = false;
};

// An unscheduled, unfinished pod that names resource claims (or has an
// extended resource claim): what dra serve lists as waiting.
bool IsWaitingPod(const api::Pod& pod);

// Drops what nothing in dra serve reads (managedFields, resourceVersion,
// selfLink, annotations outside resource.kubernetes.io/, the labels of pods,
// the uids of nodes and slices, the owners of slices)
// and encodes the rest in the newest version that serves the kind, compressed
// by `compressor` (one per kind: the objects it has seen make its
// dictionary). Fails only for an object no version can encode.
Result<KeptPtr> Keep(api::Object object, kube::TextCompressor& compressor);

// The object decoded; fails only if `kept` was not made by Keep.
Result<api::Object> Unkeep(const KeptObject& kept);

// Which objects Unpack decodes.
enum class PodsToUnpack { kAll, kWaiting };
struct UnpackOptions {
  PodsToUnpack pods = PodsToUnpack::kAll;
  bool slices = true;
  bool claims = true;
  bool nodes = true;
  // The nodes, slices and claims unpacked are decoded only as a Scheduler
  // made from the cluster asks for them (its more_nodes, more_slices and
  // more_claims), one at a time and in the order Unpack gives, so that a
  // cluster never holds them all decoded; the cluster holds references to
  // the kept objects until then.
  bool stream = false;
  // With `stream`: only the pods not bound and the claims they name are
  // given whole; the bound pods stream as the cluster's settled_pods, the
  // other allocated claims as its held_allocations, and finished pods are
  // left out. Enough to schedule and explain the pods not yet bound.
  bool settle = false;
};

// What ExplainWaiting needs: the pods not bound, with what the rest of the
// cluster amounts to, streamed.
inline UnpackOptions ExplainerUnpackOptions() {
  UnpackOptions o;
  o.stream = true;
  o.settle = true;
  return o;
}

// Decodes the kept objects into a cluster, each kind in input order or
// sorted by namespace and name (KeptCluster::in_input_order). An object that does not decode is
// left out with a warning (the cluster's warnings are only those).
scheduler::Cluster Unpack(const KeptCluster& kept, const UnpackOptions& options = {});

// Keeps every object of `cluster` (manifests); objects that cannot be kept
// are left out with a warning.
KeptCluster KeepCluster(scheduler::Cluster cluster);

// "namespace/name" of the waiting pods, sorted.
std::vector<std::string> WaitingPods(const KeptCluster& kept);

}  // namespace dra::cli::serve
