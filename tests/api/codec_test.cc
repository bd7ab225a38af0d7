// Decoding, defaulting, conversion and encoding of resource.k8s.io objects.
#include "dra/api/codec.h"

#include <gtest/gtest.h>

#include <string>

#include "dra/json/value.h"

namespace dra::api {
namespace {

constexpr std::int64_t kNow = 1785297600;  // 2026-07-29T04:00:00Z

DecodeOutcome DecodeJsonText(const std::string& text) {
  auto tree = json::ParseJson(text);
  EXPECT_TRUE(tree.ok()) << tree.error();
  DecodeOptions options;
  options.json_source = text;
  options.now = kNow;
  return DecodeDocument(*tree, options);
}

DecodeOutcome DecodeYamlText(const std::string& text) {
  auto docs = json::ParseYaml(text);
  EXPECT_TRUE(docs.ok()) << docs.error();
  DecodeOptions options;
  options.now = kNow;
  DecodeOutcome all;
  for (const auto& d : *docs) {
    if (d.empty) continue;
    DecodeOutcome one = DecodeDocument(d.root, options);
    for (auto& o : one.objects) all.objects.push_back(std::move(o));
    for (auto& e : one.errors) all.errors.push_back(std::move(e));
  }
  return all;
}

std::string Encode(const Object& o, ApiVersion v) {
  auto s = EncodeObject(o, v);
  EXPECT_TRUE(s.ok()) << s.error();
  return s.ok() ? *s : std::string();
}

std::string OnlyError(const DecodeOutcome& out) {
  EXPECT_EQ(out.objects.size(), 0u);
  EXPECT_EQ(out.errors.size(), 1u);
  return out.errors.empty() ? std::string() : out.errors[0].message;
}

// What a server sends: items of a typed list carry no kind or apiVersion,
// and a newer server may send fields this build does not know; client-go's
// decoder takes both.
TEST(CodecTest, ServerItemsWithDefaultKindAndUnknownFields) {
  auto tree = json::ParseJson(
      R"({"metadata":{"name":"s1"},"spec":{"driver":"d","pool":{"name":"p","generation":1,"resourceSliceCount":1},"allNodes":true,"devices":[{"name":"a","futureField":{"x":1}}]}})");
  ASSERT_TRUE(tree.ok());
  DecodeOptions strict;
  DecodeOutcome rejected = DecodeDocument(*tree, strict);
  ASSERT_EQ(rejected.errors.size(), 1u);
  EXPECT_EQ(rejected.errors[0].failure, DecodeFailure::kMissingType);

  DecodeOptions lenient;
  lenient.default_kind = "ResourceSlice";
  lenient.default_api_version = "resource.k8s.io/v1";
  DecodeOutcome unknown = DecodeDocument(*tree, lenient);
  ASSERT_EQ(unknown.errors.size(), 1u);
  EXPECT_NE(unknown.errors[0].message.find("unknown field \"spec.devices[0].futureField\""),
            std::string::npos)
      << unknown.errors[0].message;

  lenient.ignore_unknown_fields = true;
  DecodeOutcome ok = DecodeDocument(*tree, lenient);
  ASSERT_TRUE(ok.errors.empty()) << ok.errors[0].message;
  ASSERT_EQ(ok.objects.size(), 1u);
  const auto& slice = std::get<ResourceSlice>(ok.objects[0].object);
  EXPECT_EQ(slice.type.api_version, "resource.k8s.io/v1");
  EXPECT_EQ(slice.spec.devices[0].name, "a");
}

// Defaulting and encoding of a claim, in v1 and v1beta1: allocationMode,
// count and the toleration's operator are defaulted, `&&` is escaped as Go
// does, and v1beta1 flattens `exactly` into the request.
TEST(CodecTest, ClaimDefaultingAndEncodingMatchesWorkedExample) {
  DecodeOutcome out = DecodeYamlText(R"(apiVersion: resource.k8s.io/v1
kind: ResourceClaim
metadata: {name: c1, namespace: ns1}
spec:
  devices:
    requests:
    - name: gpu
      exactly:
        deviceClassName: gpu.example.com
        selectors:
        - cel: {expression: 'device.driver == "gpu.example.com" && device.attributes["gpu.example.com"].model == "A100"'}
        tolerations: [{key: example.com/maintenance, effect: NoSchedule}]
)");
  ASSERT_EQ(out.errors.size(), 0u) << out.errors[0].message;
  ASSERT_EQ(out.objects.size(), 1u);
  EXPECT_EQ(
      Encode(out.objects[0].object, ApiVersion::kV1),
      R"({"kind":"ResourceClaim","apiVersion":"resource.k8s.io/v1","metadata":{"name":"c1","namespace":"ns1"},)"
      R"("spec":{"devices":{"requests":[{"name":"gpu","exactly":{"deviceClassName":"gpu.example.com","selectors":[{"cel":{"expression":"device.driver == \"gpu.example.com\" \u0026\u0026 device.attributes[\"gpu.example.com\"].model == \"A100\""}}],"allocationMode":"ExactCount","count":1,"tolerations":[{"key":"example.com/maintenance","operator":"Equal","effect":"NoSchedule"}]}}]}},"status":{}})");
  EXPECT_EQ(
      Encode(out.objects[0].object, ApiVersion::kV1beta1),
      R"({"kind":"ResourceClaim","apiVersion":"resource.k8s.io/v1beta1","metadata":{"name":"c1","namespace":"ns1"},)"
      R"("spec":{"devices":{"requests":[{"name":"gpu","deviceClassName":"gpu.example.com","selectors":[{"cel":{"expression":"device.driver == \"gpu.example.com\" \u0026\u0026 device.attributes[\"gpu.example.com\"].model == \"A100\""}}],"allocationMode":"ExactCount","count":1,"tolerations":[{"key":"example.com/maintenance","operator":"Equal","effect":"NoSchedule"}]}]}},"status":{}})");
}

