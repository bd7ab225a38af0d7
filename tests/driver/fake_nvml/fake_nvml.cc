// A fake libnvidia-ml for the tests of `dra driver nvml`: the NVML symbols
// the driver loads, answering from a configurable topology instead of a GPU.
//
// FAKE_NVML_TOPOLOGY names a topology file (format below); without it the
// built-in topology is used: GPU 0 an A100 40GB with MIG enabled and two MIG
// devices (1g.5gb at slice 0, 2g.10gb at slices 2-3), GPU 1 an H100 80GB
// without MIG. FAKE_NVML_INIT_ERROR=<n> makes nvmlInit_v2 fail with n.
//
// Topology format: INI-like sections, "key = value" lines, '#' comments.
//   [system]     driver_version, cuda_driver_version (int, 12040 = 12.4)
//   [gpu]        uuid, name, minor, brand, architecture (NVML enums),
//                compute_capability ("8.0"), memory (bytes; absent =
//                NOT_SUPPORTED), bus_id, mig (0, 1, unsupported)
//   [gi_profile] of the last [gpu]: index, id, slices, multiprocessors,
//                copy_engines, decoders, encoders, jpeg, ofa, memory_mib
//   [mig]        of the last [gpu]: uuid, gpu_instance_id,
//                compute_instance_id, profile_id, start, size
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <fstream>
#include <map>
#include <memory>
#include <mutex>
#include <optional>
#include <sstream>
#include <string>
#include <vector>

#include "driver/nvml/nvml_api.h"

using namespace dra::driver::nvml;  // NOLINT: the NVML types, as nvml.h names them

namespace dra::driver::nvml {

struct nvmlGpuInstance_st {
  unsigned id = 0;
  unsigned profile_id = 0;
  nvmlGpuInstancePlacement_t placement{};
  nvmlDevice_st* parent = nullptr;
};

struct nvmlDevice_st {
  std::string uuid;
  std::string name;
  unsigned minor = 0;
  int brand = 0;
  unsigned architecture = 0;
  int cc_major = 0;
  int cc_minor = 0;
  std::optional<unsigned long long> memory;
  std::string bus_id;
  std::string mig = "0";
  std::vector<std::pair<unsigned, nvmlGpuInstanceProfileInfo_t>> profiles;  // index -> info
  std::vector<std::unique_ptr<nvmlDevice_st>> migs;
  std::vector<std::unique_ptr<nvmlGpuInstance_st>> instances;
  // MIG devices only:
  nvmlDevice_st* parent = nullptr;
  unsigned gpu_instance_id = 0;
  unsigned compute_instance_id = 0;
};

}  // namespace dra::driver::nvml

namespace {

constexpr const char* kDefaultTopology = R"(
[system]
driver_version = 550.54.15
cuda_driver_version = 12040

[gpu]
uuid = GPU-4f1c2b3a-1111-2222-3333-444455556666
name = NVIDIA A100-SXM4-40GB
minor = 0
brand = 2
architecture = 7
compute_capability = 8.0
memory = 42949672960
bus_id = 00000000:3B:00.0
mig = 1

[gi_profile]
index = 0
id = 19
slices = 1
multiprocessors = 14
copy_engines = 1
decoders = 0
encoders = 0
jpeg = 0
ofa = 0
memory_mib = 4864

[gi_profile]
index = 1
id = 14
slices = 2
multiprocessors = 28
copy_engines = 2
decoders = 1
encoders = 0
jpeg = 0
ofa = 0
memory_mib = 9856

[mig]
uuid = MIG-0a1b2c3d-aaaa-bbbb-cccc-000000000001
gpu_instance_id = 13
compute_instance_id = 0
profile_id = 19
start = 0
size = 1

[mig]
uuid = MIG-0a1b2c3d-aaaa-bbbb-cccc-000000000002
gpu_instance_id = 5
compute_instance_id = 0
profile_id = 14
start = 2
size = 2

[gpu]
uuid = GPU-9e8d7c6b-5555-6666-7777-888899990000
name = NVIDIA H100 80GB HBM3
minor = 1
brand = 14
architecture = 9
compute_capability = 9.0
memory = 85520809984
bus_id = 00000000:86:00.0
mig = 0
)";

