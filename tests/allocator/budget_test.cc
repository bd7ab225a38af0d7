// The bounded search: a step budget and cancellation end the search with an
// error instead of letting it run, like the interrupt sub-tests of upstream's
// shared allocator suite.
#include <gtest/gtest.h>

#include "allocator_test_util.h"

namespace dra::allocator::testing {
namespace {

using ::testing::HasSubstr;

// Six devices wanted from five: the whole combination space is searched.
std::string Unsatisfiable() {
  return Slice("slice-1", "pool-1", "{name: d1}, {name: d2}, {name: d3}, {name: d4}, {name: d5}") +
         Claim("c", OneRequest("req-0", "class-a", 6));
}

TEST(Budget, UnboundedRunIsUnschedulable) {
  Outcome o = Allocate(Unsatisfiable());
  EXPECT_EQ(o.result.outcome, dra::allocator::Outcome::kUnschedulable);
  EXPECT_GT(o.result.steps, 20u);
}

TEST(Budget, ExceedingTheStepBudgetIsAnError) {
  AllocateOptions options;
  options.max_steps = 10;
  Outcome o = Allocate(Unsatisfiable(), {}, "node-1", options);
  EXPECT_EQ(o.result.outcome, dra::allocator::Outcome::kError);
  EXPECT_EQ(o.result.error, "allocation search exceeded its budget of 10 steps");
  EXPECT_EQ(o.result.steps, 11u);
}

TEST(Budget, CancelledBeforeTheCall) {
  std::atomic<bool> cancelled{true};
  AllocateOptions options;
  options.cancelled = &cancelled;
  Outcome o = Allocate(Unsatisfiable(), {}, "node-1", options);
  EXPECT_EQ(o.result.outcome, dra::allocator::Outcome::kError);
  EXPECT_THAT(o.result.error, HasSubstr("context canceled"));
}

// A search space that would take astronomically long is cut off promptly:
// every one of C(60,16) combinations for the first claim fails on the second.
TEST(Budget, PathologicalSearchIsBounded) {
  std::string devices;
  for (int i = 0; i < 60; ++i) {
    devices += (i ? ", " : "") + std::string("{name: d") + std::to_string(i) + "}";
  }
  AllocateOptions options;
  options.max_steps = 100000;
  Outcome o = Allocate(Slice("slice-1", "pool-1", devices) +
                           Claim("many", OneRequest("req-0", "class-a", 16)) +
                           Claim("impossible", OneRequest("req-0", "class-b")),
                       {}, "node-1", options);
  EXPECT_EQ(o.result.outcome, dra::allocator::Outcome::kError);
  EXPECT_THAT(o.result.error, HasSubstr("exceeded its budget"));
}

}  // namespace
}  // namespace dra::allocator::testing
