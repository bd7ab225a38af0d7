#include "cli/serve/kept_objects.h"

#include <algorithm>
#include <memory>
#include <tuple>
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
}

std::string SummaryOf(const api::Object& object) {
  if (const auto* pod = std::get_if<api::Pod>(&object)) {
    return IsWaitingPod(*pod) ? pod->metadata.namespace_ + "/" + pod->metadata.name : "";
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
    Result<api::Object> o = Unkeep(*k);
    T* typed = o.ok() ? std::get_if<T>(&o.value()) : nullptr;
    if (typed == nullptr) {
      warnings.push_back("a kept object does not decode: " +
                         (o.ok() ? std::string("unexpected kind") : o.error()));
      continue;
    }
    into.push_back(std::move(*typed));
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
  if (options.nodes) UnpackInto(kept.nodes, sort, c.nodes, c.warnings);
  if (options.pods == PodsToUnpack::kAll) {
    UnpackInto(kept.pods, sort, c.pods, c.warnings);
  } else {
    std::vector<KeptPtr> waiting;
    for (const KeptPtr& p : kept.pods) {
      if (!Summary(*p).empty()) waiting.push_back(p);
    }
    UnpackInto(waiting, sort, c.pods, c.warnings);
  }
  if (options.claims) UnpackInto(kept.claims, sort, c.claims, c.warnings);
  UnpackInto(kept.templates, sort, c.templates, c.warnings);
  UnpackInto(kept.classes, sort, c.classes, c.warnings);
  if (options.slices && options.stream_slices) {
    auto slices = std::make_shared<std::vector<KeptPtr>>(kept.slices);
    if (sort) {
      std::sort(slices->begin(), slices->end(),
                [](const KeptPtr& a, const KeptPtr& b) { return SliceName(*a) < SliceName(*b); });
    }
    // A slice that does not decode is left out; the state computed from the
    // same objects reports it.
    c.more_slices = [slices, next = std::size_t{0}](api::ResourceSlice& out) mutable {
      while (next < slices->size()) {
        Result<api::Object> o = Unkeep(*(*slices)[next]);
        (*slices)[next++].reset();
        if (auto* slice = o.ok() ? std::get_if<api::ResourceSlice>(&o.value()) : nullptr) {
          out = std::move(*slice);
          return true;
        }
      }
      return false;
    };
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
    if (!Summary(*p).empty()) out.emplace_back(Summary(*p));
  }
  std::sort(out.begin(), out.end());
  return out;
}

}  // namespace dra::cli::serve
