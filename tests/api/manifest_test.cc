// ParseManifestText: kubectl's stream rules (k8s.io/apimachinery's
// YAMLOrJSONDecoder as of v0.37) and the routing of kinds dra does not model.
#include "dra/api/manifest.h"

#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "dra/api/kinds.h"

namespace dra::api {
namespace {

ManifestSet Parse(std::string_view text, ManifestOptions options = {}) {
  ManifestSet set;
  ParseManifestText("in", text, options, set);
  return set;
}

std::vector<std::string> Names(const ManifestSet& set) {
  std::vector<std::string> out;
  for (const ManifestDocument& d : set.documents) {
    for (const DecodedObject& o : d.decoded.objects) out.push_back(MetaOf(o.object).name);
  }
  return out;
}

constexpr std::string_view kClassA =
    R"({"apiVersion":"resource.k8s.io/v1","kind":"DeviceClass","metadata":{"name":"a"}})";
constexpr std::string_view kClassB =
    R"({"apiVersion":"resource.k8s.io/v1","kind":"DeviceClass","metadata":{"name":"b"}})";

TEST(ManifestStream, ConcatenatedJsonObjectsAreSeveralDocuments) {
  for (std::string sep : {"", "\n", " \n\t "}) {
    ManifestSet set = Parse(std::string(kClassA) + sep + std::string(kClassB) + "\n");
    EXPECT_TRUE(set.read_errors.empty()) << set.read_errors.front().message;
    EXPECT_EQ(Names(set), (std::vector<std::string>{"a", "b"})) << "separator " << sep.size();
  }
}

TEST(ManifestStream, JsonObjectFollowedByYamlDocuments) {
  std::string text = std::string(kClassA) +
                     "\n---\napiVersion: resource.k8s.io/v1\nkind: DeviceClass\n"
                     "metadata:\n  name: b\n";
  ManifestSet set = Parse(text);
  ASSERT_TRUE(set.read_errors.empty()) << set.read_errors.front().message;
  EXPECT_EQ(Names(set), (std::vector<std::string>{"a", "b"}));
  // The YAML document's position is in the whole file.
  EXPECT_EQ(set.documents[1].decoded.objects[0].pos.line, 3u);
  // Without a separator too.
  set = Parse(std::string(kClassA) +
              "\napiVersion: resource.k8s.io/v1\nkind: DeviceClass\nmetadata: {name: b}\n");
  ASSERT_TRUE(set.read_errors.empty()) << set.read_errors.front().message;
  EXPECT_EQ(Names(set), (std::vector<std::string>{"a", "b"}));
}

TEST(ManifestStream, FlowStyleYamlThatStartsWithABrace) {
  ManifestSet set =
      Parse("{apiVersion: resource.k8s.io/v1, kind: DeviceClass, metadata: {name: a}}\n");
  ASSERT_TRUE(set.read_errors.empty()) << set.read_errors.front().message;
  EXPECT_EQ(Names(set), (std::vector<std::string>{"a"}));
}

TEST(ManifestStream, AnErrorAfterTwoJsonObjectsEndsTheStreamAfterThem) {
  ManifestSet set = Parse(std::string(kClassA) + "\n" + std::string(kClassB) + "\n---\n");
  EXPECT_EQ(Names(set), (std::vector<std::string>{"a", "b"}));
  ASSERT_EQ(set.read_errors.size(), 1u);
  EXPECT_NE(set.read_errors[0].message.find("invalid character '-' in numeric literal"),
            std::string::npos)
      << set.read_errors[0].message;
}

TEST(ManifestStream, NullJsonValuesAreSkipped) {
  ManifestSet set = Parse(std::string(kClassA) + " null " + std::string(kClassB));
  ASSERT_TRUE(set.read_errors.empty()) << set.read_errors.front().message;
  EXPECT_EQ(Names(set), (std::vector<std::string>{"a", "b"}));
}

TEST(ManifestStream, ServedKindsDraDoesNotModelPassThroughAsWritten) {
  ManifestSet set = Parse(R"(apiVersion: apps/v1
kind: Deployment
metadata: {name: web, namespace: team}
spec: {replicas: 2}
---
apiVersion: kubeflow.org/v2beta1
kind: MPIJob
metadata: {name: train}
---
apiVersion: v1
kind: Pod
metadata: {name: p}
spec: {containers: [{name: c, image: i, command: [sleep]}]}
)");
  ASSERT_TRUE(set.read_errors.empty());
  ASSERT_EQ(set.unmodeled.size(), 1u);
  EXPECT_EQ(set.unmodeled[0].kind, "Deployment");
  EXPECT_EQ(set.unmodeled[0].name, "web");
  EXPECT_EQ(set.unmodeled[0].namespace_, "team");
  ASSERT_NE(set.unmodeled[0].served, nullptr);
  EXPECT_EQ(set.unmodeled[0].served->resource, "deployments");
  EXPECT_TRUE(set.unmodeled[0].served->namespaced);
  ASSERT_NE(set.unmodeled[0].root.Find("spec"), nullptr);
  // A kind the server does not serve fails as the server fails it.
  ASSERT_EQ(set.documents.size(), 2u);
  ASSERT_EQ(set.documents[0].decoded.errors.size(), 1u);
  EXPECT_EQ(set.documents[0].decoded.errors[0].message,
            "no matches for kind \"MPIJob\" in version \"kubeflow.org/v2beta1\"");
  EXPECT_EQ(Names(set), (std::vector<std::string>{"p"}));

  ManifestOptions raw;
  raw.raw_core_kinds = true;
  set = Parse("apiVersion: v1\nkind: Pod\nmetadata: {name: p}\n", raw);
  ASSERT_EQ(set.unmodeled.size(), 1u);
  EXPECT_TRUE(set.documents.empty());
}

TEST(ManifestStream, ListItemsOfUnmodeledKindsLeaveTheList) {
  ManifestSet set = Parse(R"(apiVersion: v1
kind: List
items:
- apiVersion: v1
  kind: ConfigMap
  metadata: {name: cm}
- apiVersion: resource.k8s.io/v1
  kind: DeviceClass
  metadata: {name: a}
)");
  ASSERT_TRUE(set.read_errors.empty());
  ASSERT_EQ(set.unmodeled.size(), 1u);
  EXPECT_EQ(set.unmodeled[0].kind, "ConfigMap");
  EXPECT_EQ(Names(set), (std::vector<std::string>{"a"}));
  for (const ManifestDocument& d : set.documents) EXPECT_TRUE(d.decoded.errors.empty());
}

}  // namespace
}  // namespace dra::api
