// The "interrupt" sub-tests of upstream's shared allocator suite (release
// v0.37.2, see allocator_test_util.h): one claim asking for 6
// of 5 devices, which forces the whole combination search. Upstream
// interrupts through the call's context (cancel, timeout, deadline); ours
// through AllocateOptions::cancelled, and a deadline becomes the step budget.
#include <gtest/gtest.h>

#include <atomic>
#include <string>

#include "allocator_test_util.h"

namespace dra::allocator::catalog {
namespace {

const std::string kSixOfFive = Devices("slice-1", "node-1", "pool-1", "driver-a",
                                       "{name: device-1}, {name: device-2}, {name: device-3}, "
                                       "{name: device-4}, {name: device-5}") +
                               ClaimYaml("claim-0", {Exact("req-0", "class-a", 6)});

TEST(CatalogO, InterruptOff) { Expect(kSixOfFive, Variants({}), kUnschedulable); }

// Upstream: a context with a 1ns timeout; ours: a budget the search exceeds.
TEST(CatalogO, InterruptTimeout) {
  RunOptions budget;
  budget.allocate.max_steps = 1;
  for (const Features& f : Variants({})) {
    SCOPED_TRACE(VariantName(f));
    AllocateResult r = RunCase(kSixOfFive, f, budget);
    EXPECT_EQ(r.outcome, Outcome::kError);
    EXPECT_EQ(r.error, "allocation search exceeded its budget of 1 steps");
  }
}

// Upstream: a context whose deadline is now; ours: a budget of no steps.
TEST(CatalogO, InterruptDeadline) {
  RunOptions budget;
  budget.allocate.max_steps = 0;
  for (const Features& f : Variants({})) {
    SCOPED_TRACE(VariantName(f));
    AllocateResult r = RunCase(kSixOfFive, f, budget);
    EXPECT_EQ(r.outcome, Outcome::kError);
    EXPECT_EQ(r.error, "allocation search exceeded its budget of 0 steps");
  }
}

TEST(CatalogO, InterruptCancel) {
  std::atomic<bool> cancelled{true};
  RunOptions options;
  options.allocate.cancelled = &cancelled;
  for (const Features& f : Variants({})) {
    SCOPED_TRACE(VariantName(f));
    AllocateResult r = RunCase(kSixOfFive, f, options);
    EXPECT_EQ(r.outcome, Outcome::kError);
    EXPECT_THAT(r.error, ::testing::HasSubstr("context canceled"));
  }
}

}  // namespace
}  // namespace dra::allocator::catalog
