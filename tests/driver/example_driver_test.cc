// The example driver behind the Driver interface: opaque GpuConfig, CDI env
// edits, and flipping a GPU's health while it runs.
#include "driver/example/example_driver.h"

#include <gtest/gtest.h>
#include <unistd.h>

#include <algorithm>
#include <chrono>
#include <condition_variable>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <mutex>

#include "driver/example/gpu_config.h"
#include "driver/example/health_control.h"

namespace dra::driver::example {
namespace {

TEST(GpuConfig, DefaultsAndStrategies) {
  Result<GpuConfig> none = EffectiveGpuConfig({});
  ASSERT_TRUE(none.ok());
  EXPECT_EQ(none->strategy, "TimeSlicing");
  EXPECT_EQ(none->interval, "Default");

  Result<GpuConfig> ts = ParseGpuConfig(
      R"({"apiVersion":"gpu.resource.example.com/v1alpha1","kind":"GpuConfig",)"
      R"("sharing":{"strategy":"TimeSlicing","timeSlicingConfig":{"interval":"Long"}}})");
  ASSERT_TRUE(ts.ok()) << ts.error();
  EXPECT_EQ(ts->interval, "Long");

  Result<GpuConfig> sp = ParseGpuConfig(
      R"({"apiVersion":"gpu.resource.example.com/v1alpha1","kind":"GpuConfig",)"
      R"("sharing":{"strategy":"SpacePartitioning","spacePartitioningConfig":{"partitionCount":4}}})");
  ASSERT_TRUE(sp.ok()) << sp.error();
  EXPECT_EQ(sp->strategy, "SpacePartitioning");
  EXPECT_EQ(sp->partition_count, 4);

  // Later configs win.
  Result<GpuConfig> last = EffectiveGpuConfig(
      {R"({"apiVersion":"gpu.resource.example.com/v1alpha1","kind":"GpuConfig"})",
       R"({"apiVersion":"gpu.resource.example.com/v1alpha1","kind":"GpuConfig",)"
       R"("sharing":{"strategy":"TimeSlicing","timeSlicingConfig":{"interval":"Short"}}})"});
  ASSERT_TRUE(last.ok());
  EXPECT_EQ(last->interval, "Short");
}

TEST(GpuConfig, StrictErrors) {
  const std::string head =
      R"({"apiVersion":"gpu.resource.example.com/v1alpha1","kind":"GpuConfig")";
  struct Case {
    std::string json;
    std::string error;
  } cases[] = {
      {"[]", "parameters must be a JSON object"},
      {"{", "GpuConfig: "},
      {R"({"apiVersion":"v1","kind":"GpuConfig"})", "unsupported config kind"},
      {head + R"(,"kind":"GpuConfig"})", "duplicate field \"kind\""},
      {head + R"(,"extra":1})", "unknown field \"extra\""},
      {head + R"(,"sharing":{"strategy":"MPS"}})", "unknown sharing strategy \"MPS\""},
      {head + R"(,"sharing":{"strategy":"TimeSlicing","timeSlicingConfig":{"interval":"Fast"}}})",
       "unknown time-slice interval \"Fast\""},
      {head + R"(,"sharing":{"strategy":"TimeSlicing","spacePartitioningConfig":{}}})",
       "not allowed with strategy TimeSlicing"},
      {head +
           R"(,"sharing":{"strategy":"SpacePartitioning","spacePartitioningConfig":{"partitionCount":-1}}})",
       "must be >= 0"},
      {head +
           R"(,"sharing":{"strategy":"SpacePartitioning","spacePartitioningConfig":{"partitionCount":"2"}}})",
       "must be an integer"},
      {head +
           R"(,"sharing":{"strategy":"TimeSlicing","timeSlicingConfig":{"interval":"Long","x":1}}})",
       "unknown field \"sharing.timeSlicingConfig.x\""},
  };
  for (const Case& c : cases) {
    Result<GpuConfig> r = ParseGpuConfig(c.json);
    ASSERT_FALSE(r.ok()) << c.json;
    EXPECT_NE(r.error().find(c.error), std::string::npos) << r.error();
  }
  // An invalid config is an error even when a later one would override it.
  EXPECT_FALSE(EffectiveGpuConfig({"{}", head + "}"}).ok());
}

TEST(HealthControl, Parses) {
  std::set<std::string> gpus = {"gpu-0", "gpu-1", "gpu-2"};
  Result<std::map<std::string, std::string>> r = ParseHealthControl(
      "# comment\n\ngpu-1 unhealthy xid-79\ngpu-2 unhealthy   # default reason\n"
      "gpu-0 unhealthy\ngpu-0 healthy\n",
      gpus);
  ASSERT_TRUE(r.ok()) << r.error();
  EXPECT_EQ(*r, (std::map<std::string, std::string>{{"gpu-1", "xid-79"}, {"gpu-2", "unhealthy"}}));

  Result<std::map<std::string, std::string>> bad = ParseHealthControl("gpu-1 ok\n", gpus);
  ASSERT_FALSE(bad.ok());
  EXPECT_EQ(bad.error(), "line 1: want \"<gpu> healthy\" or \"<gpu> unhealthy [<reason>]\"");
  bad = ParseHealthControl("\ngpu-9 unhealthy\n", gpus);
  ASSERT_FALSE(bad.ok());
  EXPECT_EQ(bad.error(), "line 2: unknown GPU \"gpu-9\"");
  bad = ParseHealthControl("gpu-1 unhealthy -bad-\n", gpus);
  ASSERT_FALSE(bad.ok());
  EXPECT_NE(bad.error().find("is not a label value"), std::string::npos);
}

ExampleDriverOptions Options(SharingMode mode = SharingMode::kExclusive) {
  ExampleDriverOptions o;
  o.node_name = "node-1";
  o.num_devices = 2;
  o.mode = mode;
  o.now = [] { return std::int64_t{1700000000}; };
  return o;
}

TEST(ExampleDriver, ValidatesOptions) {
  ExampleDriverOptions o = Options();
  EXPECT_TRUE(ValidateExampleDriverOptions(o).ok());
  o.num_devices = -1;
  EXPECT_EQ(ValidateExampleDriverOptions(o).error(), "--num-devices -1: must be 0 to 1024");
  o.num_devices = 1025;
  EXPECT_FALSE(ValidateExampleDriverOptions(o).ok());
  o = Options();
  o.node_name.clear();
  EXPECT_EQ(ValidateExampleDriverOptions(o).error(), "--node-name (NODE_NAME) is required");
}

AllocatedDevice Alloc(const std::string& request, const std::string& device) {
  AllocatedDevice a;
  a.request = request;
  a.full_request = request;
  a.pool = "node-1";
  a.device = device;
  return a;
}

TEST(ExampleDriver, PrepareWritesTheExampleDriversEnv) {
  ExampleDriver driver(Options(SharingMode::kMultipleAllocations));
  ClaimToPrepare claim;
  claim.uid = "uid-1";
  claim.namespace_ = "default";
  claim.name = "c";
  AllocatedDevice a = Alloc("gpu", "gpu-1");
  a.admin_access = true;
  a.consumed_capacity["memory"] = api::Quantity::MustParse("10Gi");
  a.opaque_configs.push_back(
      R"({"apiVersion":"gpu.resource.example.com/v1alpha1","kind":"GpuConfig",)"
      R"("sharing":{"strategy":"SpacePartitioning","spacePartitioningConfig":{"partitionCount":3}}})");
  claim.devices = {Alloc("other", "gpu-0"), a};
  Result<PreparedClaim> r = driver.Prepare(claim);
  ASSERT_TRUE(r.ok()) << r.error();
  EXPECT_EQ(r->claim_edits.env,
            (std::vector<std::string>{"KUBERNETES_NODE_NAME=node-1",
                                      "DRA_RESOURCE_DRIVER_NAME=gpu.example.com"}));
  ASSERT_EQ(r->devices.size(), 2u);
  EXPECT_EQ(r->devices[0].device, "gpu-0");
  EXPECT_EQ(
      r->devices[0].edits.env,
      (std::vector<std::string>{"GPU_DEVICE_GPU_0_RESOURCE_CLAIM=uid-1", "DRA_ADMIN_ACCESS=false",
                                "GPU_DEVICE_0=gpu-0", "GPU_DEVICE_0_SHARING_STRATEGY=TimeSlicing",
                                "GPU_DEVICE_0_TIMESLICE_INTERVAL=Default"}));
  EXPECT_EQ(r->devices[1].pool, "node-1");
  EXPECT_EQ(r->devices[1].edits.env,
            (std::vector<std::string>{
                "GPU_DEVICE_GPU_1_RESOURCE_CLAIM=uid-1", "DRA_ADMIN_ACCESS=true",
                "GPU_DEVICE_1=gpu-1", "GPU_DEVICE_1_SHARING_STRATEGY=SpacePartitioning",
                "GPU_DEVICE_1_PARTITION_COUNT=3", "GPU_DEVICE_1_MEMORY=10Gi"}));
}

TEST(ExampleDriver, PrepareNamesPartitionsInEnv) {
  ExampleDriver driver(Options(SharingMode::kPartitions));
  ClaimToPrepare claim;
  claim.uid = "u";
  claim.devices = {Alloc("gpu", "gpu-0-mig-1g10gb-19-3")};
  Result<PreparedClaim> r = driver.Prepare(claim);
  ASSERT_TRUE(r.ok()) << r.error();
  EXPECT_EQ(r->devices[0].edits.env[0], "GPU_DEVICE_GPU_0_MIG_1G10GB_19_3_RESOURCE_CLAIM=u");
  EXPECT_EQ(r->devices[0].edits.env[2], "GPU_DEVICE_0_MIG_1G10GB_19_3=gpu-0-mig-1g10gb-19-3");
}

TEST(ExampleDriver, PrepareRejectsUnknownDevicesAndBadConfigs) {
  ExampleDriver driver(Options());
  ClaimToPrepare claim;
  claim.uid = "u";
  claim.devices = {Alloc("gpu", "gpu-7")};
  Result<PreparedClaim> r = driver.Prepare(claim);
  ASSERT_FALSE(r.ok());
  EXPECT_EQ(r.error(),
            "device node-1/gpu-7 of request gpu is not a device of this driver on node node-1");
  AllocatedDevice other_pool = Alloc("gpu", "gpu-0");
  other_pool.pool = "node-2";
  claim.devices = {other_pool};
  EXPECT_FALSE(driver.Prepare(claim).ok());
  AllocatedDevice bad = Alloc("gpu", "gpu-0");
  bad.opaque_configs = {R"({"apiVersion":"gpu.resource.example.com/v1alpha1","kind":"Other"})"};
  claim.devices = {bad};
  r = driver.Prepare(claim);
  ASSERT_FALSE(r.ok());
  EXPECT_EQ(r.error().substr(0, 14), "request gpu: u");
}

class RecordingEvents : public DriverEvents {
 public:
  void InventoryChanged() override {
    std::lock_guard lock(mu);
    ++inventory;
    cv.notify_all();
  }
  void HealthChanged() override {
    std::lock_guard lock(mu);
    ++health;
    cv.notify_all();
  }
  // Waits for the next inventory event; the deadline only keeps a broken
  // poller from hanging the test.
  bool WaitForInventory(int count) {
    std::unique_lock lock(mu);
    return cv.wait_for(lock, std::chrono::seconds(30), [&] { return inventory >= count; });
  }
  std::mutex mu;
  std::condition_variable cv;
  int inventory = 0;
  int health = 0;
};

std::size_t TaintedDevices(ExampleDriver& driver) {
  Result<Inventory> inv = driver.Enumerate();
  EXPECT_TRUE(inv.ok());
  std::size_t n = 0;
  for (const api::Device& d : inv->pools[0].devices) n += d.taints.empty() ? 0 : 1;
  return n;
}

TEST(ExampleDriver, FlippingHealthTaintsAndReports) {
  ExampleDriver driver(Options(SharingMode::kPartitions));
  RecordingEvents events;
  ASSERT_TRUE(driver.Start(events).ok());
  EXPECT_TRUE(driver.ReportsHealth());
  EXPECT_EQ(TaintedDevices(driver), 0u);
  for (const DeviceHealth& h : driver.Health()) EXPECT_EQ(h.health, Health::kHealthy) << h.device;
  EXPECT_EQ(driver.Health().size(), 30u);

  ASSERT_TRUE(driver.SetGpuHealth("gpu-1", false, "xid-48").ok());
  EXPECT_EQ(events.inventory, 1);
  EXPECT_EQ(events.health, 1);
  EXPECT_EQ(TaintedDevices(driver), 15u);
  int unhealthy = 0;
  for (const DeviceHealth& h : driver.Health()) {
    if (h.health == Health::kUnhealthy) {
      ++unhealthy;
      EXPECT_EQ(h.message, "GPU gpu-1 is unhealthy: xid-48");
    }
  }
  EXPECT_EQ(unhealthy, 15);

  // The same state again is not a change.
  ASSERT_TRUE(driver.SetGpuHealth("gpu-1", false, "xid-48").ok());
  EXPECT_EQ(events.inventory, 1);
  EXPECT_FALSE(driver.SetGpuHealth("gpu-5", false).ok());

  ASSERT_TRUE(driver.SetGpuHealth("gpu-1", true).ok());
  EXPECT_EQ(events.inventory, 2);
  EXPECT_EQ(TaintedDevices(driver), 0u);
  driver.Stop();
}

TEST(ExampleDriver, HealthControlFileIsFollowed) {
  std::filesystem::path dir =
      std::filesystem::temp_directory_path() / ("dra-example-health-" + std::to_string(::getpid()));
  std::filesystem::create_directories(dir);
  std::string file = (dir / "health").string();
  ExampleDriverOptions o = Options();
  o.health_control_file = file;
  o.health_poll_interval = std::chrono::milliseconds(20);
  { std::ofstream(file) << "gpu-0 unhealthy\n"; }
  ExampleDriver driver(o);
  RecordingEvents events;
  ASSERT_TRUE(driver.Start(events).ok());
  EXPECT_EQ(TaintedDevices(driver), 1u);  // read at start

  { std::ofstream(file + ".tmp") << "gpu-0 healthy\ngpu-1 unhealthy ecc\n"; }
  std::filesystem::rename(file + ".tmp", file);
  ASSERT_TRUE(events.WaitForInventory(2));
  Result<Inventory> inv = driver.Enumerate();
  ASSERT_TRUE(inv.ok());
  EXPECT_TRUE(inv->pools[0].devices[0].taints.empty());
  ASSERT_EQ(inv->pools[0].devices[1].taints.size(), 1u);
  EXPECT_EQ(inv->pools[0].devices[1].taints[0].value, "ecc");

  // A bad file changes nothing; removing the file makes all GPUs healthy.
  { std::ofstream(file + ".tmp") << "gpu-0 sick\n"; }
  std::filesystem::rename(file + ".tmp", file);
  Status bad = driver.ReloadHealthControl();
  ASSERT_FALSE(bad.ok());
  EXPECT_EQ(bad.error(), "line 1: want \"<gpu> healthy\" or \"<gpu> unhealthy [<reason>]\"");
  EXPECT_EQ(TaintedDevices(driver), 1u);
  std::filesystem::remove(file);
  ASSERT_TRUE(events.WaitForInventory(3));
  EXPECT_EQ(TaintedDevices(driver), 0u);
  driver.Stop();
  std::filesystem::remove_all(dir);
}

TEST(ExampleDriver, BadHealthControlFileFailsStart) {
  std::filesystem::path file = std::filesystem::temp_directory_path() /
                               ("dra-example-badhealth-" + std::to_string(::getpid()));
  { std::ofstream(file) << "gpu-0 broken\n"; }
  ExampleDriverOptions o = Options();
  o.health_control_file = file.string();
  ExampleDriver driver(o);
  RecordingEvents events;
  Status s = driver.Start(events);
  ASSERT_FALSE(s.ok());
  EXPECT_EQ(s.error(), "line 1: want \"<gpu> healthy\" or \"<gpu> unhealthy [<reason>]\"");
  std::filesystem::remove(file);
}

}  // namespace
}  // namespace dra::driver::example
