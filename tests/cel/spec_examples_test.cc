// Selector examples, each named after what it shows: from upstream tests
// (k8s.io/dynamic-resource-allocation cel/compile_test.go, the allocator's and
// API validation's tests, k8s.io/apiserver's CEL library tests) and derived on
// the reference devices G and L (cel_test_util.h). Examples that need the
// admission-only NewExpressions profile are stated for the StoredExpressions
// profile the allocator uses, or noted as not applicable.
#include <gtest/gtest.h>

#include <string>

#include "cel_test_util.h"

namespace dra::cel {
namespace {

using testing::DeviceG;
using testing::DeviceL;
using testing::Outcome;

struct Example {
  const char* name;    // the test's name
  const char* device;  // "G", "L" or "-" (an empty device)
  const char* expression;
  // "true", "false", or a prefix "err: ..." / "compile: ..." whose text after
  // the prefix must appear in the outcome.
  const char* expected;
};

// Readable test parameters in gtest output.
void PrintTo(const Example& ex, std::ostream* os) { *os << ex.name << ": " << ex.expression; }

void ExpectOutcome(const Example& ex, const DeviceView& device) {
  std::string got = Outcome(ex.expression, device);
  std::string want = ex.expected;
  SCOPED_TRACE(std::string(ex.name) + ": " + ex.expression);
  if (want == "true" || want == "false") {
    EXPECT_EQ(got, want);
    return;
  }
  std::string kind = want.substr(0, want.find(':') + 1);
  std::string text = want.substr(want.find(':') + 2);
  EXPECT_EQ(got.substr(0, kind.size()), kind) << got;
  EXPECT_NE(got.find(text), std::string::npos) << got;
}

class SelectorExamples : public ::testing::TestWithParam<Example> {};

TEST_P(SelectorExamples, MatchesUpstream) {
  const Example& ex = GetParam();
  auto g = DeviceG();
  auto l = DeviceL();
  SimpleDevice empty;
  const DeviceView& device = ex.device[0] == 'G'   ? static_cast<const DeviceView&>(*g)
                             : ex.device[0] == 'L' ? static_cast<const DeviceView&>(*l)
                                                   : empty;
  ExpectOutcome(ex, device);
}

constexpr Example kExamples[] = {
    {"LiteralTrue", "-", "true", "true"},
    {"LiteralFalse", "-", "false", "false"},
    {"SyntaxError", "-", "?!", "compile: Syntax error"},
    {"IntResultIsNotBool", "-", "1", "compile: must evaluate to bool or the unknown type, not int"},
    {"MissingDomainFieldSelectErrors", "-",
     R"(device.attributes["no-such-domain"].noSuchAttr.isGreaterThan(quantity("0")))",
     "err: no such key: noSuchAttr"},
    {"MissingDomainIndexErrors", "-",
     R"(device.attributes["no-such-domain"]["noSuchAttr"].isGreaterThan(quantity("0")))",
     "err: no such key: noSuchAttr"},
    {"MissingDomainNotIn", "-", R"("no-such-domain" in device.attributes)", "false"},
    {"UndeclaredVariable", "-", "noSuchVar", "compile: undeclared reference"},
    {"QuantityArithmetic", "-",
     R"(quantity("50k").add(20).sub(quantity("100k")).sub(-50000).asInteger() == 20)", "true"},
    {"QuantityTooLargeForInteger", "-",
     R"(quantity("9999999999999999999999999999999999999G").asInteger() == 0)",
     "err: cannot convert value to integer"},
    {"QuantityInvalidSuffix", "-", R"(quantity("10Mo").isInteger())",
     "err: quantities must match the regular expression"},
    {"SemverNormalizedParse", "-", R"(semver("v01.01", true) == semver("1.1.0"))", "true"},
    {"IsSemverRejectsShortForm", "-", R"(isSemver("1.1"))", "false"},
    {"Driver", "G", R"(device.driver == "gpu.example.com")", "true"},
    {"StringStartsWith", "G", R"(device.attributes["gpu.example.com"]["model"].startsWith("A1"))",
     "true"},
    {"StringLowerAscii", "G",
     R"(device.attributes["gpu.example.com"].model.lowerAscii() == "a100")", "true"},
    {"StringMatches", "G", R"(device.attributes["gpu.example.com"].model.matches("^A[0-9]+$"))",
     "true"},
    {"StringFind", "G", R"(device.attributes["gpu.example.com"].model.find("[0-9]+") == "100")",
     "true"},
    {"StringInList", "G", R"(device.attributes["gpu.example.com"].model in ["A100", "H100"])",
     "true"},
    {"DynIntGreaterThanDouble", "G", R"(device.attributes["gpu.example.com"].cores > 100.5)",
     "true"},
    {"DynIntEqualsDouble", "G", R"(device.attributes["gpu.example.com"].cores == 108.0)", "true"},
    {"DynIntNotEqualToString", "G", R"(device.attributes["gpu.example.com"].cores == "108")",
     "false"},
    {"DynIntGreaterThanStringFails", "G", R"(device.attributes["gpu.example.com"].cores > "100")",
     "err: no such overload"},
    {"IntegerOverflow", "G",
     R"(device.attributes["gpu.example.com"].cores * 100000000000000000 > 0)",
     "err: integer overflow"},
    {"DivisionByZero", "G", R"(device.attributes["gpu.example.com"].cores / 0 > 1)",
     "err: division by zero"},
    {"DynBoolNotEqualToInt", "G", R"(device.attributes["gpu.example.com"].healthy == 1)", "false"},
    {"SemverEqualityIgnoresBuild", "G",
     R"(device.attributes["gpu.example.com"].driverVersion == semver("1.2.3+build.7"))", "true"},
    {"SemverPrereleaseIsLess", "G",
     R"(device.attributes["gpu.example.com"].driverVersion.isLessThan(semver("1.2.3-rc.1")))",
     "false"},
    {"SemverNormalizedCompare", "G",
     R"(device.attributes["gpu.example.com"].driverVersion.isLessThan(semver("v1.3", true)))",
     "true"},
    {"SemverStrictParseFails", "G",
     R"(device.attributes["gpu.example.com"].driverVersion.isLessThan(semver("v1.3")))",
     "err: No Major.Minor.Patch elements found"},
    {"SemverHasNoLessThanOperator", "G",
     R"(device.attributes["gpu.example.com"].driverVersion < semver("2.0.0"))",
     "compile: found no matching overload for '_<_' applied to '(dyn, kubernetes.Semver)'"},
    {"QualifiedAttributeOfOtherDomain", "G", R"(device.attributes["numa.example.com"].node == 0)",
     "true"},
    {"AttributeOfWrongDomainMissing", "G", R"(device.attributes["gpu.example.com"].node == 0)",
     "err: no such key: node"},
    {"UnknownDomainIsEmpty", "G", R"(device.attributes["other.example.com"].size() == 0)", "true"},
    {"HasOnMissingAttribute", "G", R"(has(device.attributes["gpu.example.com"].vendor))", "false"},
    {"OptionalFieldOrValue", "G",
     R"(device.attributes["gpu.example.com"].?vendor.orValue("none") == "none")", "true"},
    {"InGuardsMissingAttribute", "G",
     R"("vendor" in device.attributes["gpu.example.com"] && device.attributes["gpu.example.com"].vendor == "x")",
     "false"},
    {"AndShortCircuitsError", "G", R"(device.attributes["gpu.example.com"].vendor == "x" && false)",
     "false"},
    {"OrPropagatesError", "G", R"(device.attributes["gpu.example.com"].vendor == "x" || false)",
     "err: no such key: vendor"},
    {"TernarySkipsUntakenBranch", "G",
     R"(false ? device.attributes["gpu.example.com"].vendor == "x" : true)", "true"},
    {"CapacityEqualsQuantity", "G",
     R"(device.capacity["gpu.example.com"].memory == quantity("40960Mi"))", "true"},
    {"CapacityAsInteger", "G",
     R"(device.capacity["gpu.example.com"].memory.asInteger() == 42949672960)", "true"},
    {"CapacityAdd", "G",
     R"(device.capacity["gpu.example.com"].memory.add(quantity("8Gi")) == quantity("48Gi"))",
     "true"},
    {"SignFunction", "G", R"(sign(device.capacity["gpu.example.com"].memory) == 1)", "true"},
    {"SignIsNotAMethod", "G", R"(device.capacity["gpu.example.com"].memory.sign() == 1)",
     "compile: found no matching overload for 'sign'"},
    {"MissingCapacity", "G",
     R"(device.capacity["gpu.example.com"].bandwidth.isGreaterThan(quantity("1")))",
     "err: no such key: bandwidth"},
    {"QuantityInvalidSuffixInArgument", "G",
     R"(device.capacity["gpu.example.com"].memory.isGreaterThan(quantity("1Gb")))",
     "err: quantities must match the regular expression"},
    {"QuantityFractionIsNotInteger", "-", R"(quantity("1.5Gi").isInteger())", "false"},
    {"CapacityIsInteger", "G", R"(device.capacity["gpu.example.com"].memory.isInteger())", "true"},
    {"CelBind", "G",
     R"(cel.bind(g, device.attributes["gpu.example.com"], g.healthy && g.cores > 64))", "true"},
    {"ExistsOverAttributeNames", "G",
     R"(device.attributes["gpu.example.com"].exists(k, k.startsWith("driver")))", "true"},
    {"StringResultIsNotBool", "G", R"(device.attributes["gpu.example.com"].model)",
     "err: CEL result of type string could not be converted to bool"},
    {"AllowMultipleAllocationsDefault", "G", "device.allowMultipleAllocations", "false"},
    {"UndefinedDeviceField", "G", "device.noSuchField", "compile: undefined field 'noSuchField'"},
    {"MixedListLiteral", "-", R"([1, "a"].size() == 2)",
     "compile: expected type 'int' but found 'string'"},
    {"IntEqualsDoubleLiteralFails", "-", "1 == 1.0",
     "compile: found no matching overload for '_==_' applied to '(int, double)'"},
    {"InvalidRegexAtCompile", "G", R"(device.attributes["gpu.example.com"].model.matches("["))",
     "compile: invalid matches argument"},
    // Found by the differential tests against cel-go: a non-bool operand of
    // && or || is reported at the operand, and constant arguments are only
    // validated once the expression type-checks.
    {"NonBoolOperandOfAnd", "-", R"(device.driver && true)",
     "compile: expected type 'bool' but found 'string'"},

    {"InOnIntList", "L", R"(2 in device.attributes["dra.example.com"].ids)", "true"},
    {"IncludesIntListWithDouble", "L", R"(device.attributes["dra.example.com"].ids.includes(2.0))",
     "true"},
    {"IncludesOnScalarStringIsFalse", "L",
     R"(device.attributes["dra.example.com"].name.includes("is"))", "false"},
    {"IndexStringList", "L", R"(device.attributes["dra.example.com"].names[1] == "bird")", "true"},
    {"IndexOutOfRange", "L", R"(device.attributes["dra.example.com"].names[5] == "x")",
     "err: out of range"},
    {"FilterStringList", "L",
     R"(device.attributes["dra.example.com"].names.filter(n, n.startsWith("b")) == ["bird"])",
     "true"},
    {"ExistsOneIntList", "L", R"(device.attributes["dra.example.com"].ids.exists_one(i, i >= 3))",
     "true"},
    {"ExistsOverVersionList", "L",
     R"(device.attributes["dra.example.com"].versions.exists(v, v.isGreaterThan(semver("1.5.0"))))",
     "true"},
    {"SetsContains", "L", R"(sets.contains(device.attributes["dra.example.com"].names, ["fish"]))",
     "true"},
    {"StringIsNotIterable", "L", R"(device.attributes["dra.example.com"].name.exists(c, c == "f"))",
     "err: got 'types.String', expected iterable type"},
};

INSTANTIATE_TEST_SUITE_P(OnReferenceDevices, SelectorExamples, ::testing::ValuesIn(kExamples),
                         [](const ::testing::TestParamInfo<Example>& info) {
                           return std::string(info.param.name);
                         });

// Examples whose device is specific to the upstream test.

// cel-go runs its constant-argument validators only on expressions that
// type-check (found by the differential tests).
TEST(SelectorsOnOwnDevices, RegexValidatedOnlyAfterTypeCheck) {
  Compilation c = Compile(R"((true ? 1 : "a") || device.attributes["d"].model.matches("["))");
  ASSERT_FALSE(c.ok());
  EXPECT_EQ(c.error.detail.find("invalid matches argument"), std::string::npos) << c.error.detail;
  Compilation alone = Compile(R"(device.attributes["d"].model.matches("["))");
  ASSERT_FALSE(alone.ok());
  EXPECT_NE(alone.error.detail.find("invalid matches argument"), std::string::npos);
}

TEST(SelectorsOnOwnDevices, DomainOfQualifiedAttribute) {
  SimpleDevice d;
  d.AddBool("dra.example.com/something", true);
  EXPECT_EQ(Outcome(R"("dra.example.com" in device.attributes)", d), "true");
}

TEST(SelectorsOnOwnDevices, ScalarAttributes) {
  SimpleDevice none;
  EXPECT_EQ(Outcome(R"(device.driver == "")", none), "true");
  SimpleDevice b("dra.example.com");
  b.AddBool("name", true).AddBool("other.example.com/name", true);
  EXPECT_EQ(Outcome(R"(device.driver == "dra.example.com")", b), "true");
  EXPECT_EQ(Outcome(R"(device.attributes["dra.example.com"].name)", b), "true");
  EXPECT_EQ(Outcome(R"(device.attributes["dra.example.com"]["name"])", b), "true");
  EXPECT_EQ(Outcome(R"(cel.bind(dra, device.attributes["dra.example.com"], dra.name))", b), "true");
  EXPECT_EQ(Outcome(R"(device.attributes["other.example.com"].name)", b), "true");
  SimpleDevice i("dra.example.com");
  i.AddInt("name", 1);
  EXPECT_EQ(Outcome(R"(device.attributes["dra.example.com"].name > 0)", i), "true");
  SimpleDevice s("dra.example.com");
  s.AddString("name", "fish");
  EXPECT_EQ(Outcome(R"(device.attributes["dra.example.com"].name == "fish")", s), "true");
}

TEST(SelectorsOnOwnDevices, ScalarsAreNotIterable) {
  SimpleDevice i("dra.example.com");
  i.AddInt("name", 1);
  EXPECT_EQ(Outcome(R"(device.attributes["dra.example.com"].name.exists(x, x > 0))", i),
            "err: got 'types.Int', expected iterable type");
  SimpleDevice b("dra.example.com");
  b.AddBool("name", true);
  EXPECT_EQ(Outcome(R"(device.attributes["dra.example.com"].name.exists(x, x == true))", b),
            "err: got 'types.Bool', expected iterable type");
  SimpleDevice v("dra.example.com");
  v.AddVersion("name", "1.0.0");
  EXPECT_EQ(
      Outcome(
          R"(device.attributes["dra.example.com"].name.exists(x, x.isGreaterThan(semver("0.0.1"))))",
          v),
      "err: got 'cel.Semver', expected iterable type");
}

TEST(SelectorsOnOwnDevices, ListAttributes) {
  SimpleDevice s("dra.example.com");
  s.AddStrings("names", {"fish", "bird"}).AddStrings("name", {"fish", "bird"});
  EXPECT_EQ(Outcome(R"(device.attributes["dra.example.com"].names)", s).substr(0, 51),
            "err: CEL result of type list could not be converted");
  EXPECT_EQ(Outcome(R"(device.attributes["dra.example.com"].names.size() == 2)", s), "true");
  EXPECT_EQ(Outcome(R"(device.attributes["dra.example.com"].names.all(x, x != ""))", s), "true");
  EXPECT_EQ(Outcome(R"(device.attributes["dra.example.com"].name.includes("fish"))", s), "true");
  SimpleDevice i("dra.example.com");
  i.AddInts("names", {1, 2}).AddInts("name", {1, 2});
  EXPECT_EQ(Outcome(R"(device.attributes["dra.example.com"].names.size() == 2)", i), "true");
  EXPECT_EQ(Outcome(R"(device.attributes["dra.example.com"].names.exists(x, x > 0))", i), "true");
  EXPECT_EQ(Outcome(R"(device.attributes["dra.example.com"].name.includes(3))", i), "false");
  SimpleDevice b("dra.example.com");
  b.AddBools("names", {true, false}).AddBool("name", false);
  EXPECT_EQ(Outcome(R"(device.attributes["dra.example.com"].names.size() == 2)", b), "true");
  EXPECT_EQ(Outcome(R"(device.attributes["dra.example.com"].name.includes(true))", b), "false");
  SimpleDevice v("dra.example.com");
  v.AddVersions("names", {"1.0.0", "2.0.0"}).AddVersion("name", "1.0.0");
  EXPECT_EQ(Outcome(R"(device.attributes["dra.example.com"].names.size() == 2)", v), "true");
  EXPECT_EQ(
      Outcome(
          R"(device.attributes["dra.example.com"].names.all(x, x.isGreaterThan(semver("0.0.1"))))",
          v),
      "true");
  EXPECT_EQ(Outcome(R"(device.attributes["dra.example.com"].name.includes(semver("1.0.0")))", v),
            "true");
}

TEST(SelectorsOnOwnDevices, IncludesLimitOf48Values) {
  std::vector<std::string> values48, values49;
  for (int i = 0; i < 49; ++i) {
    if (i < 48) values48.push_back("value-" + std::to_string(i));
    values49.push_back("value-" + std::to_string(i));
  }
  SimpleDevice d48("dra.example.com"), d49("dra.example.com");
  d48.AddStrings("name", values48);
  d49.AddStrings("name", values49);
  EXPECT_EQ(Outcome(R"(device.attributes["dra.example.com"].name.includes("value-48"))", d48),
            "false");
  EXPECT_EQ(Outcome(R"(device.attributes["dra.example.com"].name.includes("value-49"))", d49),
            "err: 'includes' function cannot be applied to lists longer than 48 values");
  EXPECT_EQ(Outcome(R"(device.attributes["dra.example.com"].name.includes("value-3"))", d49),
            "true");
}

TEST(SelectorsOnOwnDevices, ListsSemversCapacitiesAndStrings) {
  SimpleDevice ints("dra.example.com");
  ints.AddInts("names", {1, 2, 3});
  EXPECT_EQ(Outcome(R"(1 in device.attributes["dra.example.com"].names)", ints), "true");
  SimpleDevice v("dra.example.com");
  v.AddVersion("name", "1.0.0");
  EXPECT_EQ(
      Outcome(R"(device.attributes["dra.example.com"].name.isGreaterThan(semver("0.0.1")))", v),
      "true");
  EXPECT_EQ(
      Outcome(
          R"(device.attributes["dra.example.com"].name.isGreaterThan(semver("v0.0.1", true)) && isSemver("v1.0.0", true))",
          v),
      "true");
  SimpleDevice c("dra.example.com");
  c.AddCapacity("name", api::Quantity::MustParse("1Mi"));
  EXPECT_EQ(Outcome(R"(device.capacity["dra.example.com"].name.isGreaterThan(quantity("1Ki")))", c),
            "true");
  SimpleDevice none;
  EXPECT_EQ(
      Outcome(
          R"(!("name" in device.capacity["dra.example.com"]) || device.capacity["dra.example.com"].name.isGreaterThan(quantity("1Ki")))",
          none),
      "true");
  SimpleDevice s("dra.example.com");
  s.AddString("services", "some_example_value")
      .AddCapacity("memory", api::Quantity::MustParse("1Mi"));
  EXPECT_EQ(Outcome(R"(device.attributes.exists_one(x, x == "dra.example.com"))", s), "true");
  EXPECT_EQ(Outcome(R"(device.capacity["dra.example.com"].exists_one(x, x == "memory"))", s),
            "true");
  EXPECT_EQ(
      Outcome(R"(device.attributes["dra.example.com"].services.split("example").size() >= 2)", s),
      "true");
  SimpleDevice a("dra.example.com");
  a.AddString("services", "asymetric");
  EXPECT_EQ(Outcome(R"(device.attributes["dra.example.com"].services.matches("[^a]?sym"))", a),
            "true");
}

TEST(SelectorsOnOwnDevices, AllowMultipleAllocationsAndCapacity) {
  SimpleDevice d("driver-a");
  d.AddCapacity("memory", api::Quantity::MustParse("1Gi"));
  EXPECT_EQ(Outcome("device.allowMultipleAllocations == false", d), "true");
  EXPECT_EQ(Outcome(R"(device.capacity["driver-a"].memory.compareTo(quantity("2Gi")) >= 0)", d),
            "false");
  SimpleDevice multi("driver-a", true);
  EXPECT_EQ(Outcome("device.allowMultipleAllocations", multi), "true");
}

TEST(SelectorsOnOwnDevices, MapFilterOverThousandAttributes) {
  SimpleDevice d("dra.example.com");
  for (int i = 0; i < 1000; ++i) d.AddInt("attr" + std::to_string(i), i);
  EXPECT_EQ(
      Outcome(
          R"(device.attributes["dra.example.com"].map(key, device.attributes["dra.example.com"][key] * 20).filter(e, e > 50).exists(e, e == 60))",
          d),
      "true");
}

TEST(SelectorsOnOwnDevices, IndexWithBoolInStoredProfile) {
  SimpleDevice d;
  EXPECT_EQ(Outcome("device.attributes[true].someBoolean", d),
            "compile: compilation failed: ERROR: <input>:1:18: found no matching overload for "
            "'_[_]' applied to '(map(string, map(string, dyn)), bool)'\n"
            " | device.attributes[true].someBoolean\n"
            " | .................^");
}

// The NewExpressions environment of API validation: list-type attributes,
// allowMultipleAllocations, `any` attributes and indexing with a bool.

CompileOptions NewExpressions(bool consumable_capacity, bool list_type_attributes) {
  CompileOptions o;
  o.environment = Environment::kNewExpressions;
  o.consumable_capacity = consumable_capacity;
  o.list_type_attributes = list_type_attributes;
  return o;
}

std::string CompileDetail(std::string_view expression, const CompileOptions& options) {
  Compilation c = Compile(expression, options);
  return c.ok() ? "ok" : c.error.detail;
}

TEST(SelectorsNewExpressions, IncludesNeedsListTypeAttributes) {
  const char* e = R"(device.attributes["dra.example.com"].attr.includes("fish"))";
  EXPECT_NE(CompileDetail(e, NewExpressions(true, false))
                .find("undeclared reference to 'includes' (in container '')"),
            std::string::npos);
  EXPECT_EQ(CompileDetail(e, NewExpressions(true, true)), "ok");
}

TEST(SelectorsNewExpressions, AllowMultipleAllocationsNeedsConsumableCapacity) {
  const char* e = "device.allowMultipleAllocations == false";
  EXPECT_NE(CompileDetail(e, NewExpressions(false, false))
                .find("undefined field "
                      "'allowMultipleAllocations'"),
            std::string::npos);
  EXPECT_EQ(CompileDetail(e, NewExpressions(true, false)), "ok");
}

TEST(SelectorsNewExpressions, AnyIsNotIterable) {
  const char* e = R"(device.attributes["dra.example.com"].ids.exists(id, id == 1))";
  EXPECT_NE(CompileDetail(e, NewExpressions(true, false))
                .find("expression of type 'any' cannot be range of a comprehension (must be "
                      "list, map, or dynamic)"),
            std::string::npos);
  EXPECT_EQ(CompileDetail(e, NewExpressions(true, true)), "ok");
}

TEST(SelectorsNewExpressions, IndexWithBool) {
  EXPECT_EQ(CompileDetail("device.attributes[true].someBoolean", NewExpressions(false, false)),
            "compilation failed: ERROR: <input>:1:18: found no matching overload for '_[_]' "
            "applied to '(map(string, map(string, any)), bool)'\n"
            " | device.attributes[true].someBoolean\n"
            " | .................^");
}

TEST(SelectorsNewExpressions, OutputTypeFollowsTheDeclaration) {
  // With `any` attributes, a bare attribute is accepted but dyn is not.
  EXPECT_EQ(CompileDetail(R"(device.attributes["d"].flag)", NewExpressions(true, false)), "ok");
  EXPECT_EQ(CompileDetail("dyn(true)", NewExpressions(true, false)),
            "must evaluate to bool or the unknown type, not dyn");
  EXPECT_EQ(CompileDetail("dyn(true)", NewExpressions(true, true)), "ok");
}

}  // namespace
}  // namespace dra::cel
