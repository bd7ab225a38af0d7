// Evaluation semantics of core CEL (cel-spec doc/langdef.md, and cel-go where it leaves
// freedom).
#include <gtest/gtest.h>

#include <string>

#include "cel_test_util.h"

namespace dra::cel {
namespace {

std::string Eval(std::string_view expression) {
  SimpleDevice none;
  return testing::Outcome(expression, none);
}

TEST(Arithmetic, IntOverflowIsAnError) {
  EXPECT_EQ(Eval("9223372036854775807 + 1 > 0"), "err: integer overflow");
  EXPECT_EQ(Eval("-9223372036854775808 - 1 < 0"), "err: integer overflow");
  EXPECT_EQ(Eval("-(-9223372036854775808) > 0"), "err: integer overflow");
  EXPECT_EQ(Eval("-9223372036854775808 / -1 > 0"), "err: integer overflow");
  EXPECT_EQ(Eval("-9223372036854775808 * -1 > 0"), "err: integer overflow");
  EXPECT_EQ(Eval("-9223372036854775808 % -1 == 0"), "err: integer overflow");
}

TEST(Arithmetic, UintOverflowIsAnError) {
  EXPECT_EQ(Eval("18446744073709551615u + 1u > 0u"), "err: unsigned integer overflow");
  EXPECT_EQ(Eval("0u - 1u > 0u"), "err: unsigned integer overflow");
}

TEST(Arithmetic, DivisionAndModulus) {
  EXPECT_EQ(Eval("-7 / 2 == -3"), "true");
  EXPECT_EQ(Eval("-7 % 2 == -1"), "true");
  EXPECT_EQ(Eval("7 % -2 == 1"), "true");
  EXPECT_EQ(Eval("1 / 0 == 0"), "err: division by zero");
  EXPECT_EQ(Eval("1 % 0 == 0"), "err: modulus by zero");
  EXPECT_EQ(Eval("1u / 0u == 0u"), "err: division by zero");
  EXPECT_EQ(Eval("1.0 / 0.0 > 1e308"), "true");
  EXPECT_EQ(Eval("0.0 / 0.0 != 0.0 / 0.0"), "true");  // NaN equals nothing
}

TEST(Arithmetic, NoImplicitConversion) {
  EXPECT_EQ(Eval("1 + 1.0 == 2.0").substr(0, 54),
            "compile: compilation failed: ERROR: <input>:1:3: found");
  EXPECT_EQ(Eval("dyn(1) + 1.0 == 2.0"), "err: no such overload");
}

TEST(Equality, HeterogeneousNumbers) {
  EXPECT_EQ(Eval("dyn(1) == 1.0"), "true");
  EXPECT_EQ(Eval("dyn(1u) == 1"), "true");
  EXPECT_EQ(Eval("dyn(-1) == 18446744073709551615u"), "false");
  // As cel-go: an integer meets a double as a double.
  EXPECT_EQ(Eval("dyn(9007199254740993) == 9007199254740992.0"), "true");
  EXPECT_EQ(Eval(R"(dyn(1) == "1")"), "false");
  EXPECT_EQ(Eval("[1, 2] == [1, 2] && [1] != [2]"), "true");
  EXPECT_EQ(Eval(R"({"a": 1, "b": 2} == {"b": 2, "a": 1})"), "true");
  EXPECT_EQ(Eval("[dyn(1), dyn(2.0)] == [dyn(1.0), dyn(2)]"), "true");
  EXPECT_EQ(Eval("dyn([1, 2]) == [1.0, 2.0]"), "true");
  EXPECT_EQ(Eval("null == null"), "true");
}

TEST(Ordering, CrossTypeNumericAndOthers) {
  EXPECT_EQ(Eval("1 < 1.5 && 2u > 1 && 1.5 < 2u"), "true");
  EXPECT_EQ(Eval("-1 < 0u"), "true");
  EXPECT_EQ(Eval("9223372036854775807 < 9223372036854775808.0"), "false");
  EXPECT_EQ(Eval("dyn(18446744073709551615u) < 1e30 && dyn(-1) < 0.5"), "true");
  EXPECT_EQ(Eval(R"("abc" < "abd" && b"a" < b"b" && false < true)"), "true");
  EXPECT_EQ(Eval(R"(dyn(1) < "a")"), "err: no such overload");
}

TEST(Logic, CommutativeErrorAbsorption) {
  EXPECT_EQ(Eval("1 / 0 == 1 && false"), "false");
  EXPECT_EQ(Eval("false && 1 / 0 == 1"), "false");
  EXPECT_EQ(Eval("1 / 0 == 1 || true"), "true");
  EXPECT_EQ(Eval("true || 1 / 0 == 1"), "true");
  EXPECT_EQ(Eval("1 / 0 == 1 && true"), "err: division by zero");
  EXPECT_EQ(Eval("1 / 0 == 1 || 1 % 0 == 1"), "err: division by zero");  // left-most error
  EXPECT_EQ(Eval("!(1 / 0 == 1)"), "err: division by zero");
  EXPECT_EQ(Eval("dyn(1) && true"), "err: no such overload");
  EXPECT_EQ(Eval("dyn(1) && false"), "false");
  EXPECT_EQ(Eval("(1 / 0 == 1) ? true : true"), "err: division by zero");
}

TEST(Comprehensions, ErrorAbsorptionInAllAndExists) {
  EXPECT_EQ(Eval("[0, 1].all(x, 1 / x > 0)"), "err: division by zero");  // no false to absorb it
  EXPECT_EQ(Eval("[1, 0].all(x, 1 / x > 5)"), "false");  // the false absorbs the error
  EXPECT_EQ(Eval("[1, 0].all(x, 1 / x > 0)"), "err: division by zero");
  EXPECT_EQ(Eval("[0, 1].exists(x, 1 / x == 1)"), "true");
  EXPECT_EQ(Eval("[0, 2].exists(x, 1 / x == 1)"), "err: division by zero");
  EXPECT_EQ(Eval("[0, 1].exists_one(x, 1 / x == 1)"), "err: division by zero");
  EXPECT_EQ(Eval("[0].map(x, 1 / x).size() == 1"), "err: division by zero");
}

TEST(Comprehensions, MapsIterateKeys) {
  EXPECT_EQ(Eval(R"({"a": 1, "b": 2}.all(k, k.size() == 1))"), "true");
  EXPECT_EQ(Eval(R"({"a": 1}.map(k, k) == ["a"])"), "true");
  EXPECT_EQ(Eval("dyn(1).all(x, true)"), "err: got 'types.Int', expected iterable type");
  EXPECT_EQ(Eval("1.all(x, true)").substr(0, 62),
            "compile: compilation failed: ERROR: <input>:1:1: expression of");
}

TEST(Strings, Functions) {
  EXPECT_EQ(Eval(R"("héllo".size() == 5 && b"h\xc3\xa9".size() == 3)"), "true");
  EXPECT_EQ(Eval(R"("abc".contains("b") && "abc".startsWith("ab") && "abc".endsWith("bc"))"),
            "true");
  EXPECT_EQ(Eval(R"("abc123".matches("[0-9]+") && !"abc".matches("^b"))"), "true");
  EXPECT_EQ(Eval(R"(matches("abc", "^a.c$"))"), "true");
  EXPECT_EQ(Eval(R"("a" + "b" == "ab")"), "true");
  EXPECT_EQ(Eval(R"("x".matches(dyn("(")))").substr(0, 30), "err: error parsing regexp: mis");
  EXPECT_EQ(Eval(R"("ab\u00e9".charAt(2) == "é" && "abc".charAt(3) == "")"), "true");
  EXPECT_EQ(Eval(R"("abc".charAt(4) == "")"), "err: index out of range: 4");
  EXPECT_EQ(Eval(R"("hello".indexOf("l") == 2 && "hello".lastIndexOf("l") == 3)"), "true");
  EXPECT_EQ(Eval(R"("hello".indexOf("l", 3) == 3 && "hello".indexOf("") == 0)"), "true");
  EXPECT_EQ(Eval(R"("hello".lastIndexOf("l", 2) == 2 && "hello".indexOf("z") == -1)"), "true");
  EXPECT_EQ(Eval(R"("AbC".lowerAscii() == "abc" && "AbC".upperAscii() == "ABC")"), "true");
  EXPECT_EQ(
      Eval(R"("a.b.c".replace(".", "-") == "a-b-c" && "a.b.c".replace(".", "-", 1) == "a-b.c")"),
      "true");
  EXPECT_EQ(
      Eval(R"("a,b,c".split(",") == ["a", "b", "c"] && "a,b,c".split(",", 2) == ["a", "b,c"])"),
      "true");
  EXPECT_EQ(Eval(R"("a,b".split(",", 0) == [] && "abc".split("") == ["a", "b", "c"])"), "true");
  EXPECT_EQ(Eval(R"("hello".substring(1) == "ello" && "hello".substring(1, 3) == "el")"), "true");
  EXPECT_EQ(Eval(R"("hello".substring(3, 1) == "")"),
            "err: invalid substring range. start: 3, end: 1");
  EXPECT_EQ(Eval(R"("  \t hi \n".trim() == "hi")"), "true");
  EXPECT_EQ(Eval(R"(["a", "b"].join() == "ab" && ["a", "b"].join("-") == "a-b")"), "true");
  EXPECT_EQ(Eval(R"(strings.quote("a\"b\n") == "\"a\\\"b\\n\"")"), "true");
}

TEST(Strings, FindFollowsGoSemantics) {
  EXPECT_EQ(Eval(R"("abc 123".find("[0-9]+") == "123")"), "true");
  EXPECT_EQ(Eval(R"("abc 123".find("[0-9]*") == "")"), "true");  // empty match at offset 0
  EXPECT_EQ(Eval(R"("abc".find("x") == "")"), "true");
  EXPECT_EQ(Eval(R"("a1b22c333".findAll("[0-9]+") == ["1", "22", "333"])"), "true");
  EXPECT_EQ(Eval(R"("a1b22c333".findAll("[0-9]+", 2) == ["1", "22"])"), "true");
  EXPECT_EQ(Eval(R"("abc".findAll("x*") == ["", "", "", ""])"), "true");
  EXPECT_EQ(Eval(R"("a1".find(dyn("[")) == "")").substr(0, 19), "err: Illegal regex:");
  Compilation constant = Compile(R"("a1".find("[") == "")");
  ASSERT_FALSE(constant.ok());
  EXPECT_EQ(constant.error.type, CompileError::Type::kInternal);
  EXPECT_EQ(constant.error.detail.rfind("program instantiation failed: Illegal regex:", 0), 0u);
}

TEST(Conversions, Numbers) {
  EXPECT_EQ(Eval("int(1u) == 1 && int(2.9) == 2 && int(-2.9) == -2"), "true");
  EXPECT_EQ(Eval(R"(int("-42") == -42 && uint("42") == 42u && double("1.5") == 1.5)"), "true");
  EXPECT_EQ(Eval("int(dyn(18446744073709551615u)) == 0"), "err: integer overflow");
  EXPECT_EQ(Eval("int(dyn(1e19)) == 0"), "err: integer overflow");
  EXPECT_EQ(Eval("uint(dyn(-1)) == 0u"), "err: unsigned integer overflow");
  EXPECT_EQ(Eval("double(1) == 1.0 && double(2u) == 2.0"), "true");
}

TEST(Conversions, Strings) {
  EXPECT_EQ(Eval(R"(string(123.456) == "123.456" && string(-0.0045) == "-0.0045")"), "true");
  EXPECT_EQ(Eval(R"(string(1e21) == "1e+21" && string(1234567.0) == "1.234567e+06")"), "true");
  EXPECT_EQ(Eval(R"(string(100000.0) == "100000" && string(1.0) == "1")"), "true");
  EXPECT_EQ(Eval(R"(string(-5) == "-5" && string(5u) == "5" && string(true) == "true")"), "true");
  EXPECT_EQ(Eval(R"(string(b"abc") == "abc" && bytes("é") == b"\xc3\xa9")"), "true");
  EXPECT_EQ(Eval(R"(string(dyn(b"\xff")) == "")").substr(0, 21), "err: invalid UTF-8 in");
  EXPECT_EQ(Eval(R"(bool(dyn("T")))"), "err: strconv.ParseBool: parsing \"T\": invalid syntax");
  EXPECT_EQ(Eval(R"(bool("t") && bool("True") && !bool("0") && !bool("FALSE"))"), "true");
}

TEST(Conversions, ConstantFailuresAbortProgramCreation) {
  Compilation c = Compile(R"(int("x") == 1)");
  ASSERT_FALSE(c.ok());
  EXPECT_EQ(c.error.type, CompileError::Type::kInternal);
  EXPECT_EQ(c.error.detail,
            "program instantiation failed: strconv.ParseInt: parsing \"x\": invalid syntax");
}

TEST(Conversions, TypesAndDyn) {
  EXPECT_EQ(Eval("type(1) == int && type(1u) == uint && type(dyn([])) == list"), "true");
  EXPECT_EQ(Eval(R"(type("a") == string && type({}) == map && type(int) == type)"), "true");
  EXPECT_EQ(Eval(R"(type(quantity("1")) != int)"), "true");
}

TEST(Membership, ListsAndMaps) {
  EXPECT_EQ(Eval("2 in [1, 2, 3] && !(4 in [1, 2, 3])"), "true");
  EXPECT_EQ(Eval("dyn(2.0) in [1, 2, 3]"), "true");
  EXPECT_EQ(Eval(R"("a" in {"a": 1} && !("b" in {"a": 1}))"), "true");
  EXPECT_EQ(Eval("dyn(1u) in {1: true}"), "true");
  EXPECT_EQ(Eval(R"({"a": 1}["b"] == 1)"), "err: no such key: b");
  EXPECT_EQ(Eval("[1, 2][2] == 1"), "err: index '2' out of range in list size '2'");
  EXPECT_EQ(Eval("[1, 2][-1] == 1"), "err: index '-1' out of range in list size '2'");
  EXPECT_EQ(Eval("[1, 2][dyn(1u)] == 2 && [1, 2][dyn(1.0)] == 2"), "true");
}

TEST(Literals, MapKeyRules) {
  EXPECT_EQ(Eval(R"({"a": 1, "a": 2}.size() == 1)"), "err: Failed with repeated key");
  EXPECT_EQ(Eval("{1.5: 1}.size() == 1"), "err: unsupported key type");
}

TEST(TimestampsAndDurations, Basics) {
  EXPECT_EQ(Eval(R"(timestamp("2024-01-02T03:04:05Z").getFullYear() == 2024)"), "true");
  EXPECT_EQ(Eval(R"(timestamp("2024-03-02T03:04:05.5Z").getMonth() == 2)"), "true");
  EXPECT_EQ(Eval(R"(timestamp("2024-03-02T03:04:05Z").getDate() == 2)"), "true");
  EXPECT_EQ(Eval(R"(timestamp("2024-03-02T03:04:05Z").getDayOfMonth() == 1)"), "true");
  EXPECT_EQ(Eval(R"(timestamp("2024-01-07T00:00:00Z").getDayOfWeek() == 0)"), "true");
  EXPECT_EQ(Eval(R"(timestamp("2024-02-01T00:00:00Z").getDayOfYear() == 31)"), "true");
  EXPECT_EQ(Eval(R"(timestamp("2024-01-01T23:30:00Z").getHours("+01:00") == 0)"), "true");
  EXPECT_EQ(Eval(R"(timestamp("2024-01-01T00:00:00.250Z").getMilliseconds() == 250)"), "true");
  EXPECT_EQ(
      Eval(R"(duration("1h30m") == duration("90m") && duration("1.5s").getMilliseconds() == 500)"),
      "true");
  EXPECT_EQ(Eval(R"(string(duration("1h30m")) == "5400s" && string(duration("1.5s")) == "1.5s")"),
            "true");
  EXPECT_EQ(
      Eval(
          R"(timestamp("2024-01-01T00:00:00Z") + duration("24h") == timestamp("2024-01-02T00:00:00Z"))"),
      "true");
  EXPECT_EQ(
      Eval(
          R"(timestamp("2024-01-02T00:00:00Z") - timestamp("2024-01-01T00:00:00Z") == duration("24h"))"),
      "true");
  EXPECT_EQ(Eval(R"(string(timestamp("2024-01-02T03:04:05.120Z")) == "2024-01-02T03:04:05.12Z")"),
            "true");
  EXPECT_EQ(Eval(R"(timestamp("2024-01-01T00:00:00Z") < timestamp("2024-01-01T00:00:01Z"))"),
            "true");
  EXPECT_EQ(Eval(R"(int(timestamp("1970-01-01T00:01:00Z")) == 60)"), "true");
  EXPECT_EQ(Eval(R"(timestamp("9999-12-31T23:59:59Z") + duration("1s") > timestamp(0))"),
            "err: timestamp overflow");
  Compilation bad = Compile(R"(duration("1x") > duration("1s"))");
  ASSERT_FALSE(bad.ok());
  EXPECT_NE(bad.error.detail.find("invalid duration argument"), std::string::npos);
  Compilation bad_ts = Compile(R"(timestamp("yesterday") > timestamp(0))");
  ASSERT_FALSE(bad_ts.ok());
  EXPECT_NE(bad_ts.error.detail.find("invalid timestamp argument"), std::string::npos);
}

TEST(Lists, KubernetesAndExtensionFunctions) {
  EXPECT_EQ(Eval("[1, 2, 2, 3].isSorted() && ![2, 1].isSorted()"), "true");
  EXPECT_EQ(Eval("[1, 2, 3].sum() == 6 && [1.5, 2.5].sum() == 4.0"), "true");
  EXPECT_EQ(Eval("[3, 1, 2].min() == 1 && [3, 1, 2].max() == 3"), "true");
  EXPECT_EQ(Eval("dyn([]).min() == 1"), "err: min called on empty list");
  EXPECT_EQ(Eval("[1, 2, 1].indexOf(1) == 0 && [1, 2, 1].lastIndexOf(1) == 2"), "true");
  EXPECT_EQ(Eval("[1, 2, 3, 4].slice(1, 3) == [2, 3]"), "true");
  EXPECT_EQ(Eval("[[1, 2], [3]].flatten() == [1, 2, 3]"), "true");
  EXPECT_EQ(Eval("[1, 2, 1].distinct() == [1, 2] && [1, 2].reverse() == [2, 1]"), "true");
  EXPECT_EQ(Eval("[3, 1, 2].sort() == [1, 2, 3] && lists.range(3) == [0, 1, 2]"), "true");
  EXPECT_EQ(Eval("sets.equivalent([1, 2, 2], [2, 1]) && sets.intersects([1], [1, 5])"), "true");
  EXPECT_EQ(Eval("[1, 2].first() == optional.of(1) && [].last() == optional.none()"), "true");
}

TEST(Quantities, Library) {
  EXPECT_EQ(Eval(R"(quantity("200M") == quantity("0.2G"))"), "true");
  EXPECT_EQ(Eval(R"(isQuantity("1Ki") && !isQuantity("200K"))"), "true");
  EXPECT_EQ(Eval(R"(quantity("1Ki").compareTo(quantity("1k")) == 1)"), "true");
  EXPECT_EQ(
      Eval(
          R"(quantity("1").isLessThan(quantity("2")) && quantity("2").isGreaterThan(quantity("1")))"),
      "true");
  EXPECT_EQ(
      Eval(R"(quantity("1Ei").isInteger() == false && quantity("100Ti").isInteger() == false)"),
      "true");
  EXPECT_EQ(Eval(R"(quantity("1Ti").asInteger() == 1099511627776)"), "true");
  EXPECT_EQ(Eval(R"(quantity("500m").asApproximateFloat() == 0.5)"), "true");
  EXPECT_EQ(Eval(R"(sign(quantity("-1")) == -1 && sign(quantity("0")) == 0)"), "true");
  EXPECT_EQ(Eval(R"(quantity("1").sub(quantity("3")).asInteger() == -2)"), "true");
  EXPECT_EQ(Eval(R"(quantity("1.5").isInteger())"), "false");
}

TEST(Semvers, Library) {
  EXPECT_EQ(
      Eval(
          R"(semver("1.2.3").major() == 1 && semver("1.2.3").minor() == 2 && semver("1.2.3").patch() == 3)"),
      "true");
  EXPECT_EQ(Eval(R"(semver("1.0.0-alpha").isLessThan(semver("1.0.0-alpha.1")))"), "true");
  EXPECT_EQ(Eval(R"(semver("1.0.0-alpha.1").isLessThan(semver("1.0.0-alpha.beta")))"), "true");
  EXPECT_EQ(Eval(R"(semver("1.0.0-2").isLessThan(semver("1.0.0-11")))"), "true");
  EXPECT_EQ(Eval(R"(semver("1.0.0-rc.1").compareTo(semver("1.0.0")) == -1)"), "true");
  EXPECT_EQ(
      Eval(
          R"(isSemver("v1.0.0") == false && isSemver("v1.0.0", true) && isSemver("01.0.0") == false)"),
      "true");
  EXPECT_EQ(Eval(R"(isSemver("1.0.0 ", true))"), "false");
  EXPECT_EQ(Eval(R"(isSemver("v1-rc", true))"), "false");
  EXPECT_EQ(Eval(R"(semver("1.0.0+a") == semver("1.0.0+b"))"), "true");
}

TEST(Optionals, Functions) {
  EXPECT_EQ(Eval("optional.ofNonZeroValue(0).hasValue() == false"), "true");
  EXPECT_EQ(Eval("optional.none().value() == 1"), "err: optional.none() dereference");
  EXPECT_EQ(Eval("optional.none().orValue(1 / 1) == 1"), "true");
  EXPECT_EQ(Eval("optional.of(1).orValue(1 / 0) == 1"), "true");  // short-circuits
  EXPECT_EQ(Eval("optional.unwrap([optional.of(1), optional.none()]) == [1]"), "true");
}

}  // namespace
}  // namespace dra::cel
