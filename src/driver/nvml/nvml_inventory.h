// What NVML reports about the GPUs and MIG devices of a node, read once into
// plain values (the driver publishes static devices).
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "dra/util/result.h"
#include "driver/nvml/nvml_library.h"

namespace dra::driver::nvml {

// An existing (static) MIG device.
struct NvmlMigDevice {
  std::string uuid;  // "MIG-..."
  unsigned gpu_instance_id = 0;
  unsigned compute_instance_id = 0;
  std::string profile;  // "1g.10gb", as nvidia-smi and NVIDIA's driver name it
  nvmlGpuInstanceProfileInfo_t profile_info{};
  nvmlGpuInstancePlacement_t placement{};
};

struct NvmlGpu {
  unsigned index = 0;
  unsigned minor = 0;
  std::string uuid;  // "GPU-..."
  std::string product_name;
  std::string brand;                          // "Tesla", "Nvidia", ... (go-nvlib's names)
  std::string architecture;                   // "Ampere", "Hopper", ...
  std::string cuda_compute_capability;        // semver, "8.0.0"
  std::string pci_bus_id;                     // "0000:3b:00.0"
  std::optional<std::string> pcie_root;       // "pci0000:3a", when sysfs shows it
  std::optional<std::uint64_t> memory_bytes;  // absent when NVML does not report it
  bool mig_enabled = false;
  std::vector<NvmlMigDevice> mig_devices;
};

struct NvmlSystem {
  std::string driver_version;       // semver, "550.54.15"
  std::string cuda_driver_version;  // semver, "12.4.0"
  std::vector<NvmlGpu> gpus;
};

// Reads every GPU and its MIG devices. `sysfs_root` ("/sys") is where PCIe
// roots are looked up. Errors name the GPU index and the NVML call.
Result<NvmlSystem> ReadNvmlSystem(const NvmlLibrary& nvml, const std::string& sysfs_root);

// Helpers with NVIDIA's conventions, exposed for tests.
std::string BrandName(int brand);             // NVML brand enum -> "Tesla"
std::string ArchitectureName(unsigned arch);  // NVML architecture -> "Hopper"
// "535.104.05" -> "535.104.5", "12.4" -> "12.4.0" (semver, as Masterminds/semver prints it).
Result<std::string> NormalizeVersion(std::string_view text);
// "00000000:3B:00.0" -> "0000:3b:00.0".
std::string NormalizePciBusId(std::string_view bus_id);
// "pci0000:3a" for the device at `bus_id`, from the sysfs device link.
std::optional<std::string> PcieRoot(const std::string& sysfs_root, const std::string& bus_id);
// go-nvlib's MIG profile name ("1g.10gb", "1g.10gb+me", "2g.20gb-me") for GPU
// instance profile index `profile_index`; empty for an unknown index.
std::string MigProfileName(unsigned profile_index, unsigned long long memory_mib,
                           std::uint64_t gpu_memory_bytes);

}  // namespace dra::driver::nvml
