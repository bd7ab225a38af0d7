// `dra driver example`: simulated GPUs behind the SDK's Driver interface, for
// trying DRA without hardware, after kubernetes-sigs/dra-example-driver.
#pragma once

#include <chrono>
#include <cstdint>
#include <functional>
#include <map>
#include <optional>
#include <string>
#include <thread>
#include <utility>
#include <vector>

#include "dra/driver/driver.h"
#include "dra/util/mutex.h"
#include "driver/example/simulated_gpu.h"

namespace dra::driver::example {

struct ExampleDriverOptions {
  std::string driver_name = "gpu.example.com";
  std::string node_name;
  int num_devices = 8;
  SharingMode mode = SharingMode::kExclusive;
  // Polled for changes while the driver runs; empty = no control file.
  std::string health_control_file;
  std::chrono::milliseconds health_poll_interval{1000};
  // Seconds since the epoch, for taint timeAdded.
  std::function<std::int64_t()> now;
  // Set = serve these ResourceSlices' devices (this driver's, any pools;
  // see InventoryFromSlices) instead of simulated GPUs, prepared the same
  // way. num_devices and mode then do not apply, and there are no GPUs for
  // the health control to name.
  std::optional<std::vector<api::ResourceSlice>> inventory_slices;
  // Report each prepared device in the claim's status.devices: data holds
  // the device's string and version attributes (uuid, model,
  // driverVersion), as dra-example-driver's --gpu-device-status does.
  bool device_status = false;
};

// Checks the options (counts, names); the message names the flag's value.
Status ValidateExampleDriverOptions(const ExampleDriverOptions& options);

// Thread-safety: Driver's threading contract (dra/driver/driver.h), and
// ReloadHealthControl and SetGpuHealth may be called from any thread too;
// Start and Stop are the owner's, one at a time. gpus() is fixed at
// construction and lives as long as the driver.
class ExampleDriver : public Driver {
 public:
  // REQUIRES: ValidateExampleDriverOptions(options) ok.
  explicit ExampleDriver(ExampleDriverOptions options);
  ~ExampleDriver() override;

  Status Start(DriverEvents& events) override;
  void Stop() override;
  Result<Inventory> Enumerate() override;
  Result<PreparedClaim> Prepare(const ClaimToPrepare& claim) override;
  Status Unprepare(const ClaimToUnprepare& claim) override;
  bool ReportsHealth() const override { return true; }
  std::vector<DeviceHealth> Health() override;

  // Re-reads the health control file and, when the set of unhealthy GPUs
  // changed, tells the SDK (new taints, new health list). The poller calls
  // this; so can tests. A bad file is an error and changes nothing.
  Status ReloadHealthControl();
  // Marks one GPU ("gpu-1") healthy or unhealthy, as a control-file line would.
  Status SetGpuHealth(const std::string& gpu, bool healthy,
                      const std::string& reason = "unhealthy");

  const std::vector<SimulatedGpu>& gpus() const { return gpus_; }

 private:
  // Applies a new unhealthy set; notifies when it differs.
  void ApplyUnhealthy(const std::map<std::string, std::string>& reasons) DRA_EXCLUDES(mu_);

  ExampleDriverOptions options_;
  std::vector<SimulatedGpu> gpus_;
  // The inventory of options_.inventory_slices, when set.
  std::optional<Inventory> slice_inventory_;
  // Every device this driver serves by (pool, device); a pool without a name
  // is the node's. Built once: health changes only taints, never the device
  // set or attributes, so Prepare needs no rebuild of the inventory.
  // Read-only after construction, so safe to read from any thread.
  std::map<std::pair<std::string, std::string>, api::Device> devices_;

  Mutex mu_;
  std::map<std::string, UnhealthyGpu> unhealthy_ DRA_GUARDED_BY(mu_);
  DriverEvents* events_ DRA_GUARDED_BY(mu_) = nullptr;

  Mutex poll_mu_;
  CondVar poll_cv_;
  bool stopping_ DRA_GUARDED_BY(poll_mu_) = false;
  std::thread poller_;
};

}  // namespace dra::driver::example