TEST(CodecTest, FirstAvailableRequestInV1beta1HasEmptyDeviceClassName) {
  DecodeOutcome out = DecodeJsonText(
      R"({"apiVersion":"resource.k8s.io/v1","kind":"ResourceClaim","metadata":{"name":"c"},"spec":{"devices":{"requests":[{"name":"r","firstAvailable":[{"name":"a","deviceClassName":"x"}]}]}}})");
  ASSERT_EQ(out.objects.size(), 1u);
  EXPECT_EQ(
      Encode(out.objects[0].object, ApiVersion::kV1beta1),
      R"({"kind":"ResourceClaim","apiVersion":"resource.k8s.io/v1beta1","metadata":{"name":"c"},"spec":{"devices":{"requests":[{"name":"r","deviceClassName":"","firstAvailable":[{"name":"a","deviceClassName":"x","allocationMode":"ExactCount","count":1}]}]}},"status":{}})");
}

// ResourceSlice shapes in v1 and v1beta1: v1beta1 moves device fields under
// `basic`, written as `{}` for a device without any.
TEST(CodecTest, SliceShapesInV1AndV1beta1) {
  const std::string v1 =
      R"({"kind":"ResourceSlice","apiVersion":"resource.k8s.io/v1","metadata":{"name":"s"},"spec":{"driver":"gpu.example.com","pool":{"name":"node-1","generation":0,"resourceSliceCount":1},"nodeName":"node-1","devices":[{"name":"gpu-0","attributes":{"driverVersion":{"version":"1.2.3"},"model":{"string":"A100"}},"capacity":{"memory":{"value":"40Gi"}}},{"name":"x"}]}})";
  DecodeOutcome out = DecodeJsonText(v1);
  ASSERT_EQ(out.objects.size(), 1u);
  EXPECT_EQ(Encode(out.objects[0].object, ApiVersion::kV1), v1);
  const std::string beta =
      R"({"kind":"ResourceSlice","apiVersion":"resource.k8s.io/v1beta1","metadata":{"name":"s"},"spec":{"driver":"gpu.example.com","pool":{"name":"node-1","generation":0,"resourceSliceCount":1},"nodeName":"node-1","devices":[{"name":"gpu-0","basic":{"attributes":{"driverVersion":{"version":"1.2.3"},"model":{"string":"A100"}},"capacity":{"memory":{"value":"40Gi"}}}},{"name":"x","basic":{}}]}})";
  EXPECT_EQ(Encode(out.objects[0].object, ApiVersion::kV1beta1), beta);
  // And back: v1beta1 decodes to the same v1 object.
  DecodeOutcome back = DecodeJsonText(beta);
  ASSERT_EQ(back.objects.size(), 1u);
  EXPECT_EQ(back.objects[0].version, ApiVersion::kV1beta1);
  EXPECT_EQ(Encode(back.objects[0].object, ApiVersion::kV1), v1);
}

