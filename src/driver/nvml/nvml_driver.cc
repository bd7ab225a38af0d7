#include "driver/nvml/nvml_driver.h"

#include <filesystem>
#include <fstream>
#include <optional>
#include <utility>

#include "driver/nvml/nvml_devices.h"

namespace dra::driver::nvml {
namespace {

bool Exists(const std::string& root, const std::string& path) {
  std::error_code ec;
  return std::filesystem::exists(std::filesystem::path(root) / path.substr(1), ec);
}

// "DeviceFileMinor: 12" of a MIG capability's access file.
std::optional<int> CapabilityMinor(const std::string& access_file) {
  std::ifstream in(access_file);
  std::string key;
  while (in >> key) {
    if (key == "DeviceFileMinor:") {
      int minor = -1;
      if (in >> minor && minor >= 0) return minor;
      return std::nullopt;
    }
  }
  return std::nullopt;
}

cdi::DeviceNode Node(const std::string& path) {
  cdi::DeviceNode n;
  n.path = path;
  return n;
}

}  // namespace

Result<std::unique_ptr<NvmlDriver>> NvmlDriver::Create(NvmlDriverOptions options) {
  if (options.node_name.empty()) return Error{"--node-name (NODE_NAME) is required"};
  Result<std::unique_ptr<NvmlLibrary>> lib = NvmlLibrary::Open(options.nvml_library);
  if (!lib) return lib.failure();
  Result<NvmlSystem> system = ReadNvmlSystem(**lib, options.sysfs_root);
  if (!system) return system.failure().WithPrefix("reading GPUs through NVML: ");
  return std::unique_ptr<NvmlDriver>(new NvmlDriver(std::move(options), std::move(*system)));
}

NvmlDriver::NvmlDriver(NvmlDriverOptions options, NvmlSystem system)
    : options_(std::move(options)), system_(std::move(system)) {}

Result<Inventory> NvmlDriver::Enumerate() {
  Inventory inventory;
  inventory.pools.push_back(BuildNvmlPool(system_));
  return inventory;
}

Result<PreparedClaim> NvmlDriver::Prepare(const ClaimToPrepare& claim) {
  PreparedClaim prepared;
  // Control devices every CUDA container needs, when the host has them.
  for (const char* node : {"/dev/nvidiactl", "/dev/nvidia-uvm", "/dev/nvidia-uvm-tools"}) {
    if (Exists(options_.dev_root, node)) prepared.claim_edits.device_nodes.push_back(Node(node));
  }
  for (const AllocatedDevice& a : claim.devices) {
    if (!a.opaque_configs.empty()) {
      return Error{"request " + a.request +
                   ": opaque device configuration is not supported by this driver"};
    }
    if (a.pool != options_.node_name) {
      return Error{"device " + a.pool + "/" + a.device + " is not in this node's pool " +
                   options_.node_name};
    }
    PreparedDevice p;
    p.pool = a.pool;
    p.device = a.device;
    bool found = false;
    for (const NvmlGpu& gpu : system_.gpus) {
      std::string gpu_node = "/dev/nvidia" + std::to_string(gpu.minor);
      if (!gpu.mig_enabled && GpuDeviceName(gpu) == a.device) {
        found = true;
        p.edits.env.push_back("NVIDIA_VISIBLE_DEVICES=" + gpu.uuid);
        if (Exists(options_.dev_root, gpu_node)) p.edits.device_nodes.push_back(Node(gpu_node));
      }
      for (const NvmlMigDevice& mig : gpu.mig_devices) {
        if (MigDeviceName(gpu, mig) != a.device) continue;
        found = true;
        p.edits.env.push_back("NVIDIA_VISIBLE_DEVICES=" + mig.uuid);
        if (Exists(options_.dev_root, gpu_node)) p.edits.device_nodes.push_back(Node(gpu_node));
        std::string caps = options_.proc_root + "/driver/nvidia/capabilities/gpu" +
                           std::to_string(gpu.minor) + "/mig/gi" +
                           std::to_string(mig.gpu_instance_id);
        for (const std::string& access :
             {caps + "/access",
              caps + "/ci" + std::to_string(mig.compute_instance_id) + "/access"}) {
          if (std::optional<int> minor = CapabilityMinor(access)) {
            std::string node = "/dev/nvidia-caps/nvidia-cap" + std::to_string(*minor);
            if (Exists(options_.dev_root, node)) p.edits.device_nodes.push_back(Node(node));
          }
        }
      }
    }
    if (!found) {
      return Error{"device " + a.pool + "/" + a.device + " of request " + a.full_request +
                   " is not a GPU or MIG device of this node"};
    }
    prepared.devices.push_back(std::move(p));
  }
  return prepared;
}

Status NvmlDriver::Unprepare(const ClaimToUnprepare& claim) {
  // Prepare changes nothing on the GPU (no MIG creation, no sharing setup).
  (void)claim;
  return {};
}

}  // namespace dra::driver::nvml
