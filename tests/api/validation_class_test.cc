// DeviceClass validation, including CEL selectors.
#include <gtest/gtest.h>

#include <string>

#include "dra/api/validation.h"
#include "validation_test_support.h"

namespace dra::api {
namespace {

using testing::CelSelector;
using testing::FakeSelectorChecker;
using testing::OpaqueConfig;
using testing::Strings;
using testing::Texts;

DeviceClass ValidClass() {
  DeviceClass cls;
  cls.metadata.name = "gpu.example.com";
  cls.metadata.resource_version = "1";
  cls.spec.selectors.push_back(CelSelector(R"(device.driver == "gpu.example.com")"));
  DeviceClassConfiguration config;
  config.config = OpaqueConfig("gpu.example.com");
  cls.spec.config.push_back(config);
  return cls;
}

DeviceClassConfiguration ClassConfig(DeviceConfiguration config) {
  DeviceClassConfiguration out;
  out.config = std::move(config);
  return out;
}

TEST(DeviceClassValidationTest, ValidClassHasNoErrors) {
  EXPECT_EQ(Texts(ValidateDeviceClass(ValidClass(), {})), Strings{});
}

TEST(DeviceClassValidationTest, TooManySelectorsIsTheOnlyError) {
  DeviceClass cls = ValidClass();
  cls.metadata.name = "c";
  cls.spec.selectors.clear();
  for (int i = 0; i < 33; ++i) cls.spec.selectors.push_back(DeviceSelector{});  // no cel
  const FieldErrors errors = ValidateDeviceClass(cls, {});
  EXPECT_EQ(Texts(errors), Strings{"spec.selectors: Too many: 33: must have at most 32 items"});
  EXPECT_EQ(InvalidObjectMessage("DeviceClass", "resource.k8s.io", "c", errors),
            "DeviceClass.resource.k8s.io \"c\" is invalid: spec.selectors: Too many: 33: must "
            "have at most 32 items");
}

TEST(DeviceClassValidationTest, SelectorNeedsCel) {
  DeviceClass cls = ValidClass();
  cls.spec.selectors.push_back(DeviceSelector{});
  EXPECT_EQ(Texts(ValidateDeviceClass(cls, {})), Strings{"spec.selectors[1].cel: Required value"});
}

TEST(DeviceClassValidationTest, LongExpressionIsNotCompiled) {
  DeviceClass cls = ValidClass();
  cls.spec.selectors[0].cel->expression = std::string(10241, 'x');
  cls.spec.selectors.push_back(CelSelector(std::string(10240, 'x')));
  FakeSelectorChecker checker;
  ValidationOptions options;
  options.selector_checker = &checker;
  EXPECT_EQ(Texts(ValidateDeviceClass(cls, options)),
            Strings{"spec.selectors[0].cel.expression: Too long: may not be more than 10240 "
                    "bytes"});
  ASSERT_EQ(checker.calls.size(), 1u);
  EXPECT_EQ(checker.calls[0].field, "spec.selectors[1].cel.expression");
}

TEST(DeviceClassValidationTest, SelectorCheckerSeesNewExpressionsOnCreate) {
  DeviceClass cls = ValidClass();
  cls.spec.selectors.push_back(CelSelector("bad expression"));
  FakeSelectorChecker checker;
  ValidationOptions options;
  options.selector_checker = &checker;
  EXPECT_EQ(Texts(ValidateDeviceClass(cls, options)),
            Strings{R"(spec.selectors[1].cel.expression: Invalid value: "bad expression": )"
                    "compilation failed: fake"});
  ASSERT_EQ(checker.calls.size(), 2u);
  EXPECT_FALSE(checker.calls[0].stored);
  EXPECT_FALSE(checker.calls[1].stored);
}

TEST(DeviceClassValidationTest, UnchangedSelectorsAreStoredExpressions) {
  const DeviceClass old = ValidClass();
  DeviceClass cls = old;
  cls.metadata.labels["team"] = "a";
  FakeSelectorChecker checker;
  ValidationOptions options;
  options.selector_checker = &checker;
  EXPECT_EQ(Texts(ValidateDeviceClassUpdate(cls, old, options)), Strings{});
  ASSERT_EQ(checker.calls.size(), 1u);
  EXPECT_TRUE(checker.calls[0].stored);
}

TEST(DeviceClassValidationTest, ReorderedSelectorsAreNewExpressions) {
  DeviceClass old = ValidClass();
  old.spec.selectors.push_back(CelSelector("true"));
  DeviceClass cls = old;
  std::swap(cls.spec.selectors[0], cls.spec.selectors[1]);
  FakeSelectorChecker checker;
  ValidationOptions options;
  options.selector_checker = &checker;
  EXPECT_EQ(Texts(ValidateDeviceClassUpdate(cls, old, options)), Strings{});
  ASSERT_EQ(checker.calls.size(), 2u);
  EXPECT_FALSE(checker.calls[0].stored);
  EXPECT_FALSE(checker.calls[1].stored);
}

TEST(DeviceClassValidationTest, ConfigRules) {
  DeviceClass cls = ValidClass();
  cls.spec.config.push_back(ClassConfig(DeviceConfiguration{}));
  cls.spec.config.push_back(ClassConfig(OpaqueConfig("gpu.example.com", "null")));
  cls.spec.config.push_back(ClassConfig(OpaqueConfig("gpu.example.com", "[1]")));
  cls.spec.config.push_back(ClassConfig(OpaqueConfig("gpu.example.com", "")));
  EXPECT_EQ(
      Texts(ValidateDeviceClass(cls, {})),
      (Strings{
          "spec.config[1].opaque: Required value",
          "spec.config[2].opaque.parameters: Required value",
          R"(spec.config[3].opaque.parameters: Invalid value: "<value omitted>": must be a valid JSON object)",
          "spec.config[4].opaque.parameters: Required value",
      }));
}

TEST(DeviceClassValidationTest, DriverErrorsAreDeclarativeAndFollowHandwrittenOnes) {
  DeviceClass cls = ValidClass();
  cls.spec.config[0].config.opaque->driver = "";
  cls.spec.config.push_back(ClassConfig(OpaqueConfig("Bad_Driver")));
  cls.spec.config.push_back(ClassConfig(DeviceConfiguration{}));
  cls.spec.selectors.push_back(DeviceSelector{});
  EXPECT_EQ(Texts(ValidateDeviceClass(cls, {})),
            (Strings{
                "spec.selectors[1].cel: Required value",
                "spec.config[2].opaque: Required value",
                "spec.config[0].opaque.driver: Required value",
                R"(spec.config[1].opaque.driver: Invalid value: "Bad_Driver": )" +
                    testing::kCaselessSubdomainMsg,
            }));
}

TEST(DeviceClassValidationTest, ParametersSizeLimitOnCreateOnly) {
  const std::string big = R"({"k":")" + std::string(10240, 'x') + R"("})";
  DeviceClass old = ValidClass();
  old.spec.config[0].config.opaque->parameters.raw = big;
  EXPECT_EQ(Texts(ValidateDeviceClass(old, {})),
            Strings{"spec.config[0].opaque.parameters: Too long: may not be more than 10240 "
                    "bytes"});
  DeviceClass cls = old;
  cls.metadata.labels["team"] = "a";
  EXPECT_EQ(Texts(ValidateDeviceClassUpdate(cls, old, {})), Strings{});
  cls.spec.config.push_back(ClassConfig(OpaqueConfig("gpu.example.com")));
  EXPECT_EQ(Texts(ValidateDeviceClassUpdate(cls, old, {})),
            Strings{"spec.config[0].opaque.parameters: Too long: may not be more than 10240 "
                    "bytes"});
}

TEST(DeviceClassValidationTest, TooManyConfigs) {
  DeviceClass cls = ValidClass();
  for (int i = 0; i < 32; ++i) cls.spec.config.push_back(ClassConfig(DeviceConfiguration{}));
  EXPECT_EQ(Texts(ValidateDeviceClass(cls, {})),
            Strings{"spec.config: Too many: 33: must have at most 32 items"});
}

TEST(DeviceClassValidationTest, ExtendedResourceName) {
  DeviceClass cls = ValidClass();
  cls.spec.extended_resource_name = "example.com/gpu";
  EXPECT_EQ(Texts(ValidateDeviceClass(cls, {})), Strings{});
  cls.spec.extended_resource_name = "gpu";
  EXPECT_EQ(Texts(ValidateDeviceClass(cls, {})),
            Strings{R"(spec.extendedResourceName: Invalid value: "gpu": a name must be a )"
                    "domain-prefixed path, such as 'example.com/my-prop'"});
}

TEST(DeviceClassValidationTest, NameErrorsComeWithTheDeclarativeOnes) {
  DeviceClass cls = ValidClass();
  cls.metadata.name = "Bad_Name";
  cls.spec.selectors.push_back(DeviceSelector{});
  cls.spec.extended_resource_name = "gpu";
  EXPECT_EQ(Texts(ValidateDeviceClass(cls, {})),
            (Strings{
                "spec.selectors[1].cel: Required value",
                R"(metadata.name: Invalid value: "Bad_Name": )" + testing::kSubdomainMsg,
                R"(spec.extendedResourceName: Invalid value: "gpu": a name must be a )"
                "domain-prefixed path, such as 'example.com/my-prop'",
            }));
}

TEST(DeviceClassValidationTest, MissingNameStaysHandwritten) {
  DeviceClass cls = ValidClass();
  cls.metadata.name = "";
  cls.spec.extended_resource_name = "gpu";
  const Strings texts = Texts(ValidateDeviceClass(cls, {}));
  ASSERT_EQ(texts.size(), 2u);
  EXPECT_EQ(texts[0], "metadata.name: Required value: name or generateName is required");
}

TEST(DeviceClassValidationTest, UpdateChecksMetadataChanges) {
  const DeviceClass old = ValidClass();
  DeviceClass cls = old;
  cls.metadata.name = "other.example.com";
  EXPECT_EQ(Texts(ValidateDeviceClassUpdate(cls, old, {})),
            Strings{R"(metadata.name: Invalid value: "other.example.com": field is immutable)"});
}

// Declarative rules skip unchanged data, so an unchanged stored value that
// breaks today's rules is reported by the hand-written rule it covers.
TEST(DeviceClassValidationTest, UnchangedInvalidDataGetsHandwrittenTexts) {
  DeviceClass old = ValidClass();
  old.spec.config[0].config.opaque->driver = "Bad_Driver";
  old.spec.extended_resource_name = "gpu";
  DeviceClass cls = old;
  cls.metadata.labels["team"] = "a";
  EXPECT_EQ(
      Texts(ValidateDeviceClassUpdate(cls, old, {})),
      (Strings{
          R"(spec.config[0].opaque.driver: Invalid value: "Bad_Driver": )" + testing::kSubdomainMsg,
          R"(spec.extendedResourceName: Invalid value: "gpu": must be a valid extended )"
          "resource name",
      }));
}

TEST(DeviceClassValidationTest, ChangedInvalidDataGetsDeclarativeTexts) {
  DeviceClass old = ValidClass();
  DeviceClass cls = old;
  cls.spec.config[0].config.opaque->driver = "Bad_Driver";
  cls.spec.extended_resource_name = "gpu";
  EXPECT_EQ(Texts(ValidateDeviceClassUpdate(cls, old, {})),
            (Strings{
                R"(spec.config[0].opaque.driver: Invalid value: "Bad_Driver": )" +
                    testing::kCaselessSubdomainMsg,
                R"(spec.extendedResourceName: Invalid value: "gpu": a name must be a )"
                "domain-prefixed path, such as 'example.com/my-prop'",
            }));
}

TEST(DeviceClassValidationTest, UnchangedTooManySelectorsIsHandwritten) {
  DeviceClass old = ValidClass();
  for (int i = 0; i < 32; ++i) old.spec.selectors.push_back(CelSelector("true"));
  DeviceClass cls = old;
  cls.spec.config.push_back(ClassConfig(DeviceConfiguration{}));
  // On create the size error is declarative and comes last.
  EXPECT_EQ(Texts(ValidateDeviceClass(cls, {})),
            (Strings{"spec.config[1].opaque: Required value",
                     "spec.selectors: Too many: 33: must have at most 32 items"}));
  EXPECT_EQ(Texts(ValidateDeviceClassUpdate(cls, old, {})),
            (Strings{"spec.selectors: Too many: 33: must have at most 32 items",
                     "spec.config[1].opaque: Required value"}));
}

}  // namespace
}  // namespace dra::api
