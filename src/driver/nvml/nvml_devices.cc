#include "driver/nvml/nvml_devices.h"

#include <algorithm>
#include <cctype>

namespace dra::driver::nvml {
namespace {

api::DeviceAttribute StringAttr(const std::string& v) {
  api::DeviceAttribute a;
  a.string_value = v;
  return a;
}
api::DeviceAttribute VersionAttr(const std::string& v) {
  api::DeviceAttribute a;
  a.version_value = v;
  return a;
}
api::DeviceCapacity Cap(std::int64_t v) {
  return api::DeviceCapacity{api::Quantity::FromInt(v, api::QuantityFormat::kBinarySI),
                             std::nullopt};
}

void AddCommonAttributes(const NvmlSystem& sys, const NvmlGpu& gpu, api::Device& d) {
  d.attributes["productName"] = StringAttr(gpu.product_name);
  d.attributes["brand"] = StringAttr(gpu.brand);
  d.attributes["architecture"] = StringAttr(gpu.architecture);
  d.attributes["cudaComputeCapability"] = VersionAttr(gpu.cuda_compute_capability);
  d.attributes["driverVersion"] = VersionAttr(sys.driver_version);
  d.attributes["cudaDriverVersion"] = VersionAttr(sys.cuda_driver_version);
  d.attributes["resource.kubernetes.io/pciBusID"] = StringAttr(gpu.pci_bus_id);
  if (gpu.pcie_root) d.attributes["resource.kubernetes.io/pcieRoot"] = StringAttr(*gpu.pcie_root);
}

// NVIDIA's RFC 1123 cleaning of the profile part of MIG device names.
std::string CleanProfile(const std::string& profile) {
  std::string out;
  for (char c : profile) {
    if (c == '.') continue;
    char l = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
    out += (std::isalnum(static_cast<unsigned char>(l)) || l == '-') ? l : '-';
  }
  std::size_t b = out.find_first_not_of('-');
  if (b == std::string::npos) return "";
  std::size_t e = out.find_last_not_of('-');
  return out.substr(b, e - b + 1);
}

}  // namespace

std::string GpuDeviceName(const NvmlGpu& gpu) { return "gpu-" + std::to_string(gpu.minor); }

std::string MigDeviceName(const NvmlGpu& parent, const NvmlMigDevice& mig) {
  return GpuDeviceName(parent) + "-mig-" + CleanProfile(mig.profile) + "-" +
         std::to_string(mig.profile_info.id) + "-" + std::to_string(mig.placement.start);
}

Pool BuildNvmlPool(const NvmlSystem& sys) {
  Pool pool;
  for (const NvmlGpu& gpu : sys.gpus) {
    std::vector<std::size_t> slice;
    if (!gpu.mig_enabled) {
      api::Device d;
      d.name = GpuDeviceName(gpu);
      d.attributes["type"] = StringAttr("gpu");
      d.attributes["uuid"] = StringAttr(gpu.uuid);
      AddCommonAttributes(sys, gpu, d);
      if (gpu.memory_bytes)
        d.capacity["memory"] = Cap(static_cast<std::int64_t>(*gpu.memory_bytes));
      slice.push_back(pool.devices.size());
      pool.devices.push_back(std::move(d));
    }
    for (const NvmlMigDevice& mig : gpu.mig_devices) {
      api::Device d;
      d.name = MigDeviceName(gpu, mig);
      d.attributes["type"] = StringAttr("mig");
      d.attributes["uuid"] = StringAttr(mig.uuid);
      d.attributes["parentUUID"] = StringAttr(gpu.uuid);
      d.attributes["profile"] = StringAttr(mig.profile);
      AddCommonAttributes(sys, gpu, d);
      const nvmlGpuInstanceProfileInfo_t& p = mig.profile_info;
      d.capacity["multiprocessors"] = Cap(p.multiprocessorCount);
      d.capacity["copyEngines"] = Cap(p.copyEngineCount);
      d.capacity["decoders"] = Cap(p.decoderCount);
      d.capacity["encoders"] = Cap(p.encoderCount);
      d.capacity["jpegEngines"] = Cap(p.jpegCount);
      d.capacity["ofaEngines"] = Cap(p.ofaCount);
      d.capacity["memory"] = Cap(static_cast<std::int64_t>(p.memorySizeMB) << 20);
      for (unsigned k = mig.placement.start; k < mig.placement.start + mig.placement.size; ++k) {
        d.capacity["memorySlice" + std::to_string(k)] = Cap(1);
      }
      slice.push_back(pool.devices.size());
      pool.devices.push_back(std::move(d));
    }
    if (slice.empty()) continue;  // MIG enabled but no MIG device: nothing allocatable
    std::sort(slice.begin(), slice.end(), [&](std::size_t a, std::size_t b) {
      return pool.devices[a].name < pool.devices[b].name;
    });
    pool.slices.push_back(std::move(slice));
  }
  return pool;
}

}  // namespace dra::driver::nvml