TEST(CodecTest, V1beta1DeviceWithoutBasicKeepsOnlyItsName) {
  DecodeOutcome out = DecodeJsonText(
      R"({"kind":"ResourceSlice","apiVersion":"resource.k8s.io/v1beta1","metadata":{"name":"s"},"spec":{"driver":"d","pool":{"name":"p","generation":0,"resourceSliceCount":1},"allNodes":true,"devices":[{"name":"a"}]}})");
  ASSERT_EQ(out.objects.size(), 1u);
  const auto& slice = std::get<ResourceSlice>(out.objects[0].object);
  ASSERT_EQ(slice.spec.devices.size(), 1u);
  EXPECT_EQ(slice.spec.devices[0].name, "a");
  EXPECT_TRUE(slice.spec.devices[0].attributes.empty());
}

TEST(CodecTest, V1beta1EmptyNodeNameAndFalseAllNodesAreUnset) {
  DecodeOutcome out = DecodeJsonText(
      R"({"kind":"ResourceSlice","apiVersion":"resource.k8s.io/v1beta1","metadata":{"name":"s"},"spec":{"driver":"d","pool":{"name":"p","generation":0,"resourceSliceCount":1},"nodeName":"","allNodes":false}})");
  ASSERT_EQ(out.objects.size(), 1u);
  const auto& slice = std::get<ResourceSlice>(out.objects[0].object);
  EXPECT_FALSE(slice.spec.node_name.has_value());
  EXPECT_FALSE(slice.spec.all_nodes.has_value());
  // v1 keeps them: validation reports them there.
  DecodeOutcome v1 = DecodeJsonText(
      R"({"kind":"ResourceSlice","apiVersion":"resource.k8s.io/v1","metadata":{"name":"s"},"spec":{"driver":"d","pool":{"name":"p","generation":0,"resourceSliceCount":1},"nodeName":"","allNodes":false}})");
  const auto& s1 = std::get<ResourceSlice>(v1.objects[0].object);
  EXPECT_EQ(s1.spec.node_name, std::optional<std::string>(""));
  EXPECT_EQ(s1.spec.all_nodes, std::optional<bool>(false));
}

TEST(CodecTest, V1beta1FlatRequestCreatesExactlyOnlyWhenAFieldIsSet) {
  DecodeOutcome out = DecodeJsonText(
      R"({"kind":"ResourceClaim","apiVersion":"resource.k8s.io/v1beta1","metadata":{"name":"c"},"spec":{"devices":{"requests":[{"name":"a"},{"name":"b","selectors":[]},{"name":"c","firstAvailable":[{"name":"x","deviceClassName":"k"}],"count":3}]}}})");
  ASSERT_EQ(out.objects.size(), 1u);
  const auto& claim = std::get<ResourceClaim>(out.objects[0].object);
  ASSERT_EQ(claim.spec.devices.requests.size(), 3u);
  EXPECT_FALSE(claim.spec.devices.requests[0].exactly.has_value());
  ASSERT_TRUE(claim.spec.devices.requests[1].exactly.has_value());
  // v1beta1 defaults only requests that name a class.
  EXPECT_EQ(claim.spec.devices.requests[1].exactly->allocation_mode, "");
  ASSERT_TRUE(claim.spec.devices.requests[2].exactly.has_value());
  EXPECT_EQ(claim.spec.devices.requests[2].exactly->count, 3);
  EXPECT_EQ(claim.spec.devices.requests[2].first_available.size(), 1u);
}

