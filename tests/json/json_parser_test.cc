#include <gtest/gtest.h>

#include <string>

#include "dra/json/value.h"

namespace dra::json {
namespace {

Value Parse(std::string_view text) {
  Result<Value> r = ParseJson(text);
  EXPECT_TRUE(r.ok()) << text << ": " << (r.ok() ? "" : r.error());
  return r.ok() ? std::move(r).value() : Value();
}

std::string ParseError(std::string_view text, const ParseLimits& limits = {}) {
  Result<Value> r = ParseJson(text, limits);
  EXPECT_FALSE(r.ok()) << text;
  return r.ok() ? "" : r.error();
}

std::string_view Raw(std::string_view text, const Value& v) {
  return text.substr(v.raw_begin, v.raw_end - v.raw_begin);
}

TEST(JsonParserTest, Scalars) {
  EXPECT_EQ(Parse("null").kind, Kind::kNull);
  EXPECT_TRUE(Parse("true").boolean);
  EXPECT_EQ(Parse("false").kind, Kind::kBool);
  EXPECT_FALSE(Parse("false").boolean);
  EXPECT_EQ(Parse("\"hi\"").text, "hi");
  EXPECT_EQ(Parse("  \t\r\n 7 \n").text, "7");
}

TEST(JsonParserTest, NumbersKeepTheirText) {
  for (std::string_view n :
       {"0", "-0", "1.50", "1E+2", "-1e-7", "12345678901234567890123", "0.000", "1e400"}) {
    Value v = Parse(n);
    EXPECT_EQ(v.kind, Kind::kNumber);
    EXPECT_EQ(v.text, n);
  }
}

TEST(JsonParserTest, ObjectsKeepOrderAndDuplicates) {
  Value v = Parse(R"({"b": 1, "a": 2, "b": 3})");
  ASSERT_EQ(v.members.size(), 3u);
  EXPECT_EQ(v.members[0].key, "b");
  EXPECT_EQ(v.members[1].key, "a");
  EXPECT_EQ(v.members[2].key, "b");
  EXPECT_EQ(v.members[2].value.text, "3");
  ASSERT_NE(v.Find("b"), nullptr);
  EXPECT_EQ(v.Find("b")->text, "3");  // the last one, as Go keeps
  EXPECT_EQ(v.Find("c"), nullptr);
}

TEST(JsonParserTest, Nesting) {
  Value v = Parse(R"([[], {}, [1, [2, {"x": [3]}]], {"a": {"b": {}}}])");
  ASSERT_EQ(v.items.size(), 4u);
  EXPECT_TRUE(v.items[0].is_array());
  EXPECT_TRUE(v.items[0].items.empty());
  EXPECT_TRUE(v.items[1].is_object());
  EXPECT_EQ(v.items[2].items[1].items[1].Find("x")->items[0].text, "3");
  EXPECT_TRUE(v.items[3].Find("a")->Find("b")->is_object());
}

TEST(JsonParserTest, RawSpansCoverEveryValue) {
  std::string_view text = R"( {"a" : [1, 2.50 ,"x\n"], "b":{"c" : null},"d":true} )";
  Value v = Parse(text);
  EXPECT_EQ(Raw(text, v), R"({"a" : [1, 2.50 ,"x\n"], "b":{"c" : null},"d":true})");
  const Value& a = *v.Find("a");
  EXPECT_EQ(Raw(text, a), R"([1, 2.50 ,"x\n"])");
  EXPECT_EQ(Raw(text, a.items[0]), "1");
  EXPECT_EQ(Raw(text, a.items[1]), "2.50");
  EXPECT_EQ(Raw(text, a.items[2]), R"("x\n")");
  EXPECT_EQ(Raw(text, *v.Find("b")), R"({"c" : null})");
  EXPECT_EQ(Raw(text, *v.Find("b")->Find("c")), "null");
  EXPECT_EQ(Raw(text, *v.Find("d")), "true");
  EXPECT_TRUE(v.has_raw());
}

TEST(JsonParserTest, Positions) {
  std::string_view text = "{\n  \"a\": [1,\n    true],\n  \"é\": \"x\"\n}";
  Value v = Parse(text);
  EXPECT_EQ(v.pos.line, 1u);
  EXPECT_EQ(v.pos.column, 1u);
  const Member& a = v.members[0];
  EXPECT_EQ(a.key_pos.line, 2u);
  EXPECT_EQ(a.key_pos.column, 3u);
  EXPECT_EQ(a.value.pos.line, 2u);
  EXPECT_EQ(a.value.pos.column, 8u);
  EXPECT_EQ(a.value.items[1].pos.line, 3u);
  EXPECT_EQ(a.value.items[1].pos.column, 5u);
  // Columns count bytes: "é" is two.
  const Member& e = v.members[1];
  EXPECT_EQ(e.key_pos.column, 3u);
  EXPECT_EQ(e.value.pos.column, 9u);
}

TEST(JsonParserTest, StringEscapes) {
  EXPECT_EQ(Parse(R"("\" \\ \/ \b \f \n \r \t")").text, "\" \\ / \b \f \n \r \t");
  EXPECT_EQ(Parse(R"("\u00e9\u20AC\u0000")").text, std::string("é€\0", 6));
  EXPECT_EQ(Parse(R"("\ud83d\ude00")").text, "😀");
  // Lone or mismatched surrogates become U+FFFD as in Go; the next escape is
  // decoded on its own.
  EXPECT_EQ(Parse(R"("\ud800")").text, "\uFFFD");
  EXPECT_EQ(Parse(R"("\udc00x")").text, "\uFFFDx");
  EXPECT_EQ(Parse(R"("\ud800\u0041")").text, "\uFFFDA");
  EXPECT_EQ(Parse(R"("\ud800\ud800\udc00")").text, "\uFFFD𐀀");
  EXPECT_EQ(Parse(R"("a\ud83d")").text, "a\uFFFD");
}

TEST(JsonParserTest, Utf8IsValidated) {
  EXPECT_EQ(Parse("\"é😀\xe2\x82\xac\"").text, "é😀€");
  EXPECT_EQ(ParseError("\"ab\xff\""), "line 1, column 4: invalid UTF-8 in string literal");
  EXPECT_EQ(ParseError("\"\xc0\x80\""), "line 1, column 2: invalid UTF-8 in string literal");
  EXPECT_EQ(ParseError("\"\xed\xa0\x80\""), "line 1, column 2: invalid UTF-8 in string literal");
  EXPECT_EQ(ParseError("\"\xe2\x82\""), "line 1, column 2: invalid UTF-8 in string literal");
  EXPECT_EQ(ParseError("\"\xf4\x90\x80\x80\""),
            "line 1, column 2: invalid UTF-8 in string literal");
  EXPECT_EQ(ParseError("\xc3\xa9"),
            "line 1, column 1: invalid character '\xc3\x83' looking for beginning of value");
}

// Wording and positions follow Go's encoding/json scanner (checked against
// Go 1.26's json.Unmarshal).
TEST(JsonParserTest, SyntaxErrors) {
  struct Case {
    std::string_view text;
    std::string_view error;
  } cases[] = {
      {"", "line 1, column 1: unexpected end of JSON input"},
      {"   ", "line 1, column 4: unexpected end of JSON input"},
      {"{", "line 1, column 2: unexpected end of JSON input"},
      {"[1,", "line 1, column 4: unexpected end of JSON input"},
      {"\"abc", "line 1, column 5: unexpected end of JSON input"},
      {"{\"a\":1,}",
       "line 1, column 8: invalid character '}' looking for beginning of object key string"},
      {"[1,]", "line 1, column 4: invalid character ']' looking for beginning of value"},
      {"[1 2]", "line 1, column 4: invalid character '2' after array element"},
      {"{\"a\" 1}", "line 1, column 6: invalid character '1' after object key"},
      {"{\"a\":1 \"b\":2}", "line 1, column 8: invalid character '\"' after object key:value pair"},
      {"{\n  \"a\": 01}", "line 2, column 9: invalid character '1' after object key:value pair"},
      {"01", "line 1, column 2: invalid character '1' after top-level value"},
      {"{} x", "line 1, column 4: invalid character 'x' after top-level value"},
      {"[tru]", "line 1, column 5: invalid character ']' in literal true (expecting 'e')"},
      {"nul", "line 1, column 4: invalid character ' ' in literal null (expecting 'l')"},
      {"NaN", "line 1, column 1: invalid character 'N' looking for beginning of value"},
      {"-", "line 1, column 2: invalid character ' ' in numeric literal"},
      {"-a", "line 1, column 2: invalid character 'a' in numeric literal"},
      {"1.", "line 1, column 3: invalid character ' ' after decimal point in numeric literal"},
      {"1.e5", "line 1, column 3: invalid character 'e' after decimal point in numeric literal"},
      {"1e+", "line 1, column 4: invalid character ' ' in exponent of numeric literal"},
      {".5", "line 1, column 1: invalid character '.' looking for beginning of value"},
      {"+1", "line 1, column 1: invalid character '+' looking for beginning of value"},
      {"\"\\q\"", "line 1, column 3: invalid character 'q' in string escape code"},
      {"\"\\u12G4\"",
       "line 1, column 6: invalid character 'G' in \\u hexadecimal character escape"},
      {"\"a\tb\"", "line 1, column 3: invalid character '\\t' in string literal"},
      {"\"a\nb\"", "line 1, column 3: invalid character '\\n' in string literal"},
      {"['a']", "line 1, column 2: invalid character '\\'' looking for beginning of value"},
      {"[1] // c", "line 1, column 5: invalid character '/' after top-level value"},
      {"\xef\xbb\xbf{}",
       "line 1, column 1: invalid character '\xc3\xaf' looking for beginning of value"},
      {"\x01", "line 1, column 1: invalid character '\\x01' looking for beginning of value"},
      {"\x7f", "line 1, column 1: invalid character '\\x7f' looking for beginning of value"},
      {"\x85", "line 1, column 1: invalid character '\\u0085' looking for beginning of value"},
  };
  for (const Case& c : cases) EXPECT_EQ(ParseError(c.text), c.error) << c.text;
}

TEST(JsonParserTest, DepthLimit) {
  ParseLimits limits;
  limits.max_depth = 3;
  EXPECT_TRUE(ParseJson("[[[1]]]", limits).ok());
  EXPECT_TRUE(ParseJson(R"({"a":{"b":[]}})", limits).ok());
  EXPECT_EQ(ParseError("[[[[1]]]]", limits), "line 1, column 4: exceeded max depth of 3");
  EXPECT_EQ(ParseError(R"({"a":{"b":{"c":{}}}})", limits),
            "line 1, column 16: exceeded max depth of 3");
}

TEST(JsonParserTest, DeepNestingFailsCleanly) {
  for (std::string_view open : {"[", "{\"a\":"}) {
    std::string text;
    for (int i = 0; i < 100000; ++i) text += open;
    Result<Value> r = ParseJson(text);
    ASSERT_FALSE(r.ok());
    EXPECT_NE(r.error().find("exceeded max depth of 1000"), std::string::npos) << r.error();
  }
  // The parser itself is iterative: a high limit costs heap, not stack.
  std::string deep = std::string(50000, '[') + std::string(50000, ']');
  ParseLimits limits;
  limits.max_depth = 100000;
  Result<Value> r = ParseJson(deep, limits);
  ASSERT_TRUE(r.ok());
  // Unnest before destruction: ~Value recurses.
  Value v = std::move(*r);
  while (!v.items.empty()) {
    Value child = std::move(v.items[0]);
    v = std::move(child);
  }
}

TEST(JsonParserTest, ValueLimit) {
  ParseLimits limits;
  limits.max_values = 4;
  EXPECT_TRUE(ParseJson("[1,2,3]", limits).ok());
  EXPECT_EQ(ParseError("[1,2,3,4]", limits), "line 1, column 8: too many values (more than 4)");
}

TEST(JsonParserTest, LargeArrayOfSmallObjects) {
  // About 50 MB, the shape of a big ResourceSlice's device list.
  std::string text = "[";
  std::size_t n = 0;
  while (text.size() < 50'000'000) {
    if (n > 0) text += ',';
    text += R"({"name":"gpu-)" + std::to_string(n) +
            R"(","attributes":{"model":{"string":"LATEST-GPU-MODEL"},"index":{"int":)" +
            std::to_string(n % 8) + R"(}},"capacity":{"memory":{"value":"80Gi"}}})";
    ++n;
  }
  text += "]";
  Result<Value> r = ParseJson(text);
  ASSERT_TRUE(r.ok()) << r.error();
  ASSERT_EQ(r->items.size(), n);
  const Value& last = r->items.back();
  EXPECT_EQ(last.Find("name")->text, "gpu-" + std::to_string(n - 1));
  EXPECT_EQ(Raw(text, *last.Find("capacity")), R"({"memory":{"value":"80Gi"}})");
  EXPECT_EQ(ToJson(*r), text);
}

}  // namespace
}  // namespace dra::json
