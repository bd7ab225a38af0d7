// NVML's GPUs and MIG devices as ResourceSlice devices, with the names,
// attributes and capacities of NVIDIA's DRA driver (gpu.nvidia.com,
// NVIDIA/k8s-dra-driver-gpu): a GPU without MIG is one device "gpu-<minor>"; a GPU with MIG
// enabled is its existing MIG devices "gpu-<minor>-mig-<profile>-<profile
// id>-<placement start>". One slice per physical GPU.
#pragma once

#include <string>

#include "dra/driver/driver.h"
#include "driver/nvml/nvml_inventory.h"

namespace dra::driver::nvml {

Pool BuildNvmlPool(const NvmlSystem& system);

std::string GpuDeviceName(const NvmlGpu& gpu);
std::string MigDeviceName(const NvmlGpu& parent, const NvmlMigDevice& mig);

}  // namespace dra::driver::nvml
