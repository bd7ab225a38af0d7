// ExplainOptions::distance: ExplainPod keeps the explanations of only the
// `keep` closest nodes (ties in cluster order), and the verdict is otherwise
// the one made with every explanation kept; without every_node it lists
// those nodes alone.
#include <gtest/gtest.h>

#include <algorithm>
#include <atomic>
#include <cstdint>
#include <set>
#include <string>
#include <vector>

#include "dra/scheduler/scheduler.h"
#include "scheduler/workloads.h"
#include "workload_test_util.h"

namespace dra::scheduler {
namespace {

// Coarse on purpose, so that many nodes tie.
std::uint64_t Distance(const allocator::Explanation& e) {
  std::uint64_t blocking = 0;
  for (const allocator::EntryExplanation& x : e.entries) blocking += x.blocks ? 1 : 0;
  return blocking * 2 + e.summary.size() % 2;
}

TEST(ExplainOptionsTest, KeepsOnlyTheClosestExplanations) {
  int pods_with_dropped = 0;
  for (const std::string& workload : WorkloadNames()) {
    SCOPED_TRACE(workload);
    constexpr int kNodes = 12;
    Result<WorkloadManifests> w = MakeWorkload(workload, kNodes, 4 * kNodes);
    ASSERT_TRUE(w.ok()) << w.error();
    Scheduler s(ParseCluster(w->cluster + w->pods), WorkloadOptions());
    s.Run();
    for (const PodRecord& p : s.pods()) {
      if (p.state != PodState::kPending) continue;
      const std::string& ns = p.pod.metadata.namespace_;
      const std::string& name = p.pod.metadata.name;
      Result<PodVerdict> all = s.ExplainPod(ns, name);
      ASSERT_TRUE(all.ok()) << all.error();
      for (std::size_t keep : {std::size_t{1}, std::size_t{2}}) {
        ExplainOptions options;
        options.distance = Distance;
        options.keep = keep;
        Result<PodVerdict> some = s.ExplainPod(ns, name, options);
        ASSERT_TRUE(some.ok()) << some.error();
        // The expected survivors: the explained nodes in cluster order,
        // stably sorted by distance, the first `keep`.
        std::vector<const NodeVerdict*> explained;
        for (const NodeVerdict& n : all->nodes) {
          if (n.explanation) explained.push_back(&n);
        }
        std::stable_sort(explained.begin(), explained.end(), [](auto* a, auto* b) {
          return Distance(*a->explanation) < Distance(*b->explanation);
        });
        std::set<std::string> expected;
        for (std::size_t i = 0; i < explained.size() && i < keep; ++i) {
          expected.insert(explained[i]->node);
        }
        if (explained.size() > keep) ++pods_with_dropped;
        EXPECT_EQ(some->verdict, all->verdict);
        EXPECT_EQ(some->message, all->message);
        ASSERT_EQ(some->nodes.size(), all->nodes.size());
        for (std::size_t i = 0; i < all->nodes.size(); ++i) {
          const NodeVerdict& a = all->nodes[i];
          const NodeVerdict& b = some->nodes[i];
          EXPECT_EQ(b.node, a.node);
          EXPECT_EQ(b.feasible, a.feasible);
          EXPECT_EQ(b.reasons, a.reasons);
          EXPECT_EQ(b.explanation.has_value(), expected.count(a.node) > 0) << name << " " << a.node;
          if (b.explanation && a.explanation) {
            EXPECT_EQ(b.explanation->summary, a.explanation->summary);
          }
        }
        // Without every_node: those explained nodes alone, in cluster order.
        options.every_node = false;
        Result<PodVerdict> few = s.ExplainPod(ns, name, options);
        ASSERT_TRUE(few.ok()) << few.error();
        std::vector<std::string> kept_nodes, few_nodes;
        for (const NodeVerdict& n : some->nodes) {
          if (n.explanation) kept_nodes.push_back(n.node + ": " + n.explanation->summary);
        }
        for (const NodeVerdict& n : few->nodes) {
          few_nodes.push_back(n.node + ": " + (n.explanation ? n.explanation->summary : "none"));
        }
        EXPECT_EQ(few_nodes, kept_nodes);
        EXPECT_EQ(few->verdict, all->verdict);
      }
    }
  }
  // Else the test could not tell a verdict that drops nothing.
  EXPECT_GT(pods_with_dropped, 0);
}

// ExplainOptions::cancel: set before the call, ExplainPod fails and the pod
// and its later verdicts are as they were; set during it, the nodes not yet
// tried are skipped.
TEST(ExplainOptionsTest, CancelEndsTheExplanationAndLeavesThePodAsItWas) {
  int cancelled_midway = 0;
  for (const std::string& workload : WorkloadNames()) {
    SCOPED_TRACE(workload);
    constexpr int kNodes = 64;
    Result<WorkloadManifests> w = MakeWorkload(workload, kNodes, 4 * kNodes);
    ASSERT_TRUE(w.ok()) << w.error();
    Scheduler s(ParseCluster(w->cluster + w->pods), WorkloadOptions());
    s.Run();
    int bound_tried = 0;
    for (const PodRecord& p : s.pods()) {
      if (p.state == PodState::kBound && bound_tried++ > 0) continue;
      if (p.state != PodState::kPending && p.state != PodState::kBound) continue;
      const std::string ns = p.pod.metadata.namespace_;
      const std::string name = p.pod.metadata.name;
      const PodState state = p.state;
      const std::string reason = p.reason;
      Result<PodVerdict> before = s.ExplainPod(ns, name);
      ASSERT_TRUE(before.ok()) << before.error();

      std::atomic<bool> cancel{true};
      ExplainOptions options;
      options.cancel = &cancel;
      Result<PodVerdict> cancelled = s.ExplainPod(ns, name, options);
      ASSERT_FALSE(cancelled.ok());
      EXPECT_EQ(cancelled.error(), "explanation cancelled");
      const PodRecord* now = s.FindPod(ns, name);
      ASSERT_NE(now, nullptr);
      EXPECT_EQ(now->state, state);
      EXPECT_EQ(now->reason, reason);

      // Cancelled by the first explanation made: the others are not made.
      std::atomic<bool> midway{false};
      std::atomic<int> made{0};
      ExplainOptions first_only;
      first_only.cancel = &midway;
      first_only.distance = [&](const allocator::Explanation&) {
        ++made;
        midway = true;
        return std::uint64_t{0};
      };
      Result<PodVerdict> partial = s.ExplainPod(ns, name, first_only);
      std::size_t explained = 0;
      for (const NodeVerdict& n : before->nodes) explained += n.explanation ? 1 : 0;
      if (made > 0) {
        EXPECT_FALSE(partial.ok());
        // Each worker thread finishes the node it has; none starts another.
        if (explained > 16) {
          EXPECT_LT(static_cast<std::size_t>(made.load()), explained);
          ++cancelled_midway;
        }
      }

      cancel = false;
      Result<PodVerdict> after = s.ExplainPod(ns, name, options);
      ASSERT_TRUE(after.ok()) << after.error();
      EXPECT_EQ(after->verdict, before->verdict);
      EXPECT_EQ(after->message, before->message);
      ASSERT_EQ(after->nodes.size(), before->nodes.size());
      for (std::size_t i = 0; i < before->nodes.size(); ++i) {
        EXPECT_EQ(after->nodes[i].node, before->nodes[i].node);
        EXPECT_EQ(after->nodes[i].feasible, before->nodes[i].feasible);
        EXPECT_EQ(after->nodes[i].reasons, before->nodes[i].reasons);
        EXPECT_EQ(after->nodes[i].explanation.has_value(),
                  before->nodes[i].explanation.has_value());
      }
    }
  }
  // Else no workload had a pod rejected by DRA on many nodes.
  EXPECT_GT(cancelled_midway, 0);
}

}  // namespace
}  // namespace dra::scheduler
