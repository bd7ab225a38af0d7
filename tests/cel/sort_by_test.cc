// The lists ext v3 sortBy macro (cel-go ext/lists.go): list.sortBy(x, key).
#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <cstdint>
#include <string>

#include "cel_test_util.h"

namespace dra::cel {
namespace {

using ::testing::HasSubstr;
using ::testing::StartsWith;

std::string Eval(std::string_view expression) {
  SimpleDevice none;
  return testing::Outcome(expression, none);
}

std::uint64_t Estimate(std::string_view expression) {
  Compilation c = Compile(expression);
  EXPECT_TRUE(c.ok()) << expression << ": " << c.error.detail;
  return c.ok() ? c.program->estimated_max_cost() : 0;
}

std::uint64_t ActualCost(std::string_view expression) {
  Compilation c = Compile(expression);
  EXPECT_TRUE(c.ok()) << expression << ": " << c.error.detail;
  if (!c.ok()) return 0;
  SimpleDevice none;
  EvalDetails details;
  EXPECT_TRUE(c.program->Evaluate(none, &details).ok()) << expression;
  return details.actual_cost;
}

TEST(SortBy, Ints) {
  EXPECT_EQ(Eval("[3, 1, 2].sortBy(x, x) == [1, 2, 3]"), "true");
  EXPECT_EQ(Eval("[3, 1, 2].sortBy(x, -x) == [3, 2, 1]"), "true");
  EXPECT_EQ(Eval("[5u, 1u, 3u].sortBy(x, x) == [1u, 3u, 5u]"), "true");
  EXPECT_EQ(Eval("[2.5, -1.0, 0.5].sortBy(x, x) == [-1.0, 0.5, 2.5]"), "true");
  EXPECT_EQ(Eval("[1, 2, 3, 4].sortBy(x, x % 2 == 0) == [1, 3, 2, 4]"), "true");
}

TEST(SortBy, Strings) {
  EXPECT_EQ(Eval(R"(["b", "c", "a"].sortBy(s, s) == ["a", "b", "c"])"), "true");
  EXPECT_EQ(Eval(R"(["ccc", "a", "bb"].sortBy(s, size(s)) == ["a", "bb", "ccc"])"), "true");
  EXPECT_EQ(Eval(R"([1, 10, 2].sortBy(x, string(x)) == [1, 10, 2])"), "true");
}

TEST(SortBy, KeysFromAFieldOfMaps) {
  EXPECT_EQ(Eval(R"([{"name": dyn("foo"), "score": dyn(0)}, {"name": dyn("bar"), "score": dyn(-10)},
                    {"name": dyn("baz"), "score": dyn(1000)}].sortBy(e, e.score).map(e, e.name)
                   == ["bar", "foo", "baz"])"),
            "true");
  EXPECT_EQ(Eval(R"([{"n": "x"}, {"n": "a"}].sortBy(e, e["n"])[0].n == "a")"), "true");
}

TEST(SortBy, IsStable) {
  EXPECT_EQ(Eval(R"([{"k": 1, "v": 10}, {"k": 0, "v": 20}, {"k": 1, "v": 30},
                    {"k": 0, "v": 40}].sortBy(e, e.k).map(e, e.v) == [20, 40, 10, 30])"),
            "true");
  EXPECT_EQ(Eval("[4, 3, 2, 1].sortBy(x, 0) == [4, 3, 2, 1]"), "true");
}

TEST(SortBy, EmptyList) {
  EXPECT_EQ(Eval("[].sortBy(x, x) == []"), "true");
  EXPECT_EQ(Eval("size(lists.range(0).sortBy(x, x)) == 0"), "true");
  // The key is never computed, so no key error either.
  EXPECT_EQ(Eval("[].sortBy(x, dyn([x])) == []"), "true");
}

TEST(SortBy, MixedKeyTypesAreAnError) {
  EXPECT_EQ(Eval(R"([dyn(1), dyn("a")].sortBy(x, x) == [])"),
            "err: list elements must have the same type");
  EXPECT_EQ(Eval("[1, 2].sortBy(x, x == 1 ? dyn(1) : dyn(2.0)) == []"),
            "err: list elements must have the same type");
  EXPECT_EQ(Eval("[1, 2].sortBy(x, x == 1 ? dyn(1) : dyn(2u)) == []"),
            "err: list elements must have the same type");
  EXPECT_EQ(Eval("[1].sortBy(x, dyn([x])) == []"), "err: list elements must be comparable");
  EXPECT_EQ(Eval("[1, 2].sortBy(x, dyn({x: x})) == []"), "err: list elements must be comparable");
}

TEST(SortBy, KeyErrorsPropagate) {
  EXPECT_EQ(Eval("[1, 0].sortBy(x, 1 / x) == []"), "err: division by zero");
}

