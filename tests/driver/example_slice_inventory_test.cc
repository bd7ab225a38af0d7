// The example driver serving given ResourceSlices (ExampleDriverOptions::
// inventory_slices) instead of simulated GPUs.
#include <gtest/gtest.h>

#include "driver/example/example_driver.h"
#include "driver/example/slice_inventory.h"
#include "manifest_test_util.h"
#include "sdk_plugin_test_util.h"

namespace dra::driver::testing {
namespace {

// Pool "node-1" on the node (two slices, the older generation left over),
// a network-attached pool "fabric" with counters, and another driver's slice.
const char* kSlices = R"(
apiVersion: resource.k8s.io/v1
kind: ResourceSlice
metadata: {name: old}
spec:
  driver: gpu.example.com
  nodeName: node-1
  pool: {name: node-1, generation: 1, resourceSliceCount: 1}
  devices:
  - name: stale-0
---
apiVersion: resource.k8s.io/v1
kind: ResourceSlice
metadata: {name: a}
spec:
  driver: gpu.example.com
  nodeName: node-1
  pool: {name: node-1, generation: 2, resourceSliceCount: 2}
  devices:
  - name: big-0
    attributes:
      model: {string: H100}
---
apiVersion: resource.k8s.io/v1
kind: ResourceSlice
metadata: {name: b}
spec:
  driver: gpu.example.com
  nodeName: node-1
  pool: {name: node-1, generation: 2, resourceSliceCount: 2}
  devices:
  - name: big-1
---
apiVersion: resource.k8s.io/v1
kind: ResourceSlice
metadata: {name: fabric-counters}
spec:
  driver: gpu.example.com
  allNodes: true
  pool: {name: fabric, generation: 0, resourceSliceCount: 2}
  sharedCounters:
  - name: links
    counters:
      lanes: {value: "4"}
---
apiVersion: resource.k8s.io/v1
kind: ResourceSlice
metadata: {name: fabric-devices}
spec:
  driver: gpu.example.com
  allNodes: true
  pool: {name: fabric, generation: 0, resourceSliceCount: 2}
  devices:
  - name: link-0
    consumesCounters:
    - counterSet: links
      counters:
        lanes: {value: "1"}
)";

std::vector<api::ResourceSlice> Slices() {
  return ObjectsOf<api::ResourceSlice>(ParseObjects(kSlices));
}

TEST(SliceInventory, PoolsOfTheNewestGeneration) {
  Result<Inventory> inv = example::InventoryFromSlices(Slices(), "gpu.example.com");
  ASSERT_TRUE(inv.ok()) << inv.error();
  ASSERT_EQ(inv->pools.size(), 2u);
  EXPECT_EQ(inv->pools[0].name, "node-1");
  ASSERT_EQ(inv->pools[0].devices.size(), 2u);
  EXPECT_EQ(inv->pools[0].devices[0].name, "big-0");
  EXPECT_EQ(inv->pools[0].devices[1].name, "big-1");
  EXPECT_EQ(inv->pools[1].name, "fabric");
  ASSERT_EQ(inv->pools[1].shared_counters.size(), 1u);
  ASSERT_EQ(inv->pools[1].devices.size(), 1u);
  EXPECT_EQ(inv->pools[1].devices[0].consumes_counters.size(), 1u);
}

TEST(SliceInventory, Errors) {
  std::vector<api::ResourceSlice> slices = Slices();
  Result<Inventory> other = example::InventoryFromSlices(slices, "nic.example.com");
  ASSERT_FALSE(other.ok());
  EXPECT_EQ(other.error(), "ResourceSlice old: driver is gpu.example.com, not nic.example.com");
  slices.push_back(slices[2]);  // big-1 again
  Result<Inventory> dup = example::InventoryFromSlices(slices, "gpu.example.com");
  ASSERT_FALSE(dup.ok());
  EXPECT_EQ(dup.error(), "pool node-1: device big-1 is defined twice");
  example::ExampleDriverOptions options;
  options.node_name = "node-1";
  options.driver_name = "nic.example.com";
  options.inventory_slices = Slices();
  EXPECT_FALSE(example::ValidateExampleDriverOptions(options).ok());
}

class ExampleFromSlices : public PluginFixture {
 protected:
  void SetUp() override {
    example::ExampleDriverOptions options;
    options.node_name = "node-1";
    options.inventory_slices = Slices();
    ASSERT_TRUE(example::ValidateExampleDriverOptions(options).ok());
    example = std::make_unique<example::ExampleDriver>(options);
    claims = NewManifestClaimSource(dirs.claims());
    publisher = NewFileSlicePublisher(dirs.slices());
    auto p = Plugin::Start(*example, *claims, *publisher, Options());
    ASSERT_TRUE(p.ok()) << p.error();
    plugin = std::move(*p);
    client = std::make_unique<KubeletClient>(plugin->endpoints().registration_socket);
    info = client->Register();
  }
  std::unique_ptr<example::ExampleDriver> example;
};

TEST_F(ExampleFromSlices, PublishesAndPreparesTheSlicesDevices) {
  Result<Inventory> inv = example->Enumerate();
  ASSERT_TRUE(inv.ok());
  EXPECT_EQ(inv->pools.size(), 2u);
  EXPECT_TRUE(example->gpus().empty());
  EXPECT_EQ(example->Health().size(), 3u);
  std::string published = ReadFile(dirs.slices());
  EXPECT_NE(published.find("big-1"), std::string::npos);
  // The network-attached pool is served but left to the controller to publish.
  EXPECT_EQ(published.find("link-0"), std::string::npos);
  EXPECT_EQ(published.find("stale-0"), std::string::npos);

  ClaimSpec c;
  c.name = "mixed";
  c.uid = "uid-mixed";
  c.results.push_back({"gpu", kDriverName, "node-1", "big-1", {}, false});
  c.results.push_back({"link", kDriverName, "fabric", "link-0", {}, false});
  WriteClaim(dirs.claims(), c);
  drav1::NodePrepareResourceResponse r = PrepareOne(c);
  ASSERT_EQ(r.error(), "");
  ASSERT_EQ(r.devices_size(), 2);
  EXPECT_EQ(r.devices(1).pool_name(), "fabric");
  std::vector<std::string> ids;
  for (const auto& d : r.devices())
    ids.insert(ids.end(), d.cdi_device_ids().begin(), d.cdi_device_ids().end());
  EXPECT_EQ(ResolveCdiIds(dirs.cdi(), ids), "");
  // The edits are the example driver's own.
  std::string spec = ReadFile(dirs.cdi() + "/" + dirs.CdiFiles().at(0));
  EXPECT_NE(spec.find("GPU_DEVICE_BIG_1=big-1"), std::string::npos) << spec;
  EXPECT_NE(spec.find("GPU_DEVICE_LINK_0_RESOURCE_CLAIM=uid-mixed"), std::string::npos) << spec;
  EXPECT_EQ(UnprepareOne(c), "");
}

TEST_F(ExampleFromSlices, UnknownDevicesAreRefused) {
  ClaimSpec stale = SimpleClaim("stale", "uid-stale", {"stale-0"});
  WriteClaim(dirs.claims(), stale);
  EXPECT_EQ(PrepareOne(stale).error(),
            "device node-1/stale-0 of request gpu is not a device of this driver on node node-1");
  ClaimSpec wrong_pool;
  wrong_pool.name = "wrong-pool";
  wrong_pool.uid = "uid-wp";
  wrong_pool.results.push_back({"gpu", kDriverName, "fabric", "big-0", {}, false});
  WriteClaim(dirs.claims(), wrong_pool);
  EXPECT_NE(PrepareOne(wrong_pool).error().find("device fabric/big-0"), std::string::npos);
  EXPECT_TRUE(dirs.CdiFiles().empty());
}

}  // namespace
}  // namespace dra::driver::testing
