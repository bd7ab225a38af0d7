#include "driver/nvml/nvml_inventory.h"

#include <cctype>
#include <charconv>
#include <cmath>
#include <filesystem>
#include <system_error>

namespace dra::driver::nvml {
namespace {

std::string CString(const char* buf, std::size_t size) {
  std::size_t n = 0;
  while (n < size && buf[n] != '\0') ++n;
  return std::string(buf, n);
}

std::string Where(unsigned index, std::string_view call) {
  return "GPU " + std::to_string(index) + ": " + std::string(call) + ": ";
}

// G of a GPU instance profile index and the suffix go-nvlib appends.
struct ProfileShape {
  int slices = 0;
  const char* suffix = "";
};

ProfileShape ShapeOf(unsigned profile_index) {
  switch (profile_index) {
    case 0x0:
      return {1, ""};
    case 0x1:
      return {2, ""};
    case 0x2:
      return {3, ""};
    case 0x3:
      return {4, ""};
    case 0x4:
      return {7, ""};
    case 0x5:
      return {8, ""};
    case 0x6:
      return {6, ""};
    case 0x7:
      return {1, "+me"};
    case 0x8:
      return {2, "+me"};
    case 0x9:
      return {1, ""};
    case 0xA:
      return {1, "+gfx"};
    case 0xB:
      return {2, "+gfx"};
    case 0xC:
      return {4, "+gfx"};
    case 0xD:
      return {1, "-me"};
    case 0xE:
      return {2, "-me"};
    case 0xF:
      return {1, "+me.all"};
    case 0x10:
      return {2, "+me.all"};
    case 0x11:
      return {3, "+gfx"};
    default:
      return {};
  }
}

Result<std::vector<NvmlMigDevice>> ReadMigDevices(const NvmlLibrary& nvml, nvmlDevice_t gpu,
                                                  unsigned index, std::uint64_t gpu_memory) {
  std::vector<NvmlMigDevice> out;
  unsigned max_count = 0;
  if (nvmlReturn_t r = nvml.DeviceGetMaxMigDeviceCount(gpu, &max_count); r != NVML_SUCCESS) {
    return Error{Where(index, "nvmlDeviceGetMaxMigDeviceCount") + nvml.ErrorString(r)};
  }
  for (unsigned i = 0; i < max_count; ++i) {
    nvmlDevice_t mig = nullptr;
    nvmlReturn_t r = nvml.DeviceGetMigDeviceHandleByIndex(gpu, i, &mig);
    if (r == NVML_ERROR_NOT_FOUND || r == NVML_ERROR_INVALID_ARGUMENT) continue;  // unused index
    if (r != NVML_SUCCESS) {
      return Error{Where(index, "nvmlDeviceGetMigDeviceHandleByIndex") + nvml.ErrorString(r)};
    }
    NvmlMigDevice d;
    char uuid[NVML_DEVICE_UUID_V2_BUFFER_SIZE] = {};
    if (r = nvml.DeviceGetUUID(mig, uuid, sizeof uuid); r != NVML_SUCCESS) {
      return Error{Where(index, "nvmlDeviceGetUUID (MIG)") + nvml.ErrorString(r)};
    }
    d.uuid = CString(uuid, sizeof uuid);
    if (r = nvml.DeviceGetGpuInstanceId(mig, &d.gpu_instance_id); r != NVML_SUCCESS) {
      return Error{Where(index, "nvmlDeviceGetGpuInstanceId") + nvml.ErrorString(r)};
    }
    if (r = nvml.DeviceGetComputeInstanceId(mig, &d.compute_instance_id); r != NVML_SUCCESS) {
      return Error{Where(index, "nvmlDeviceGetComputeInstanceId") + nvml.ErrorString(r)};
    }
    nvmlGpuInstance_t gi = nullptr;
    if (r = nvml.DeviceGetGpuInstanceById(gpu, d.gpu_instance_id, &gi); r != NVML_SUCCESS) {
      return Error{Where(index, "nvmlDeviceGetGpuInstanceById") + nvml.ErrorString(r)};
    }
    nvmlGpuInstanceInfo_t gi_info{};
    if (r = nvml.GpuInstanceGetInfo(gi, &gi_info); r != NVML_SUCCESS) {
      return Error{Where(index, "nvmlGpuInstanceGetInfo") + nvml.ErrorString(r)};
    }
    d.placement = gi_info.placement;
    // The instance names its profile by ID; the profile index (which fixes
    // the name) is found by asking each index for its ID.
    bool found = false;
    for (unsigned p = 0; p < NVML_GPU_INSTANCE_PROFILE_COUNT && !found; ++p) {
      nvmlGpuInstanceProfileInfo_t info{};
      if (nvml.DeviceGetGpuInstanceProfileInfo(gpu, p, &info) != NVML_SUCCESS) continue;
      if (info.id != gi_info.profileId) continue;
      d.profile_info = info;
      d.profile = MigProfileName(p, info.memorySizeMB, gpu_memory);
      found = !d.profile.empty();
    }
    if (!found) {
      return Error{Where(index, "MIG device " + d.uuid) + "no known GPU instance profile has ID " +
                   std::to_string(gi_info.profileId)};
    }
    out.push_back(std::move(d));
  }
  return out;
}

Result<NvmlGpu> ReadGpu(const NvmlLibrary& nvml, unsigned index, const std::string& sysfs_root) {
  NvmlGpu g;
  g.index = index;
  nvmlDevice_t dev = nullptr;
  nvmlReturn_t r = nvml.DeviceGetHandleByIndex(index, &dev);
  if (r != NVML_SUCCESS)
    return Error{Where(index, "nvmlDeviceGetHandleByIndex_v2") + nvml.ErrorString(r)};
  char buf[NVML_DEVICE_UUID_V2_BUFFER_SIZE] = {};
  if (r = nvml.DeviceGetUUID(dev, buf, sizeof buf); r != NVML_SUCCESS) {
    return Error{Where(index, "nvmlDeviceGetUUID") + nvml.ErrorString(r)};
  }
  g.uuid = CString(buf, sizeof buf);
  char name[NVML_DEVICE_NAME_V2_BUFFER_SIZE] = {};
  if (r = nvml.DeviceGetName(dev, name, sizeof name); r != NVML_SUCCESS) {
    return Error{Where(index, "nvmlDeviceGetName") + nvml.ErrorString(r)};
  }
  g.product_name = CString(name, sizeof name);
  if (r = nvml.DeviceGetMinorNumber(dev, &g.minor); r != NVML_SUCCESS) {
    return Error{Where(index, "nvmlDeviceGetMinorNumber") + nvml.ErrorString(r)};
  }
  nvmlMemory_t memory{};
  r = nvml.DeviceGetMemoryInfo(dev, &memory);
  if (r == NVML_SUCCESS) {
    g.memory_bytes = memory.total;
  } else if (r != NVML_ERROR_NOT_SUPPORTED) {
    return Error{Where(index, "nvmlDeviceGetMemoryInfo") + nvml.ErrorString(r)};
  }
  nvmlPciInfo_t pci{};
  if (r = nvml.DeviceGetPciInfo(dev, &pci); r != NVML_SUCCESS) {
    return Error{Where(index, "nvmlDeviceGetPciInfo_v3") + nvml.ErrorString(r)};
  }
  g.pci_bus_id = NormalizePciBusId(CString(pci.busId, sizeof pci.busId));
  g.pcie_root = PcieRoot(sysfs_root, g.pci_bus_id);
  int major = 0, minor = 0;
  if (r = nvml.DeviceGetCudaComputeCapability(dev, &major, &minor); r != NVML_SUCCESS) {
    return Error{Where(index, "nvmlDeviceGetCudaComputeCapability") + nvml.ErrorString(r)};
  }
  g.cuda_compute_capability = std::to_string(major) + "." + std::to_string(minor) + ".0";
  unsigned arch = 0;
  if (r = nvml.DeviceGetArchitecture(dev, &arch); r != NVML_SUCCESS) {
    return Error{Where(index, "nvmlDeviceGetArchitecture") + nvml.ErrorString(r)};
  }
  g.architecture = ArchitectureName(arch);
  int brand = 0;
  if (r = nvml.DeviceGetBrand(dev, &brand); r != NVML_SUCCESS) {
    return Error{Where(index, "nvmlDeviceGetBrand") + nvml.ErrorString(r)};
  }
  g.brand = BrandName(brand);

  if (nvml.HasMig()) {
    unsigned current = 0, pending = 0;
    r = nvml.DeviceGetMigMode(dev, &current, &pending);
    if (r == NVML_SUCCESS) {
      g.mig_enabled = current == NVML_DEVICE_MIG_ENABLE;
    } else if (r != NVML_ERROR_NOT_SUPPORTED) {
      return Error{Where(index, "nvmlDeviceGetMigMode") + nvml.ErrorString(r)};
    }
  }
  if (g.mig_enabled) {
    Result<std::vector<NvmlMigDevice>> migs =
        ReadMigDevices(nvml, dev, index, g.memory_bytes.value_or(0));
    if (!migs) return migs.failure();
    g.mig_devices = std::move(*migs);
  }
  return g;
}

}  // namespace

std::string BrandName(int brand) {
  static const char* const names[] = {
      "Unknown",   "Quadro",      "Tesla",     "NVS",        "Grid",      "GeForce",
      "Titan",     "NvidiaVApps", "NvidiaVPC", "NvidiaVCS",  "NvidiaVWS", "NvidiaCloudGaming",
      "QuadroRTX", "NvidiaRTX",   "Nvidia",    "GeForceRTX", "TitanRTX"};
  if (brand < 0 || brand >= static_cast<int>(std::size(names))) return "Unknown";
  return names[brand];
}

std::string ArchitectureName(unsigned arch) {
  switch (arch) {
    case 2:
      return "Kepler";
    case 3:
      return "Maxwell";
    case 4:
      return "Pascal";
    case 5:
      return "Volta";
    case 6:
      return "Turing";
    case 7:
      return "Ampere";
    case 8:
      return "Ada Lovelace";
    case 9:
      return "Hopper";
    case 10:
      return "Blackwell";
    case 13:
      return "Rubin";
    default:
      return "Unknown";
  }
}

Result<std::string> NormalizeVersion(std::string_view text) {
  std::uint64_t parts[3] = {0, 0, 0};
  std::size_t n = 0;
  std::string_view rest = text;
  while (true) {
    if (n == 3) return Error{"version \"" + std::string(text) + "\" has more than three parts"};
    const char* begin = rest.data();
    const char* end = rest.data() + rest.size();
    auto [p, ec] = std::from_chars(begin, end, parts[n]);
    if (ec != std::errc() || p == begin) {
      return Error{"version \"" + std::string(text) + "\" is not numeric major.minor[.patch]"};
    }
    ++n;
    rest.remove_prefix(static_cast<std::size_t>(p - begin));
    if (rest.empty()) break;
    if (rest.front() != '.') {
      return Error{"version \"" + std::string(text) + "\" is not numeric major.minor[.patch]"};
    }
    rest.remove_prefix(1);
  }
  if (n < 2) return Error{"version \"" + std::string(text) + "\" lacks a minor version"};
  return std::to_string(parts[0]) + "." + std::to_string(parts[1]) + "." + std::to_string(parts[2]);
}

std::string NormalizePciBusId(std::string_view bus_id) {
  std::string id;
  for (char c : bus_id) id += static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
  // NVML writes an eight-digit domain; sysfs and Kubernetes use four.
  if (id.size() > 9 && id[8] == ':' && id.compare(0, 4, "0000") == 0) id.erase(0, 4);
  return id;
}

std::optional<std::string> PcieRoot(const std::string& sysfs_root, const std::string& bus_id) {
  std::error_code ec;
  std::filesystem::path link = std::filesystem::path(sysfs_root) / "bus/pci/devices" / bus_id;
  std::filesystem::path resolved = std::filesystem::canonical(link, ec);
  if (ec) return std::nullopt;
  // .../devices/pci0000:3a/0000:3a:00.0/0000:3b:00.0: the root is the
  // "pci<domain>:<bus>" component.
  for (const std::filesystem::path& part : resolved) {
    std::string s = part.string();
    if (s.size() == 10 && s.compare(0, 3, "pci") == 0 && s[7] == ':') return s;
  }
  return std::nullopt;
}

std::string MigProfileName(unsigned profile_index, unsigned long long memory_mib,
                           std::uint64_t gpu_memory_bytes) {
  ProfileShape shape = ShapeOf(profile_index);
  if (shape.slices == 0 || gpu_memory_bytes == 0) return "";
  // go-nvlib: the profile's share of the GPU memory rounded up to eighths,
  // times the GPU memory in whole GiB (rounded up), rounded to an integer.
  constexpr double kMiB = 1024.0 * 1024.0;
  constexpr std::uint64_t kGiB = 1ULL << 30;
  double fraction = static_cast<double>(memory_mib) * kMiB / static_cast<double>(gpu_memory_bytes);
  fraction = std::ceil(fraction * 8) / 8;
  // Whole GiB, rounded up (integer arithmetic on purpose).
  const std::uint64_t whole_gib = (gpu_memory_bytes + kGiB - 1) / kGiB;
  double total_gb = static_cast<double>(whole_gib);
  auto gb = static_cast<std::uint64_t>(std::round(fraction * total_gb));
  return std::to_string(shape.slices) + "g." + std::to_string(gb) + "gb" + shape.suffix;
}

Result<NvmlSystem> ReadNvmlSystem(const NvmlLibrary& nvml, const std::string& sysfs_root) {
  NvmlSystem sys;
  char version[NVML_SYSTEM_DRIVER_VERSION_BUFFER_SIZE] = {};
  if (nvmlReturn_t r = nvml.SystemGetDriverVersion(version, sizeof version); r != NVML_SUCCESS) {
    return Error{"nvmlSystemGetDriverVersion: " + nvml.ErrorString(r)};
  }
  Result<std::string> driver = NormalizeVersion(CString(version, sizeof version));
  if (!driver) return driver.failure().WithPrefix("driver ");
  sys.driver_version = *driver;
  int cuda = 0;
  if (nvmlReturn_t r = nvml.SystemGetCudaDriverVersion(&cuda); r != NVML_SUCCESS) {
    return Error{"nvmlSystemGetCudaDriverVersion: " + nvml.ErrorString(r)};
  }
  sys.cuda_driver_version =
      std::to_string(cuda / 1000) + "." + std::to_string((cuda % 1000) / 10) + ".0";
  unsigned count = 0;
  if (nvmlReturn_t r = nvml.DeviceGetCount(&count); r != NVML_SUCCESS) {
    return Error{"nvmlDeviceGetCount_v2: " + nvml.ErrorString(r)};
  }
  for (unsigned i = 0; i < count; ++i) {
    Result<NvmlGpu> gpu = ReadGpu(nvml, i, sysfs_root);
    if (!gpu) return gpu.failure();
    sys.gpus.push_back(std::move(*gpu));
  }
  return sys;
}

}  // namespace dra::driver::nvml
