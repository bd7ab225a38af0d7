// ResourceClaim create and update validation.
#include <gtest/gtest.h>

#include <string>

#include "dra/api/validation.h"
#include "validation_test_support.h"

namespace dra::api {
namespace {

using testing::CelSelector;
using testing::ExactRequest;
using testing::FirstAvailableRequest;
using testing::kBadReferenceMsg;
using testing::kCaselessSubdomainMsg;
using testing::kLabelKeyNameMsg;
using testing::kLabelMsg;
using testing::kLabelValueMsg;
using testing::kSubdomainMsg;
using testing::OpaqueConfig;
using testing::Strings;
using testing::SubRequest;
using testing::Texts;
using testing::ValidClaim;

ValidationOptions Beta1() {
  ValidationOptions options;
  options.request_version = "v1beta1";
  return options;
}

DeviceToleration Toleration(std::string key, std::string op, std::string value,
                            std::string effect) {
  DeviceToleration t;
  t.key = std::move(key);
  t.operator_ = std::move(op);
  t.value = std::move(value);
  t.effect = std::move(effect);
  return t;
}

DeviceConstraint Constraint(std::vector<std::string> requests) {
  DeviceConstraint c;
  for (std::string& r : requests) c.requests.push_back(std::move(r));
  c.match_attribute = "gpu.example.com/model";
  return c;
}

TEST(ResourceClaimValidationTest, ValidClaimHasNoErrors) {
  EXPECT_EQ(Texts(ValidateResourceClaim(ValidClaim(), {})), Strings{});
}

// A request named `GPU` without a class: both errors in one message, as
// kube-apiserver words it.
TEST(ResourceClaimValidationTest, BadRequestNameAndNoClass) {
  ResourceClaim claim = ValidClaim();
  claim.spec.devices.requests[0] = ExactRequest("GPU", "");
  const FieldErrors errors = ValidateResourceClaim(claim, {});
  EXPECT_EQ(
      InvalidObjectMessage("ResourceClaim", "resource.k8s.io", "c1", errors),
      R"(ResourceClaim.resource.k8s.io "c1" is invalid: [spec.devices.requests[0].name: Invalid value: "GPU": )" +
          kLabelMsg + ", spec.devices.requests[0].exactly.deviceClassName: Required value]");
}

TEST(ResourceClaimValidationTest, BadDeviceClassNameUsesUtilTexts) {
  ResourceClaim claim = ValidClaim();
  claim.spec.devices.requests[0].exactly->device_class_name = std::string(254, 'a');
  EXPECT_EQ(Texts(ValidateResourceClaim(claim, {})),
            Strings{"spec.devices.requests[0].exactly.deviceClassName: Invalid value: \"" +
                    std::string(254, 'a') + "\": must be no more than 253 characters"});
}

TEST(ResourceClaimValidationTest, ExactlyOneOfExactlyOrFirstAvailable) {
  ResourceClaim claim = ValidClaim();
  claim.spec.devices.requests[0].exactly.reset();
  claim.spec.devices.requests.push_back(ExactRequest("both"));
  claim.spec.devices.requests[1].first_available.push_back(SubRequest("sub"));
  EXPECT_EQ(Texts(ValidateResourceClaim(claim, {})),
            (Strings{"spec.devices.requests[0]: Required value: exactly one of `exactly` or "
                     "`firstAvailable` is required",
                     "spec.devices.requests[1]: Invalid value: null: exactly one of `exactly` or "
                     "`firstAvailable` is required, but multiple fields are set"}));
}

TEST(ResourceClaimValidationTest, TooManyRequestsIsTheOnlyError) {
  ResourceClaim claim = ValidClaim();
  claim.spec.devices.requests.clear();
  for (int i = 0; i < 33; ++i) claim.spec.devices.requests.push_back(ExactRequest("BAD", ""));
  EXPECT_EQ(Texts(ValidateResourceClaim(claim, {})),
            Strings{"spec.devices.requests: Too many: 33: must have at most 32 items"});
}

TEST(ResourceClaimValidationTest, DuplicateRequestIsReportedWithItsJson) {
  ResourceClaim claim = ValidClaim();
  claim.spec.devices.requests.push_back(ExactRequest("gpu", "other"));
  claim.spec.devices.requests.push_back(ExactRequest("gpu", "third"));
  EXPECT_EQ(
      Texts(ValidateResourceClaim(claim, {})),
      (Strings{
          R"(spec.devices.requests[1]: Duplicate value: {"name":"gpu","exactly":{"deviceClassName":"other","allocationMode":"ExactCount","count":1}})",
          R"(spec.devices.requests[2]: Duplicate value: {"name":"gpu","exactly":{"deviceClassName":"third","allocationMode":"ExactCount","count":1}})",
      }));
  EXPECT_EQ(
      Texts(ValidateResourceClaim(claim, Beta1())),
      (Strings{
          R"(spec.devices.requests[1]: Duplicate value: {"name":"gpu","deviceClassName":"other","allocationMode":"ExactCount","count":1})",
          R"(spec.devices.requests[2]: Duplicate value: {"name":"gpu","deviceClassName":"third","allocationMode":"ExactCount","count":1})",
      }));
}

TEST(ResourceClaimValidationTest, AllocationModes) {
  ResourceClaim claim = ValidClaim();
  claim.spec.devices.requests.clear();
  auto add = [&claim](std::string name, std::string mode, std::int64_t count) {
    DeviceRequest request = ExactRequest(std::move(name));
    request.exactly->allocation_mode = std::move(mode);
    request.exactly->count = count;
    claim.spec.devices.requests.push_back(request);
  };
  add("all", "All", 2);
  add("exact", "ExactCount", 0);
  add("other", "Some", 1);
  add("empty", "", 1);
  add("fine", "All", 0);
  EXPECT_EQ(
      Texts(ValidateResourceClaim(claim, {})),
      (Strings{
          "spec.devices.requests[0].exactly.count: Invalid value: 2: must not be "
          "specified when allocationMode is 'All'",
          "spec.devices.requests[1].exactly.count: Invalid value: 0: must be greater than "
          "zero",
          R"(spec.devices.requests[3].exactly.allocationMode: Unsupported value: "": supported values: "All", "ExactCount")",
          R"(spec.devices.requests[2].exactly.allocationMode: Unsupported value: "Some": supported values: "All", "ExactCount")",
      }));
}

// v1beta1 requests are flat: declarative paths lose `.exactly`, hand-written
// ones keep the v1 shape.
TEST(ResourceClaimValidationTest, Beta1DeclarativePathsAreFlat) {
  ResourceClaim claim = ValidClaim();
  claim.spec.devices.requests[0].exactly->allocation_mode = "Some";
  claim.spec.devices.requests[0].exactly->tolerations.push_back(
      Toleration("a", "Exists", "v", "Bad"));
  EXPECT_EQ(
      Texts(ValidateResourceClaim(claim, Beta1())),
      (Strings{
          R"(spec.devices.requests[0].exactly.tolerations[0].value: Invalid value: "v": must be empty for operator `Exists`)",
          R"(spec.devices.requests[0].allocationMode: Unsupported value: "Some": supported values: "All", "ExactCount")",
          R"(spec.devices.requests[0].tolerations[0].effect: Unsupported value: "Bad": supported values: "NoExecute", "NoSchedule", "None")",
      }));
}

TEST(ResourceClaimValidationTest, Beta1VisitsTolerationsAfterFirstAvailable) {
  ResourceClaim claim = ValidClaim();
  DeviceRequest& request = claim.spec.devices.requests[0];
  request.exactly->tolerations.push_back(Toleration("", "Exists", "", "Bad"));
  request.first_available.push_back(SubRequest("sub", ""));
  const std::string effect_v1 =
      R"(spec.devices.requests[0].exactly.tolerations[0].effect: Unsupported value: "Bad": supported values: "NoExecute", "NoSchedule", "None")";
  const std::string class_required =
      "spec.devices.requests[0].firstAvailable[0].deviceClassName: Required value";
  const std::string both =
      "spec.devices.requests[0]: Invalid value: null: exactly one of `exactly` or "
      "`firstAvailable` is required, but multiple fields are set";
  EXPECT_EQ(Texts(ValidateResourceClaim(claim, {})), (Strings{both, effect_v1, class_required}));
  EXPECT_EQ(
      Texts(ValidateResourceClaim(claim, Beta1())),
      (Strings{
          both, class_required,
          R"(spec.devices.requests[0].tolerations[0].effect: Unsupported value: "Bad": supported values: "NoExecute", "NoSchedule", "None")"}));
}

TEST(ResourceClaimValidationTest, Tolerations) {
  ResourceClaim claim = ValidClaim();
  auto& tolerations = claim.spec.devices.requests[0].exactly->tolerations;
  tolerations.push_back(Toleration("example.com/a", "Exists", "x", ""));
  tolerations.push_back(Toleration("", "Equal", "bad value", "NoSchedule"));
  tolerations.push_back(Toleration("bad key", "Equal", "", ""));
  tolerations.push_back(Toleration("", "In", "", ""));
  tolerations.push_back(Toleration("", "", "", ""));
  tolerations.push_back(Toleration("", "Exists", "", "Never"));
  const std::string t = "spec.devices.requests[0].exactly.tolerations";
  EXPECT_EQ(
      Texts(ValidateResourceClaim(claim, {})),
      (Strings{
          t + R"([0].value: Invalid value: "x": must be empty for operator `Exists`)",
          t + R"([1].value: Invalid value: "bad value": )" + kLabelValueMsg,
          t + "[4].operator: Required value",
          t + R"([2].key: Invalid value: "bad key": )" + kLabelKeyNameMsg,
          t + R"([3].operator: Unsupported value: "In": supported values: "Equal", "Exists")",
          t + R"([5].effect: Unsupported value: "Never": supported values: "NoExecute", "NoSchedule", "None")",
      }));
}

TEST(ResourceClaimValidationTest, TolerationCountIsNotLimited) {
  ResourceClaim claim = ValidClaim();
  for (int i = 0; i < 20; ++i) {
    claim.spec.devices.requests[0].exactly->tolerations.push_back(Toleration("", "Exists", "", ""));
  }
  EXPECT_EQ(Texts(ValidateResourceClaim(claim, {})), Strings{});
}

TEST(ResourceClaimValidationTest, FirstAvailable) {
  ResourceClaim claim = ValidClaim();
  claim.spec.devices.requests[0] =
      FirstAvailableRequest("gpu", {SubRequest("Bad"), SubRequest("empty", ""),
                                    SubRequest("upper", "Bad"), SubRequest("empty", "x")});
  const std::string f = "spec.devices.requests[0].firstAvailable";
  EXPECT_EQ(
      Texts(ValidateResourceClaim(claim, {})),
      (Strings{
          f + R"([0].name: Invalid value: "Bad": )" + kLabelMsg,
          f + R"([3]: Duplicate value: {"name":"empty","deviceClassName":"x","allocationMode":"ExactCount","count":1})",
          f + "[1].deviceClassName: Required value",
          f + R"([2].deviceClassName: Invalid value: "Bad": )" + kSubdomainMsg,
      }));
}

TEST(ResourceClaimValidationTest, TooManySubRequests) {
  ResourceClaim claim = ValidClaim();
  std::vector<DeviceSubRequest> subs;
  for (int i = 0; i < 9; ++i) subs.push_back(SubRequest("s" + std::to_string(i), ""));
  claim.spec.devices.requests[0] = FirstAvailableRequest("gpu", subs);
  EXPECT_EQ(Texts(ValidateResourceClaim(claim, {})),
            Strings{"spec.devices.requests[0].firstAvailable: Too many: 9: must have at most 8 "
                    "items"});
}

TEST(ResourceClaimValidationTest, Selectors) {
  ResourceClaim claim = ValidClaim();
  auto& selectors = claim.spec.devices.requests[0].exactly->selectors;
  selectors.push_back(DeviceSelector{});
  selectors.push_back(CelSelector("bad"));
  testing::FakeSelectorChecker checker;
  ValidationOptions options;
  options.selector_checker = &checker;
  EXPECT_EQ(
      Texts(ValidateResourceClaim(claim, options)),
      (Strings{
          "spec.devices.requests[0].exactly.selectors[0].cel: Required value",
          R"(spec.devices.requests[0].exactly.selectors[1].cel.expression: Invalid value: "bad": compilation failed: fake)"}));
  ASSERT_EQ(checker.calls.size(), 1u);
  EXPECT_FALSE(checker.calls[0].stored);

  for (int i = 0; i < 31; ++i) selectors.push_back(DeviceSelector{});
  EXPECT_EQ(Texts(ValidateResourceClaim(claim, options)),
            Strings{"spec.devices.requests[0].exactly.selectors: Too many: 33: must have at "
                    "most 32 items"});
}

TEST(ResourceClaimValidationTest, RequestReferences) {
  ResourceClaim claim = ValidClaim();
  claim.spec.devices.requests.push_back(
      FirstAvailableRequest("pick", {SubRequest("small"), SubRequest("large")}));
  claim.spec.devices.constraints.push_back(
      Constraint({"gpu", "pick", "pick/small", "gpu/small", "x", "a/b/c", "Bad", "gpu"}));
  const std::string r = "spec.devices.constraints[0].requests";
  EXPECT_EQ(Texts(ValidateResourceClaim(claim, {})),
            (Strings{
                r + R"([3]: Invalid value: "gpu/small": )" + kBadReferenceMsg,
                r + R"([4]: Invalid value: "x": )" + kBadReferenceMsg,
                r + R"([5]: Invalid value: "a/b/c": )" + kBadReferenceMsg,
                r + R"([6]: Invalid value: "Bad": )" + kLabelMsg,
                r + R"([6]: Invalid value: "Bad": )" + kBadReferenceMsg,
                r + R"([7]: Duplicate value: "gpu")",
            }));
}

TEST(ResourceClaimValidationTest, ConstraintAttributes) {
  ResourceClaim claim = ValidClaim();
  auto& constraints = claim.spec.devices.constraints;
  constraints.push_back(Constraint({}));
  constraints[0].match_attribute = "model";
  constraints.push_back(Constraint({}));
  constraints[1].match_attribute.reset();
  constraints[1].distinct_attribute = "model";
  constraints.push_back(Constraint({}));
  constraints[2].match_attribute.reset();
  constraints.push_back(Constraint({}));
  constraints[3].distinct_attribute = "not/checked/at all";
  const std::string no_domain =
      R"(: Invalid value: "model": a fully qualified name must be a domain and a name separated by a slash)";
  EXPECT_EQ(Texts(ValidateResourceClaim(claim, {})),
            (Strings{
                "spec.devices.constraints[1].distinctAttribute" + no_domain,
                "spec.devices.constraints[2]: Required value: exactly one of \"matchAttribute\" "
                "or \"distinctAttribute\" is required, but multiple fields are set",
                "spec.devices.constraints[0].matchAttribute" + no_domain,
            }));

  ValidationOptions options;
  options.gates.Set(Feature::kDRAConsumableCapacity, false);
  claim.spec.devices.constraints.erase(claim.spec.devices.constraints.begin(),
                                       claim.spec.devices.constraints.begin() + 2);
  EXPECT_EQ(Texts(ValidateResourceClaim(claim, options)),
            Strings{"spec.devices.constraints[0].matchAttribute: Required value"});
}

TEST(ResourceClaimValidationTest, TooManyConstraintsAndReferences) {
  ResourceClaim claim = ValidClaim();
  std::vector<std::string> many(33, "gpu");
  claim.spec.devices.constraints.push_back(Constraint(many));
  EXPECT_EQ(Texts(ValidateResourceClaim(claim, {})),
            Strings{"spec.devices.constraints[0].requests: Too many: 33: must have at most 32 "
                    "items"});
  claim.spec.devices.constraints.assign(33, Constraint({"x"}));
  EXPECT_EQ(Texts(ValidateResourceClaim(claim, {})),
            Strings{"spec.devices.constraints: Too many: 33: must have at most 32 items"});
}

TEST(ResourceClaimValidationTest, Config) {
  ResourceClaim claim = ValidClaim();
  auto& config = claim.spec.devices.config;
  config.emplace_back();
  config[0].requests.push_back("nope");
  config.emplace_back();
  config[1].config = OpaqueConfig("", "{");
  config.emplace_back();
  config[2].config = OpaqueConfig("Bad_Driver");
  config[2].requests.push_back("gpu");
  config[2].requests.push_back("gpu");
  const std::string c = "spec.devices.config";
  EXPECT_EQ(
      Texts(ValidateResourceClaim(claim, {})),
      (Strings{
          c + R"([0].requests[0]: Invalid value: "nope": )" + kBadReferenceMsg,
          c + "[0].opaque: Required value",
          c + R"([1].opaque.parameters: Invalid value: "<value omitted>": error parsing data as JSON: unexpected end of JSON input)",
          c + "[1].opaque.driver: Required value",
          c + R"([2].requests[1]: Duplicate value: "gpu")",
          c + R"([2].opaque.driver: Invalid value: "Bad_Driver": )" + kCaselessSubdomainMsg,
      }));
  config.assign(33, config[2]);
  EXPECT_EQ(Texts(ValidateResourceClaim(claim, {})),
            Strings{"spec.devices.config: Too many: 33: must have at most 32 items"});
}

TEST(ResourceClaimValidationTest, ParametersSizeLimit) {
  ResourceClaim claim = ValidClaim();
  claim.spec.devices.config.emplace_back();
  claim.spec.devices.config[0].config =
      OpaqueConfig("gpu.example.com", R"({"k":")" + std::string(10240, 'x') + R"("})");
  EXPECT_EQ(Texts(ValidateResourceClaim(claim, {})),
            Strings{"spec.devices.config[0].opaque.parameters: Too long: may not be more than "
                    "10240 bytes"});
}

TEST(ResourceClaimValidationTest, MetadataNeedsNamespace) {
  ResourceClaim claim = ValidClaim();
  claim.metadata.namespace_.clear();
  EXPECT_EQ(Texts(ValidateResourceClaim(claim, {})), Strings{"metadata.namespace: Required value"});
}

TEST(ResourceClaimValidationTest, HandwrittenErrorsPrecedeDeclarativeOnes) {
  ResourceClaim claim = ValidClaim();
  claim.spec.devices.requests[0].name = "A";
  claim.spec.devices.requests[0].exactly->allocation_mode = "Some";
  claim.spec.devices.requests.push_back(ExactRequest("b", ""));
  EXPECT_EQ(
      Texts(ValidateResourceClaim(claim, {})),
      (Strings{
          R"(spec.devices.requests[0].name: Invalid value: "A": )" + kLabelMsg,
          "spec.devices.requests[1].exactly.deviceClassName: Required value",
          R"(spec.devices.requests[0].exactly.allocationMode: Unsupported value: "Some": supported values: "All", "ExactCount")",
      }));
}

TEST(ResourceClaimValidationTest, AdminAccessNeedsNamespaceLabel) {
  ResourceClaim claim = ValidClaim();
  claim.metadata.namespace_.clear();
  claim.spec.devices.requests.push_back(ExactRequest("admin"));
  claim.spec.devices.requests[1].exactly->admin_access = true;
  claim.spec.devices.requests.push_back(ExactRequest("admin2"));
  claim.spec.devices.requests[2].exactly->admin_access = true;
  EXPECT_EQ(Texts(ValidateResourceClaim(claim, {})),
            (Strings{"spec.devices.requests[1].adminAccess: Forbidden: admin access to devices "
                     "requires the `resource.kubernetes.io/admin-access: true` label on the "
                     "containing namespace",
                     "metadata.namespace: Required value"}));
}

TEST(ResourceClaimValidationTest, AdminAccessNamespaceLookup) {
  ResourceClaim claim = ValidClaim();
  claim.spec.devices.requests[0].exactly->admin_access = true;
  ValidationOptions options;
  std::string asked;
  options.namespace_labels = [&asked](std::string_view ns) -> std::optional<StringMap> {
    asked = ns;
    return StringMap{{"resource.kubernetes.io/admin-access", "true"}};
  };
  EXPECT_EQ(Texts(ValidateResourceClaim(claim, options)), Strings{});
  EXPECT_EQ(asked, "ns1");

  options.namespace_labels = [](std::string_view) -> std::optional<StringMap> {
    return StringMap{{"resource.kubernetes.io/admin-access", "yes"}};
  };
  EXPECT_EQ(Texts(ValidateResourceClaim(claim, options)).size(), 1u);

  options.namespace_labels = [](std::string_view) -> std::optional<StringMap> {
    return std::nullopt;
  };
  EXPECT_EQ(Texts(ValidateResourceClaim(claim, options)),
            Strings{"spec.devices.requests[0].adminAccess: Internal error: could not retrieve "
                    "namespace to verify admin access: namespaces \"ns1\" not found"});
}

TEST(ResourceClaimValidationTest, AdminAccessFalseNeedsNoLabel) {
  ResourceClaim claim = ValidClaim();
  claim.spec.devices.requests[0].exactly->admin_access = false;
  EXPECT_EQ(Texts(ValidateResourceClaim(claim, {})), Strings{});
}

// A changed spec: `spec: Invalid value: null: field is immutable`.
TEST(ResourceClaimUpdateValidationTest, SpecIsImmutable) {
  const ResourceClaim old = ValidClaim();
  ResourceClaim claim = old;
  claim.spec.devices.requests[0].exactly->count = 2;
  const FieldErrors errors = ValidateResourceClaimUpdate(claim, old, {});
  EXPECT_EQ(InvalidObjectMessage("ResourceClaim", "resource.k8s.io", "c1", errors),
            "ResourceClaim.resource.k8s.io \"c1\" is invalid: spec: Invalid value: null: field "
            "is immutable");
}

TEST(ResourceClaimUpdateValidationTest, UnchangedSpecIsNotValidatedAgain) {
  ResourceClaim old = ValidClaim();
  old.spec.devices.requests[0].name = "BAD";
  ResourceClaim claim = old;
  claim.metadata.labels["a"] = "b";
  EXPECT_EQ(Texts(ValidateResourceClaimUpdate(claim, old, {})), Strings{});
}

TEST(ResourceClaimUpdateValidationTest, MetadataErrorsComeFirst) {
  const ResourceClaim old = ValidClaim();
  ResourceClaim claim = old;
  claim.metadata.labels["bad key"] = "v";
  claim.spec.devices.requests.clear();
  const Strings texts = Texts(ValidateResourceClaimUpdate(claim, old, {}));
  ASSERT_GE(texts.size(), 2u);
  EXPECT_EQ(texts.front().rfind("metadata.labels: ", 0), 0u);
  EXPECT_EQ(texts.back(), "spec: Invalid value: null: field is immutable");
}

}  // namespace
}  // namespace dra::api
