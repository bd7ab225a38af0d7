// Hurrying an explanation (ExplainWaiting's `hurry`, WaitingExplainer::Hurry):
// the pods are still tried, the search for their closest nodes is skipped,
// and dra serve's compute loop gets the explainer's memory back before it
// computes a state.
#include "cli/serve/waiting_explainer.h"

#include <gtest/gtest.h>

#include <atomic>
#include <chrono>
#include <cstdio>
#include <string>
#include <thread>
#include <vector>

#include "cli/serve/dashboard_state.h"
#include "cli/serve/kept_objects.h"
#include "dra/api/feature_gates.h"
#include "dra/api/manifest.h"
#include "dra/scheduler/cluster.h"

namespace dra::cli::serve {
namespace {

// `nodes` nodes with one GPU each but the last, which has two, and
// `waiting` pods whose claims ask for three GPUs: no node fits any pod,
// DRA rejects every node at the stage "count", the last node comes closest
// and the first node is the first one rejected.
std::string ClusterYaml(int nodes, int waiting) {
  std::string yaml =
      "apiVersion: resource.k8s.io/v1\nkind: DeviceClass\nmetadata: {name: gpu}\n"
      "spec: {selectors: [{cel: {expression: 'device.driver == \"gpu.example.com\"'}}]}\n";
  char name[32];
  for (int n = 0; n < nodes; ++n) {
    std::snprintf(name, sizeof name, "node-%04d", n);
    const std::string node = name;
    yaml += "---\napiVersion: v1\nkind: Node\nmetadata: {name: " + node + "}\n";
    yaml += "---\napiVersion: resource.k8s.io/v1\nkind: ResourceSlice\nmetadata: {name: " + node +
            "-gpus}\nspec:\n  driver: gpu.example.com\n  nodeName: " + node +
            "\n  pool: {name: " + node + ", generation: 1, resourceSliceCount: 1}\n  devices:\n" +
            "  - {name: gpu-0}\n" + (n == nodes - 1 ? "  - {name: gpu-1}\n" : "");
  }
  for (int p = 0; p < waiting; ++p) {
    const std::string pod = "job-" + std::to_string(p);
    yaml += "---\napiVersion: resource.k8s.io/v1\nkind: ResourceClaim\nmetadata: {name: " + pod +
            "}\nspec:\n  devices:\n    requests:\n    - name: gpus\n      exactly: "
            "{deviceClassName: gpu, allocationMode: ExactCount, count: 3}\n";
    yaml += "---\napiVersion: v1\nkind: Pod\nmetadata: {name: " + pod +
            "}\nspec:\n  containers: [{name: main, image: busybox}]\n"
            "  resourceClaims: [{name: gpus, resourceClaimName: " +
            pod + "}]\n";
  }
  return yaml;
}

KeptCluster Kept(int nodes, int waiting) {
  api::ManifestSet set;
  api::ParseManifestText("test", ClusterYaml(nodes, waiting), api::ManifestOptions{}, set);
  Result<scheduler::Cluster> cluster = scheduler::ClusterFromManifests(std::move(set), "default");
  EXPECT_TRUE(cluster.ok()) << cluster.error();
  return cluster.ok() ? KeepCluster(std::move(*cluster)) : KeptCluster{};
}

TEST(ExplainWaitingTest, HurriedItSkipsTheSearchForTheClosestNode) {
  const KeptCluster kept = Kept(40, 3);
  bool hurried = true;
  std::vector<PendingPod> searched = ExplainWaiting(Unpack(kept, ExplainerUnpackOptions()),
                                                    api::FeatureGates{}, nullptr, &hurried);
  EXPECT_FALSE(hurried);
  std::atomic<bool> hurry{true};
  std::vector<PendingPod> quick =
      ExplainWaiting(Unpack(kept, ExplainerUnpackOptions()), api::FeatureGates{}, &hurry, &hurried);
  EXPECT_TRUE(hurried);
  ASSERT_EQ(searched.size(), 3u);
  ASSERT_EQ(quick.size(), 3u);
  for (std::size_t i = 0; i < 3; ++i) {
    SCOPED_TRACE(searched[i].name);
    EXPECT_EQ(quick[i].name, searched[i].name);
    EXPECT_EQ(searched[i].stage, "count");
    EXPECT_EQ(quick[i].stage, "count");
    // Searched: the node with two of the three GPUs.
    EXPECT_EQ(searched[i].node, "node-0039");
    // Not searched: the first node rejected, as the attempt met it.
    EXPECT_EQ(quick[i].node, "node-0000");
    EXPECT_FALSE(quick[i].explanation.empty());
    EXPECT_NE(quick[i].explanation, searched[i].explanation);
  }
}

// How the compute loop waits for an explanation it did not hurry.
std::shared_ptr<const Explained> AwaitGeneration(const WaitingExplainer& explainer,
                                                 std::uint64_t generation) {
  // A bound against a hang, not a measurement.
  const auto give_up = std::chrono::steady_clock::now() + std::chrono::minutes(1);
  while (explainer.Latest()->generation < generation &&
         std::chrono::steady_clock::now() < give_up) {
    std::this_thread::sleep_for(std::chrono::milliseconds(10));
  }
  return explainer.Latest();
}

TEST(WaitingExplainerTest, HurryReturnsOnceTheExplanationIsPublished) {
  const KeptCluster kept = Kept(1000, 3);
  WaitingExplainer explainer(api::FeatureGates{}, std::chrono::seconds(30));
  explainer.Offer(kept, 1);
  // Taken, and perhaps not yet begun: Hurry waits for it all the same.
  explainer.Hurry();
  std::shared_ptr<const Explained> first = explainer.Latest();
  ASSERT_EQ(first->generation, 1u);
  ASSERT_EQ(first->pods.size(), 3u);
  // Hurried long before its first search could begin (the thread had yet
  // to decode a thousand nodes).
  ASSERT_TRUE(first->hurried);
  for (const PendingPod& p : first->pods) {
    EXPECT_EQ(p.stage, "count");
    EXPECT_EQ(p.node, "node-0000");
  }

  // Hurried, so the same cluster is explained again, this time in full.
  explainer.Offer(kept, 1);
  std::shared_ptr<const Explained> second = AwaitGeneration(explainer, 2);
  ASSERT_EQ(second->generation, 2u);
  EXPECT_FALSE(second->hurried);
  ASSERT_EQ(second->pods.size(), 3u);
  for (const PendingPod& p : second->pods) EXPECT_EQ(p.node, "node-0999");

  // Explained in full: the same cluster is not taken again, and Hurry has
  // nothing to wait for.
  explainer.Offer(kept, 1);
  explainer.Hurry();
  EXPECT_EQ(explainer.Latest()->generation, 2u);
}

TEST(WaitingExplainerTest, AfterStopAnOfferIsIgnored) {
  const KeptCluster kept = Kept(10, 1);
  WaitingExplainer explainer(api::FeatureGates{}, std::chrono::seconds(30));
  explainer.Stop();
  explainer.Offer(kept, 1);
  // Nothing was taken, so nothing to wait for (taken, it would never end).
  explainer.Hurry();
  EXPECT_EQ(explainer.Latest()->generation, 0u);
}

}  // namespace
}  // namespace dra::cli::serve
