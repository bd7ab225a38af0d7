#include "dra/scheduler/cluster.h"

#include <type_traits>
#include <unordered_set>
#include <utility>
#include <variant>

namespace dra::scheduler {
namespace {

std::string Key(const api::ObjectMeta& meta) { return meta.namespace_ + "/" + meta.name; }

// Tracks the names seen per kind while objects are added.
class Names {
 public:
  explicit Names(const Cluster& cluster) {
    for (const api::Node& n : cluster.nodes) nodes_.insert(n.metadata.name);
    for (const api::Pod& p : cluster.pods) pods_.insert(Key(p.metadata));
    for (const api::ResourceClaim& c : cluster.claims) claims_.insert(Key(c.metadata));
    for (const api::ResourceClaimTemplate& t : cluster.templates)
      templates_.insert(Key(t.metadata));
    for (const api::DeviceClass& c : cluster.classes) classes_.insert(c.metadata.name);
    for (const api::ResourceSlice& s : cluster.slices) slices_.insert(s.metadata.name);
    for (const api::DeviceTaintRule& r : cluster.taint_rules) rules_.insert(r.metadata.name);
  }

  void Add(Cluster& cluster, api::Object object) {
    std::visit(
        [&](auto& obj) {
          using T = std::decay_t<decltype(obj)>;
          if constexpr (std::is_same_v<T, api::Node>) {
            Insert(nodes_, obj.metadata.name, "Node", cluster, cluster.nodes, obj);
          } else if constexpr (std::is_same_v<T, api::Pod>) {
            Insert(pods_, Key(obj.metadata), "Pod", cluster, cluster.pods, obj);
          } else if constexpr (std::is_same_v<T, api::ResourceClaim>) {
            std::string key = Key(obj.metadata);
            if (!claims_.insert(key).second) {
              cluster.duplicate_claims.insert(key);
            } else {
              cluster.claims.push_back(std::move(obj));
            }
          } else if constexpr (std::is_same_v<T, api::ResourceClaimTemplate>) {
            std::string key = Key(obj.metadata);
            if (!templates_.insert(key).second) {
              cluster.duplicate_templates.insert(key);
            } else {
              cluster.templates.push_back(std::move(obj));
            }
          } else if constexpr (std::is_same_v<T, api::DeviceClass>) {
            Insert(classes_, obj.metadata.name, "DeviceClass", cluster, cluster.classes, obj);
          } else if constexpr (std::is_same_v<T, api::ResourceSlice>) {
            Insert(slices_, obj.metadata.name, "ResourceSlice", cluster, cluster.slices, obj);
          } else if constexpr (std::is_same_v<T, api::DeviceTaintRule>) {
            Insert(rules_, obj.metadata.name, "DeviceTaintRule", cluster, cluster.taint_rules, obj);
          }
          // Namespaces carry nothing the scheduler reads.
        },
        object);
  }

 private:
  template <class T>
  static void Insert(std::unordered_set<std::string>& seen, const std::string& key,
                     const char* kind, Cluster& cluster, std::vector<T>& into, T& obj) {
    if (!seen.insert(key).second) {
      cluster.warnings.push_back(std::string(kind) + " " + key +
                                 " is defined more than once; the first definition is used");
      return;
    }
    into.push_back(std::move(obj));
  }

  std::unordered_set<std::string> nodes_, pods_, claims_, templates_, classes_, slices_, rules_;
};

void DefaultNamespace(api::Object& object, const std::string& ns) {
  std::visit(
      [&](auto& obj) {
        using T = std::decay_t<decltype(obj)>;
        if constexpr (std::is_same_v<T, api::Pod> || std::is_same_v<T, api::ResourceClaim> ||
                      std::is_same_v<T, api::ResourceClaimTemplate>) {
          if (obj.metadata.namespace_.empty()) obj.metadata.namespace_ = ns;
        }
      },
      object);
}

}  // namespace

Result<Cluster> ClusterFromManifests(const api::ManifestSet& set,
                                     const std::string& default_namespace) {
  api::ManifestSet copy = set;
  return ClusterFromManifests(std::move(copy), default_namespace);
}

Result<Cluster> ClusterFromManifests(api::ManifestSet&& set, const std::string& default_namespace) {
  if (!set.read_errors.empty()) {
    const api::ManifestReadError& e = set.read_errors.front();
    return Error{e.source + ": " + e.message};
  }
  Cluster cluster;
  Names names(cluster);
  for (api::ManifestDocument& doc : set.documents) {
    if (!doc.decoded.errors.empty()) {
      return Error{doc.source + ": document " + std::to_string(doc.index) + ": " +
                   doc.decoded.errors.front().message};
    }
    for (api::DecodedObject& o : doc.decoded.objects) {
      DefaultNamespace(o.object, default_namespace);
      names.Add(cluster, std::move(o.object));
    }
  }
  return cluster;
}

void AddObjects(Cluster& cluster, std::vector<api::Object> objects) {
  Names names(cluster);
  for (api::Object& o : objects) {
    DefaultNamespace(o, "default");
    names.Add(cluster, std::move(o));
  }
}

void AddMissingNode(Cluster& cluster, const api::ResourceSlice& slice,
                    std::unordered_set<std::string>& known) {
  const std::string* name = slice.spec.node_name ? &*slice.spec.node_name : nullptr;
  if (name == nullptr || name->empty() || !known.insert(*name).second) return;
  api::Node node;
  node.type = {"Node", "v1"};
  node.metadata.name = *name;
  node.metadata.labels["kubernetes.io/hostname"] = *name;
  cluster.nodes.push_back(std::move(node));
  cluster.warnings.push_back("Node " + *name + " is not defined; assumed from ResourceSlice " +
                             slice.metadata.name + " without cpu, memory or pod limits");
}

void AddMissingNodes(Cluster& cluster) {
  std::unordered_set<std::string> known;
  for (const api::Node& n : cluster.nodes) known.insert(n.metadata.name);
  for (const api::ResourceSlice& s : cluster.slices) AddMissingNode(cluster, s, known);
}

}  // namespace dra::scheduler
