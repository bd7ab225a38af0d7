// Validation of derivedAttributes (DRADerivedAttributes, alpha in 1.37) with
// the real CEL engine: the hand-written rules of validateDeviceDerivedAttribute
// and validateCELExpression and the declarative tags of k8s.io/api/resource/v1
// (k8s.io/kubernetes v1.37.2 pkg/apis/resource/validation; the result-type
// texts are those of k8s.io/dynamic-resource-allocation/cel's compiler).
// cluster.real_manifests compares the same rules with the real server.
#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "dra/api/validation.h"
#include "dra/cel/selector_checker.h"

namespace dra::cel {
namespace {

using Strings = std::vector<std::string>;

api::DeviceDerivedAttribute Derived(std::string name, std::string expression) {
  return api::DeviceDerivedAttribute{std::move(name), std::move(expression)};
}

// Requests gpu (exactly) and nic (firstAvailable: fast), and a
// matchAttribute constraint on `attribute` over both.
api::ResourceClaim Claim(std::vector<api::DeviceDerivedAttribute> gpu,
                         std::vector<api::DeviceDerivedAttribute> fast,
                         std::string attribute = "derived/numa") {
  api::ResourceClaim claim;
  claim.metadata.name = "c";
  claim.metadata.namespace_ = "ns";
  api::DeviceRequest a;
  a.name = "gpu";
  a.exactly.emplace();
  a.exactly->device_class_name = "gpu.example.com";
  a.exactly->allocation_mode = "ExactCount";
  a.exactly->count = 1;
  for (auto& d : gpu) a.exactly->derived_attributes.push_back(d);
  api::DeviceRequest b;
  b.name = "nic";
  api::DeviceSubRequest sub;
  sub.name = "fast";
  sub.device_class_name = "nic.example.com";
  sub.allocation_mode = "ExactCount";
  sub.count = 1;
  for (auto& d : fast) sub.derived_attributes.push_back(d);
  b.first_available.push_back(sub);
  claim.spec.devices.requests = {a, b};
  api::DeviceConstraint constraint;
  constraint.requests = {"gpu", "nic"};
  constraint.match_attribute = std::move(attribute);
  claim.spec.devices.constraints = {constraint};
  return claim;
}

Strings Validate(const api::ResourceClaim& claim, bool gate = true, bool lists = false) {
  CelSelectorChecker checker;
  api::ValidationOptions options;
  options.gates.Set(api::Feature::kDRADerivedAttributes, gate);
  options.gates.Set(api::Feature::kDRAListTypeAttributes, lists);
  options.selector_checker = &checker;
  Strings out;
  for (const api::FieldError& e : api::ValidateForCreate(claim, options)) {
    out.push_back(e.ToString());
  }
  return out;
}

const std::string kGpu = "spec.devices.requests[0].exactly.derivedAttributes";
const std::string kFast = "spec.devices.requests[1].firstAvailable[0].derivedAttributes";

TEST(DerivedAttributeValidationTest, ValidClaim) {
  EXPECT_EQ(
      Validate(Claim({Derived("derived/numa", R"(device.attributes["gpu.example.com"].numa)")},
                     {Derived("derived/numa", "1")})),
      Strings{});
}

TEST(DerivedAttributeValidationTest, DroppedWhileTheGateIsOff) {
  EXPECT_EQ(Validate(Claim({Derived("", "")}, {}), /*gate=*/false), Strings{});
}

TEST(DerivedAttributeValidationTest, MustBeUsedByAConstraintOnTheRequest) {
  EXPECT_EQ(Validate(Claim({Derived("derived/other", "1")}, {})),
            Strings{kGpu + R"([0].name: Invalid value: "derived/other": must be referenced by )"
                           "at least one matchAttribute or distinctAttribute constraint "
                           "targeting this request"});
  // A constraint on the parent request covers its sub-requests.
  EXPECT_EQ(Validate(Claim({}, {Derived("derived/numa", "1")})), Strings{});
}

TEST(DerivedAttributeValidationTest, ResultTypes) {
  EXPECT_EQ(Validate(Claim({Derived("derived/numa", R"({"a": 1})")}, {})),
            Strings{kGpu + R"([0].expression: Invalid value: "{\"a\": 1}": must evaluate to a )"
                           "primitive scalar (string, integer, boolean, semver), not "
                           "map(string, int)"});
  EXPECT_EQ(Validate(Claim({Derived("derived/numa", "[1, 2]")}, {})),
            Strings{kGpu + R"([0].expression: Invalid value: "[1, 2]": must evaluate to a )"
                           "primitive scalar (string, integer, boolean, semver), not list(int)"});
  // With list attributes, lists of scalars are allowed.
  EXPECT_EQ(Validate(Claim({Derived("derived/numa", "[1, 2]")}, {}), true, /*lists=*/true),
            Strings{});
  EXPECT_EQ(Validate(Claim({Derived("derived/numa", "1.5")}, {}), true, true),
            Strings{kGpu + R"([0].expression: Invalid value: "1.5": must evaluate to a )"
                           "primitive scalar (string, integer, boolean, semver) or a list of "
                           "these scalars, not double"});
  EXPECT_EQ(Validate(Claim({Derived("derived/numa", R"(semver("1.0.0"))")}, {})), Strings{});
}

TEST(DerivedAttributeValidationTest, DeclarativeRulesAndDuplicates) {
  EXPECT_EQ(Validate(Claim({Derived("", ""), Derived("numa", "1")}, {})),
            (Strings{kGpu + "[1].name: Invalid value: \"numa\": must be referenced by at least "
                            "one matchAttribute or distinctAttribute constraint targeting this "
                            "request",
                     kGpu + "[0].name: Required value", kGpu + "[0].expression: Required value",
                     kGpu + "[1].name: Invalid value: \"numa\": a fully qualified name must be a "
                            "domain and a name separated by a slash"}));
  EXPECT_EQ(Validate(Claim({Derived("derived/numa", "1"), Derived("derived/numa", "2")}, {})),
            Strings{kGpu + R"([1]: Duplicate value: "derived/numa")"});
}

TEST(DerivedAttributeValidationTest, SharedCostBudget) {
  // Each expression is under the limit on its own; together they are not.
  const std::string costly =
      R"(device.attributes["a"].s.split(",").map(x, x.split(";").size()).size())";
  std::vector<api::DeviceDerivedAttribute> many;
  for (int i = 0; i < 20; ++i) many.push_back(Derived("derived/numa", costly));
  Strings errors = Validate(Claim(many, {}));
  ASSERT_FALSE(errors.empty());
  EXPECT_EQ(errors.back(),
            "spec.devices: Forbidden: too complex, total cost of derived attribute CEL "
            "expressions in the claim exceeds cost limit");
}

}  // namespace
}  // namespace dra::cel