struct Topology {
  std::string driver_version;
  int cuda_driver_version = 0;
  std::vector<std::unique_ptr<nvmlDevice_st>> gpus;
};

std::mutex g_mu;
std::unique_ptr<Topology> g_topology;  // set while initialized
int g_init_count = 0;

std::string Trim(const std::string& s) {
  std::size_t b = s.find_first_not_of(" \t\r");
  if (b == std::string::npos) return "";
  return s.substr(b, s.find_last_not_of(" \t\r") - b + 1);
}

unsigned long long Num(const std::map<std::string, std::string>& kv, const char* key) {
  auto it = kv.find(key);
  return it == kv.end() ? 0 : std::strtoull(it->second.c_str(), nullptr, 10);
}

std::string Str(const std::map<std::string, std::string>& kv, const char* key) {
  auto it = kv.find(key);
  return it == kv.end() ? "" : it->second;
}

// Applies one finished section to the topology; false on a malformed one.
bool Apply(Topology& t, const std::string& section, const std::map<std::string, std::string>& kv) {
  if (section.empty()) return kv.empty();
  if (section == "system") {
    t.driver_version = Str(kv, "driver_version");
    t.cuda_driver_version = static_cast<int>(Num(kv, "cuda_driver_version"));
    return true;
  }
  if (section == "gpu") {
    auto g = std::make_unique<nvmlDevice_st>();
    g->uuid = Str(kv, "uuid");
    g->name = Str(kv, "name");
    g->minor = static_cast<unsigned>(Num(kv, "minor"));
    g->brand = static_cast<int>(Num(kv, "brand"));
    g->architecture = static_cast<unsigned>(Num(kv, "architecture"));
    std::string cc = Str(kv, "compute_capability");
    if (std::sscanf(cc.c_str(), "%d.%d", &g->cc_major, &g->cc_minor) != 2) return false;
    if (kv.contains("memory")) g->memory = Num(kv, "memory");
    g->bus_id = Str(kv, "bus_id");
    if (kv.contains("mig")) g->mig = Str(kv, "mig");
    t.gpus.push_back(std::move(g));
    return true;
  }
  if (t.gpus.empty()) return false;
  nvmlDevice_st& gpu = *t.gpus.back();
  if (section == "gi_profile") {
    nvmlGpuInstanceProfileInfo_t p{};
    p.id = static_cast<unsigned>(Num(kv, "id"));
    p.sliceCount = static_cast<unsigned>(Num(kv, "slices"));
    p.instanceCount = 8 / (p.sliceCount == 0 ? 1 : p.sliceCount);
    p.multiprocessorCount = static_cast<unsigned>(Num(kv, "multiprocessors"));
    p.copyEngineCount = static_cast<unsigned>(Num(kv, "copy_engines"));
    p.decoderCount = static_cast<unsigned>(Num(kv, "decoders"));
    p.encoderCount = static_cast<unsigned>(Num(kv, "encoders"));
    p.jpegCount = static_cast<unsigned>(Num(kv, "jpeg"));
    p.ofaCount = static_cast<unsigned>(Num(kv, "ofa"));
    p.memorySizeMB = Num(kv, "memory_mib");
    gpu.profiles.emplace_back(static_cast<unsigned>(Num(kv, "index")), p);
    return true;
  }
  if (section == "mig") {
    auto gi = std::make_unique<nvmlGpuInstance_st>();
    gi->id = static_cast<unsigned>(Num(kv, "gpu_instance_id"));
    gi->profile_id = static_cast<unsigned>(Num(kv, "profile_id"));
    gi->placement.start = static_cast<unsigned>(Num(kv, "start"));
    gi->placement.size = static_cast<unsigned>(Num(kv, "size"));
    gi->parent = &gpu;
    auto m = std::make_unique<nvmlDevice_st>();
    m->uuid = Str(kv, "uuid");
    m->parent = &gpu;
    m->gpu_instance_id = gi->id;
    m->compute_instance_id = static_cast<unsigned>(Num(kv, "compute_instance_id"));
    gpu.instances.push_back(std::move(gi));
    gpu.migs.push_back(std::move(m));
    return true;
  }
  return false;
}

