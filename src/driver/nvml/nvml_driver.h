// `dra driver nvml`: the node's NVIDIA GPUs and existing MIG devices through
// NVML (loaded at run time), published as NVIDIA's DRA driver publishes them.
#pragma once

#include <memory>
#include <string>

#include "dra/driver/driver.h"
#include "driver/nvml/nvml_inventory.h"

namespace dra::driver::nvml {

struct NvmlDriverOptions {
  std::string driver_name = "gpu.nvidia.com";
  std::string node_name;
  std::string nvml_library = kDefaultNvmlLibrary;
  std::string sysfs_root = "/sys";  // PCIe roots
  std::string dev_root = "/";       // where /dev/nvidia* device nodes are looked for
  std::string proc_root = "/proc";  // MIG capability minors (driver/nvidia/capabilities)
};

class NvmlDriver : public Driver {
 public:
  // Loads NVML, reads the GPUs and unloads it again (the devices are static).
  static Result<std::unique_ptr<NvmlDriver>> Create(NvmlDriverOptions options);

  Result<Inventory> Enumerate() override;
  Result<PreparedClaim> Prepare(const ClaimToPrepare& claim) override;
  Status Unprepare(const ClaimToUnprepare& claim) override;

  const NvmlSystem& system() const { return system_; }

 private:
  NvmlDriver(NvmlDriverOptions options, NvmlSystem system);

  NvmlDriverOptions options_;
  NvmlSystem system_;
};

}  // namespace dra::driver::nvml
