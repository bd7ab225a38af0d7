#include "dra/json/writer.h"

#include <gtest/gtest.h>

#include <string>

#include "dra/json/value.h"

namespace dra::json {
namespace {

// The expected texts are written by hand and checked to be what ToJson
// prints for the same document parsed.
void ExpectSameAsTree(const std::string& written, const std::string& expected) {
  EXPECT_EQ(written, expected);
  Result<Value> parsed = ParseJson(expected);
  ASSERT_TRUE(parsed.ok()) << parsed.error();
  EXPECT_EQ(ToJson(*parsed), expected);
}

TEST(WriterTest, CommasSeparateMembersAndItemsAtEveryDepth) {
  std::string out;
  Writer w(out);
  w.BeginObject();
  w.Key("empty array").BeginArray().EndArray();
  w.Key("empty object").BeginObject().EndObject();
  w.Key("items")
      .BeginArray()
      .Int(1)
      .BeginObject()
      .Key("n")
      .Null()
      .EndObject()
      .BeginArray()
      .BeginArray()
      .EndArray()
      .Uint(18446744073709551615u)
      .EndArray()
      .EndArray();
  w.Key("flags").BeginObject().Key("yes").Bool(true).Key("no").Bool(false).EndObject();
  w.Key("ratio").Number("1e+06");
  w.EndObject();
  ExpectSameAsTree(out, R"({"empty array":[],"empty object":{},"items":[1,{"n":null},[[],)"
                        R"(18446744073709551615]],"flags":{"yes":true,"no":false},"ratio":1e+06})");
}

TEST(WriterTest, StringsAndKeysAreEscapedAsGoDoes) {
  std::string out;
  Writer w(out);
  w.BeginObject().Key("a<b").String("x & \"y\"\n\xff").Key("").String("").EndObject();
  // Go's json.Marshal of the same map (an invalid byte becomes \ufffd).
  EXPECT_EQ(out, R"({"a\u003cb":"x \u0026 \"y\"\n\ufffd","":""})");
}

TEST(WriterTest, RawValuesAreCopiedAsTheyAre) {
  std::string out = "prefix:";
  Writer w(out);
  w.BeginArray().Raw(R"({"k":[1,2]})").Raw("null").String("s").EndArray();
  EXPECT_EQ(out, R"(prefix:[{"k":[1,2]},null,"s"])");
}

TEST(WriterTest, TopLevelScalars) {
  std::string out;
  Writer(out).Int(-42);
  EXPECT_EQ(out, "-42");
}

}  // namespace
}  // namespace dra::json
