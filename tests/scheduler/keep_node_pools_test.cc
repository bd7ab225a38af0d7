// Snapshot::keep_node_pools = false (dra serve's explanations) works out a
// node's pools on every call instead of keeping them: every workload must
// schedule and explain identically either way.
#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "dra/scheduler/scheduler.h"
#include "scheduler/workloads.h"
#include "workload_test_util.h"

namespace dra::scheduler {
namespace {

// Pod placements and reasons, each claim's devices, and for every pod left
// Pending each node's verdict and explanation.
std::vector<std::string> Simulate(const std::string& workload, bool keep) {
  constexpr int kNodes = 12;
  Result<WorkloadManifests> w = MakeWorkload(workload, kNodes, 4 * kNodes);
  EXPECT_TRUE(w.ok()) << w.error();
  if (!w.ok()) return {};
  SchedulerOptions options = WorkloadOptions();
  options.keep_node_pools = keep;
  Scheduler s(ParseCluster(w->cluster + w->pods), options);
  s.Run();
  std::vector<std::string> out = Outcome(s);
  for (const PodRecord& p : s.pods()) {
    if (p.explanation) out.push_back(p.pod.metadata.name + ": " + p.explanation->summary);
    if (p.state != PodState::kPending) continue;
    Result<PodVerdict> v = s.ExplainPod(p.pod.metadata.namespace_, p.pod.metadata.name);
    if (!v.ok()) {
      out.push_back(p.pod.metadata.name + ": " + v.error());
      continue;
    }
    for (const NodeVerdict& n : v->nodes) {
      std::string line = p.pod.metadata.name + " on " + n.node + (n.feasible ? ": fits" : ": no");
      for (const std::string& r : n.reasons) line += "; " + r;
      if (n.explanation) line += "; " + n.explanation->summary;
      out.push_back(line);
    }
  }
  return out;
}

class KeepNodePoolsTest : public ::testing::TestWithParam<std::string> {};

TEST_P(KeepNodePoolsTest, ChangesNoOutcomeNorExplanation) {
  std::vector<std::string> kept = Simulate(GetParam(), true);
  std::vector<std::string> worked_out = Simulate(GetParam(), false);
  ASSERT_FALSE(kept.empty());
  EXPECT_EQ(kept, worked_out);
}

INSTANTIATE_TEST_SUITE_P(AllWorkloads, KeepNodePoolsTest, ::testing::ValuesIn(WorkloadNames()),
                         WorkloadTestName);

}  // namespace
}  // namespace dra::scheduler
