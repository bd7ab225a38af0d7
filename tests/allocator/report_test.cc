// The printed forms of an outcome (docs/ALLOCATE.md): AllocationResult in
// Kubernetes JSON, the report tree and text.
#include "allocator/report.h"

#include <gtest/gtest.h>

#include "allocator_test_util.h"

namespace dra::allocator::testing {
namespace {

using ::testing::HasSubstr;

TEST(Report, AllocationResultAsKubernetesJson) {
  Outcome o =
      Allocate(Slice("slice-1", "pool-1", "{name: device-1}") + Claim("claim-0", OneRequest()));
  ASSERT_EQ(o.result.outcome, dra::allocator::Outcome::kAllocated);
  Result<json::Value> j = AllocationResultJson(o.result.allocations[0]);
  ASSERT_TRUE(j.ok()) << j.error();
  EXPECT_EQ(json::ToJson(*j),
            R"({"devices":{"results":[{"request":"req-0","driver":"driver-a","pool":"pool-1",)"
            R"("device":"device-1"}]},"nodeSelector":{"nodeSelectorTerms":[{"matchFields":[)"
            R"({"key":"metadata.name","operator":"In","values":["node-1"]}]}]}})");
}

TEST(Report, TreeAndText) {
  Result<Scenario> s = ParseScenario(
      Fixtures() + Slice("slice-1", "pool-1", "{name: device-1}") + Claim("claim-0", OneRequest()),
      {});
  ASSERT_TRUE(s.ok());
  Allocator allocator(s->snapshot);
  AllocateResult r = allocator.Allocate(FindNode(*s, "node-1"), s->claims);
  Result<json::Value> tree = ReportJson("node-1", s->claims, r);
  ASSERT_TRUE(tree.ok());
  std::string text = json::ToJson(*tree);
  EXPECT_THAT(text, HasSubstr(R"("node":"node-1","outcome":"Allocated","steps":4,)"));
  EXPECT_THAT(text, HasSubstr(R"("namespace":"default","name":"claim-0","allocation":)"));
  EXPECT_THAT(ReportText("node-1", s->claims, r),
              HasSubstr("default/claim-0:\n  req-0: driver-a/pool-1/device-1\n"));
}

TEST(Report, UnschedulableWithExplanation) {
  Result<Scenario> s = ParseScenario(Fixtures() + Claim("claim-0", OneRequest()), Base());
  ASSERT_TRUE(s.ok());
  Allocator allocator(s->snapshot);
  AllocateOptions options;
  options.explain = true;
  AllocateResult r = allocator.Allocate(FindNode(*s, "node-1"), s->claims, options);
  Result<json::Value> tree = ReportJson("node-1", s->claims, r);
  ASSERT_TRUE(tree.ok());
  EXPECT_THAT(json::ToJson(*tree), HasSubstr(R"("outcome":"Unschedulable")"));
  EXPECT_THAT(json::ToJson(*tree), HasSubstr(R"("explanation":{"node":"node-1")"));
  EXPECT_THAT(ReportText("node-1", s->claims, r), HasSubstr("blocked by"));
}

}  // namespace
}  // namespace dra::allocator::testing
