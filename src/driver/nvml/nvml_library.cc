#include "driver/nvml/nvml_library.h"

#include <dlfcn.h>

namespace dra::driver::nvml {
namespace {

template <class Fn>
bool Bind(void* handle, const char* symbol, Fn& fn) {
  fn = reinterpret_cast<Fn>(::dlsym(handle, symbol));
  return fn != nullptr;
}

}  // namespace

Result<std::unique_ptr<NvmlLibrary>> NvmlLibrary::Open(const std::string& path) {
  ::dlerror();
  void* handle = ::dlopen(path.c_str(), RTLD_NOW | RTLD_LOCAL);
  if (handle == nullptr) {
    const char* why = ::dlerror();
    return Error{"cannot load NVML library \"" + path + "\": " + (why ? why : "unknown error") +
                 " (is the NVIDIA driver installed? --nvml-library names another file)"};
  }
  std::unique_ptr<NvmlLibrary> lib(new NvmlLibrary());
  lib->handle_ = handle;
  lib->path_ = path;

  nvmlInit_v2_fn init = nullptr;
  struct Required {
    const char* symbol;
    bool bound;
  };
  const Required required[] = {
      {"nvmlInit_v2", Bind(handle, "nvmlInit_v2", init)},
      {"nvmlShutdown", Bind(handle, "nvmlShutdown", lib->shutdown_)},
      {"nvmlErrorString", Bind(handle, "nvmlErrorString", lib->error_string_)},
      {"nvmlSystemGetDriverVersion",
       Bind(handle, "nvmlSystemGetDriverVersion", lib->SystemGetDriverVersion)},
      {"nvmlSystemGetCudaDriverVersion",
       Bind(handle, "nvmlSystemGetCudaDriverVersion", lib->SystemGetCudaDriverVersion)},
      {"nvmlDeviceGetCount_v2", Bind(handle, "nvmlDeviceGetCount_v2", lib->DeviceGetCount)},
      {"nvmlDeviceGetHandleByIndex_v2",
       Bind(handle, "nvmlDeviceGetHandleByIndex_v2", lib->DeviceGetHandleByIndex)},
      {"nvmlDeviceGetUUID", Bind(handle, "nvmlDeviceGetUUID", lib->DeviceGetUUID)},
      {"nvmlDeviceGetName", Bind(handle, "nvmlDeviceGetName", lib->DeviceGetName)},
      {"nvmlDeviceGetMinorNumber",
       Bind(handle, "nvmlDeviceGetMinorNumber", lib->DeviceGetMinorNumber)},
      {"nvmlDeviceGetMemoryInfo",
       Bind(handle, "nvmlDeviceGetMemoryInfo", lib->DeviceGetMemoryInfo)},
      {"nvmlDeviceGetPciInfo_v3", Bind(handle, "nvmlDeviceGetPciInfo_v3", lib->DeviceGetPciInfo)},
      {"nvmlDeviceGetCudaComputeCapability",
       Bind(handle, "nvmlDeviceGetCudaComputeCapability", lib->DeviceGetCudaComputeCapability)},
      {"nvmlDeviceGetArchitecture",
       Bind(handle, "nvmlDeviceGetArchitecture", lib->DeviceGetArchitecture)},
      {"nvmlDeviceGetBrand", Bind(handle, "nvmlDeviceGetBrand", lib->DeviceGetBrand)},
  };
  for (const Required& r : required) {
    if (!r.bound) {
      return Error{"NVML library \"" + path + "\" lacks the symbol " + r.symbol +
                   " (driver too old, or not libnvidia-ml)"};
    }
  }
  (void)Bind(handle, "nvmlDeviceGetMigMode", lib->DeviceGetMigMode);
  (void)Bind(handle, "nvmlDeviceGetMaxMigDeviceCount", lib->DeviceGetMaxMigDeviceCount);
  (void)Bind(handle, "nvmlDeviceGetMigDeviceHandleByIndex", lib->DeviceGetMigDeviceHandleByIndex);
  (void)Bind(handle, "nvmlDeviceGetGpuInstanceId", lib->DeviceGetGpuInstanceId);
  (void)Bind(handle, "nvmlDeviceGetComputeInstanceId", lib->DeviceGetComputeInstanceId);
  (void)Bind(handle, "nvmlDeviceGetGpuInstanceById", lib->DeviceGetGpuInstanceById);
  (void)Bind(handle, "nvmlGpuInstanceGetInfo", lib->GpuInstanceGetInfo);
  (void)Bind(handle, "nvmlDeviceGetGpuInstanceProfileInfo", lib->DeviceGetGpuInstanceProfileInfo);

  if (nvmlReturn_t ret = init(); ret != NVML_SUCCESS) {
    std::string why = lib->ErrorString(ret);
    lib->shutdown_ = nullptr;  // nothing to shut down
    return Error{"NVML initialization failed (" + path + "): " + why};
  }
  return lib;
}

NvmlLibrary::~NvmlLibrary() {
  if (shutdown_ != nullptr) shutdown_();
  if (handle_ != nullptr) ::dlclose(handle_);
}

std::string NvmlLibrary::ErrorString(nvmlReturn_t ret) const {
  if (error_string_ != nullptr) {
    if (const char* s = error_string_(ret); s != nullptr && *s != '\0') return s;
  }
  return "NVML error " + std::to_string(ret);
}

}  // namespace dra::driver::nvml
