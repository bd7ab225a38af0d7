// ResourcePoolStatusRequest (resource.k8s.io/v1alpha3): decoding, defaults,
// create preparation and validation. Expected texts are those of
// k8s.io/apimachinery's validate package (RequiredValue, Minimum, Maximum,
// the long-name-caseless and resource-pool-name formats) as kube-apiserver
// v1.37.2 returns them; cluster.real_manifests checks them against the real
// server.
#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "api/validation_test_support.h"
#include "dra/api/codec.h"
#include "dra/api/validation.h"
#include "dra/json/value.h"

namespace dra::api {
namespace {

using testing::Strings;
using testing::Texts;

DecodeOutcome Decode(const std::string& yaml) {
  auto docs = json::ParseYaml(yaml);
  EXPECT_TRUE(docs.ok()) << docs.error();
  DecodeOptions options;
  return DecodeDocument((*docs)[0].root, options);
}

ResourcePoolStatusRequest Request() {
  ResourcePoolStatusRequest request;
  request.metadata.name = "gpu-pools";
  request.spec.driver = "gpu.example.com";
  request.spec.limit = 100;
  return request;
}

Strings Validate(const ResourcePoolStatusRequest& request, const FeatureGates& gates = {}) {
  ValidationOptions options;
  options.gates = gates;
  options.request_version = "v1alpha3";
  return Texts(ValidateForCreate(request, options));
}

TEST(ResourcePoolStatusRequestTest, DecodesInV1alpha3OnlyWithTheDefaultLimit) {
  DecodeOutcome out = Decode(R"(apiVersion: resource.k8s.io/v1alpha3
kind: ResourcePoolStatusRequest
metadata: {name: all-gpus}
spec: {driver: gpu.example.com, poolName: node-1}
)");
  ASSERT_EQ(out.errors.size(), 0u) << out.errors[0].message;
  ASSERT_EQ(out.objects.size(), 1u);
  EXPECT_EQ(KindOf(out.objects[0].object), "ResourcePoolStatusRequest");
  const auto& request = std::get<ResourcePoolStatusRequest>(out.objects[0].object);
  EXPECT_EQ(request.spec.limit, 100);
  EXPECT_EQ(request.spec.pool_name, "node-1");
  EXPECT_FALSE(request.status.has_value());
  Result<std::string> encoded = EncodeObject(out.objects[0].object, ApiVersion::kV1alpha3);
  ASSERT_TRUE(encoded.ok()) << encoded.error();
  EXPECT_EQ(*encoded,
            R"({"kind":"ResourcePoolStatusRequest","apiVersion":"resource.k8s.io/v1alpha3",)"
            R"("metadata":{"name":"all-gpus"},)"
            R"("spec":{"driver":"gpu.example.com","poolName":"node-1","limit":100}})");
  EXPECT_FALSE(EncodeObject(out.objects[0].object, ApiVersion::kV1).ok());

  DecodeOutcome v1 = Decode(R"(apiVersion: resource.k8s.io/v1
kind: ResourcePoolStatusRequest
metadata: {name: x}
spec: {driver: gpu.example.com}
)");
  ASSERT_EQ(v1.errors.size(), 1u);
  EXPECT_EQ(v1.errors[0].message,
            R"(no matches for kind "ResourcePoolStatusRequest" in version "resource.k8s.io/v1")");
}

TEST(ResourcePoolStatusRequestTest, StatusFieldsAreDecodedStrictly) {
  DecodeOutcome out = Decode(R"(apiVersion: resource.k8s.io/v1alpha3
kind: ResourcePoolStatusRequest
metadata: {name: x}
spec: {driver: gpu.example.com}
status:
  poolCount: 1
  pools:
  - {driver: gpu.example.com, poolName: p, generation: 2, totalDevices: "8"}
)");
  ASSERT_EQ(out.errors.size(), 1u);
  EXPECT_EQ(out.errors[0].message,
            "ResourcePoolStatusRequest in version \"v1alpha3\" cannot be handled as a "
            "ResourcePoolStatusRequest: json: cannot unmarshal string into Go struct field "
            "PoolStatus.status.pools.totalDevices of type int32");
}

TEST(ResourcePoolStatusRequestTest, ValidRequestAndClearedStatus) {
  EXPECT_EQ(Validate(Request()), Strings{});
  ResourcePoolStatusRequest with_status = Request();
  with_status.status.emplace();
  with_status.status->pool_count = -5;
  EXPECT_EQ(Validate(with_status), Strings{});
  PrepareForCreate(with_status, FeatureGates{});
  EXPECT_FALSE(with_status.status.has_value());
}

TEST(ResourcePoolStatusRequestTest, SpecRules) {
  ResourcePoolStatusRequest request = Request();
  request.spec.driver = "";
  EXPECT_EQ(Validate(request), Strings{"spec.driver: Required value"});
  request.spec.driver = "GPU.example.com";  // caseless: accepted
  EXPECT_EQ(Validate(request), Strings{});
  request.spec.driver = "gpu_example";
  EXPECT_EQ(Validate(request), Strings{"spec.driver: Invalid value: \"gpu_example\": " +
                                       testing::kCaselessSubdomainMsg});

  request = Request();
  request.spec.pool_name = "a//b";
  EXPECT_EQ(Validate(request),
            Strings{R"(spec.poolName: Invalid value: "a//b": segment 1: must not be empty)"});

  request = Request();
  request.spec.limit = 0;
  EXPECT_EQ(Validate(request),
            Strings{"spec.limit: Invalid value: 0: must be greater than or equal to 1"});
  request.spec.limit = 1001;
  EXPECT_EQ(Validate(request),
            Strings{"spec.limit: Invalid value: 1001: must be less than or equal to 1000"});

  request = Request();
  request.metadata.name = "Bad";
  request.metadata.namespace_ = "ns";
  EXPECT_EQ(Validate(request).size(), 2u);  // cluster-scoped, and a bad name
}

TEST(ResourcePoolStatusRequestTest, DefaultPartitionTypeAttributeFollowsItsGate) {
  ResourcePoolStatusRequest request = Request();
  request.spec.default_partition_type_attribute = "profile";
  // Off (the default): dropped before validation.
  EXPECT_EQ(Validate(request), Strings{});
  FeatureGates on;
  on.Set(Feature::kDRAPartitionableDevicesType, true);
  EXPECT_EQ(Validate(request, on),
            Strings{"spec.defaultPartitionTypeAttribute: Invalid value: \"profile\": a fully "
                    "qualified name must be a domain and a name separated by a slash"});
  request.spec.default_partition_type_attribute = "gpu.example.com/profile";
  EXPECT_EQ(Validate(request, on), Strings{});
}

}  // namespace
}  // namespace dra::api
