// DeviceTaintRule validation and create preparation.
#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "dra/api/validation.h"

namespace dra::api {
namespace {

using Strings = std::vector<std::string>;

const std::string kSub =
    R"x(a lowercase RFC 1123 subdomain must consist of lower case alphanumeric characters, '-' or '.', and must start and end with an alphanumeric character (e.g. 'example.com', regex used for validation is '[a-z0-9]([-a-z0-9]*[a-z0-9])?(\.[a-z0-9]([-a-z0-9]*[a-z0-9])?)*'))x";
const std::string kLabel =
    R"x(a lowercase RFC 1123 label must consist of lower case alphanumeric characters or '-', and must start and end with an alphanumeric character (e.g. 'my-name',  or '123-abc', regex used for validation is '[a-z0-9]([-a-z0-9]*[a-z0-9])?'))x";
const std::string kLkName =
    R"x(name part must consist of alphanumeric characters, '-', '_' or '.', and must start and end with an alphanumeric character (e.g. 'MyName',  or 'my.name',  or '123-abc', regex used for validation is '([A-Za-z0-9][-A-Za-z0-9_.]*)?[A-Za-z0-9]'))x";
const std::string kLValue =
    R"x(a valid label must be an empty string or consist of alphanumeric characters, '-', '_' or '.', and must start and end with an alphanumeric character (e.g. 'MyValue',  or 'my_value',  or '12345', regex used for validation is '(([A-Za-z0-9][-A-Za-z0-9_.]*)?[A-Za-z0-9])?'))x";

DeviceTaintRule Rule() {
  DeviceTaintRule rule;
  rule.metadata.name = "maintenance";
  rule.metadata.resource_version = "7";
  rule.spec.device_selector = DeviceTaintSelector{"gpu.example.com", "node-1/pool", "gpu-0"};
  rule.spec.taint = DeviceTaint{"example.com/maintenance", "planned", "NoExecute", {}};
  return rule;
}

Strings Texts(const FieldErrors& errors) {
  Strings out;
  for (const FieldError& e : errors) out.push_back(e.ToString());
  return out;
}

TEST(DeviceTaintRuleTest, ValidRule) {
  EXPECT_EQ(Texts(ValidateDeviceTaintRule(Rule(), {})), Strings{});
  DeviceTaintRule match_all = Rule();
  match_all.spec.device_selector = DeviceTaintSelector{};
  EXPECT_EQ(Texts(ValidateDeviceTaintRule(match_all, {})), Strings{});
  DeviceTaintRule match_none = Rule();
  match_none.spec.device_selector.reset();
  EXPECT_EQ(Texts(ValidateDeviceTaintRule(match_none, {})), Strings{});
}

TEST(DeviceTaintRuleTest, SelectorAndTaint) {
  DeviceTaintRule rule = Rule();
  rule.metadata.name = "Bad";
  rule.spec.device_selector = DeviceTaintSelector{"", "a//b", "GPU_0"};
  rule.spec.taint = DeviceTaint{"-key", "-value", "", {}};
  EXPECT_EQ(Texts(ValidateDeviceTaintRule(rule, {})),
            (Strings{
                R"(metadata.name: Invalid value: "Bad": )" + kSub,
                // An empty driver name is Required and nothing else
                // (ValidateCSIDriverName in k8s.io/kubernetes v1.37.2's
                // pkg/apis/core/validation).
                "spec.deviceSelector.driver: Required value",
                R"(spec.deviceSelector.pool: Invalid value: "": )" + kSub,
                R"(spec.deviceSelector.device: Invalid value: "GPU_0": )" + kLabel,
                R"(spec.taint.key: Invalid value: "-key": )" + kLkName,
                R"(spec.taint.value: Invalid value: "-value": )" + kLValue,
                "spec.taint.effect: Required value",
            }));
  rule = Rule();
  rule.spec.taint.effect = "Evict";
  EXPECT_EQ(
      InvalidObjectMessage("DeviceTaintRule", "resource.k8s.io", rule.metadata.name,
                           ValidateDeviceTaintRule(rule, {})),
      R"(DeviceTaintRule.resource.k8s.io "maintenance" is invalid: spec.taint.effect: Unsupported value: "Evict": supported values: "NoExecute", "NoSchedule", "None")");
}

TEST(DeviceTaintRuleUpdateTest, EffectOnlyCheckedWhenChanged) {
  DeviceTaintRule old = Rule();
  old.spec.taint.effect = "Legacy";
  DeviceTaintRule rule = old;
  rule.spec.taint.value = "updated";
  EXPECT_EQ(Texts(ValidateDeviceTaintRuleUpdate(rule, old, {})), Strings{});
  rule.spec.taint.effect = "Other";
  EXPECT_EQ(
      Texts(ValidateDeviceTaintRuleUpdate(rule, old, {})),
      Strings{
          R"(spec.taint.effect: Unsupported value: "Other": supported values: "NoExecute", "NoSchedule", "None")"});
  rule.spec.taint.effect = "NoSchedule";
  rule.spec.taint.key = "";
  EXPECT_EQ(Texts(ValidateDeviceTaintRuleUpdate(rule, old, {})),
            (Strings{R"(spec.taint.key: Invalid value: "": name part must be non-empty)",
                     R"(spec.taint.key: Invalid value: "": )" + kLkName}));
}

TEST(DeviceTaintRuleUpdateTest, MetadataRules) {
  DeviceTaintRule old = Rule();
  DeviceTaintRule rule = old;
  rule.metadata.name = "other";
  EXPECT_EQ(Texts(ValidateDeviceTaintRuleUpdate(rule, old, {})),
            Strings{R"(metadata.name: Invalid value: "other": field is immutable)"});
}

TEST(DeviceTaintRuleUpdateTest, V1NeedsResourceVersion) {
  DeviceTaintRule old = Rule();
  DeviceTaintRule rule = old;
  rule.metadata.resource_version.clear();
  rule.spec.taint.effect = "Bad";
  EXPECT_EQ(Texts(ValidateDeviceTaintRuleUpdate(rule, old, {})),
            Strings{"metadata.resourceVersion: Invalid value: 0: must be specified for an update"});
  ValidationOptions beta;
  beta.request_version = "v1beta2";
  EXPECT_EQ(
      Texts(ValidateDeviceTaintRuleUpdate(rule, old, beta)),
      Strings{
          R"(spec.taint.effect: Unsupported value: "Bad": supported values: "NoExecute", "NoSchedule", "None")"});
}

TEST(PrepareForCreateTest, DeviceTaintRuleClearsStatus) {
  DeviceTaintRule rule = Rule();
  rule.metadata.generation = 4;
  Condition condition;
  condition.type = "EvictionInProgress";
  rule.status.conditions = {condition};
  PrepareForCreate(rule, FeatureGates{});
  EXPECT_EQ(rule.metadata.generation, 1);
  EXPECT_TRUE(rule.status.conditions.nil());
  EXPECT_EQ(rule.spec.taint.effect, "NoExecute");
}

}  // namespace
}  // namespace dra::api
