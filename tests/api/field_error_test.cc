#include "dra/api/field_error.h"

#include <gtest/gtest.h>

#include <string>

namespace dra::api {
namespace {

// Expected texts below were produced by Go's strconv.Quote.
TEST(GoQuoteTest, KeepsPrintableText) {
  EXPECT_EQ(GoQuote("abc"), R"("abc")");
  EXPECT_EQ(GoQuote(""), R"("")");
  EXPECT_EQ(GoQuote("'"), R"("'")");
  EXPECT_EQ(GoQuote("héllo 世界"), "\"héllo 世界\"");
  EXPECT_EQ(GoQuote("\xF0\x9F\x98\x80"), "\"\xF0\x9F\x98\x80\"");  // U+1F600
  EXPECT_EQ(GoQuote("\xEF\xBF\xBD"), "\"\xEF\xBF\xBD\"");          // U+FFFD itself
}

TEST(GoQuoteTest, EscapesQuoteAndBackslash) { EXPECT_EQ(GoQuote("a\"b\\c"), R"("a\"b\\c")"); }

TEST(GoQuoteTest, EscapesControlCharacters) {
  EXPECT_EQ(GoQuote("\a\b\f\n\r\t\v"), R"("\a\b\f\n\r\t\v")");
  EXPECT_EQ(GoQuote(std::string("\x00\x1f\x7f", 3)), R"("\x00\x1f\x7f")");
}

TEST(GoQuoteTest, EscapesNonPrintableRunes) {
  EXPECT_EQ(GoQuote("\xC2\xA0"), R"("\u00a0")");              // no-break space
  EXPECT_EQ(GoQuote("\xE2\x80\x8B"), R"("\u200b")");          // zero-width space
  EXPECT_EQ(GoQuote("\xCD\xB8"), R"("\u0378")");              // unassigned
  EXPECT_EQ(GoQuote("\xF3\xA0\x80\x81"), R"("\U000e0001")");  // language tag
}

TEST(GoQuoteTest, EscapesInvalidUtf8ByteByByte) {
  EXPECT_EQ(GoQuote("\xff\xfe"), R"("\xff\xfe")");
  EXPECT_EQ(GoQuote("a\xc3"), R"("a\xc3")");                // truncated sequence
  EXPECT_EQ(GoQuote("\xed\xa0\x80"), R"("\xed\xa0\x80")");  // encoded surrogate
  EXPECT_EQ(GoQuote("\xc0\xaf"), R"("\xc0\xaf")");          // overlong
}

TEST(FieldErrorTest, BodiesWithoutValue) {
  EXPECT_EQ(Required("spec.x").ToString(), "spec.x: Required value");
  EXPECT_EQ(Required("spec.x", "must be set").ToString(), "spec.x: Required value: must be set");
  EXPECT_EQ(Forbidden("spec.x").ToString(), "spec.x: Forbidden");
  EXPECT_EQ(Forbidden("spec.x", "not allowed").Body(), "Forbidden: not allowed");
  EXPECT_EQ(TooLong("spec.x", 64).ToString(), "spec.x: Too long: may not be more than 64 bytes");
  EXPECT_EQ(TooLong("spec.x", 1).Body(), "Too long: may not be more than 1 byte");
  EXPECT_EQ(TooLongChars("spec.x", 63).Body(), "Too long: may not be more than 63 characters");
  EXPECT_EQ(TooLongChars("spec.x", 1).Body(), "Too long: may not be more than 1 character");
  EXPECT_EQ(InternalError("spec.x", "boom").ToString(), "spec.x: Internal error: boom");
}

TEST(FieldErrorTest, BodiesWithValue) {
  EXPECT_EQ(InvalidString("spec.name", "GPU", "bad").ToString(),
            R"(spec.name: Invalid value: "GPU": bad)");
  EXPECT_EQ(Invalid("spec.count", RenderInt(-3), "must be greater than zero").ToString(),
            "spec.count: Invalid value: -3: must be greater than zero");
  EXPECT_EQ(Invalid("spec", "null", "").Body(), "Invalid value: null");
  EXPECT_EQ(Duplicate("spec.devices[1]", GoQuote("a")).ToString(),
            R"(spec.devices[1]: Duplicate value: "a")");
  EXPECT_EQ(NotFound("spec.k", GoQuote("x")).ToString(), R"(spec.k: Not found: "x")");
  EXPECT_EQ(NotFound("spec.k", GoQuote("x"), "must exist").Body(), R"(Not found: "x": must exist)");
  EXPECT_EQ(TooMany("spec.devices", 129, 128).ToString(),
            "spec.devices: Too many: 129: must have at most 128 items");
  EXPECT_EQ(TooMany("spec.x", 2, 1).Body(), "Too many: 2: must have at most 1 item");
  EXPECT_EQ(TooMany("spec.x", 2, -1).Body(), "Too many: 2: has too many items");
}

TEST(FieldErrorTest, NotSupportedListsValuesQuoted) {
  EXPECT_EQ(
      NotSupported("spec.effect", "Bad", {"NoExecute", "NoSchedule", "None"}).ToString(),
      R"(spec.effect: Unsupported value: "Bad": supported values: "NoExecute", "NoSchedule", "None")");
  EXPECT_EQ(NotSupported("spec.x", "y", {}).ToString(), R"(spec.x: Unsupported value: "y")");
}

TEST(FieldErrorTest, Reasons) {
  EXPECT_EQ(Required("a").Reason(), "FieldValueRequired");
  EXPECT_EQ(Invalid("a", "1", "").Reason(), "FieldValueInvalid");
  EXPECT_EQ(NotSupported("a", "b", {}).Reason(), "FieldValueNotSupported");
  EXPECT_EQ(Duplicate("a", "1").Reason(), "FieldValueDuplicate");
  EXPECT_EQ(Forbidden("a").Reason(), "FieldValueForbidden");
  EXPECT_EQ(TooLong("a", 1).Reason(), "FieldValueTooLong");
  EXPECT_EQ(TooMany("a", 2, 1).Reason(), "FieldValueTooMany");
  EXPECT_EQ(NotFound("a", "1").Reason(), "FieldValueNotFound");
  EXPECT_EQ(InternalError("a", "x").Reason(), "InternalError");
}

TEST(InvalidObjectMessageTest, SingleErrorStandsAlone) {
  const FieldErrors errors = {Invalid("spec", R"("{`nodeName`, `allNodes`}")",
                                      "exactly one of `nodeName`, `nodeSelector`, `allNodes`, "
                                      "`perDeviceNodeSelection` is required, but multiple fields "
                                      "are set")};
  EXPECT_EQ(InvalidObjectMessage("ResourceSlice", "resource.k8s.io", "s1", errors),
            "ResourceSlice.resource.k8s.io \"s1\" is invalid: spec: Invalid value: \"{`nodeName`, "
            "`allNodes`}\": exactly one of `nodeName`, `nodeSelector`, `allNodes`, "
            "`perDeviceNodeSelection` is required, but multiple fields are set");
}

TEST(InvalidObjectMessageTest, SeveralErrorsInBracketsWithRepeatsDropped) {
  const FieldErrors errors = {
      InvalidString("spec.devices.requests[0].name", "GPU", "bad name"),
      Required("spec.devices.requests[0].exactly.deviceClassName"),
      InvalidString("spec.devices.requests[0].name", "GPU", "bad name"),
  };
  EXPECT_EQ(InvalidObjectMessage("ResourceClaim", "resource.k8s.io", "c1", errors),
            "ResourceClaim.resource.k8s.io \"c1\" is invalid: [spec.devices.requests[0].name: "
            "Invalid value: \"GPU\": bad name, spec.devices.requests[0].exactly.deviceClassName: "
            "Required value]");
}

TEST(InvalidObjectMessageTest, RepeatsOfOneErrorLeaveOneWithoutBrackets) {
  const FieldErrors errors = {Required("spec.x"), Required("spec.x")};
  EXPECT_EQ(InvalidObjectMessage("DeviceClass", "resource.k8s.io", "c", errors),
            "DeviceClass.resource.k8s.io \"c\" is invalid: spec.x: Required value");
}

TEST(InvalidObjectMessageTest, NoErrorsAndCoreGroupAndQuotedName) {
  EXPECT_EQ(InvalidObjectMessage("ResourceSlice", "resource.k8s.io", "s1", {}),
            "ResourceSlice.resource.k8s.io \"s1\" is invalid");
  EXPECT_EQ(InvalidObjectMessage("Pod", "", "p\"1", {Required("spec")}),
            "Pod \"p\\\"1\" is invalid: spec: Required value");
}

}  // namespace
}  // namespace dra::api
