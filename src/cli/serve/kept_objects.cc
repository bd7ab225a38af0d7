#include "cli/serve/kept_objects.h"

#include <algorithm>
#include <memory>
#include <tuple>
#include <unordered_set>
#include <utility>
#include <variant>

#include "cli/serve/claim_facts.h"
#include "dra/kube/stored_object.h"

namespace dra::cli::serve {
namespace {

bool Finished(const api::Pod& pod) {
  return pod.status.phase == "Succeeded" || pod.status.phase == "Failed";
}

// What dra serve's states and explanations never read; the scheduler reads
// the resource.kubernetes.io/ annotations of claims it generated.
void DropUnread(api::Object& object) {
  std::visit(
      [](auto& o) {
        api::ObjectMeta& m = o.metadata;
        m.managed_fields.clear();
        m.resource_version.clear();
        m.self_link.clear();
        std::erase_if(m.annotations, [](const auto& a) {
          return a.first.rfind("resource.kubernetes.io/", 0) != 0;
        });
      },
      object);
  if (auto* pod = std::get_if<api::Pod>(&object)) pod->metadata.labels.clear();
  // Nothing reads a node's or a slice's uid, nor a slice's owner (the
  // allocator reads a slice's spec): 36 bytes each that do not compress,
  // and the heap of each decoded copy.
  if (auto* node = std::get_if<api::Node>(&object)) node->metadata.uid.clear();
  if (auto* slice = std::get_if<api::ResourceSlice>(&object)) {
    slice->metadata.uid.clear();
    slice->metadata.owner_references.clear();
  }
}

std::string SummaryOf(const api::Object& object) {
  if (const auto* pod = std::get_if<api::Pod>(&object)) {
    KeptPodState state = KeptPodState::kUnbound;
    if (Finished(*pod)) {
      state = KeptPodState::kFinished;
    } else if (!pod->spec.node_name.empty()) {
      state = KeptPodState::kBound;
    } else if (IsWaitingPod(*pod)) {
      state = KeptPodState::kWaiting;
    }
    // Nothing reads the names of bound and finished pods without decoding
    // them; most pods are those, and a letter needs no heap.
    if (state == KeptPodState::kBound || state == KeptPodState::kFinished) {
      return std::string(1, static_cast<char>(state));
    }
    return static_cast<char>(state) + pod->metadata.namespace_ + "/" + pod->metadata.name;
  }
  if (const auto* slice = std::get_if<api::ResourceSlice>(&object)) {
    return slice->spec.driver + "\n" + slice->spec.pool.name + "\n" + slice->metadata.name;
  }
  if (const auto* node = std::get_if<api::Node>(&object)) return node->metadata.name;
  if (const auto* claim = std::get_if<api::ResourceClaim>(&object)) {
    return EncodeClaimFacts(*claim);
  }
  return {};
}

// A kept slice's name, from its summary.
std::string_view SliceName(const KeptObject& slice) {
  const std::string_view summary = Summary(slice);
  const std::size_t at = summary.rfind('\n');
  return at == std::string_view::npos ? summary : summary.substr(at + 1);
}

// The kept objects sorted by `key` (a tuple or pair of views into their
// summaries), equal keys in their order.
template <class KeyOf>
std::vector<KeptPtr> SortedBy(const std::vector<KeptPtr>& kept, KeyOf key_of) {
  using Key = decltype(key_of(*kept.front()));
  std::vector<std::pair<Key, KeptPtr>> keyed;
  keyed.reserve(kept.size());
  for (const KeptPtr& k : kept) keyed.emplace_back(key_of(*k), k);
  std::stable_sort(keyed.begin(), keyed.end(),
                   [](const auto& a, const auto& b) { return a.first < b.first; });
  std::vector<KeptPtr> out;
  out.reserve(keyed.size());
  for (auto& [key, k] : keyed) out.push_back(std::move(k));
  return out;
}

// `kept` decoded as a T ("unexpected kind" when it is another kind).
template <class T>
Result<T> UnkeepAs(const KeptObject& kept) {
  Result<api::Object> o = Unkeep(kept);
  if (!o.ok()) return o.failure();
  T* typed = std::get_if<T>(&o.value());
  if (typed == nullptr) return Error{"unexpected kind"};
  return std::move(*typed);
}

// The kept objects as a stream of decoded ones of kind T, each decoded when
// asked and its reference let go. One that does not decode is left out; the
// state computed from the same objects reports it.
template <class T>
scheduler::MoreObjects<T> StreamOf(std::vector<KeptPtr> kept) {
  auto objects = std::make_shared<std::vector<KeptPtr>>(std::move(kept));
  scheduler::MoreObjects<T> stream;
  stream.count = objects->size();
  stream.next = [objects, next = std::size_t{0}](T& out) mutable {
    while (next < objects->size()) {
      Result<T> o = UnkeepAs<T>(*(*objects)[next]);
      (*objects)[next++].reset();
      if (o.ok()) {
        out = std::move(*o);
        return true;
      }
    }
    return false;
  };
  return stream;
}

// The allocations of the kept claims, each decoded when asked; a claim
// that does not decode or has no allocation is left out.
scheduler::MoreObjects<api::AllocationResult> AllocationsOf(std::vector<KeptPtr> kept) {
  scheduler::MoreObjects<api::ResourceClaim> claims = StreamOf<api::ResourceClaim>(std::move(kept));
  scheduler::MoreObjects<api::AllocationResult> stream;
  stream.count = claims.count;
  stream.next = [claims = std::move(claims.next)](api::AllocationResult& out) mutable {
    for (api::ResourceClaim claim; claims(claim); claim = {}) {
      if (claim.status.allocation) {
        out = std::move(*claim.status.allocation);
        return true;
      }
    }
    return false;
  };
  return stream;
}

// "namespace/name" of every claim the pod names: its entries' claims, the
// claims its status names for templates, its extended resource claim.
std::vector<std::string> ClaimsNamed(const api::Pod& pod) {
  std::vector<std::string> out;
  auto add = [&](const std::optional<std::string>& name) {
    if (name && !name->empty()) out.push_back(pod.metadata.namespace_ + "/" + *name);
  };
  for (const api::PodResourceClaim& c : pod.spec.resource_claims) add(c.resource_claim_name);
  for (const api::PodResourceClaimStatus& st : pod.status.resource_claim_statuses) {
    add(st.resource_claim_name);
  }
  if (const auto& ext = pod.status.extended_resource_claim_status) add(ext->resource_claim_name);
  return out;
}

template <class T>
void SortByName(std::vector<T>& objects) {
  std::sort(objects.begin(), objects.end(), [](const T& a, const T& b) {
    return std::tie(a.metadata.namespace_, a.metadata.name) <
           std::tie(b.metadata.namespace_, b.metadata.name);
  });
}

// Decodes `kept` into `into` (objects of another kind are a warning).
template <class T>
void UnpackInto(const std::vector<KeptPtr>& kept, bool sort, std::vector<T>& into,
                std::vector<std::string>& warnings) {
  into.reserve(into.size() + kept.size());
  for (const KeptPtr& k : kept) {
    Result<T> o = UnkeepAs<T>(*k);
    if (!o.ok()) {
      warnings.push_back("a kept object does not decode: " + o.error());
      continue;
    }
    into.push_back(std::move(*o));
  }
  if (sort) SortByName(into);
}

template <class T>
void KeepAll(std::vector<T>& objects, std::vector<KeptPtr>& into,
             std::vector<std::string>& warnings) {
  into.reserve(objects.size());
  kube::TextCompressor compressor;
  for (T& o : objects) {
    std::string name = o.metadata.name;
    Result<KeptPtr> kept = Keep(api::Object(std::move(o)), compressor);
    if (!kept.ok()) {
      warnings.push_back(name + ": " + kept.error());
      continue;
    }
    into.push_back(std::move(*kept));
  }
  objects.clear();
  objects.shrink_to_fit();
}

}  // namespace

bool IsWaitingPod(const api::Pod& pod) {
  const bool uses_dra =
      !pod.spec.resource_claims.empty() || pod.status.extended_resource_claim_status.has_value();
  return pod.spec.node_name.empty() && !Finished(pod) && uses_dra;
}

std::string_view SlicePool(const KeptObject& slice) {
  const std::string_view summary = Summary(slice);
  const std::size_t driver_end = summary.find('\n');
  const std::size_t pool_end =
      driver_end == std::string_view::npos ? driver_end : summary.find('\n', driver_end + 1);
  return summary.substr(0, pool_end);
}

std::string_view KeptPodName(const KeptObject& pod) {
  const std::string_view summary = Summary(pod);
  return summary.empty() ? summary : summary.substr(1);
}

KeptPodState KeptPodStateOf(const KeptObject& pod) {
  const std::string_view summary = Summary(pod);
  return summary.empty() ? KeptPodState::kUnbound : static_cast<KeptPodState>(summary.front());
}

Result<KeptPtr> Keep(api::Object object, kube::TextCompressor& compressor) {
  DropUnread(object);
  const std::string summary = SummaryOf(object);
  std::string error;
  for (api::ApiVersion v : {api::ApiVersion::kV1, api::ApiVersion::kV1beta2,
                            api::ApiVersion::kV1beta1, api::ApiVersion::kV1alpha3}) {
    Result<std::string> encoded = api::EncodeObject(object, v);
    if (encoded.ok()) return compressor.Compress(*encoded, summary);
    if (error.empty()) error = encoded.error();
  }
  return Error{error};
}

Result<api::Object> Unkeep(const KeptObject& kept) {
  Result<std::string> text = kept.Decompress();
  if (!text.ok()) return text.failure();
  kube::ApiResult<api::Object> o = kube::DecodeStoredJson(*text, nullptr);
  if (!o.ok()) return Error{o.error().message};
  return std::move(*o);
}

scheduler::Cluster Unpack(const KeptCluster& kept, const UnpackOptions& options) {
  scheduler::Cluster c;
  c.duplicate_claims = kept.duplicate_claims;
  c.duplicate_templates = kept.duplicate_templates;
  const bool sort = !kept.in_input_order;
  if (options.nodes && options.stream) {
    std::vector<KeptPtr> nodes = kept.nodes;
    // Cluster-scoped: by name, which is the summary.
    if (sort) nodes = SortedBy(nodes, Summary);
    c.more_nodes = StreamOf<api::Node>(std::move(nodes));
  } else if (options.nodes) {
    UnpackInto(kept.nodes, sort, c.nodes, c.warnings);
  }
  const bool settle = options.stream && options.settle;
  std::vector<KeptPtr> claims = options.claims ? kept.claims : std::vector<KeptPtr>();
  std::vector<KeptPtr> pods;
  std::vector<KeptPtr> settled;
  for (const KeptPtr& p : kept.pods) {
    if (options.pods == PodsToUnpack::kWaiting && !KeptPodWaits(*p)) continue;
    const KeptPodState state = KeptPodStateOf(*p);
    if (settle && state == KeptPodState::kFinished) continue;
    (settle && state == KeptPodState::kBound ? settled : pods).push_back(p);
  }
  std::vector<KeptPtr> held;
  if (settle) {
    // The pods not bound, whole; the claims they name stay whole too.
    UnpackInto(pods, sort, c.pods, c.warnings);
    std::unordered_set<std::string> named;
    for (const api::Pod& p : c.pods) {
      for (std::string& key : ClaimsNamed(p)) named.insert(std::move(key));
    }
    c.settled_pods = StreamOf<api::Pod>(std::move(settled));
    std::vector<KeptPtr> whole;
    for (const KeptPtr& k : claims) {
      Result<ClaimFacts> facts = ParseClaimFacts(Summary(*k));
      if (!facts.ok() ||
          named.contains(std::string(facts->namespace_) + "/" + std::string(facts->name))) {
        whole.push_back(k);
      } else if (facts->phase != ClaimPhase::kPending) {
        held.push_back(k);
      }
    }
    claims = std::move(whole);
    c.held_allocations = AllocationsOf(std::move(held));
  } else {
    UnpackInto(pods, sort, c.pods, c.warnings);
  }
  if (options.claims && options.stream) {
    if (sort) {
      claims = SortedBy(claims, [](const KeptObject& k) {
        Result<ClaimFacts> facts = ParseClaimFacts(Summary(k));
        return facts.ok() ? std::pair(facts->namespace_, facts->name)
                          : std::pair(std::string_view(), std::string_view());
      });
    }
    c.more_claims = StreamOf<api::ResourceClaim>(std::move(claims));
  } else if (options.claims) {
    UnpackInto(claims, sort, c.claims, c.warnings);
  }
  UnpackInto(kept.templates, sort, c.templates, c.warnings);
  UnpackInto(kept.classes, sort, c.classes, c.warnings);
  if (options.slices && options.stream) {
    std::vector<KeptPtr> slices = kept.slices;
    // Cluster-scoped: by name.
    if (sort) slices = SortedBy(slices, SliceName);
    c.more_slices = StreamOf<api::ResourceSlice>(std::move(slices)).next;
  } else if (options.slices) {
    UnpackInto(kept.slices, sort, c.slices, c.warnings);
  }
  UnpackInto(kept.taint_rules, sort, c.taint_rules, c.warnings);
  return c;
}

KeptCluster KeepCluster(scheduler::Cluster cluster) {
  KeptCluster k;
  k.in_input_order = true;
  k.duplicate_claims = std::move(cluster.duplicate_claims);
  k.duplicate_templates = std::move(cluster.duplicate_templates);
  k.warnings = std::move(cluster.warnings);
  KeepAll(cluster.nodes, k.nodes, k.warnings);
  KeepAll(cluster.pods, k.pods, k.warnings);
  KeepAll(cluster.claims, k.claims, k.warnings);
  KeepAll(cluster.templates, k.templates, k.warnings);
  KeepAll(cluster.classes, k.classes, k.warnings);
  KeepAll(cluster.slices, k.slices, k.warnings);
  KeepAll(cluster.taint_rules, k.taint_rules, k.warnings);
  return k;
}

std::vector<std::string> WaitingPods(const KeptCluster& kept) {
  std::vector<std::string> out;
  for (const KeptPtr& p : kept.pods) {
    if (KeptPodWaits(*p)) out.emplace_back(KeptPodName(*p));
  }
  std::sort(out.begin(), out.end());
  return out;
}

}  // namespace dra::cli::serve
