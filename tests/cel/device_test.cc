// The device view: name qualification (a name without a domain belongs to the
// driver's), the map-of-maps wrapper semantics (an unknown domain reads as an
// empty map) and whole-device attribute validation (an attribute without a
// valid value fails every evaluation of the device).
#include <gtest/gtest.h>

#include "cel_test_util.h"

namespace dra::cel {
namespace {

using testing::Outcome;

TEST(DeviceView, SplitQualifiedName) {
  QualifiedName a = SplitQualifiedName("model", "gpu.example.com");
  EXPECT_EQ(a.domain, "gpu.example.com");
  EXPECT_EQ(a.id, "model");
  QualifiedName b = SplitQualifiedName("numa.example.com/node/x", "gpu.example.com");
  EXPECT_EQ(b.domain, "numa.example.com");
  EXPECT_EQ(b.id, "node/x");
  EXPECT_EQ(SplitQualifiedName("model", "").domain, "");
}

TEST(DeviceView, OuterMapsWrapUnknownDomains) {
  auto g = testing::DeviceG();
  EXPECT_EQ(Outcome(R"(device.attributes["nope"] == {})", *g), "true");
  EXPECT_EQ(Outcome(R"(device.attributes.size() == 2)", *g), "true");
  EXPECT_EQ(Outcome(R"(device.capacity.size() == 2)", *g), "true");
  EXPECT_EQ(Outcome(R"(device.attributes.exists(d, d == "numa.example.com"))", *g), "true");
  EXPECT_EQ(Outcome(R"(device.attributes[?"nope"].hasValue())", *g), "true");
  EXPECT_EQ(Outcome(R"(device.attributes["gpu.example.com"][?"model"] == optional.of("A100"))", *g),
            "true");
  EXPECT_EQ(Outcome(R"(device.attributes["nope"].?x == optional.none())", *g), "true");
  EXPECT_EQ(Outcome(R"(has(device.attributes["gpu.example.com"].model))", *g), "true");
  EXPECT_EQ(Outcome(R"(has(device.driver))", *g), "true");
  EXPECT_EQ(Outcome(R"("memory" in device.capacity["gpu.example.com"])", *g), "true");
  EXPECT_EQ(Outcome(R"(device.capacity["gpu.example.com"].size() == 1)", *g), "true");
}

TEST(DeviceView, ComputedKeysWork) {
  auto g = testing::DeviceG();
  EXPECT_EQ(Outcome(R"(device.attributes[device.driver].model == "A100")", *g), "true");
  EXPECT_EQ(Outcome(R"(device.attributes["gpu." + "example.com"]["mo" + "del"] == "A100")", *g),
            "true");
  EXPECT_EQ(Outcome(R"(cel.bind(d, "numa." + "example.com", device.attributes[d].node == 0))", *g),
            "true");
  EXPECT_EQ(
      Outcome(
          R"(device.attributes.all(d, device.attributes[d].all(k, has(device.attributes[d].model) || d != "gpu.example.com")))",
          *g),
      "true");
}

TEST(DeviceView, AttributeValidation) {
  auto g = testing::DeviceG();
  EXPECT_TRUE(ValidateDeviceAttributes(*g).ok());
  SimpleDevice unset("d");
  unset.AddUnset("x");
  EXPECT_EQ(ValidateDeviceAttributes(unset).error(), "attribute x: unsupported attribute value");
  SimpleDevice version("d");
  version.AddVersion("other/v", "v1.0");
  EXPECT_EQ(ValidateDeviceAttributes(version).error(),
            "attribute other/v: parse semantic version: No Major.Minor.Patch elements found");
  SimpleDevice versions("d");
  versions.AddVersions("vs", {"1.0.0", "01.0.0"});
  EXPECT_FALSE(ValidateDeviceAttributes(versions).ok());
  // Reading the bad value itself is an error, not a value.
  EXPECT_EQ(Outcome(R"(device.attributes["other"].v == semver("1.0.0"))", version).substr(0, 31),
            "err: parse semantic version: No");
}

}  // namespace
}  // namespace dra::cel