std::unique_ptr<Topology> Parse(const std::string& text) {
  auto t = std::make_unique<Topology>();
  std::istringstream in(text);
  std::string line, section;
  std::map<std::string, std::string> kv;
  int number = 0;
  while (std::getline(in, line)) {
    ++number;
    if (std::size_t hash = line.find('#'); hash != std::string::npos) line.erase(hash);
    line = Trim(line);
    if (line.empty()) continue;
    if (line.front() == '[' && line.back() == ']') {
      if (!Apply(*t, section, kv)) {
        std::fprintf(stderr, "fake NVML: bad [%s] section before line %d\n", section.c_str(),
                     number);
        return nullptr;
      }
      section = line.substr(1, line.size() - 2);
      kv.clear();
      continue;
    }
    std::size_t eq = line.find('=');
    if (eq == std::string::npos) {
      std::fprintf(stderr, "fake NVML: line %d: want key = value\n", number);
      return nullptr;
    }
    kv[Trim(line.substr(0, eq))] = Trim(line.substr(eq + 1));
  }
  if (!Apply(*t, section, kv)) {
    std::fprintf(stderr, "fake NVML: bad [%s] section at the end\n", section.c_str());
    return nullptr;
  }
  return t;
}

nvmlReturn_t CopyString(const std::string& s, char* buf, unsigned length) {
  if (buf == nullptr) return NVML_ERROR_INVALID_ARGUMENT;
  if (s.size() + 1 > length) return NVML_ERROR_INSUFFICIENT_SIZE;
  std::memcpy(buf, s.c_str(), s.size() + 1);
  return NVML_SUCCESS;
}

bool Ready() { return g_topology != nullptr; }

}  // namespace

