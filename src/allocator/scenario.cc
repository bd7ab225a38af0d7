#include "allocator/scenario.h"

#include <type_traits>
#include <variant>

namespace dra::allocator {

Result<Scenario> ScenarioFromManifests(const api::ManifestSet& set, const Features& features) {
  if (!set.read_errors.empty()) {
    const api::ManifestReadError& e = set.read_errors.front();
    return Error{e.source + ": " + e.message};
  }
  Scenario s;
  s.snapshot.features = features;
  for (const api::ManifestDocument& doc : set.documents) {
    if (!doc.decoded.errors.empty()) {
      return Error{doc.source + ": document " + std::to_string(doc.index) + ": " +
                   doc.decoded.errors.front().message};
    }
    for (const api::DecodedObject& o : doc.decoded.objects) {
      std::visit(
          [&](const auto& obj) {
            using T = std::decay_t<decltype(obj)>;
            if constexpr (std::is_same_v<T, api::ResourceSlice>) {
              s.snapshot.slices.push_back(obj);
            } else if constexpr (std::is_same_v<T, api::DeviceClass>) {
              s.snapshot.classes.push_back(obj);
            } else if constexpr (std::is_same_v<T, api::DeviceTaintRule>) {
              s.snapshot.taint_rules.push_back(obj);
            } else if constexpr (std::is_same_v<T, api::Node>) {
              s.nodes.push_back(obj);
            } else if constexpr (std::is_same_v<T, api::ResourceClaim>) {
              (obj.status.allocation ? s.snapshot.allocated_claims : s.claims).push_back(obj);
            } else {
              s.ignored_kinds.emplace_back(api::KindOf(o.object));
            }
          },
          o.object);
    }
  }
  return s;
}

Result<Scenario> ParseScenario(std::string_view text, const Features& features) {
  api::ManifestSet set;
  api::ManifestOptions options;
  api::ParseManifestText("scenario", text, options, set);
  return ScenarioFromManifests(set, features);
}

api::Node FindNode(const Scenario& scenario, const std::string& name) {
  for (const api::Node& n : scenario.nodes) {
    if (n.metadata.name == name) return n;
  }
  api::Node node;
  node.metadata.name = name;
  return node;
}

}  // namespace dra::allocator