TEST(CodecTest, DefaultsKeepAllModeCountAndNegativeCounts) {
  DecodeOutcome out = DecodeJsonText(
      R"({"kind":"ResourceClaim","apiVersion":"resource.k8s.io/v1","metadata":{"name":"c"},"spec":{"devices":{"requests":[{"name":"a","exactly":{"deviceClassName":"k","allocationMode":"All"}},{"name":"b","exactly":{"deviceClassName":"k","count":-2}},{"name":"c","exactly":{"deviceClassName":"k","count":0}}]}}})");
  const auto& reqs = std::get<ResourceClaim>(out.objects[0].object).spec.devices.requests;
  EXPECT_EQ(reqs[0].exactly->count, 0);
  EXPECT_EQ(reqs[1].exactly->count, -2);
  EXPECT_EQ(reqs[1].exactly->allocation_mode, "ExactCount");
  EXPECT_EQ(reqs[2].exactly->count, 1);
}

TEST(CodecTest, TaintTimeAddedDefaultsToNow) {
  DecodeOutcome out = DecodeYamlText(R"(apiVersion: resource.k8s.io/v1
kind: DeviceTaintRule
metadata: {name: r}
spec:
  taint: {key: k, effect: NoExecute}
)");
  ASSERT_EQ(out.objects.size(), 1u);
  EXPECT_EQ(
      Encode(out.objects[0].object, ApiVersion::kV1),
      R"({"kind":"DeviceTaintRule","apiVersion":"resource.k8s.io/v1","metadata":{"name":"r"},"spec":{"taint":{"key":"k","effect":"NoExecute","timeAdded":"2026-07-29T04:00:00Z"}},"status":{}})");
  EXPECT_FALSE(EncodeObject(out.objects[0].object, ApiVersion::kV1beta1).ok());
}

TEST(CodecTest, QuantitiesKeepTheirStoredText) {
  DecodeOutcome out = DecodeYamlText(R"(apiVersion: resource.k8s.io/v1
kind: ResourceSlice
metadata: {name: s}
spec:
  driver: d
  pool: {name: p, generation: 0, resourceSliceCount: 1}
  allNodes: true
  devices:
  - name: a
    capacity:
      a: {value: 1.5}
      b: {value: "1.5Gi"}
      c: {value: "+1"}
      d: {value: 10000}
      e: {value: " 2Ki "}
)");
  ASSERT_EQ(out.errors.size(), 0u) << out.errors[0].message;
  std::string s = Encode(out.objects[0].object, ApiVersion::kV1);
  EXPECT_NE(
      s.find(
          R"("capacity":{"a":{"value":"1500m"},"b":{"value":"1536Mi"},"c":{"value":"+1"},"d":{"value":"10k"},"e":{"value":"2Ki"}})"),
      std::string::npos)
      << s;
}

