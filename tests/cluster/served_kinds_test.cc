// api::BuiltinServedKinds() against the discovery documents of a real
// kube-apiserver v1.37.2 with its default --runtime-config for every group but
// resource.k8s.io (whose versions dra models itself): the same kinds, with the
// same resource names and scope, so that `dra validate` passes a Deployment
// through exactly when the server would accept its kind.
#include <gtest/gtest.h>

#include <set>
#include <string>
#include <tuple>

#include "dra/api/kinds.h"
#include "dra/json/value.h"
#include "kube/test_cluster.h"

namespace dra {
namespace {

using testing_cluster::TestCluster;

using Entry = std::tuple<std::string, std::string, std::string, bool>;

json::Value Get(TestCluster& cluster, const std::string& path) {
  auto r = cluster.Kubectl({"get", "--raw", path});
  EXPECT_TRUE(r.ok()) << path << ": " << r.output;
  Result<json::Value> doc = json::ParseJson(r.output);
  EXPECT_TRUE(doc.ok()) << path << ": " << doc.error();
  return doc.ok() ? std::move(*doc) : json::Value::Object();
}

std::string Text(const json::Value& object, std::string_view key) {
  const json::Value* v = object.is_object() ? object.Find(key) : nullptr;
  return v != nullptr && v->is_string() ? v->text : "";
}

// The kinds of one group version's APIResourceList, subresources left out.
void AddResources(const json::Value& list, const std::string& group_version, std::set<Entry>& out) {
  const json::Value* resources = list.Find("resources");
  ASSERT_NE(resources, nullptr) << group_version;
  for (const json::Value& r : resources->items) {
    std::string name = Text(r, "name");
    if (name.find('/') != std::string::npos) continue;
    const json::Value* namespaced = r.Find("namespaced");
    out.emplace(group_version, Text(r, "kind"), name, namespaced != nullptr && namespaced->boolean);
  }
}

TEST(ServedKinds, TableEqualsTheDiscoveryOfARealApiserver) {
  if (std::string why = TestCluster::SkipReason(); !why.empty()) GTEST_SKIP() << why;
  testing_cluster::ClusterOptions options;
  // Only resource.k8s.io/v1 of that group: the others are not in the table.
  options.runtime_config = "resource.k8s.io/v1=true";
  std::string error;
  auto cluster = TestCluster::Start(options, &error);
  ASSERT_TRUE(cluster) << error;

  std::set<Entry> served;
  AddResources(Get(*cluster, "/api/v1"), "v1", served);
  json::Value groups = Get(*cluster, "/apis");
  const json::Value* list = groups.Find("groups");
  ASSERT_NE(list, nullptr);
  for (const json::Value& g : list->items) {
    if (Text(g, "name") == "resource.k8s.io") continue;
    for (const json::Value& v : g.Find("versions")->items) {
      std::string gv = Text(v, "groupVersion");
      AddResources(Get(*cluster, "/apis/" + gv), gv, served);
    }
  }

  std::set<Entry> table;
  for (const api::ServedKind& k : api::BuiltinServedKinds()) {
    EXPECT_TRUE(table.emplace(k.api_version, k.kind, k.resource, k.namespaced).second)
        << "twice in the table: " << k.api_version << " " << k.kind;
    EXPECT_EQ(api::FindServedKind(k.api_version, k.kind), &k) << k.api_version << " " << k.kind;
  }
  for (const Entry& e : served) {
    EXPECT_TRUE(table.contains(e))
        << "served but not in the table: " << std::get<0>(e) << " " << std::get<1>(e) << " ("
        << std::get<2>(e) << ", namespaced " << std::get<3>(e) << ")";
  }
  for (const Entry& e : table) {
    EXPECT_TRUE(served.contains(e))
        << "in the table but not served: " << std::get<0>(e) << " " << std::get<1>(e);
  }
  EXPECT_FALSE(api::IsDecodedKind("apps/v1", "Deployment"));
  EXPECT_TRUE(api::IsDecodedKind("resource.k8s.io/v1", "ResourceClaim"));
  EXPECT_EQ(api::FindServedKind("kubeflow.org/v2beta1", "MPIJob"), nullptr);
}

}  // namespace
}  // namespace dra
