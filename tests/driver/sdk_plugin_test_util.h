// A TestDriver served by an in-process Plugin in temporary kubelet
// directories, with a registered kubelet client.
#pragma once

#include <gtest/gtest.h>

#include "driver/checkpoint.h"
#include "driver_test_harness.h"
#include "sdk_test_driver.h"

namespace dra::driver::testing {

inline constexpr const char* kDriverName = "gpu.example.com";

inline ClaimSpec SimpleClaim(const std::string& name, const std::string& uid,
                             std::vector<std::string> devices = {"dev-0"}) {
  ClaimSpec c;
  c.name = name;
  c.uid = uid;
  for (const auto& d : devices) c.results.push_back({"gpu", kDriverName, "node-1", d, {}, false});
  return c;
}

class PluginFixture : public ::testing::Test {
 protected:
  void SetUp() override { Start(); }
  void TearDown() override {
    if (plugin) plugin->Stop();
  }

  void Start(PluginOptions options) {
    claims = NewManifestClaimSource(dirs.claims());
    publisher = NewFileSlicePublisher(dirs.slices());
    auto p = Plugin::Start(driver, *claims, *publisher, options);
    ASSERT_TRUE(p.ok()) << p.error();
    plugin = std::move(*p);
    client = std::make_unique<KubeletClient>(plugin->endpoints().registration_socket);
    info = client->Register();
  }
  void Start() { Start(Options()); }
  PluginOptions Options() {
    PluginOptions o = dirs.Options(kDriverName);
    o.node_uid = "node-uid-1";
    return o;
  }
  void Restart() {
    plugin->Stop();
    plugin.reset();
    Start();
  }

  drav1::NodePrepareResourceResponse PrepareOne(const ClaimSpec& c) {
    drav1::NodePrepareResourcesResponse r;
    auto s = client->PrepareV1({Ref(c)}, r);
    EXPECT_TRUE(s.ok()) << s.error_message();
    EXPECT_EQ(r.claims().size(), 1u);
    return r.claims().count(c.uid) ? r.claims().at(c.uid) : drav1::NodePrepareResourceResponse();
  }
  std::string UnprepareOne(const ClaimSpec& c) {
    drav1::NodeUnprepareResourcesResponse r;
    auto s = client->UnprepareV1({Ref(c)}, r);
    EXPECT_TRUE(s.ok()) << s.error_message();
    EXPECT_EQ(r.claims().size(), 1u);
    return r.claims().count(c.uid) ? r.claims().at(c.uid).error() : "missing entry";
  }
  Result<ClaimRecords> Records() { return Checkpoint(plugin->endpoints().checkpoint_file).Load(); }

  KubeletDirs dirs;
  TestDriver driver;
  std::unique_ptr<ClaimSource> claims;
  std::unique_ptr<SlicePublisher> publisher;
  std::unique_ptr<Plugin> plugin;
  std::unique_ptr<KubeletClient> client;
  pluginregistration::PluginInfo info;
};

}  // namespace dra::driver::testing
