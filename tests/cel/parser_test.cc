// The lexer and parser: literal forms, precedence, member/index/call syntax,
// macros, optional syntax, and error reports in cel-go's format.
#include "cel/parser.h"

#include <gtest/gtest.h>

#include <string>

#include "cel_test_util.h"

namespace dra::cel {
namespace {

using testing::Outcome;

// Evaluates a device-independent expression.
std::string Eval(std::string_view expression) {
  SimpleDevice none;
  return Outcome(expression, none);
}

std::string ParseErrors(std::string_view text) {
  Source source(text);
  Issues issues;
  ExprPtr e = Parse(source, &issues);
  EXPECT_EQ(e == nullptr, !issues.empty());
  return issues.Format(source);
}

TEST(Parser, IntegerLiterals) {
  EXPECT_EQ(Eval("0x1F == 31"), "true");
  EXPECT_EQ(Eval("0X1f == 31"), "true");
  EXPECT_EQ(Eval("-9223372036854775808 < 0"), "true");
  EXPECT_EQ(Eval("9223372036854775807 > 0"), "true");
  EXPECT_EQ(Eval("1u == uint(1)"), "true");
  EXPECT_EQ(Eval("18446744073709551615u > 0u"), "true");
  EXPECT_EQ(Eval("0x10u == 16u"), "true");
  EXPECT_NE(ParseErrors("9223372036854775808").find("invalid int literal"), std::string::npos);
  EXPECT_NE(ParseErrors("18446744073709551616u").find("invalid uint literal"), std::string::npos);
}

TEST(Parser, DoubleLiterals) {
  EXPECT_EQ(Eval("1.5 == 3.0 / 2.0"), "true");
  EXPECT_EQ(Eval(".5 == 0.5"), "true");
  EXPECT_EQ(Eval("1e3 == 1000.0"), "true");
  EXPECT_EQ(Eval("1.5e-3 == 0.0015"), "true");
  EXPECT_EQ(Eval("-2.5 < 0.0"), "true");
  EXPECT_EQ(Eval("1e400 > 0.0"), "true");  // +Inf, as Go parses it
}

TEST(Parser, StringLiterals) {
  EXPECT_EQ(Eval(R"('abc' == "abc")"), "true");
  EXPECT_EQ(Eval(R"("""a"b""" == 'a"b')"), "true");
  EXPECT_EQ(Eval(R"('''x
y''' == "x\ny")"),
            "true");
  EXPECT_EQ(Eval(R"(r"\n" == "\\n")"), "true");
  EXPECT_EQ(Eval(R"(R'\d+' == "\\d+")"), "true");
  EXPECT_EQ(Eval(R"("\x41\u0042\U00000043\103" == "ABCC")"), "true");
  EXPECT_EQ(Eval(R"("\a\b\f\n\r\t\v\\\"\'\`\?".size() == 12)"), "true");
  EXPECT_EQ(Eval(R"("\u00e9".size() == 1)"), "true");
  EXPECT_EQ(Eval(R"("é" == "\303\251" )"), "false");  // octal escapes are code points in strings
}

TEST(Parser, BytesLiterals) {
  EXPECT_EQ(Eval(R"(b"abc" == bytes("abc"))"), "true");
  EXPECT_EQ(Eval(R"(b"\303\251" == bytes("é"))"), "true");  // octal escapes are bytes in bytes
  EXPECT_EQ(Eval(R"(b"\xff".size() == 1)"), "true");
  EXPECT_EQ(Eval(R"(rb"\x" == b"\\x")"), "true");
  EXPECT_EQ(Eval(R"(BR'a' == b'a')"), "true");
}

TEST(Parser, Precedence) {
  EXPECT_EQ(Eval("1 + 2 * 3 == 7"), "true");
  EXPECT_EQ(Eval("(1 + 2) * 3 == 9"), "true");
  EXPECT_EQ(Eval("10 - 4 - 3 == 3"), "true");  // left associative
  EXPECT_EQ(Eval("7 % 4 * 2 == 6"), "true");
  EXPECT_EQ(Eval("true || false && false"), "true");  // && binds tighter
  EXPECT_EQ(Eval("!false && !!true"), "true");
  EXPECT_EQ(Eval("-(-3) == 3"), "true");
  EXPECT_EQ(Eval("1 < 2 == true"), "true");  // relations share one level, left to right
  EXPECT_EQ(Eval("(false ? 1 : 2) == 2"), "true");
  EXPECT_EQ(Eval("true ? false : true ? false : true"), "false");  // right associative
  EXPECT_EQ(Eval("2 in [1, 2] && !(3 in [1, 2])"), "true");
}

TEST(Parser, MemberIndexCall) {
  EXPECT_EQ(Eval(R"({"a": {"b": [1, 2, 3]}}.a.b[2] == 3)"), "true");
  EXPECT_EQ(Eval(R"({"a": 1}["a"] == 1)"), "true");
  EXPECT_EQ(Eval(R"("abc".size() == size("abc"))"), "true");
  EXPECT_EQ(Eval("[1, 2, 3,].size() == 3"), "true");  // trailing comma
  EXPECT_EQ(Eval(R"({"a": 1,}.size() == 1)"), "true");
}

TEST(Parser, ReservedWordsAfterDot) {
  EXPECT_EQ(Eval(R"({"namespace": 1, "if": 2}.namespace + {"if": 2}.if == 3)"), "true");
  EXPECT_NE(ParseErrors("if").find("reserved identifier: if"), std::string::npos);
  EXPECT_NE(ParseErrors("a.in").find("Syntax error"), std::string::npos);
}

TEST(Parser, Macros) {
  EXPECT_EQ(Eval("[1, 2, 3].all(x, x > 0)"), "true");
  EXPECT_EQ(Eval("[1, 2, 3].exists(x, x > 2)"), "true");
  EXPECT_EQ(Eval("[1, 2, 3].exists_one(x, x > 1)"), "false");
  EXPECT_EQ(Eval("[1, 2, 3].map(x, x * 2) == [2, 4, 6]"), "true");
  EXPECT_EQ(Eval("[1, 2, 3].map(x, x > 1, x * 2) == [4, 6]"), "true");
  EXPECT_EQ(Eval("[1, 2, 3].filter(x, x != 2) == [1, 3]"), "true");
  EXPECT_EQ(Eval(R"(has({"a": 1}.a) && !has({"a": 1}.b))"), "true");
  EXPECT_EQ(Eval("cel.bind(x, 2, x * x) == 4"), "true");
  EXPECT_EQ(Eval("[10, 20].all(i, v, v == (i + 1) * 10)"), "true");
  EXPECT_EQ(Eval(R"({"a": 1, "b": 2}.exists(k, v, k == "b" && v == 2))"), "true");
  EXPECT_EQ(Eval("[1, 2].existsOne(i, v, v == 2)"), "true");
  EXPECT_EQ(Eval("[1, 2].transformList(i, v, v * 10) == [10, 20]"), "true");
  EXPECT_EQ(Eval("[1, 2].transformList(i, v, i > 0, v * 10) == [20]"), "true");
  EXPECT_EQ(Eval(R"({"a": 1}.transformMap(k, v, v + 1) == {"a": 2})"), "true");
  EXPECT_NE(ParseErrors("has(a)").find("invalid argument to has() macro"), std::string::npos);
  EXPECT_NE(ParseErrors("[1].all(1, true)").find("argument must be a simple name"),
            std::string::npos);
}

TEST(Parser, OptionalSyntax) {
  EXPECT_EQ(Eval(R"({"a": 1}.?a == optional.of(1))"), "true");
  EXPECT_EQ(Eval(R"({"a": 1}.?b == optional.none())"), "true");
  EXPECT_EQ(Eval(R"({"a": 1}[?"a"].orValue(0) == 1)"), "true");
  EXPECT_EQ(Eval("[1, 2][?5].hasValue() == false"), "true");
  EXPECT_EQ(Eval("[?optional.of(1), ?optional.none(), 3] == [1, 3]"), "true");
  EXPECT_EQ(Eval(R"({?"a": optional.of(1), ?"b": optional.none()} == {"a": 1})"), "true");
  EXPECT_EQ(Eval("optional.of(2).optMap(x, x * 3).value() == 6"), "true");
  EXPECT_EQ(Eval("optional.none().or(optional.of(1)).value() == 1"), "true");
}

TEST(Parser, CommentsAndWhitespace) { EXPECT_EQ(Eval("1 + // one\n\t2 == 3 // done"), "true"); }

TEST(ParserErrors, CelGoFormatWithCaret) {
  EXPECT_EQ(ParseErrors("a + "),
            "ERROR: <input>:1:5: Syntax error: mismatched input '<EOF>' expecting {'[', '{', "
            "'(', '.', '-', '!', 'true', 'false', 'null', NUM_FLOAT, NUM_INT, NUM_UINT, STRING, "
            "BYTES, IDENTIFIER}\n | a + \n | ....^");
  // Lexical errors are reported and skipped; parsing goes on after them.
  EXPECT_EQ(ParseErrors("1 # 2"),
            "ERROR: <input>:1:3: Syntax error: token recognition error at: '#'\n | 1 # 2\n | ..^\n"
            "ERROR: <input>:1:5: Syntax error: extraneous input '2' expecting <EOF>\n | 1 # 2\n"
            " | ....^");
  EXPECT_EQ(ParseErrors("(1"),
            "ERROR: <input>:1:3: Syntax error: mismatched input '<EOF>' expecting ')'\n | (1\n"
            " | ..^");
}

// As a real kube-apiserver v1.37.2 reports an empty selector expression
// (cel-go puts the end of empty input at column -1 and shows no line).
TEST(ParserErrors, EmptyExpression) {
  EXPECT_EQ(ParseErrors(""),
            "ERROR: <input>:1:0: Syntax error: mismatched input '<EOF>' expecting {'[', '{', "
            "'(', '.', '-', '!', 'true', 'false', 'null', NUM_FLOAT, NUM_INT, NUM_UINT, STRING, "
            "BYTES, IDENTIFIER}");
}

TEST(ParserErrors, SecondLineAndWideCharacters) {
  EXPECT_EQ(ParseErrors("true &&\n  'é' #"),
            "ERROR: <input>:2:7: Syntax error: token recognition error at: '#'\n"
            " |   'é' #\n"
            " | ...．..^");
}

TEST(ParserErrors, UnterminatedStringAndBadEscape) {
  EXPECT_NE(ParseErrors("'abc").find("Syntax error: token recognition error"), std::string::npos);
  EXPECT_NE(ParseErrors(R"("\q")").find("Syntax error: token recognition error"),
            std::string::npos);
  EXPECT_NE(ParseErrors(R"("\uD800")").find("Syntax error"), std::string::npos);
}

TEST(ParserErrors, CompileReportsThemAsInvalid) {
  Compilation c = Compile("1 +");
  ASSERT_FALSE(c.ok());
  EXPECT_EQ(c.error.type, CompileError::Type::kInvalid);
  EXPECT_EQ(c.error.detail.rfind("compilation failed: ERROR: <input>:1:4: Syntax error:", 0), 0u)
      << c.error.detail;
}

}  // namespace
}  // namespace dra::cel
