#include "driver/example/simulated_gpu.h"

#include <algorithm>
#include <cctype>
#include <cstdio>
#include <utility>

#include "dra/util/random.h"

namespace dra::driver::example {
namespace {

constexpr std::string_view kProductName = "NVIDIA H100 80GB HBM3";
constexpr std::string_view kBrand = "Nvidia";
constexpr std::string_view kArchitecture = "Hopper";
constexpr std::string_view kCudaComputeCapability = "9.0.0";
constexpr std::string_view kDriverVersion = "550.54.15";
constexpr std::string_view kCudaDriverVersion = "12.4.0";
constexpr std::string_view kPciBusIdAttribute = "resource.kubernetes.io/pciBusID";
constexpr std::string_view kPcieRootAttribute = "resource.kubernetes.io/pcieRoot";

std::uint64_t Fnv1a(std::string_view s) {
  std::uint64_t h = 0xcbf29ce484222325ULL;
  for (unsigned char c : s) {
    h ^= c;
    h *= 0x100000001b3ULL;
  }
  return h;
}

std::string Uuid(std::uint64_t seed) {
  util::SplitMix64 rng(seed);
  std::uint64_t hi = rng.Next();
  std::uint64_t lo = rng.Next();
  return "GPU-" + util::FormatUuid(hi, lo);
}

api::DeviceAttribute StringAttr(std::string_view v) {
  api::DeviceAttribute a;
  a.string_value = std::string(v);
  return a;
}
api::DeviceAttribute VersionAttr(std::string_view v) {
  api::DeviceAttribute a;
  a.version_value = std::string(v);
  return a;
}
api::DeviceAttribute IntAttr(std::int64_t v) {
  api::DeviceAttribute a;
  a.int_value = v;
  return a;
}
api::Quantity Count(std::int64_t v) {
  return api::Quantity::FromInt(v, api::QuantityFormat::kBinarySI);
}
api::DeviceCapacity Cap(std::int64_t v) { return api::DeviceCapacity{Count(v), std::nullopt}; }

// Attributes shared by the full GPU and its partitions.
void AddCommonAttributes(const SimulatedGpu& gpu, api::Device& d) {
  d.attributes["productName"] = StringAttr(kProductName);
  d.attributes["brand"] = StringAttr(kBrand);
  d.attributes["architecture"] = StringAttr(kArchitecture);
  d.attributes["cudaComputeCapability"] = VersionAttr(kCudaComputeCapability);
  d.attributes["driverVersion"] = VersionAttr(kDriverVersion);
  d.attributes["cudaDriverVersion"] = VersionAttr(kCudaDriverVersion);
  d.attributes[std::string(kPciBusIdAttribute)] = StringAttr(gpu.pci_bus_id);
  d.attributes[std::string(kPcieRootAttribute)] = StringAttr(gpu.pcie_root);
}

// Capacities of a partition (and, as maxima, of the partitionable full GPU),
// keyed as NVIDIA's driver keys MIG capacities.
std::map<std::string, std::int64_t> ProfileCapacities(const SimulatedMigProfile& p) {
  return {{"multiprocessors", p.multiprocessors},
          {"copyEngines", p.copy_engines},
          {"decoders", p.decoders},
          {"encoders", p.encoders},
          {"jpegEngines", p.jpeg_engines},
          {"ofaEngines", p.ofa_engines},
          {"memory", p.memory_mib << 20}};
}

// "copyEngines" -> "copy-engines": counter names are DNS labels.
std::string CounterName(std::string_view capacity) {
  std::string out;
  for (char c : capacity) {
    if (std::isupper(static_cast<unsigned char>(c))) {
      out += '-';
      out += static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
    } else {
      out += c;
    }
  }
  return out;
}

std::map<std::string, api::Counter> Counters(const std::map<std::string, std::int64_t>& caps,
                                             int first_slice, int slices) {
  std::map<std::string, api::Counter> out;
  for (const auto& [name, v] : caps) out[CounterName(name)] = api::Counter{Count(v)};
  for (int k = first_slice; k < first_slice + slices; ++k) {
    out["memory-slice-" + std::to_string(k)] = api::Counter{Count(1)};
  }
  return out;
}

std::map<std::string, std::int64_t> MaxCapacities() {
  std::map<std::string, std::int64_t> max;
  for (const SimulatedMigProfile& p : SimulatedMigProfiles()) {
    for (const auto& [name, v] : ProfileCapacities(p)) max[name] = std::max(max[name], v);
  }
  return max;
}

void AddTaint(const SimulatedPoolOptions& options, const SimulatedGpu& gpu, api::Device& d) {
  auto it = options.unhealthy.find(gpu.name);
  if (it == options.unhealthy.end()) return;
  api::DeviceTaint taint;
  taint.key = options.driver_name + "/unhealthy";
  taint.value = it->second.reason;
  taint.effect = "NoSchedule";
  taint.time_added = it->second.since;
  d.taints.push_back(std::move(taint));
}

api::Device FullGpu(const SimulatedGpu& gpu, const SimulatedPoolOptions& options) {
  api::Device d;
  d.name = gpu.name;
  d.attributes["type"] = StringAttr("gpu");
  d.attributes["uuid"] = StringAttr(gpu.uuid);
  d.attributes["index"] = IntAttr(gpu.index);
  AddCommonAttributes(gpu, d);
  switch (options.mode) {
    case SharingMode::kExclusive:
      d.capacity["memory"] = Cap(kSimulatedGpuMemoryBytes);
      break;
    case SharingMode::kMultipleAllocations: {
      // A request without a memory amount takes all memory (default = all),
      // so exclusive users keep working next to sharing ones; one without a
      // compute amount gets 1 %, so that memory-only requests can share.
      d.allow_multiple_allocations = true;
      api::CapacityRequestPolicy memory;
      memory.default_ = Count(kSimulatedGpuMemoryBytes);
      memory.valid_range = api::CapacityRequestPolicyRange{
          Count(1LL << 30), Count(kSimulatedGpuMemoryBytes), Count(1LL << 30)};
      d.capacity["memory"] = api::DeviceCapacity{Count(kSimulatedGpuMemoryBytes), memory};
      api::CapacityRequestPolicy compute;
      compute.default_ = Count(1);
      compute.valid_range = api::CapacityRequestPolicyRange{Count(1), Count(100), Count(1)};
      d.capacity["compute"] = api::DeviceCapacity{Count(100), compute};
      break;
    }
    case SharingMode::kPartitions: {
      std::map<std::string, std::int64_t> max = MaxCapacities();
      for (const auto& [name, v] : max) d.capacity[name] = Cap(v);
      d.consumes_counters.push_back(api::DeviceCounterConsumption{
          CounterSetName(gpu), Counters(max, 0, kSimulatedMemorySlices), {}});
      break;
    }
  }
  AddTaint(options, gpu, d);
  return d;
}

api::Device Partition(const SimulatedGpu& gpu, const SimulatedMigProfile& profile, int start,
                      const SimulatedPoolOptions& options) {
  api::Device d;
  d.name = PartitionDeviceName(gpu, profile, start);
  d.attributes["type"] = StringAttr("mig");
  d.attributes["parentUUID"] = StringAttr(gpu.uuid);
  d.attributes["profile"] = StringAttr(profile.name);
  AddCommonAttributes(gpu, d);
  std::map<std::string, std::int64_t> caps = ProfileCapacities(profile);
  for (const auto& [name, v] : caps) d.capacity[name] = Cap(v);
  for (int k = start; k < start + profile.memory_slices; ++k) {
    d.capacity["memorySlice" + std::to_string(k)] = Cap(1);
  }
  d.consumes_counters.push_back(api::DeviceCounterConsumption{
      CounterSetName(gpu), Counters(caps, start, profile.memory_slices), {}});
  AddTaint(options, gpu, d);
  return d;
}

}  // namespace

const std::vector<SimulatedMigProfile>& SimulatedMigProfiles() {
  static const std::vector<SimulatedMigProfile> profiles = {
      {"1g.10gb", 19, 1, {0, 1, 2, 3, 4, 5, 6}, 16, 1, 1, 0, 1, 0, 10 * 1024},
      {"2g.20gb", 14, 2, {0, 2, 4}, 32, 2, 2, 0, 2, 0, 20 * 1024},
      {"3g.40gb", 9, 4, {0, 4}, 60, 3, 3, 0, 3, 0, 40 * 1024},
      {"4g.40gb", 5, 4, {0}, 64, 4, 4, 0, 4, 0, 40 * 1024},
      {"7g.80gb", 0, 8, {0}, 132, 8, 7, 0, 7, 1, 80 * 1024},
  };
  return profiles;
}

std::vector<SimulatedGpu> MakeSimulatedGpus(std::string_view node_name, int count) {
  std::vector<SimulatedGpu> gpus;
  std::uint64_t seed = Fnv1a(node_name);
  for (int i = 0; i < count; ++i) {
    SimulatedGpu g;
    g.index = i;
    g.name = "gpu-" + std::to_string(i);
    g.uuid = Uuid(seed ^ (0x1000193ULL * static_cast<std::uint64_t>(i + 1)));
    // Fourteen GPUs per PCI domain, two per root port, as on 8-GPU servers.
    unsigned domain = static_cast<unsigned>(i / 14);
    unsigned slot = static_cast<unsigned>(i % 14);
    char buf[32];
    std::snprintf(buf, sizeof buf, "%04x:%02x:00.0", domain, 0x18 + 0x10 * slot);
    g.pci_bus_id = buf;
    std::snprintf(buf, sizeof buf, "pci%04x:%02x", domain, 0x10 + 0x20 * (slot / 2));
    g.pcie_root = buf;
    gpus.push_back(std::move(g));
  }
  return gpus;
}

std::string PartitionDeviceName(const SimulatedGpu& gpu, const SimulatedMigProfile& profile,
                                int placement_start) {
  std::string compact;
  for (char c : profile.name) {
    if (c != '.') compact += c;
  }
  return gpu.name + "-mig-" + compact + "-" + std::to_string(profile.profile_id) + "-" +
         std::to_string(placement_start);
}

std::string CounterSetName(const SimulatedGpu& gpu) { return gpu.name + "-counter-set"; }

std::string GpuOfDevice(std::string_view device) {
  if (device.substr(0, 4) != "gpu-") return "";
  std::size_t end = 4;
  while (end < device.size() && std::isdigit(static_cast<unsigned char>(device[end]))) ++end;
  if (end == 4) return "";
  if (end != device.size() && device.substr(end, 5) != "-mig-") return "";
  return std::string(device.substr(0, end));
}

Pool BuildSimulatedPool(const std::vector<SimulatedGpu>& gpus,
                        const SimulatedPoolOptions& options) {
  Pool pool;
  for (const SimulatedGpu& gpu : gpus) {
    std::vector<std::size_t> slice;
    slice.push_back(pool.devices.size());
    pool.devices.push_back(FullGpu(gpu, options));
    if (options.mode != SharingMode::kPartitions) continue;
    pool.shared_counters.push_back(
        api::CounterSet{CounterSetName(gpu), Counters(MaxCapacities(), 0, kSimulatedMemorySlices)});
    for (const SimulatedMigProfile& profile : SimulatedMigProfiles()) {
      for (int start : profile.placement_starts) {
        slice.push_back(pool.devices.size());
        pool.devices.push_back(Partition(gpu, profile, start, options));
      }
    }
    // One slice per physical GPU, devices sorted by name, as NVIDIA's driver
    // publishes them.
    std::sort(slice.begin(), slice.end(), [&](std::size_t a, std::size_t b) {
      return pool.devices[a].name < pool.devices[b].name;
    });
    pool.slices.push_back(std::move(slice));
  }
  return pool;
}

}  // namespace dra::driver::example
