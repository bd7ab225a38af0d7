// The example scenarios under tests/scenarios/ (used by docs/ALLOCATE.md)
// allocate as documented, with the feature gates' defaults.
#include <gtest/gtest.h>

#include "allocator_test_util.h"

namespace dra::allocator::testing {
namespace {

using ::testing::ElementsAre;

Outcome RunFile(const std::string& file, const std::string& node) {
  api::ManifestOptions options;
  api::ManifestSet set =
      api::ReadManifests({std::string(DRA_SOURCE_DIR) + "/tests/scenarios/" + file}, options);
  Result<Scenario> s = ScenarioFromManifests(set, Features::FromGates(api::FeatureGates()));
  EXPECT_TRUE(s.ok()) << (s.ok() ? "" : s.error());
  if (!s.ok()) return {};
  Allocator allocator(s->snapshot);
  AllocateOptions explain;
  explain.explain = true;
  Outcome out;
  out.result = allocator.Allocate(FindNode(*s, node), s->claims, explain);
  for (const auto& a : out.result.allocations) out.devices.push_back(DeviceList(a));
  return out;
}

TEST(ScenarioFiles, GpuCluster) {
  EXPECT_THAT(RunFile("gpu-cluster.yaml", "node-a").devices,
              ElementsAre("gpus:gpu.example.com/node-a/gpu-1 gpus:gpu.example.com/node-a/gpu-2",
                          "gpu:gpu.example.com/node-a/gpu-0"));
  EXPECT_EQ(RunFile("gpu-cluster.yaml", "node-b").result.outcome,
            dra::allocator::Outcome::kUnschedulable);
}

TEST(ScenarioFiles, PrioritizedList) {
  EXPECT_THAT(RunFile("prioritized-list.yaml", "node-1").devices,
              ElementsAre("gpu/two-small:gpu.example.com/node-1/small-0 "
                          "gpu/two-small:gpu.example.com/node-1/small-1"));
}

TEST(ScenarioFiles, Partitionable) {
  EXPECT_THAT(RunFile("partitionable.yaml", "node-1").devices,
              ElementsAre("gpu:gpu.example.com/node-1/gpu-0-half-1"));
}

TEST(ScenarioFiles, Unschedulable) {
  Outcome o = RunFile("unschedulable.yaml", "node-1");
  ASSERT_EQ(o.result.outcome, dra::allocator::Outcome::kUnschedulable);
  ASSERT_EQ(o.result.explanation.entries.size(), 1u);
  EXPECT_EQ(o.result.explanation.entries[0].blocking, Stage::kTaints);
}

}  // namespace
}  // namespace dra::allocator::testing
