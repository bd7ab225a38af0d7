// Resource limits of ParseYaml: nesting, alias expansion and value counts
// must end in errors, never in stack overflow or memory exhaustion.
#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "dra/json/value.h"

namespace dra::json {
namespace {

std::string Error(const std::string& text, const ParseLimits& limits = {}) {
  Result<std::vector<YamlDocument>> r = ParseYaml(text, limits);
  EXPECT_FALSE(r.ok());
  return r.ok() ? "" : r.error();
}

std::string Repeat(std::string_view s, int n) {
  std::string out;
  out.reserve(s.size() * static_cast<std::size_t>(n));
  for (int i = 0; i < n; ++i) out += s;
  return out;
}

TEST(YamlLimitsTest, DeepNestingIsAnError) {
  const std::string deep[] = {
      Repeat("[", 100000),
      Repeat("[", 100000) + Repeat("]", 100000),
      "x: " + Repeat("{a: ", 100000),
      Repeat("- ", 100000) + "a\n",
  };
  for (const std::string& text : deep) {
    std::string e = Error(text);
    EXPECT_NE(e.find("exceeded max depth of 498"), std::string::npos) << e;
  }
  std::string indented;
  for (int i = 0; i < 3000; ++i) indented += std::string(static_cast<std::size_t>(i), ' ') + "k:\n";
  EXPECT_EQ(Error(indented), "line 499, column 499: exceeded max depth of 498");
}

TEST(YamlLimitsTest, DepthBoundary) {
  // yaml-cpp's parser allows 498 nested collections holding values.
  std::string ok = Repeat("[", 498) + "1" + Repeat("]", 498);
  EXPECT_TRUE(ParseYaml(ok).ok());
  std::string over = Repeat("[", 499) + "1" + Repeat("]", 499);
  EXPECT_EQ(Error(over), "line 1, column 499: exceeded max depth of 498");
  ParseLimits limits;
  limits.max_depth = 3;
  EXPECT_TRUE(ParseYaml("a: {b: [1]}", limits).ok());
  EXPECT_EQ(Error("a: {b: [[1]]}", limits), "line 1, column 9: exceeded max depth of 3");
}

TEST(YamlLimitsTest, AliasExpansionCountsTowardDepth) {
  ParseLimits limits;
  limits.max_depth = 4;
  EXPECT_TRUE(ParseYaml("a: &a [[1]]\nb: [*a]\n", limits).ok());
  EXPECT_EQ(Error("a: &a [[[1]]]\nb: [[*a]]\n", limits),
            "line 2, column 6: exceeded max depth of 4");
}

TEST(YamlLimitsTest, BillionLaughs) {
  std::string text =
      "a: &a [\"lol\",\"lol\",\"lol\",\"lol\",\"lol\",\"lol\",\"lol\",\"lol\",\"lol\"]\n";
  for (char c = 'b'; c <= 'i'; ++c) {
    text += std::string(1, c) + ": &" + c + " [";
    for (int k = 0; k < 9; ++k) text += std::string(k ? "," : "") + "*" + static_cast<char>(c - 1);
    text += "]\n";
  }
  std::string e = Error(text);
  EXPECT_NE(e.find("document contains excessive aliasing"), std::string::npos) << e;
}

// go-yaml v2's own limit test: 1000 KB of maps referenced by 100 aliases.
TEST(YamlLimitsTest, WideAliasingOfALargeDocument) {
  std::string text = "{a: &a [{a}" + Repeat(",{a}", 1000 * 1024 / 4 - 100) + "], b: &b [*a" +
                     Repeat(",*a", 99) + "]}";
  std::string e = Error(text);
  EXPECT_NE(e.find("document contains excessive aliasing"), std::string::npos) << e;
}

TEST(YamlLimitsTest, ModestAliasingIsFine) {
  std::string text = "base: &b {x: 1, y: [1, 2, 3]}\n";
  for (int i = 0; i < 200; ++i) text += "k" + std::to_string(i) + ": *b\n";
  Result<std::vector<YamlDocument>> r = ParseYaml(text);
  ASSERT_TRUE(r.ok()) << r.error();
  EXPECT_EQ((*r)[0].root.members.size(), 201u);
}

TEST(YamlLimitsTest, ValueLimitCountsExpansions) {
  ParseLimits limits;
  limits.max_values = 20;
  EXPECT_TRUE(ParseYaml("a: &a [1, 2, 3]\nb: *a\nc: *a\n", limits).ok());
  EXPECT_EQ(Error("a: &a [1, 2, 3, 4, 5, 6]\nb: *a\nc: *a\n", limits),
            "line 3, column 4: too many values (more than 20)");
}

// Anchors nested inside anchors are stored once each, not copied into every
// enclosing anchor, so memory stays linear in the input.
TEST(YamlLimitsTest, NestedAnchorsStayLinear) {
  std::string text;
  for (int i = 0; i < 400; ++i) text += "&a" + std::to_string(i) + " [";
  text += Repeat("1, ", 20000) + "1";
  text += Repeat("]", 400);
  Result<std::vector<YamlDocument>> r = ParseYaml(text);
  ASSERT_TRUE(r.ok()) << r.error();
  const Value* v = &(*r)[0].root;
  for (int i = 0; i < 399; ++i) v = &v->items[0];
  EXPECT_EQ(v->items.size(), 20001u);
}

}  // namespace
}  // namespace dra::json