extern "C" {

nvmlReturn_t nvmlInit_v2() {
  std::lock_guard lock(g_mu);
  if (const char* e = std::getenv("FAKE_NVML_INIT_ERROR"); e != nullptr && *e != '\0') {
    return static_cast<nvmlReturn_t>(std::atoi(e));
  }
  if (g_init_count++ > 0) return NVML_SUCCESS;
  std::string text = kDefaultTopology;
  if (const char* path = std::getenv("FAKE_NVML_TOPOLOGY"); path != nullptr && *path != '\0') {
    std::ifstream f(path);
    if (!f) {
      std::fprintf(stderr, "fake NVML: cannot read FAKE_NVML_TOPOLOGY %s\n", path);
      g_init_count = 0;
      return NVML_ERROR_UNKNOWN;
    }
    std::ostringstream buf;
    buf << f.rdbuf();
    text = buf.str();
  }
  g_topology = Parse(text);
  if (!g_topology) {
    g_init_count = 0;
    return NVML_ERROR_UNKNOWN;
  }
  return NVML_SUCCESS;
}

nvmlReturn_t nvmlShutdown() {
  std::lock_guard lock(g_mu);
  if (g_init_count == 0) return 1;  // NVML_ERROR_UNINITIALIZED
  if (--g_init_count == 0) g_topology.reset();
  return NVML_SUCCESS;
}

const char* nvmlErrorString(nvmlReturn_t r) {
  switch (r) {
    case NVML_SUCCESS:
      return "Success";
    case 1:
      return "Uninitialized";
    case NVML_ERROR_INVALID_ARGUMENT:
      return "Invalid Argument";
    case NVML_ERROR_NOT_SUPPORTED:
      return "Not Supported";
    case NVML_ERROR_NOT_FOUND:
      return "Not Found";
    case NVML_ERROR_INSUFFICIENT_SIZE:
      return "Insufficient Size";
    case NVML_ERROR_DRIVER_NOT_LOADED:
      return "Driver Not Loaded";
    case NVML_ERROR_GPU_IS_LOST:
      return "GPU is lost";
    default:
      return "Unknown Error";
  }
}

nvmlReturn_t nvmlSystemGetDriverVersion(char* version, unsigned int length) {
  if (!Ready()) return 1;
  return CopyString(g_topology->driver_version, version, length);
}

nvmlReturn_t nvmlSystemGetCudaDriverVersion(int* version) {
  if (!Ready()) return 1;
  if (version == nullptr) return NVML_ERROR_INVALID_ARGUMENT;
  *version = g_topology->cuda_driver_version;
  return NVML_SUCCESS;
}

nvmlReturn_t nvmlDeviceGetCount_v2(unsigned int* count) {
  if (!Ready()) return 1;
  if (count == nullptr) return NVML_ERROR_INVALID_ARGUMENT;
  *count = static_cast<unsigned>(g_topology->gpus.size());
  return NVML_SUCCESS;
}

nvmlReturn_t nvmlDeviceGetHandleByIndex_v2(unsigned int index, nvmlDevice_t* device) {
  if (!Ready()) return 1;
  if (device == nullptr || index >= g_topology->gpus.size()) return NVML_ERROR_INVALID_ARGUMENT;
  *device = g_topology->gpus[index].get();
  return NVML_SUCCESS;
}

nvmlReturn_t nvmlDeviceGetUUID(nvmlDevice_t d, char* uuid, unsigned int length) {
  if (d == nullptr) return NVML_ERROR_INVALID_ARGUMENT;
  return CopyString(d->uuid, uuid, length);
}

nvmlReturn_t nvmlDeviceGetName(nvmlDevice_t d, char* name, unsigned int length) {
  if (d == nullptr) return NVML_ERROR_INVALID_ARGUMENT;
  return CopyString(d->parent ? d->parent->name : d->name, name, length);
}

nvmlReturn_t nvmlDeviceGetMinorNumber(nvmlDevice_t d, unsigned int* minor) {
  if (d == nullptr || minor == nullptr || d->parent != nullptr) return NVML_ERROR_INVALID_ARGUMENT;
  *minor = d->minor;
  return NVML_SUCCESS;
}

nvmlReturn_t nvmlDeviceGetMemoryInfo(nvmlDevice_t d, nvmlMemory_t* memory) {
  if (d == nullptr || memory == nullptr) return NVML_ERROR_INVALID_ARGUMENT;
  if (!d->memory) return NVML_ERROR_NOT_SUPPORTED;
  memory->total = *d->memory;
  memory->used = 0;
  memory->free = *d->memory;
  return NVML_SUCCESS;
}

nvmlReturn_t nvmlDeviceGetPciInfo_v3(nvmlDevice_t d, nvmlPciInfo_t* pci) {
  if (d == nullptr || pci == nullptr) return NVML_ERROR_INVALID_ARGUMENT;
  *pci = nvmlPciInfo_t{};
  if (CopyString(d->bus_id, pci->busId, sizeof pci->busId) != NVML_SUCCESS) {
    return NVML_ERROR_UNKNOWN;
  }
  unsigned domain = 0, bus = 0, dev = 0;
  std::sscanf(d->bus_id.c_str(), "%x:%x:%x", &domain, &bus, &dev);
  pci->domain = domain;
  pci->bus = bus;
  pci->device = dev;
  pci->pciDeviceId = 0x20b010de;
  std::snprintf(pci->busIdLegacy, sizeof pci->busIdLegacy, "%04X:%02X:%02X.0", domain & 0xffff, bus,
                dev);
  return NVML_SUCCESS;
}

nvmlReturn_t nvmlDeviceGetCudaComputeCapability(nvmlDevice_t d, int* major, int* minor) {
  if (d == nullptr || major == nullptr || minor == nullptr) return NVML_ERROR_INVALID_ARGUMENT;
  *major = d->cc_major;
  *minor = d->cc_minor;
  return NVML_SUCCESS;
}

nvmlReturn_t nvmlDeviceGetArchitecture(nvmlDevice_t d, unsigned int* arch) {
  if (d == nullptr || arch == nullptr) return NVML_ERROR_INVALID_ARGUMENT;
  *arch = d->architecture;
  return NVML_SUCCESS;
}

nvmlReturn_t nvmlDeviceGetBrand(nvmlDevice_t d, int* brand) {
  if (d == nullptr || brand == nullptr) return NVML_ERROR_INVALID_ARGUMENT;
  *brand = d->brand;
  return NVML_SUCCESS;
}

nvmlReturn_t nvmlDeviceGetMigMode(nvmlDevice_t d, unsigned int* current, unsigned int* pending) {
  if (d == nullptr || current == nullptr || pending == nullptr) return NVML_ERROR_INVALID_ARGUMENT;
  if (d->mig == "unsupported") return NVML_ERROR_NOT_SUPPORTED;
  *current = *pending = d->mig == "1" ? NVML_DEVICE_MIG_ENABLE : 0;
  return NVML_SUCCESS;
}

nvmlReturn_t nvmlDeviceGetMaxMigDeviceCount(nvmlDevice_t d, unsigned int* count) {
  if (d == nullptr || count == nullptr) return NVML_ERROR_INVALID_ARGUMENT;
  *count = d->mig == "1" ? 7 : 0;
  return NVML_SUCCESS;
}

nvmlReturn_t nvmlDeviceGetMigDeviceHandleByIndex(nvmlDevice_t d, unsigned int index,
                                                 nvmlDevice_t* mig) {
  if (d == nullptr || mig == nullptr) return NVML_ERROR_INVALID_ARGUMENT;
  if (index >= d->migs.size()) return NVML_ERROR_NOT_FOUND;
  *mig = d->migs[index].get();
  return NVML_SUCCESS;
}

nvmlReturn_t nvmlDeviceGetGpuInstanceId(nvmlDevice_t d, unsigned int* id) {
  if (d == nullptr || id == nullptr || d->parent == nullptr) return NVML_ERROR_INVALID_ARGUMENT;
  *id = d->gpu_instance_id;
  return NVML_SUCCESS;
}

nvmlReturn_t nvmlDeviceGetComputeInstanceId(nvmlDevice_t d, unsigned int* id) {
  if (d == nullptr || id == nullptr || d->parent == nullptr) return NVML_ERROR_INVALID_ARGUMENT;
  *id = d->compute_instance_id;
  return NVML_SUCCESS;
}

nvmlReturn_t nvmlDeviceGetGpuInstanceById(nvmlDevice_t d, unsigned int id, nvmlGpuInstance_t* gi) {
  if (d == nullptr || gi == nullptr) return NVML_ERROR_INVALID_ARGUMENT;
  for (const auto& instance : d->instances) {
    if (instance->id == id) {
      *gi = instance.get();
      return NVML_SUCCESS;
    }
  }
  return NVML_ERROR_NOT_FOUND;
}

nvmlReturn_t nvmlGpuInstanceGetInfo(nvmlGpuInstance_t gi, nvmlGpuInstanceInfo_t* info) {
  if (gi == nullptr || info == nullptr) return NVML_ERROR_INVALID_ARGUMENT;
  info->device = gi->parent;
  info->id = gi->id;
  info->profileId = gi->profile_id;
  info->placement = gi->placement;
  return NVML_SUCCESS;
}

nvmlReturn_t nvmlDeviceGetGpuInstanceProfileInfo(nvmlDevice_t d, unsigned int profile,
                                                 nvmlGpuInstanceProfileInfo_t* info) {
  if (d == nullptr || info == nullptr) return NVML_ERROR_INVALID_ARGUMENT;
  for (const auto& [index, p] : d->profiles) {
    if (index == profile) {
      *info = p;
      return NVML_SUCCESS;
    }
  }
  return NVML_ERROR_NOT_SUPPORTED;
}

}  // extern "C"
