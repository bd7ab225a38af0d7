// The kubelet-plugin conformance checks (numbered in docs/DRIVER-SDK.md,
// "Conformance coverage"), run with a kubelet-like gRPC client against the
// reference drivers (`dra driver example` in each of its modes and
// `dra driver nvml` on the fake NVML). The tests are defined once
// (example_conformance_test.cc); each driver instantiates them with its
// DriverCase.
#pragma once

#include <gtest/gtest.h>

#include <functional>
#include <memory>
#include <string>
#include <vector>

#include "dra/driver/claim_source.h"
#include "dra/driver/driver.h"
#include "dra/driver/plugin.h"
#include "dra/driver/slice_publisher.h"
#include "driver_test_harness.h"

namespace dra::driver::testing {

struct DriverCase {
  std::string label;  // test-name suffix
  std::string driver_name;
  std::function<std::unique_ptr<Driver>()> make;
  // Two allocatable devices of the node's pool ("node-1"), and further ones
  // (at least one) for tests that need a device per claim.
  std::string device_a;
  std::string device_b;
  std::vector<std::string> more_devices;
  // Whether the driver reports health; then `make_unhealthy` marks
  // device_a's hardware unhealthy on a running driver.
  bool reports_health = false;
  std::function<void(Driver&)> make_unhealthy;
};

inline std::ostream& operator<<(std::ostream& os, const DriverCase& c) { return os << c.label; }

// One driver served in-process by the SDK over temporary kubelet
// directories, with claims from a manifest directory and slices in a file.
class ConformanceTest : public ::testing::TestWithParam<DriverCase> {
 protected:
  void SetUp() override {
    claims_ = NewManifestClaimSource(dirs_.claims());
    publisher_ = NewFileSlicePublisher(dirs_.slices());
    options_ = dirs_.Options(GetParam().driver_name);
    options_.node_uid = "node-uid-1";
    options_.health_resend_period = std::chrono::milliseconds(200);
  }
  void TearDown() override { StopPlugin(); }

  // Starts (or restarts) the plugin with a fresh driver; fails the test on error.
  void StartPlugin() {
    driver_ = GetParam().make();
    ASSERT_NE(driver_, nullptr);
    auto plugin = Plugin::Start(*driver_, *claims_, *publisher_, options_);
    ASSERT_TRUE(plugin.ok()) << plugin.error();
    plugin_ = std::move(*plugin);
    client_ = std::make_unique<KubeletClient>(plugin_->endpoints().registration_socket);
    info_ = client_->Register();
  }
  void StopPlugin() {
    client_.reset();
    if (plugin_) plugin_->Stop();
    plugin_.reset();
    driver_.reset();
  }

  ClaimSpec Claim(const std::string& name, const std::vector<std::string>& devices) {
    ClaimSpec c;
    c.name = name;
    c.uid = "uid-" + name;
    int i = 0;
    for (const std::string& d : devices) {
      c.results.push_back(
          {"req" + std::to_string(i++), GetParam().driver_name, "node-1", d, {}, false});
    }
    return c;
  }

  KubeletDirs dirs_;
  std::unique_ptr<ClaimSource> claims_;
  std::unique_ptr<SlicePublisher> publisher_;
  PluginOptions options_;
  std::unique_ptr<Driver> driver_;
  std::unique_ptr<Plugin> plugin_;
  std::unique_ptr<KubeletClient> client_;
  pluginregistration::PluginInfo info_;
};

}  // namespace dra::driver::testing
