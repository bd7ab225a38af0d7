// Hostile input fails cleanly: deep nesting, long expressions and regexes
// that would be exponential with a backtracking engine.
#include <gtest/gtest.h>

#include <string>

#include "cel_test_util.h"
#include "dra/cel/compile_cache.h"

namespace dra::cel {
namespace {

std::string CompileError(const std::string& expression) {
  Compilation c = Compile(expression);
  return c.ok() ? "" : c.error.detail;
}

TEST(Limits, DeepParenthesesAreARecursionError) {
  std::string e = std::string(5000, '(') + "true" + std::string(5000, ')');
  EXPECT_EQ(CompileError(e),
            "compilation failed: ERROR: <input>:-1:0: expression recursion limit exceeded: 250");
}

TEST(Limits, ModerateNestingIsFine) {
  std::string e = std::string(100, '(') + "true" + std::string(100, ')');
  EXPECT_EQ(CompileError(e), "");
}

TEST(Limits, DeepListsUnaryAndMembers) {
  EXPECT_NE(CompileError(std::string(3000, '[') + std::string(3000, ']') + ".size() == 1")
                .find("recursion limit exceeded"),
            std::string::npos);
  // Runs of unary operators do not nest (an even run cancels out).
  EXPECT_EQ(CompileError(std::string(3000, '!') + "true"), "");
  EXPECT_NE(CompileError(std::string(3001, '-') + "true").find("'-_' applied to '(bool)'"),
            std::string::npos);
  std::string select = "device";
  for (int i = 0; i < 3000; ++i) select += ".a";
  EXPECT_NE(CompileError(select).find("recursion"), std::string::npos);
  std::string calls = "[1]";
  for (int i = 0; i < 3000; ++i) calls += ".reverse()";
  EXPECT_NE(CompileError(calls + ".size() == 1").find("recursion"), std::string::npos);
}

TEST(Limits, LongOperatorChains) {
  // Arithmetic chains nest; cel-go reports them as too deep.
  std::string sum = "1";
  for (int i = 0; i < 3000; ++i) sum += " + 1";
  EXPECT_NE(CompileError(sum + " > 0").find("max recursion depth exceeded"), std::string::npos);
  // Logical chains are balanced and stay shallow.
  std::string all = "true";
  for (int i = 0; i < 2000; ++i) all += " && true";
  EXPECT_EQ(CompileError(all), "");
  SimpleDevice d;
  Compilation c = Compile(all);
  ASSERT_TRUE(c.ok());
  EXPECT_TRUE(*c.program->Evaluate(d));
}

TEST(Limits, TenKilobyteExpression) {
  std::string e = "device.driver == \"" + std::string(10 * 1024, 'x') + "\"";
  SimpleDevice d("x");
  EXPECT_EQ(testing::Outcome(e, d), "false");
  std::string many = "device.driver != \"\"";
  while (many.size() < 10 * 1024) many += " || device.driver == \"abc\"";
  EXPECT_EQ(testing::Outcome(many, d), "true");
}

TEST(Limits, ExpressionSizeLimit) {
  std::string e(100'001, ' ');
  e += "true";
  EXPECT_NE(CompileError(e).find("expression code point size exceeds limit: size: 100005, limit "
                                 "100000"),
            std::string::npos);
}

TEST(Limits, PathologicalRegexesRunInLinearTime) {
  SimpleDevice d("dra.example.com");
  d.AddString("s", std::string(64, 'a') + "!");
  EXPECT_EQ(testing::Outcome(R"(device.attributes["dra.example.com"].s.matches("^(a+)+$"))", d),
            "false");
  EXPECT_EQ(testing::Outcome(R"(device.attributes["dra.example.com"].s.matches("(a|aa)*b"))", d),
            "false");
  std::string huge =
      "\"a\".matches(\"" + std::string(5000, '(') + "a" + std::string(5000, ')') + "\")";
  // Either rejected as an invalid constant pattern or evaluated: never a crash.
  Compilation c = Compile(huge);
  if (c.ok()) (void)c.program->Evaluate(d);
}

TEST(Limits, GarbageInputNeverCrashes) {
  const char* inputs[] = {
      "",   " ",  "\"",     "'''",      "b'", "r\"", "0x", "1e",    "1u1",  ".",
      "..", "?",  "a.?",    "a[?",      "{",  "}",   "[",  "]",     "(",    ")",
      "{?", "a{", "a.b{c:", "\xff\xfe", "\\", "@",   "$",  "1 ? 2", "has(", "cel.bind(a, 1)"};
  for (const char* in : inputs) {
    Compilation c = Compile(in);
    EXPECT_FALSE(c.ok()) << in;
  }
}

TEST(CompileCache, ReusesCompilations) {
  CompileCache cache(2);
  Compilation a = cache.GetOrCompile("true");
  Compilation b = cache.GetOrCompile("true");
  EXPECT_EQ(a.program.get(), b.program.get());
  Compilation bad = cache.GetOrCompile("1 +");
  EXPECT_FALSE(bad.ok());
  EXPECT_EQ(cache.size(), 2u);
  cache.GetOrCompile("false");
  EXPECT_EQ(cache.size(), 2u);  // least recently used ("true") evicted
  EXPECT_NE(cache.GetOrCompile("true").program.get(), a.program.get());
}

}  // namespace
}  // namespace dra::cel
