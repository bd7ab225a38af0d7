#include "cli/get/cluster_objects.h"

#include <string_view>
#include <type_traits>
#include <variant>

namespace dra::cli::get {
namespace {

std::string Where(const api::ManifestDocument& doc, json::Position pos) {
  std::string out = doc.source + ": document " + std::to_string(doc.index);
  if (pos.line > 0) out += " (line " + std::to_string(pos.line) + ")";
  return out;
}

// The apiVersion of a "no matches for kind" message, or "".
std::string_view UnknownKindVersion(std::string_view message) {
  constexpr std::string_view kMarker = "in version \"";
  auto at = message.find(kMarker);
  if (at == std::string_view::npos) return {};
  std::string_view rest = message.substr(at + kMarker.size());
  return rest.substr(0, rest.find('"'));
}

}  // namespace

ManifestObjects ObjectsFromManifests(const api::ManifestSet& set,
                                     const std::string& default_namespace) {
  ManifestObjects out;
  for (const api::ManifestReadError& e : set.read_errors) {
    out.errors.push_back(e.source + ": " + e.message);
  }
  // Kinds the server serves but that carry no DRA state (Deployments,
  // ConfigMaps...).
  for (const api::UnmodeledDocument& doc : set.unmodeled) {
    std::string where = doc.source + ": document " + std::to_string(doc.index);
    if (doc.root.pos.line > 0) where += " (line " + std::to_string(doc.root.pos.line) + ")";
    out.warnings.push_back(where + ": skipped " + doc.kind + " (" + doc.api_version +
                           "): not a DRA object");
  }
  for (const api::ManifestDocument& doc : set.documents) {
    for (const api::DecodeError& e : doc.decoded.errors) {
      std::string_view version = UnknownKindVersion(e.message);
      if (e.failure == api::DecodeFailure::kUnknownKind && !version.empty() &&
          !version.starts_with(std::string(api::kResourceGroup) + "/")) {
        out.warnings.push_back(Where(doc, e.pos) + ": skipped " + e.kind + " (" +
                               std::string(version) + "): not a DRA object");
        continue;
      }
      out.errors.push_back(Where(doc, e.pos) + ": " + e.message);
    }
    for (const api::DecodedObject& o : doc.decoded.objects) {
      std::visit(
          [&](const auto& object) {
            using T = std::decay_t<decltype(object)>;
            ClusterObjects& c = out.objects;
            if constexpr (std::is_same_v<T, api::ResourceSlice>) {
              c.slices.push_back(object);
            } else if constexpr (std::is_same_v<T, api::ResourceClaim>) {
              c.claims.push_back(object);
              if (c.claims.back().metadata.namespace_.empty()) {
                c.claims.back().metadata.namespace_ = default_namespace;
              }
            } else if constexpr (std::is_same_v<T, api::Pod>) {
              c.pods.push_back(object);
              if (c.pods.back().metadata.namespace_.empty()) {
                c.pods.back().metadata.namespace_ = default_namespace;
              }
            } else if constexpr (std::is_same_v<T, api::DeviceClass>) {
              c.classes.push_back(object);
            } else if constexpr (std::is_same_v<T, api::Node>) {
              c.nodes.push_back(object);
            } else if constexpr (std::is_same_v<T, api::DeviceTaintRule>) {
              c.taint_rules.push_back(object);
            }
          },
          o.object);
    }
  }
  return out;
}

}  // namespace dra::cli::get
