// Static cost estimates (the expected costs of upstream's compile tests,
// k8s.io/dynamic-resource-allocation cel/compile_test.go) and the runtime cost
// limit.
#include <gtest/gtest.h>

#include <atomic>
#include <string>

#include "cel_test_util.h"

namespace dra::cel {
namespace {

std::uint64_t Estimate(std::string_view expression) {
  Compilation c = Compile(expression);
  EXPECT_TRUE(c.ok()) << expression << ": " << c.error.detail;
  return c.ok() ? c.program->estimated_max_cost() : 0;
}

struct CostCase {
  const char* expression;
  std::uint64_t cost;
};

class EstimatedCost : public ::testing::TestWithParam<CostCase> {};

TEST_P(EstimatedCost, MatchesUpstream) {
  EXPECT_EQ(Estimate(GetParam().expression), GetParam().cost) << GetParam().expression;
}

constexpr CostCase kCalibration[] = {
    {R"("no-such-domain" in device.attributes)", 3},
    {R"(device.driver == "")", 2},
    {R"(device.driver == "dra.example.com")", 4},
    {R"(device.attributes["dra.example.com"].name)", 4},
    {R"(device.attributes["dra.example.com"].name > 0)", 5},
    {R"(device.attributes["dra.example.com"].name == "fish")", 5},
    {R"(cel.bind(dra, device.attributes["dra.example.com"], dra.name))", 15},
    {R"(device.attributes["dra.example.com"].name.isGreaterThan(semver("0.0.1")))", 6},
    {R"(device.attributes["dra.example.com"].name.isGreaterThan(semver("v0.0.1", true)) && isSemver("v1.0.0", true))",
     7},
    {R"(device.capacity["dra.example.com"].name.isGreaterThan(quantity("1Ki")))", 6},
    {R"("name" in device.capacity["dra.example.com"] && device.capacity["dra.example.com"].name.isGreaterThan(quantity("1Ki")))",
     10},
    {R"(!("name" in device.capacity["dra.example.com"]) || device.capacity["dra.example.com"].name.isGreaterThan(quantity("1Ki")))",
     11},
    {R"(device.attributes["no-such-domain"].noSuchAttr.isGreaterThan(quantity("0")))", 6},
    {R"(device.attributes["dra.example.com"].a && device.attributes["dra.example.com"].b && device.attributes["dra.example.com"].c)",
     12},
    {R"(device.attributes.exists_one(x, x == "dra.example.com"))", 164},
    {R"(device.attributes["dra.example.com"].exists_one(x, x == "services"))", 133},
    {R"(device.attributes["dra.example.com"].services.split("example").size() >= 2)", 19},
    {R"(device.attributes["dra.example.com"].services.matches("[^a]?sym"))", 18},
    {R"(device.attributes["dra.example.com"].names.size() == 2)", 6},
    {R"(device.attributes["dra.example.com"].names.exists(x, x > 0))", 389},
    {R"(device.attributes["dra.example.com"].names.all(x, x != ""))", 261},
    {R"(device.attributes["dra.example.com"].names.all(x, x.isGreaterThan(semver("0.0.1"))))", 389},
    {R"(device.attributes["dra.example.com"].name.includes("fish"))", 52},
    {R"(device.attributes["dra.example.com"].name.includes(semver("1.0.0")))", 53},
    {R"(1 in device.attributes["dra.example.com"].names)", 68},
    {R"(device.allowMultipleAllocations == true)", 3},
    // Equality of two attribute values: a tenth of the smaller size bound
    // (64), whatever their types (found by the differential tests).
    {R"(device.attributes["d"].model == device.attributes["d"].index)", 15},
    {R"(device.attributes["d"].model != 1)", 5},
};

INSTANTIATE_TEST_SUITE_P(Calibration, EstimatedCost, ::testing::ValuesIn(kCalibration));

// The seven nested [1..10].all(...) levels of upstream's test: far over the
// admission limit statically, and over the runtime limit when evaluated.
std::string NestedAll() {
  std::string e;
  const char* vars[] = {"a", "b", "c", "d", "e", "f", "g"};
  for (const char* v : vars) e += "[1, 2, 3, 4, 5, 6, 7, 8, 9, 10].all(" + std::string(v) + ", ";
  e += "int('1'.find('[0-9]*')) < 100";
  e += std::string(7, ')');
  return e;
}

TEST(Cost, NestedComprehensionEstimate) {
  EXPECT_EQ(Estimate(NestedAll()), 85'555'551u);
  EXPECT_GT(Estimate(NestedAll()), kCostLimit);
}

TEST(Cost, Row41RuntimeLimitExceeded) {
  SimpleDevice d("dra.example.com");
  for (int i = 0; i < 32; ++i) d.AddString("s" + std::to_string(i), std::string(64, 'x'));
  EXPECT_EQ(testing::Outcome(NestedAll(), d),
            "err: operation cancelled: actual cost limit exceeded");
}

TEST(Cost, RuntimeCostOfTypicalSelectorIsSmall) {
  auto g = testing::DeviceG();
  Compilation c = Compile(R"(device.attributes["gpu.example.com"].model == "A100")");
  ASSERT_TRUE(c.ok());
  EvalDetails details;
  ASSERT_TRUE(c.program->Evaluate(*g, &details).ok());
  EXPECT_EQ(details.actual_cost, 5u);  // 4 for the lookup chain, 1 for ==
}

TEST(Cost, CustomLimitApplies) {
  CompileOptions options;
  options.cost_limit = 10;
  Compilation c = Compile("[1, 2, 3, 4, 5].all(x, x > 0)", options);
  ASSERT_TRUE(c.ok());
  SimpleDevice d;
  Result<bool> r = c.program->Evaluate(d);
  ASSERT_FALSE(r.ok());
  EXPECT_EQ(r.error(), "operation cancelled: actual cost limit exceeded");
}

TEST(Cost, ErrorsDoNotHideTheLimit) {
  // An exceeded limit is never absorbed by || or &&.
  CompileOptions options;
  options.cost_limit = 5;
  Compilation c = Compile("[1, 2, 3, 4, 5, 6].exists(x, x > 5) || true", options);
  ASSERT_TRUE(c.ok());
  SimpleDevice d;
  Result<bool> r = c.program->Evaluate(d);
  ASSERT_FALSE(r.ok());
  EXPECT_EQ(r.error(), "operation cancelled: actual cost limit exceeded");
}

TEST(Cancellation, Row45StopsWithInterruptedError) {
  SimpleDevice d("dra.example.com");
  for (int i = 0; i < 1000; ++i) d.AddInt("attr" + std::to_string(i), i);
  Compilation c = Compile(
      R"(device.attributes["dra.example.com"].map(key, device.attributes["dra.example.com"][key] * 20).filter(e, e > 50).exists(e, e == 60))");
  ASSERT_TRUE(c.ok());
  std::atomic<bool> cancelled{true};
  Result<bool> r = c.program->Evaluate(d, nullptr, &cancelled);
  ASSERT_FALSE(r.ok());
  EXPECT_EQ(r.error(), "operation interrupted");
  cancelled = false;
  EXPECT_TRUE(*c.program->Evaluate(d, nullptr, &cancelled));
}

}  // namespace
}  // namespace dra::cel
