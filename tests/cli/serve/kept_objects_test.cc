// Unpack's streams: what a Scheduler reads one at a time is what Unpack
// would have given at once, in the same order.
#include "cli/serve/kept_objects.h"

#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "dra/api/core.h"
#include "dra/kube/compressed_text.h"

namespace dra::cli::serve {
namespace {

api::Node NodeNamed(const std::string& name, const std::string& zone) {
  api::Node node;
  node.type = {"Node", "v1"};
  node.metadata.name = name;
  node.metadata.labels["zone"] = zone;
  node.spec.taints.push_back({"dedicated", zone, "NoSchedule", {}});
  node.status.allocatable["cpu"] = *api::Quantity::Parse("4");
  return node;
}

// Kept as informers keep them: in the order they came, which means nothing.
KeptCluster KeptNodes(const std::vector<std::string>& names) {
  KeptCluster kept;
  kube::TextCompressor compressor;
  for (const std::string& name : names) {
    Result<KeptPtr> k = Keep(NodeNamed(name, name + "-zone"), compressor);
    EXPECT_TRUE(k.ok()) << k.error();
    if (k.ok()) kept.nodes.push_back(*k);
  }
  return kept;
}

std::vector<std::string> Described(const std::vector<api::Node>& nodes) {
  std::vector<std::string> out;
  for (const api::Node& n : nodes) {
    out.push_back(n.metadata.name + " " + n.metadata.labels.at("zone") + " " +
                  n.spec.taints.at(0).value + " " +
                  n.status.allocatable.at("cpu").CanonicalString());
  }
  return out;
}

std::vector<api::Node> Drained(scheduler::MoreObjects<api::Node>& stream) {
  std::vector<api::Node> out;
  for (api::Node n; stream.next(n); n = {}) out.push_back(std::move(n));
  return out;
}

TEST(UnpackTest, StreamedNodesComeAsUnpackGivesThemAtOnce) {
  const std::vector<std::string> names = {"node-b", "node-c", "node-a", "node-10", "node-2"};
  for (const bool in_input_order : {false, true}) {
    SCOPED_TRACE(in_input_order ? "manifests" : "informers");
    KeptCluster kept = KeptNodes(names);
    kept.in_input_order = in_input_order;
    const scheduler::Cluster whole = Unpack(kept);
    ASSERT_EQ(whole.nodes.size(), names.size());
    EXPECT_FALSE(whole.more_nodes.next);
    // Not a trivial order either way.
    const std::string first = in_input_order ? "node-b" : "node-10";
    EXPECT_EQ(whole.nodes.front().metadata.name, first);

    scheduler::Cluster streamed = Unpack(kept, ExplainerUnpackOptions());
    EXPECT_TRUE(streamed.nodes.empty());
    EXPECT_EQ(streamed.more_nodes.count, names.size());
    ASSERT_TRUE(streamed.more_nodes.next);
    EXPECT_EQ(Described(Drained(streamed.more_nodes)), Described(whole.nodes));
  }
}

}  // namespace
}  // namespace dra::cli::serve