TEST(CodecTest, RawExtensionKeepsJsonBytesAndSortsYamlKeys) {
  const std::string text =
      R"({"apiVersion":"resource.k8s.io/v1","kind":"DeviceClass","metadata":{"name":"c"},"spec":{"config":[{"opaque":{"driver":"d","parameters":{ "z": 1,  "a" : [true] }}}]}})";
  DecodeOutcome out = DecodeJsonText(text);
  ASSERT_EQ(out.objects.size(), 1u);
  const auto& cls = std::get<DeviceClass>(out.objects[0].object);
  EXPECT_EQ(cls.spec.config[0].config.opaque->parameters.raw, R"({ "z": 1,  "a" : [true] })");
  // Output is compacted, key order kept.
  EXPECT_NE(
      Encode(out.objects[0].object, ApiVersion::kV1).find(R"("parameters":{"z":1,"a":[true]})"),
      std::string::npos);

  DecodeOutcome yaml = DecodeYamlText(R"(apiVersion: resource.k8s.io/v1
kind: DeviceClass
metadata: {name: c}
spec:
  config:
  - opaque:
      driver: d
      parameters: {z: 1, a: [true]}
)");
  ASSERT_EQ(yaml.objects.size(), 1u);
  EXPECT_EQ(
      std::get<DeviceClass>(yaml.objects[0].object).spec.config[0].config.opaque->parameters.raw,
      R"({"a":[true],"z":1})");
}

