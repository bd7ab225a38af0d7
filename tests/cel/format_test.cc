// string.format of the strings extension v2: cel-go's legacy formatter
// (ext/formatting.go), not the v4 one.
#include <gtest/gtest.h>

#include <string>

#include "cel_test_util.h"

namespace dra::cel {
namespace {

std::string Eval(std::string_view expression) {
  SimpleDevice none;
  return testing::Outcome(expression, none);
}

TEST(Format, Clauses) {
  EXPECT_EQ(Eval("'%s, %s!'.format(['hello', 'world']) == 'hello, world!'"), "true");
  EXPECT_EQ(Eval("'%d %d'.format([-42, 7]) == '-42 7'"), "true");
  EXPECT_EQ(Eval("'%d'.format([42u]) == '42'"), "true");
  EXPECT_EQ(Eval("'%f'.format([3.5]) == '3.500000'"), "true");
  EXPECT_EQ(Eval("'%.2f'.format([1234567.125]) == '1,234,567.12'"), "true");
  EXPECT_EQ(Eval("'%.0f'.format([-1234.6]) == '-1,235'"), "true");
  EXPECT_EQ(Eval("'%f'.format(['NaN']) == 'NaN'"), "true");
  EXPECT_EQ(
      Eval("'%e'.format([1052.032911275]) == '1.052033\\u202f\\u00d7\\u202f10\\u2070\\u00b3'"),
      "true");
  EXPECT_EQ(Eval("'%b %b'.format([5, 6]) == '101 110' && '%b'.format([true]) == '1'"), "true");
  EXPECT_EQ(Eval("'%b'.format([-5]) == '-101'"), "true");
  EXPECT_EQ(Eval("'%x %X'.format([255, 255]) == 'ff FF'"), "true");
  EXPECT_EQ(Eval("'%x'.format(['Hi']) == '4869'"), "true");
  EXPECT_EQ(Eval("'%X'.format([b'\\xff']) == 'FF'"), "true");
  EXPECT_EQ(Eval("'%o'.format([8]) == '10'"), "true");
  EXPECT_EQ(Eval("'%e'.format([2.71828]) == '2.718280\\u202f\\u00d7\\u202f10\\u2070\\u2070'"),
            "true");
  EXPECT_EQ(Eval("'%s'.format([type(1)]) == 'int'"), "true");
  EXPECT_EQ(Eval("'100%% %s'.format(['sure']) == '100% sure'"), "true");
  EXPECT_EQ(Eval("'%s'.format([[1, 2]]) == '[1, 2]'"), "true");
  EXPECT_EQ(Eval("'%s'.format([['a', 'b']]) == '[\"a\", \"b\"]'"), "true");
  EXPECT_EQ(Eval("'%s'.format([{'b': 1.5, 'a': 2.0}]) == '{\"a\":2.000000, \"b\":1.500000}'"),
            "true");
  EXPECT_EQ(Eval("'%s %s'.format([true, false]) == 'true false'"), "true");
  EXPECT_EQ(Eval("'%s'.format([null]) == 'null'"), "true");
  EXPECT_EQ(Eval("'%s'.format([1.5]) == '1.5'"), "true");
  EXPECT_EQ(Eval("'%s'.format([[duration('1s')]]) == '[duration(\"1s\")]'"), "true");
}

TEST(Format, Errors) {
  EXPECT_EQ(Eval("'%d'.format([1.5]) == ''"),
            "err: error during formatting: decimal clause can only be used on integers, was "
            "given double");
  EXPECT_EQ(Eval("'%f'.format([1]) == ''"),
            "err: error during formatting: fixed-point clause can only be used on doubles, was "
            "given int");
  EXPECT_EQ(Eval("'%s %s'.format(['a']) == ''"), "err: index 1 out of range");
  EXPECT_EQ(Eval("'%'.format(['a']) == ''"), "err: unexpected end of string");
  EXPECT_EQ(Eval("'%z'.format(['a']) == ''"),
            "err: could not parse formatting clause: unrecognized formatting clause \"z\"");
  EXPECT_EQ(Eval("'%.3'.format([1.0]) == ''"),
            "err: could not parse formatting clause: error while parsing precision: could not "
            "find end of precision specifier");
  // The Kubernetes checker keeps list literals homogeneous.
  EXPECT_EQ(Eval("'%s %d'.format(['a', 1]) == ''").rfind("compile: ", 0), 0u);
}

}  // namespace
}  // namespace dra::cel
