// Every scheduler_perf workload, scaled down, simulates to completion: all
// init and measured pods are bound.
#include "scheduler/workloads.h"

#include <gtest/gtest.h>

#include "dra/scheduler/scheduler.h"
#include "workload_test_util.h"

namespace dra::scheduler {
namespace {

class WorkloadTest : public ::testing::TestWithParam<std::string> {};

TEST_P(WorkloadTest, SimulatesToCompletion) {
  Result<WorkloadManifests> w = MakeWorkload(GetParam(), 6, 10);
  ASSERT_TRUE(w.ok()) << w.error();
  Cluster cluster = ParseCluster(w->cluster + w->pods);
  EXPECT_TRUE(cluster.warnings.empty()) << cluster.warnings.front();
  ASSERT_EQ(cluster.nodes.size(), 6u);
  ASSERT_EQ(static_cast<int>(cluster.pods.size()), w->init_pods + w->measured_pods);
  SchedulerOptions options;
  options.features = allocator::Features::FromGates(api::FeatureGates{});
  options.features.consumable_capacity = true;
  options.features.partitionable_devices = true;
  options.parallelism = 2;
  Scheduler s(std::move(cluster), options);
  s.Run();
  for (const PodRecord& p : s.pods()) {
    EXPECT_EQ(p.state, PodState::kBound) << p.pod.metadata.name << ": " << p.reason;
  }
}

INSTANTIATE_TEST_SUITE_P(AllWorkloads, WorkloadTest, ::testing::ValuesIn(WorkloadNames()),
                         WorkloadTestName);

TEST(WorkloadTest, FullClusterLeavesOnlyTenDevices) {
  Result<WorkloadManifests> w = MakeWorkload("steady-full", 3, 10);
  ASSERT_TRUE(w.ok());
  EXPECT_EQ(w->init_pods, 3 * 10 - 10);
  // One more pod than free devices: exactly one stays Pending.
  Cluster cluster = ParseCluster(w->cluster + w->pods + WorkloadPod("steady-full", "extra", 0));
  SchedulerOptions options;
  options.parallelism = 1;
  Scheduler s(std::move(cluster), options);
  s.Run();
  const PodRecord* extra = s.FindPod("default", "extra");
  ASSERT_NE(extra, nullptr);
  EXPECT_EQ(extra->state, PodState::kPending);
  EXPECT_EQ(extra->reason,
            "0/3 nodes are available: 3 cannot allocate all claims. preemption: 0/3 nodes are "
            "available: 3 Preemption is not helpful for scheduling.");
}

TEST(WorkloadTest, UnknownNameListsTheKnownOnes) {
  Result<WorkloadManifests> w = MakeWorkload("nope", 1, 1);
  ASSERT_FALSE(w.ok());
  EXPECT_NE(w.error().find("known: template, "), std::string::npos) << w.error();
}

}  // namespace
}  // namespace dra::scheduler
