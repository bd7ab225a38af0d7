#include "dra/kube/stored_object.h"

#include <gtest/gtest.h>

#include <variant>

namespace dra::kube {
namespace {

TEST(StoredObjectTest, RoundTripsAWatchEventsObject) {
  auto tree = json::ParseJson(
      R"({"kind":"ResourceSlice","apiVersion":"resource.k8s.io/v1","metadata":{"name":"s","resourceVersion":"7"},
          "spec":{"driver":"d","nodeName":"n","pool":{"name":"p","generation":2,"resourceSliceCount":1},
                  "devices":[{"name":"gpu-0","attributes":{"model":{"string":"H100"}},"capacity":{"memory":{"value":"80Gi"}},"newField":1}]}})");
  ASSERT_TRUE(tree.ok());
  auto stored = StoreObject(std::move(tree).value());
  ASSERT_TRUE(stored.ok());
  EXPECT_EQ((*stored)->json.find('\n'), std::string::npos);  // compact
  auto decoded = DecodeStored(**stored, ResourceSlices(api::ApiVersion::kV1));
  ASSERT_TRUE(decoded.ok()) << decoded.error().message;
  const auto& slice = std::get<api::ResourceSlice>(*decoded);
  EXPECT_EQ(slice.metadata.resource_version, "7");
  EXPECT_EQ(slice.spec.pool.generation, 2);
  EXPECT_EQ(slice.spec.devices[0].attributes.at("model").string_value, "H100");
  EXPECT_EQ(slice.spec.devices[0].capacity.at("memory").value.String(), "80Gi");
}

TEST(StoredObjectTest, RejectsWhatIsNotAnObject) {
  EXPECT_FALSE(StoreObject(json::Value::Array()).ok());
  StoredObject garbage{"{not json"};
  EXPECT_FALSE(DecodeStored(garbage, ResourceSlices(api::ApiVersion::kV1)).ok());
}

// List items and watch objects of a typed list carry no kind or apiVersion.
TEST(StoredObjectTest, ItemsWithoutTypeMetaTakeTheWatchedType) {
  auto tree = json::ParseJson(
      R"({"metadata":{"name":"s"},"spec":{"driver":"d","allNodes":true,"pool":{"name":"p","generation":1,"resourceSliceCount":1},"devices":[{"name":"a"}]}})");
  ASSERT_TRUE(tree.ok());
  auto stored = StoreObject(std::move(tree).value());
  ASSERT_TRUE(stored.ok());
  auto decoded = DecodeStored(**stored, ResourceSlices(api::ApiVersion::kV1beta2));
  ASSERT_TRUE(decoded.ok()) << decoded.error().message;
  EXPECT_EQ(std::get<api::ResourceSlice>(*decoded).type.api_version, "resource.k8s.io/v1beta2");
}

}  // namespace
}  // namespace dra::kube