// YAML reaches the decoder with keys sorted (sigs.k8s.io/yaml goes through a
// Go map), so strict errors follow key order, not document order.
TEST(CodecTest, UnknownAndDuplicateFieldsAreStrictErrors) {
  EXPECT_EQ(
      OnlyError(DecodeYamlText(R"(apiVersion: resource.k8s.io/v1
kind: ResourceClaim
metadata: {name: c}
spec:
  devices:
    requests:
    - name: a
      exactly: {deviceClassName: k, colour: red}
    - name: b
      name: c
  device: {}
)")),
      R"(ResourceClaim in version "v1" cannot be handled as a ResourceClaim: strict decoding error: unknown field "spec.device", unknown field "spec.devices.requests[0].exactly.colour", duplicate field "spec.devices.requests[1].name")");
}

TEST(CodecTest, FieldNamesAreCaseSensitive) {
  EXPECT_EQ(
      OnlyError(DecodeJsonText(
          R"({"apiVersion":"resource.k8s.io/v1","kind":"DeviceClass","metadata":{"Name":"c"}})")),
      R"(DeviceClass in version "v1" cannot be handled as a DeviceClass: strict decoding error: unknown field "metadata.Name")");
}

TEST(CodecTest, WrongTypesAreReportedInGoWording) {
  EXPECT_EQ(
      OnlyError(DecodeJsonText(
          R"({"apiVersion":"resource.k8s.io/v1","kind":"ResourceSlice","metadata":{"name":"s"},"spec":{"driver":"d","pool":{"name":"p","generation":"1"}}})")),
      R"(ResourceSlice in version "v1" cannot be handled as a ResourceSlice: json: cannot unmarshal string into Go struct field ResourcePool.spec.pool.generation of type int64)");
  EXPECT_EQ(
      OnlyError(DecodeJsonText(
          R"({"apiVersion":"resource.k8s.io/v1","kind":"ResourceSlice","metadata":{"name":"s"},"spec":{"driver":"d","pool":{"name":"p","generation":1.5}}})")),
      R"(ResourceSlice in version "v1" cannot be handled as a ResourceSlice: json: cannot unmarshal number 1.5 into Go struct field ResourcePool.spec.pool.generation of type int64)");
  EXPECT_EQ(
      OnlyError(DecodeJsonText(
          R"({"apiVersion":"resource.k8s.io/v1beta2","kind":"ResourceSlice","metadata":{"name":"s"},"spec":{"devices":{}}})")),
      R"(ResourceSlice in version "v1beta2" cannot be handled as a ResourceSlice: json: cannot unmarshal object into Go struct field ResourceSliceSpec.spec.devices of type []v1beta2.Device)");
}

// The texts a real kube-apiserver v1.37.2 answered for the same bodies
// (tests/cluster/real_manifests.py's generated objects): map keys are not in
// Go's field stack, named string types keep their names, and an embedded
// struct is named in the stack.
TEST(CodecTest, WrongTypesNameMapsNamedTypesAndEmbeddedStructsAsGo) {
  EXPECT_EQ(
      OnlyError(DecodeJsonText(
          R"({"apiVersion":"resource.k8s.io/v1","kind":"ResourceSlice","metadata":{"name":"s"},"spec":{"devices":[{"name":"d","attributes":{"dra.net/pciVendor":{"string":7}}}]}})")),
      R"(ResourceSlice in version "v1" cannot be handled as a ResourceSlice: json: cannot unmarshal number into Go struct field DeviceAttribute.spec.devices.attributes.string of type string)");
  EXPECT_EQ(
      OnlyError(DecodeJsonText(
          R"({"apiVersion":"resource.k8s.io/v1","kind":"ResourceSlice","metadata":{"name":"s"},"spec":{"devices":[{"name":"d","capacity":[]}]}})")),
      R"(ResourceSlice in version "v1" cannot be handled as a ResourceSlice: json: cannot unmarshal array into Go struct field Device.spec.devices.capacity of type map[v1.QualifiedName]v1.DeviceCapacity)");
  EXPECT_EQ(
      OnlyError(DecodeJsonText(
          R"({"apiVersion":"resource.k8s.io/v1","kind":"ResourceClaim","metadata":{"name":"c"},"spec":{"devices":{"requests":[{"name":"r","exactly":{"deviceClassName":"x","tolerations":[{"operator":[]}]}}]}}})")),
      R"(ResourceClaim in version "v1" cannot be handled as a ResourceClaim: json: cannot unmarshal array into Go struct field DeviceToleration.spec.devices.requests.exactly.tolerations.operator of type v1.DeviceTolerationOperator)");
  EXPECT_EQ(
      OnlyError(DecodeJsonText(
          R"({"apiVersion":"resource.k8s.io/v1","kind":"ResourceClaim","metadata":{"name":"c"},"spec":{"devices":{"config":[{"opaque":{"driver":-1}}]}}})")),
      R"(ResourceClaim in version "v1" cannot be handled as a ResourceClaim: json: cannot unmarshal number into Go struct field OpaqueDeviceConfiguration.spec.devices.config.DeviceConfiguration.opaque.driver of type string)");
  EXPECT_EQ(
      OnlyError(DecodeJsonText(
          R"({"apiVersion":"resource.k8s.io/v1","kind":"DeviceClass","metadata":{"name":"c","labels":{"env":-1}}})")),
      R"(DeviceClass in version "v1" cannot be handled as a DeviceClass: json: cannot unmarshal number into Go struct field ObjectMeta.metadata.labels of type string)");
}

TEST(CodecTest, BadQuantityIsADecodeError) {
  EXPECT_EQ(
      OnlyError(DecodeJsonText(
          R"({"apiVersion":"resource.k8s.io/v1","kind":"ResourceSlice","metadata":{"name":"s"},"spec":{"sharedCounters":[{"name":"c","counters":{"m":{"value":"1Kib"}}}]}})")),
      R"(ResourceSlice in version "v1" cannot be handled as a ResourceSlice: quantities must match the regular expression '^([+-]?[0-9.]+)([eEinumkKMGTP]*[-+]?[0-9]*)$')");
}

TEST(CodecTest, NullLeavesFieldsUnset) {
  DecodeOutcome out = DecodeJsonText(
      R"({"apiVersion":"resource.k8s.io/v1","kind":"ResourceClaim","metadata":{"name":null},"spec":{"devices":{"requests":null,"constraints":[]}}})");
  ASSERT_EQ(out.objects.size(), 1u);
  EXPECT_EQ(
      Encode(out.objects[0].object, ApiVersion::kV1),
      R"({"kind":"ResourceClaim","apiVersion":"resource.k8s.io/v1","metadata":{},"spec":{"devices":{"requests":null}},"status":{}})");
}

TEST(CodecTest, UnknownKindsAndMissingTypeMeta) {
  EXPECT_EQ(OnlyError(DecodeJsonText(R"({"apiVersion":"resource.k8s.io/v1","kind":"Gizmo"})")),
            R"(no matches for kind "Gizmo" in version "resource.k8s.io/v1")");
  EXPECT_EQ(OnlyError(DecodeJsonText(
                R"({"apiVersion":"resource.k8s.io/v1beta1","kind":"DeviceTaintRule"})")),
            R"(no matches for kind "DeviceTaintRule" in version "resource.k8s.io/v1beta1")");
  EXPECT_EQ(OnlyError(DecodeJsonText(R"({"metadata":{}})")),
            "error validating data: [apiVersion not set, kind not set]");
  DecodeOutcome out = DecodeJsonText(R"([1])");
  ASSERT_EQ(out.errors.size(), 1u);
  EXPECT_EQ(out.errors[0].failure, DecodeFailure::kNotAnObject);
}

TEST(CodecTest, ListsYieldEveryItem) {
  DecodeOutcome out = DecodeJsonText(
      R"({"apiVersion":"v1","kind":"List","items":[{"apiVersion":"resource.k8s.io/v1","kind":"DeviceClass","metadata":{"name":"a"}},{"apiVersion":"resource.k8s.io/v1","kind":"DeviceClass","metadata":{"name":"b"},"spec":{"bogus":1}}]})");
  ASSERT_EQ(out.objects.size(), 1u);
  ASSERT_EQ(out.errors.size(), 1u);
  EXPECT_EQ(out.errors[0].name, "b");
}

TEST(CodecTest, CoreKindsIgnoreFieldsOutsideTheModel) {
  DecodeOutcome out = DecodeYamlText(R"(apiVersion: v1
kind: Pod
metadata: {name: p, namespace: ns1}
spec:
  restartPolicy: Never
  containers:
  - name: c
    image: busybox
    command: [sleep, "1"]
    resources:
      requests: {cpu: 500m}
      claims: [{name: gpu}]
  resourceClaims:
  - {name: gpu, resourceClaimTemplateName: t}
status:
  phase: Pending
)");
  ASSERT_EQ(out.errors.size(), 0u) << out.errors[0].message;
  const auto& pod = std::get<Pod>(out.objects[0].object);
  EXPECT_EQ(pod.spec.containers[0].resources.requests.at("cpu").String(), "500m");
  EXPECT_EQ(pod.spec.resource_claims[0].resource_claim_template_name,
            std::optional<std::string>("t"));
  EXPECT_EQ(pod.status.phase, "Pending");
}

// Every kind survives decode → encode → decode in every version that serves it.
TEST(CodecTest, RoundTripsEveryKindInEveryVersion) {
  const std::string docs[] = {
      R"({"kind":"DeviceClass","apiVersion":"resource.k8s.io/v1","metadata":{"name":"c","labels":{"a":"b"}},"spec":{"selectors":[{"cel":{"expression":"true"}}],"config":[{"opaque":{"driver":"d","parameters":{"a":1}}}],"extendedResourceName":"example.com/gpu"}})",
      R"({"kind":"ResourceClaimTemplate","apiVersion":"resource.k8s.io/v1","metadata":{"name":"t","namespace":"n"},"spec":{"metadata":{"labels":{"x":"y"}},"spec":{"devices":{"requests":[{"name":"r","exactly":{"deviceClassName":"k","allocationMode":"ExactCount","count":2,"adminAccess":true,"capacity":{"requests":{"memory":"1Gi"}}}}],"constraints":[{"requests":["r"],"matchAttribute":"d/x"}],"config":[{"requests":["r"],"opaque":{"driver":"d","parameters":{}}}]}}}})",
      R"({"kind":"ResourceClaim","apiVersion":"resource.k8s.io/v1","metadata":{"name":"c","namespace":"n","finalizers":["resource.kubernetes.io/delete-protection"]},"spec":{"devices":{"requests":[{"name":"r","exactly":{"deviceClassName":"k","allocationMode":"ExactCount","count":1}}]}},"status":{"allocation":{"devices":{"results":[{"request":"r","driver":"d","pool":"p","device":"x","shareID":"01234567-89ab-cdef-0123-456789abcdef","consumedCapacity":{"memory":"1Gi"}}],"config":[{"source":"FromClass","requests":["r"],"opaque":{"driver":"d","parameters":{"k":"v"}}}]},"nodeSelector":{"nodeSelectorTerms":[{"matchFields":[{"key":"metadata.name","operator":"In","values":["n1"]}]}]},"allocationTimestamp":"2026-01-02T03:04:05Z"},"reservedFor":[{"resource":"pods","name":"p","uid":"u"}],"devices":[{"driver":"d","pool":"p","device":"x","conditions":null,"data":{"a":"b"},"networkData":{"interfaceName":"eth0","ips":["10.0.0.1/24"]}}]}})",
      R"({"kind":"ResourceSlice","apiVersion":"resource.k8s.io/v1","metadata":{"name":"s"},"spec":{"driver":"d","pool":{"name":"p","generation":3,"resourceSliceCount":2},"perDeviceNodeSelection":true,"sharedCounters":[{"name":"cs","counters":{"mem":{"value":"8Gi"}}}]}})",
      R"({"kind":"ResourceSlice","apiVersion":"resource.k8s.io/v1","metadata":{"name":"s"},"spec":{"driver":"d","pool":{"name":"p","generation":3,"resourceSliceCount":2},"devices":[{"name":"a","attributes":{"b":{"bool":false},"i":{"int":-3},"l":{"ints":[1,2]}},"capacity":{"c":{"value":"10","requestPolicy":{"default":"1","validValues":["1","2"]}},"r":{"value":"10","requestPolicy":{"default":"2","validRange":{"min":"1","max":"8","step":"1"}}}},"consumesCounters":[{"counterSet":"cs","counters":{"mem":{"value":"1Gi"}}}],"nodeSelector":{"nodeSelectorTerms":[{"matchExpressions":[{"key":"k","operator":"Exists"}]}]},"taints":[{"key":"k","value":"v","effect":"NoSchedule","timeAdded":"2026-01-02T03:04:05Z"}],"bindsToNode":true,"bindingConditions":["a"],"bindingFailureConditions":["b"],"allowMultipleAllocations":true,"nodeAllocatableResources":{"cpu":{"mapping":{"capacityKey":"c","capacityMultiplier":"1"}}}}],"perDeviceNodeSelection":true}})",
      R"({"kind":"DeviceTaintRule","apiVersion":"resource.k8s.io/v1","metadata":{"name":"r"},"spec":{"deviceSelector":{"driver":"d","pool":"p","device":"x"},"taint":{"key":"k","effect":"NoExecute","timeAdded":"2026-01-02T03:04:05Z"}},"status":{"conditions":[{"type":"EvictionInProgress","status":"True","observedGeneration":1,"lastTransitionTime":"2026-01-02T03:04:05Z","reason":"Done","message":""}]}})",
  };
  for (const std::string& doc : docs) {
    DecodeOutcome out = DecodeJsonText(doc);
    ASSERT_EQ(out.errors.size(), 0u) << out.errors[0].message;
    ASSERT_EQ(out.objects.size(), 1u);
    EXPECT_EQ(Encode(out.objects[0].object, ApiVersion::kV1), doc);
    for (ApiVersion v : {ApiVersion::kV1beta2, ApiVersion::kV1beta1}) {
      auto encoded = EncodeObject(out.objects[0].object, v);
      if (!encoded.ok()) {
        EXPECT_EQ(KindOf(out.objects[0].object), "DeviceTaintRule");
        continue;
      }
      DecodeOutcome again = DecodeJsonText(*encoded);
      ASSERT_EQ(again.errors.size(), 0u) << again.errors[0].message << "\n" << *encoded;
      EXPECT_EQ(Encode(again.objects[0].object, ApiVersion::kV1), doc) << *encoded;
    }
  }
}

}  // namespace
}  // namespace dra::api
