// The conformance checks of docs/DRIVER-SDK.md against `dra driver nvml` on
// the fake NVML of the test suite (two GPUs: an A100 with two MIG devices and
// an H100). The tests are those of example_conformance_test.cc; the driver
// does not advertise health, so items 31 to 33 are skipped for it.
#include "driver/nvml/nvml_driver.h"
#include "driver_conformance.h"

namespace dra::driver::testing {
namespace {

DriverCase NvmlCase() {
  DriverCase c;
  c.label = "FakeNvml";
  c.driver_name = "gpu.nvidia.com";
  c.make = []() -> std::unique_ptr<Driver> {
    nvml::NvmlDriverOptions o;
    o.node_name = "node-1";
    o.nvml_library = DRA_FAKE_NVML;
    auto d = nvml::NvmlDriver::Create(o);
    EXPECT_TRUE(d.ok()) << d.error();
    if (!d.ok()) return nullptr;
    return std::move(*d);
  };
  c.device_a = "gpu-0-mig-1g5gb-19-0";
  c.device_b = "gpu-1";
  c.more_devices = {"gpu-0-mig-2g10gb-14-2"};
  return c;
}

INSTANTIATE_TEST_SUITE_P(Nvml, ConformanceTest, ::testing::Values(NvmlCase()),
                         [](const ::testing::TestParamInfo<DriverCase>& info) {
                           return info.param.label;
                         });

}  // namespace
}  // namespace dra::driver::testing
