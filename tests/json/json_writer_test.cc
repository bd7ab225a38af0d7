#include <gtest/gtest.h>

#include <string>

#include "dra/json/value.h"

namespace dra::json {
namespace {

std::string Quote(std::string_view s) {
  std::string out;
  AppendGoJsonString(out, s);
  return out;
}

Value Parse(std::string_view text) {
  Result<Value> r = ParseJson(text);
  EXPECT_TRUE(r.ok()) << r.error();
  return r.ok() ? std::move(r).value() : Value();
}

// Expected strings are Go's json.Marshal output.
TEST(JsonWriterTest, GoStringEscaping) {
  EXPECT_EQ(Quote(""), R"("")");
  EXPECT_EQ(Quote("plain text"), R"("plain text")");
  EXPECT_EQ(Quote("a && b < c > d"), R"("a \u0026\u0026 b \u003c c \u003e d")");
  EXPECT_EQ(Quote("\"\\/"), R"("\"\\/")");
  EXPECT_EQ(Quote("\b\f\n\r\t"), R"("\b\f\n\r\t")");
  EXPECT_EQ(Quote(std::string("\x00\x01\x1f", 3)), R"("\u0000\u0001\u001f")");
  EXPECT_EQ(Quote("\x7f"), "\"\x7f\"");
  EXPECT_EQ(Quote("\u2028\u2029"), R"("\u2028\u2029")");
  EXPECT_EQ(Quote("é€😀\u0085\uFEFF"), "\"é€😀\u0085\uFEFF\"");
}

TEST(JsonWriterTest, InvalidUtf8BecomesReplacementEscapes) {
  EXPECT_EQ(Quote("a\xff"), R"("a\ufffd")");
  // Each byte of an invalid sequence is replaced, as utf8.DecodeRune reports
  // width 1 for it.
  EXPECT_EQ(Quote("\xed\xa0\x80"), R"("\ufffd\ufffd\ufffd")");
  EXPECT_EQ(Quote("\xc0\x80"), R"("\ufffd\ufffd")");
  EXPECT_EQ(Quote("\xe2\x82z"), R"("\ufffd\ufffdz")");
  EXPECT_EQ(Quote("\xf0\x9f\x98"), R"("\ufffd\ufffd\ufffd")");
}

TEST(JsonWriterTest, CompactOutput) {
  Value v = Value::Object();
  v.members.push_back({"b", Value::Number("1.50"), {}});
  v.members.push_back({"a", Value::Array(), {}});
  v.members[1].value.items.push_back(Value::Bool(true));
  v.members[1].value.items.push_back(Value());
  v.members[1].value.items.push_back(Value::String("<x>"));
  v.members.push_back({"b", Value::Object(), {}});
  EXPECT_EQ(ToJson(v), R"({"b":1.50,"a":[true,null,"\u003cx\u003e"],"b":{}})");
  std::string out = "prefix:";
  WriteJson(v, out);
  EXPECT_EQ(out, "prefix:" + ToJson(v));
}

TEST(JsonWriterTest, RoundTrip) {
  std::string_view text =
      R"({"kind":"ResourceSlice","spec":{"devices":[{"name":"a","attributes":{"x":{"int":-1}}},)"
      R"({"name":"b","capacity":{}}],"pool":{"generation":0}},"e":[],"s":"\u003c\n\u2028"})";
  Value v = Parse(text);
  EXPECT_EQ(ToJson(v), text);
  EXPECT_EQ(ToJson(Parse(ToJson(v))), text);
}

// Expected output is Go's json.MarshalIndent(v, "", "    ").
TEST(JsonWriterTest, Indented) {
  Value v = Parse(R"({"a":[1,[],{}],"b":{"c":"x","d":{"e":null}},"f":[[2]],"g":{}})");
  EXPECT_EQ(ToIndentedJson(v), R"({
    "a": [
        1,
        [],
        {}
    ],
    "b": {
        "c": "x",
        "d": {
            "e": null
        }
    },
    "f": [
        [
            2
        ]
    ],
    "g": {}
})");
  EXPECT_EQ(ToIndentedJson(Parse(R"({"a":[1]})"), 2), "{\n  \"a\": [\n    1\n  ]\n}");
  EXPECT_EQ(ToIndentedJson(Parse("{}")), "{}");
  EXPECT_EQ(ToIndentedJson(Parse("[]")), "[]");
  EXPECT_EQ(ToIndentedJson(Parse("\"<\"")), "\"\\u003c\"");
}

}  // namespace
}  // namespace dra::json
