// ResourceSlices from an Inventory: splitting, naming, owner, generations,
// and the file publisher.
#include <gtest/gtest.h>

#include <sstream>

#include "dra/api/validation.h"
#include "dra/driver/slice_publisher.h"
#include "driver_test_harness.h"

namespace dra::driver {
namespace {

api::Device MakeDevice(int i, bool taint = false) {
  api::Device d;
  d.name = "dev-" + std::to_string(i);
  d.attributes["index"].int_value = i;
  if (taint) {
    api::DeviceTaint t;
    t.key = "example.com/bad";
    t.effect = "NoSchedule";
    d.taints.push_back(t);
  }
  return d;
}

Inventory WithDevices(int n, int tainted_from = -1) {
  Pool pool;
  for (int i = 0; i < n; ++i)
    pool.devices.push_back(MakeDevice(i, tainted_from >= 0 && i >= tainted_from));
  Inventory inv;
  inv.pools.push_back(pool);
  return inv;
}

// Publishes through a stream publisher (names assigned) and returns the set.
std::vector<api::ResourceSlice> Publish(SlicePublisher& p, const Inventory& inv,
                                        const SliceOwner& owner = {"node-1", "node-uid"}) {
  auto existing = p.List();
  EXPECT_TRUE(existing.ok());
  auto slices = BuildResourceSlices("gpu.example.com", owner, inv, *existing);
  EXPECT_TRUE(slices.ok()) << slices.error();
  EXPECT_TRUE(p.Publish(*slices).ok());
  return *p.List();
}

void ExpectValid(const std::vector<api::ResourceSlice>& slices) {
  api::ValidationOptions options;
  for (int f = 0; f < static_cast<int>(api::Feature::kCount); ++f) {
    options.gates.Set(static_cast<api::Feature>(f), true);
  }
  for (const auto& s : slices) {
    auto errors = api::ValidateResourceSlice(s, options);
    EXPECT_TRUE(errors.empty()) << s.metadata.name << ": " << errors[0].ToString();
  }
}

TEST(SdkSlices, EmptyPoolStillPublishesOneSlice) {
  std::ostringstream out;
  auto p = NewStreamSlicePublisher(out);
  auto slices = Publish(*p, WithDevices(0));
  ASSERT_EQ(slices.size(), 1u);
  EXPECT_TRUE(slices[0].spec.devices.empty());
  EXPECT_EQ(slices[0].spec.pool.name, "node-1");
  EXPECT_EQ(slices[0].spec.pool.generation, 1);
  EXPECT_EQ(slices[0].spec.pool.resource_slice_count, 1);
  EXPECT_EQ(slices[0].spec.node_name, "node-1");
  ExpectValid(slices);
}

TEST(SdkSlices, NamingOwnerAndLimits) {
  std::ostringstream out;
  auto p = NewStreamSlicePublisher(out);
  auto slices = Publish(*p, WithDevices(300));
  ASSERT_EQ(slices.size(), 3u);  // 128 + 128 + 44
  EXPECT_EQ(slices[0].spec.devices.size(), 128u);
  EXPECT_EQ(slices[2].spec.devices.size(), 44u);
  for (std::size_t i = 0; i < slices.size(); ++i) {
    const auto& s = slices[i];
    EXPECT_EQ(s.metadata.generate_name, "0000" + std::to_string(i) + "-gpu.example.com-node-1-");
    EXPECT_EQ(s.metadata.name.size(), s.metadata.generate_name.size() + 5);
    ASSERT_EQ(s.metadata.owner_references.size(), 1u);
    EXPECT_EQ(s.metadata.owner_references[0].kind, "Node");
    EXPECT_EQ(s.metadata.owner_references[0].uid, "node-uid");
    EXPECT_EQ(s.metadata.owner_references[0].controller, true);
    EXPECT_EQ(s.spec.pool.resource_slice_count, 3);
    EXPECT_EQ(s.spec.driver, "gpu.example.com");
  }
  ExpectValid(slices);
  EXPECT_NE(out.str().find("kind: ResourceSlice"), std::string::npos);

  // Tainted devices lower the limit to 64 per slice.
  std::ostringstream out2;
  auto p2 = NewStreamSlicePublisher(out2);
  auto tainted = Publish(*p2, WithDevices(200, 100));
  ASSERT_EQ(tainted.size(), 3u);  // 100 untainted, then 64 + 36 tainted
  for (const auto& s : tainted) {
    bool any_taint = false;
    for (const auto& d : s.spec.devices) any_taint |= !d.taints.empty();
    EXPECT_LE(s.spec.devices.size(), any_taint ? 64u : 128u);
  }
  ExpectValid(tainted);
}

TEST(SdkSlices, CountersGetTheirOwnSlice) {
  Inventory inv = WithDevices(2);
  api::CounterSet set;
  set.name = "gpu-0-counters";
  set.counters["memory"].value = api::Quantity::MustParse("80Gi");
  inv.pools[0].shared_counters.push_back(set);
  api::DeviceCounterConsumption use;
  use.counter_set = "gpu-0-counters";
  use.counters["memory"].value = api::Quantity::MustParse("40Gi");
  inv.pools[0].devices[0].consumes_counters.push_back(use);
  std::ostringstream out;
  auto p = NewStreamSlicePublisher(out);
  auto slices = Publish(*p, inv);
  ASSERT_EQ(slices.size(), 2u);
  EXPECT_EQ(slices[0].spec.shared_counters.size(), 1u);
  EXPECT_TRUE(slices[0].spec.devices.empty());
  EXPECT_EQ(slices[1].spec.devices.size(), 2u);
  ExpectValid(slices);

  inv.pools[0].devices[1].consumes_counters.push_back(use);
  inv.pools[0].devices[1].consumes_counters[0].counter_set = "nope";
  auto bad = BuildResourceSlices("gpu.example.com", {"node-1", ""}, inv, {});
  ASSERT_FALSE(bad.ok());
  EXPECT_NE(bad.error().find("unknown counter set nope"), std::string::npos);
  Inventory dup = WithDevices(2);
  dup.pools[0].devices[1].name = "dev-0";
  EXPECT_FALSE(BuildResourceSlices("gpu.example.com", {"node-1", ""}, dup, {}).ok());
}

TEST(SdkSlices, NetworkAttachedPoolsBelongToTheController) {
  Inventory inv = WithDevices(2);
  inv.pools[0].name = "fabric";
  inv.pools[0].all_nodes = true;
  // The controller (no node): allNodes, no spec.nodeName, no node in the name.
  auto slices = BuildResourceSlices("net.example.com", {"", ""}, inv, {});
  ASSERT_TRUE(slices.ok()) << slices.error();
  ASSERT_EQ(slices->size(), 1u);
  EXPECT_EQ((*slices)[0].spec.all_nodes, true);
  EXPECT_FALSE((*slices)[0].spec.node_name.has_value());
  EXPECT_EQ((*slices)[0].metadata.generate_name, "00000-net.example.com-");
  EXPECT_TRUE((*slices)[0].metadata.owner_references.empty());
  std::vector<api::ResourceSlice> named = *slices;
  named[0].metadata.name = named[0].metadata.generate_name + "abcde";
  ExpectValid(named);
  // A kubelet plugin leaves such a pool to the controller.
  auto node_local = BuildResourceSlices("net.example.com", {"node-1", "uid"}, inv, {});
  ASSERT_TRUE(node_local.ok());
  EXPECT_TRUE(node_local->empty());
  // The controller needs exactly one placement per pool.
  inv.pools[0].all_nodes = false;
  auto none = BuildResourceSlices("net.example.com", {"", ""}, inv, {});
  ASSERT_FALSE(none.ok());
  EXPECT_EQ(none.error(),
            "pool fabric: a network-attached pool needs exactly one of nodeSelector, allNodes and "
            "perDeviceNodeSelection");
  inv.pools[0].all_nodes = true;
  inv.pools[0].per_device_node_selection = true;
  EXPECT_FALSE(BuildResourceSlices("net.example.com", {"", ""}, inv, {}).ok());
}

TEST(SdkSlices, GenerationRules) {
  std::ostringstream out;
  auto p = NewStreamSlicePublisher(out);
  auto first = Publish(*p, WithDevices(200));
  ASSERT_EQ(first.size(), 2u);
  EXPECT_EQ(first[0].spec.pool.generation, 1);
  // Nothing changed: same generation, same names.
  auto same = Publish(*p, WithDevices(200));
  EXPECT_EQ(same[0].spec.pool.generation, 1);
  EXPECT_EQ(same[0].metadata.name, first[0].metadata.name);
  EXPECT_EQ(same[1].metadata.name, first[1].metadata.name);
  // One slice changes: updated in place, generation kept.
  auto one = Publish(*p, WithDevices(199));
  EXPECT_EQ(one[0].spec.pool.generation, 1);
  EXPECT_EQ(one[1].spec.devices.size(), 71u);
  // Both change: new generation on every slice.
  auto both = Publish(*p, WithDevices(200, 0));
  for (const auto& s : both) EXPECT_EQ(s.spec.pool.generation, 2);
  // A forced generation wins.
  Inventory forced = WithDevices(200, 0);
  forced.pools[0].generation = 10;
  auto f = Publish(*p, forced);
  EXPECT_EQ(f[0].spec.pool.generation, 10);
  // Removing the pool removes its slices.
  auto none = Publish(*p, Inventory{});
  EXPECT_TRUE(none.empty());
}

TEST(SdkSlices, FilePublisherRoundTrip) {
  testing::KubeletDirs dirs;
  for (const std::string format : {"yaml", "json"}) {
    auto p = NewFileSlicePublisher(dirs.root() + "/slices." + format, format);
    auto first = Publish(*p, WithDevices(130));
    ASSERT_EQ(first.size(), 2u);
    EXPECT_EQ(first[1].spec.devices.size(), 2u);
    // A new publisher on the same file continues the generation.
    auto p2 = NewFileSlicePublisher(dirs.root() + "/slices." + format, format);
    auto again = Publish(*p2, WithDevices(131, 0));
    EXPECT_EQ(again[0].spec.pool.generation, 2);
  }
}

}  // namespace
}  // namespace dra::driver