TEST(SortBy, NonListReceiverIsACompileError) {
  EXPECT_THAT(Eval("1.sortBy(x, x) == []"),
              HasSubstr("sortBy can only be applied to a list, identifier, comprehension, call or "
                        "select expression"));
  EXPECT_THAT(Eval(R"({"a": 1}.sortBy(k, k) == [])"), HasSubstr("sortBy can only be applied"));
  EXPECT_THAT(Eval(R"(cel.bind(m, {"a": 1}, m.sortBy(k, k) == []))"),
              HasSubstr("found no matching overload for '@sortByAssociatedKeys' applied to "
                        "'map(string, int).(list(string))'"));
  EXPECT_THAT(Eval(R"(cel.bind(s, "abc", s.sortBy(c, c) == []))"),
              HasSubstr("expression of type 'string' cannot be range of a comprehension"));
  EXPECT_THAT(Eval("[1].sortBy(1, 1) == []"), HasSubstr("argument must be a simple name"));
}

TEST(SortBy, KeysMustBeComparableAtCompileTime) {
  EXPECT_THAT(Eval("[[2], [1]].sortBy(x, x) == []"),
              HasSubstr("found no matching overload for '@sortByAssociatedKeys' applied to "
                        "'list(list(int)).(list(list(int)))'"));
  EXPECT_THAT(Eval("[1].sortBy(x, {x: x}) == []"),
              HasSubstr("'@sortByAssociatedKeys' applied to 'list(int).(list(map(int, int)))'"));
}

TEST(SortBy, ResultHasTheListType) {
  EXPECT_EQ(Eval("[3, 1, 2].sortBy(x, x)[0] + 1 == 2"), "true");
  EXPECT_THAT(Eval("[3, 1, 2].sortBy(x, x)[0] + 1.0 == 2.0"),
              HasSubstr("found no matching overload for '_+_' applied to '(int, double)'"));
  EXPECT_THAT(Eval(R"(["b"].sortBy(x, size(x))[0] == 1)"), StartsWith("compile: "));
  EXPECT_EQ(Eval("dyn([2, 1]).sortBy(x, x) == [1, 2]"), "true");
  EXPECT_EQ(Eval(R"(dyn({"a": 1}).sortBy(x, x) == [])"), "err: no such overload");
}

TEST(SortBy, NestedInOtherMacros) {
  EXPECT_EQ(Eval("[[3, 1], [2, 0]].map(l, l.sortBy(x, x)) == [[1, 3], [0, 2]]"), "true");
  EXPECT_EQ(Eval("[3, 1, 2].sortBy(x, -x).map(x, x * 10) == [30, 20, 10]"), "true");
  EXPECT_EQ(Eval("[3, 1, 2].filter(x, x > 1).sortBy(x, x) == [2, 3]"), "true");
  EXPECT_EQ(Eval("lists.range(3).all(i, [i, 2, 1].sortBy(x, x)[0] <= 1)"), "true");
  EXPECT_EQ(Eval("[[3, 1], [0, 5]].sortBy(l, l.sortBy(x, -x)[0]) == [[3, 1], [0, 5]]"), "true");
  EXPECT_EQ(Eval("[[3, 1], [0, 5]].sortBy(l, l.sortBy(x, x)[0]) == [[0, 5], [3, 1]]"), "true");
  // The macro variable shadows an outer one of the same name.
  EXPECT_EQ(Eval("[1, 2].map(x, [3, x].sortBy(x, -x)) == [[3, 1], [3, 2]]"), "true");
  EXPECT_EQ(Eval("cel.bind(l, [2, 1], l.sortBy(x, x) == [1, 2] && l == [2, 1])"), "true");
}

TEST(SortBy, DeviceListAttribute) {
  auto l = testing::DeviceL();
  EXPECT_EQ(
      testing::Outcome(R"(device.attributes["dra.example.com"].ids.sortBy(x, -x)[0] == 3)", *l),
      "true");
  EXPECT_EQ(
      testing::Outcome(
          R"(device.attributes["dra.example.com"].names.sortBy(s, s) == ["bird", "fish"])", *l),
      "true");
}

TEST(SortBy, CostsAsTheExpansionOfBindMapAndSort) {
  // cel.bind(r, range, r.@sortByAssociatedKeys(r.map(x, key))): the map plus
  // the bind's empty list (10), two reads of r and the call.
  EXPECT_EQ(Estimate("[3, 1, 2].sortBy(x, x) == [1, 2, 3]"),
            Estimate("[3, 1, 2].map(x, x) == [1, 2, 3]") + 13);
  EXPECT_EQ(ActualCost("[3, 1, 2].sortBy(x, x) == [1, 2, 3]"),
            ActualCost("[3, 1, 2].map(x, x) == [1, 2, 3]") + 13);
  const char* kDevice = R"(device.attributes["dra.example.com"].ids.sortBy(x, x)[0] == 1)";
  EXPECT_GT(Estimate(kDevice), 13u);
  EXPECT_LT(Estimate(kDevice),
            Estimate(R"(device.attributes["dra.example.com"].ids.map(x, x)[0] == 1)") + 14);
}

}  // namespace
}  // namespace dra::cel
