// Explanations of unschedulable outcomes: per request entry, devices removed
// by each stage and the stage that blocked it.
#include <gtest/gtest.h>

#include "allocator_test_util.h"
#include "dra/allocator/explanation.h"

namespace dra::allocator::testing {
namespace {

using ::testing::HasSubstr;

Outcome Explained(const std::string& yaml, Features f = {}) {
  AllocateOptions options;
  options.explain = true;
  return Allocate(yaml, f, "node-1", options);
}

std::uint64_t Removed(const EntryExplanation& e, Stage s) { return e.removed[static_cast<int>(s)]; }

TEST(Explain, RequestSelectorEmptiesTheRequest) {
  Outcome o = Explained(Slice("slice-1", "pool-1", "{name: d1}, {name: d2}") +
                        Slice("slice-2", "pool-2", "{name: d3}", "driver-a", "node-2") +
                        Slice("slice-3", "pool-3", "{name: d4}", "driver-b") + Claim("c", R"(
    requests:
    - name: req-0
      exactly:
        deviceClassName: class-a
        selectors: [{cel: {expression: 'device.attributes["driver-a"].?model.orValue("") == "x"'}}]
)"));
  ASSERT_EQ(o.result.outcome, dra::allocator::Outcome::kUnschedulable);
  const Explanation& x = o.result.explanation;
  ASSERT_EQ(x.entries.size(), 1u);
  const EntryExplanation& e = x.entries[0];
  EXPECT_EQ(e.claim, "default/c");
  EXPECT_EQ(e.request, "req-0");
  EXPECT_EQ(e.candidates, 4u);
  EXPECT_EQ(Removed(e, Stage::kNode), 1u);
  EXPECT_EQ(Removed(e, Stage::kClassSelector), 1u);
  EXPECT_EQ(Removed(e, Stage::kRequestSelectors), 2u);
  EXPECT_EQ(e.remaining, 0u);
  EXPECT_EQ(e.blocking, Stage::kRequestSelectors);
  EXPECT_THAT(ExplanationText(x), HasSubstr("blocked by requestSelectors"));
  EXPECT_THAT(ExplanationJson(x), HasSubstr("\"blockedBy\": \"requestSelectors\""));
}

TEST(Explain, AllocatedDevicesAndCount) {
  std::string in_use = R"(apiVersion: resource.k8s.io/v1
kind: ResourceClaim
metadata: {name: in-use, namespace: default}
spec:
  devices:
    requests:
    - name: req-0
      exactly: {deviceClassName: class-a}
status:
  allocation:
    devices:
      results:
      - {request: req-0, driver: driver-a, pool: pool-1, device: d1}
---
)";
  Outcome o = Explained(Slice("slice-1", "pool-1", "{name: d1}, {name: d2}") + in_use +
                        Claim("c", OneRequest("req-0", "class-a", 2)));
  ASSERT_EQ(o.result.outcome, dra::allocator::Outcome::kUnschedulable);
  const EntryExplanation& e = o.result.explanation.entries[0];
  EXPECT_EQ(Removed(e, Stage::kAllocated), 1u);
  EXPECT_EQ(e.remaining, 1u);
  EXPECT_EQ(e.requested, 2u);
  EXPECT_EQ(e.blocking, Stage::kCount);
}

TEST(Explain, TaintsAndConstraints) {
  Features f = Base();
  f.device_taints = true;
  Outcome tainted =
      Explained(Slice("slice-1", "pool-1", "{name: d1, taints: [{key: k, effect: NoSchedule}]}") +
                    Claim("c", OneRequest()),
                f);
  EXPECT_EQ(tainted.result.explanation.entries[0].blocking, Stage::kTaints);

  Outcome constrained = Explained(
      Slice("slice-1", "pool-1",
            "{name: d1, attributes: {n: {int: 1}}}, {name: d2, attributes: {n: {int: 2}}}") +
      Claim("c", OneRequest("req-0", "class-a", 2) +
                     "    constraints: [{matchAttribute: driver-a/n}]\n"));
  EXPECT_EQ(constrained.result.explanation.entries[0].blocking, Stage::kConstraints);
  EXPECT_THAT(constrained.result.explanation.summary, HasSubstr("no combination"));
}

TEST(Explain, Capacity) {
  Features f = Base();
  f.consumable_capacity = true;
  Outcome o = Explained(Slice("slice-1", "pool-1",
                              "{name: d1, allowMultipleAllocations: true, capacity: {memory: "
                              "{value: 1Gi}}}") +
                            Claim("c", R"(
    requests:
    - name: req-0
      exactly: {deviceClassName: class-a, capacity: {requests: {memory: 2Gi}}}
)"),
                        f);
  ASSERT_EQ(o.result.outcome, dra::allocator::Outcome::kUnschedulable) << o.result.error;
  EXPECT_EQ(o.result.explanation.entries[0].blocking, Stage::kCapacity);
}

// Only the request that cannot be served is blamed; a class whose devices
// exist only on other nodes is named by driver.
TEST(Explain, AbsentDriverIsNamedAndOtherRequestsAreNotBlamed) {
  Outcome o = Explained(Slice("slice-1", "pool-1", "{name: d1}") +
                        Slice("slice-2", "pool-2", "{name: d2}", "driver-b", "node-2") +
                        Claim("c", OneRequest("req-0", "class-a", 1) +
                                       "    - name: req-1\n      exactly: {deviceClassName: "
                                       "class-b}\n"));
  ASSERT_EQ(o.result.outcome, dra::allocator::Outcome::kUnschedulable) << o.result.error;
  const Explanation& x = o.result.explanation;
  ASSERT_EQ(x.entries.size(), 2u);
  EXPECT_FALSE(x.entries[0].blocks);
  EXPECT_FALSE(x.entries[0].class_absent_here);
  EXPECT_TRUE(x.entries[1].blocks);
  EXPECT_TRUE(x.entries[1].class_absent_here);
  EXPECT_EQ(x.entries[1].drivers_elsewhere, std::vector<std::string>{"driver-b"});
  EXPECT_EQ(x.summary,
            "claim default/c, request req-1: no devices of driver driver-b on this node");
  EXPECT_THAT(ExplanationText(x), HasSubstr("req-0: 2 devices, -1 node -> 1 left, 1 needed; "
                                            "not the blocker"));
  EXPECT_THAT(ExplanationJson(x), HasSubstr("\"blockedBy\": null"));
}

// Without constraints, requests that fit alone but not together are blocked
// by count, never by constraints.
TEST(Explain, RequestsCompetingWithoutConstraintsAreBlockedByCount) {
  Outcome o = Explained(Slice("slice-1", "pool-1", "{name: d1}") +
                        Claim("c", OneRequest("req-0", "class-a", 1) +
                                       "    - name: req-1\n      exactly: {deviceClassName: "
                                       "class-a}\n"));
  ASSERT_EQ(o.result.outcome, dra::allocator::Outcome::kUnschedulable) << o.result.error;
  const Explanation& x = o.result.explanation;
  ASSERT_EQ(x.entries.size(), 2u);
  for (const EntryExplanation& e : x.entries) {
    EXPECT_TRUE(e.blocks);
    EXPECT_EQ(e.blocking, Stage::kCount);
  }
  EXPECT_THAT(x.summary, HasSubstr("not all requests together"));
}

TEST(Explain, NotComputedUnlessAsked) {
  Outcome o = Allocate(Claim("c", OneRequest()));
  EXPECT_TRUE(o.result.explanation.entries.empty());
}

}  // namespace
}  // namespace dra::allocator::testing
