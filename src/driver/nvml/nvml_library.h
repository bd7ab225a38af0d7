// libnvidia-ml loaded with dlopen: the build has no dependency on NVIDIA's
// driver, and a machine without it gets a clear error instead of a loader
// failure at start-up.
#pragma once

#include <memory>
#include <string>

#include "dra/util/result.h"
#include "driver/nvml/nvml_api.h"

namespace dra::driver::nvml {

inline constexpr const char* kDefaultNvmlLibrary = "libnvidia-ml.so.1";

// An initialized NVML (nvmlInit_v2 succeeded); the destructor calls
// nvmlShutdown and unloads the library.
class NvmlLibrary {
 public:
  // Loads `path` (a file name searched like any shared library, or a path)
  // and initializes NVML. Errors say which library, which symbol, or which
  // NVML error ("NVML initialization failed: Driver Not Loaded").
  static Result<std::unique_ptr<NvmlLibrary>> Open(const std::string& path);
  ~NvmlLibrary();
  NvmlLibrary(const NvmlLibrary&) = delete;
  NvmlLibrary& operator=(const NvmlLibrary&) = delete;

  // nvmlErrorString's text, or "NVML error <n>".
  std::string ErrorString(nvmlReturn_t ret) const;
  const std::string& path() const { return path_; }

  nvmlSystemGetDriverVersion_fn SystemGetDriverVersion = nullptr;
  nvmlSystemGetCudaDriverVersion_fn SystemGetCudaDriverVersion = nullptr;
  nvmlDeviceGetCount_v2_fn DeviceGetCount = nullptr;
  nvmlDeviceGetHandleByIndex_v2_fn DeviceGetHandleByIndex = nullptr;
  nvmlDeviceGetUUID_fn DeviceGetUUID = nullptr;
  nvmlDeviceGetName_fn DeviceGetName = nullptr;
  nvmlDeviceGetMinorNumber_fn DeviceGetMinorNumber = nullptr;
  nvmlDeviceGetMemoryInfo_fn DeviceGetMemoryInfo = nullptr;
  nvmlDeviceGetPciInfo_v3_fn DeviceGetPciInfo = nullptr;
  nvmlDeviceGetCudaComputeCapability_fn DeviceGetCudaComputeCapability = nullptr;
  nvmlDeviceGetArchitecture_fn DeviceGetArchitecture = nullptr;
  nvmlDeviceGetBrand_fn DeviceGetBrand = nullptr;
  // MIG functions: null when the library predates MIG (then no GPU has MIG).
  nvmlDeviceGetMigMode_fn DeviceGetMigMode = nullptr;
  nvmlDeviceGetMaxMigDeviceCount_fn DeviceGetMaxMigDeviceCount = nullptr;
  nvmlDeviceGetMigDeviceHandleByIndex_fn DeviceGetMigDeviceHandleByIndex = nullptr;
  nvmlDeviceGetGpuInstanceId_fn DeviceGetGpuInstanceId = nullptr;
  nvmlDeviceGetComputeInstanceId_fn DeviceGetComputeInstanceId = nullptr;
  nvmlDeviceGetGpuInstanceById_fn DeviceGetGpuInstanceById = nullptr;
  nvmlGpuInstanceGetInfo_fn GpuInstanceGetInfo = nullptr;
  nvmlDeviceGetGpuInstanceProfileInfo_fn DeviceGetGpuInstanceProfileInfo = nullptr;

  bool HasMig() const {
    return DeviceGetMigMode && DeviceGetMaxMigDeviceCount && DeviceGetMigDeviceHandleByIndex &&
           DeviceGetGpuInstanceId && DeviceGetComputeInstanceId && DeviceGetGpuInstanceById &&
           GpuInstanceGetInfo && DeviceGetGpuInstanceProfileInfo;
  }

 private:
  NvmlLibrary() = default;

  void* handle_ = nullptr;
  std::string path_;
  nvmlShutdown_fn shutdown_ = nullptr;
  nvmlErrorString_fn error_string_ = nullptr;
};

}  // namespace dra::driver::nvml
