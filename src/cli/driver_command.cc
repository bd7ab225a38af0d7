// dra driver example|nvml: the reference kubelet plugins built on the driver
// SDK (src/driver): simulated GPUs, and real NVIDIA GPUs through NVML.
#include <malloc.h>
#include <unistd.h>

#include <cstdlib>
#include <iostream>
#include <memory>
#include <string>
#include <variant>
#include <vector>

#include "cli/commands.h"
#include "dra/api/manifest.h"
#include "dra/driver/flags.h"
#include "dra/driver/slice_publisher.h"
#include "driver/cli_flags.h"
#include "driver/example/example_driver.h"
#include "driver/nvml/nvml_driver.h"

namespace dra::cli {
namespace {

// --print-slices: the slices the driver would publish, as YAML on stdout,
// without sockets, checkpoint or CDI files.
int PrintSlices(driver::Driver& d, const driver::PluginOptions& options) {
  Result<driver::Inventory> inventory = d.Enumerate();
  if (!inventory) {
    std::cerr << "error: enumerating devices: " << inventory.error() << "\n";
    return 1;
  }
  Result<std::vector<api::ResourceSlice>> slices = driver::BuildResourceSlices(
      options.driver_name, driver::SliceOwner{options.node_name, options.node_uid}, *inventory, {});
  if (!slices) {
    std::cerr << "error: building ResourceSlices: " << slices.error() << "\n";
    return 1;
  }
  std::unique_ptr<driver::SlicePublisher> out = driver::NewStreamSlicePublisher(std::cout);
  if (Status s = out->Publish(*slices); !s) {
    std::cerr << "error: " << s.error() << "\n";
    return 1;
  }
  return 0;
}

// The node name for --print-slices when neither --node-name nor NODE_NAME
// gave one: this host's name.
void DefaultNodeName(driver::PluginOptions& options) {
  if (!options.node_name.empty()) return;
  char host[256] = {};
  if (::gethostname(host, sizeof host - 1) == 0) options.node_name = host;
}

// --node-name is needed to serve, not to print slices, so the CLI parser
// does not require it and running the plugin checks it here. Without
// --claims the driver runs against the Kubernetes API (flags.h).
void RelaxServingFlags(CLI::App& cmd) {
  cmd.get_option("--node-name")->required(false);
  cmd.get_option("--claims")->required(false);
}

int CheckServingFlags(const driver::PluginFlags& flags) {
  if (flags.options.node_name.empty()) {
    std::cerr << "error: --node-name (NODE_NAME) is required\n";
    return 2;
  }
  return 0;
}

struct ExampleFlags {
  driver::PluginFlags plugin;
  driver::example::ExampleDriverOptions driver;
  bool mig_partitions = false;
  bool multiple_allocations = false;
  bool print_slices = false;
  bool device_status = false;
  std::vector<std::string> inventory_slices;  // files or directories
  driver::ControllerFlags controller;
};

// --inventory-slices: the driver's ResourceSlices from manifests. Slices of
// other drivers are skipped (one file may describe a whole cluster); none
// left, or anything unreadable, is an error (exit 2).
int ReadInventorySlices(const std::vector<std::string>& paths, const std::string& driver_name,
                        std::vector<api::ResourceSlice>& out) {
  api::ManifestOptions options;
  options.recursive = true;
  api::ManifestSet set = api::ReadManifests(paths, options);
  int status = 0;
  for (const api::ManifestReadError& e : set.read_errors) {
    std::cerr << "error: " << e.source << ": " << e.message << "\n";
    status = 2;
  }
  for (api::ManifestDocument& doc : set.documents) {
    for (const api::DecodeError& e : doc.decoded.errors) {
      std::cerr << "error: " << doc.source << ": document " << doc.index << ": " << e.message
                << "\n";
      status = 2;
    }
    for (api::DecodedObject& o : doc.decoded.objects) {
      auto* slice = std::get_if<api::ResourceSlice>(&o.object);
      if (slice != nullptr && slice->spec.driver == driver_name) out.push_back(std::move(*slice));
    }
  }
  if (status == 0 && out.empty()) {
    std::cerr << "error: --inventory-slices: no ResourceSlice of driver " << driver_name << "\n";
    status = 2;
  }
  return status;
}

// A driver is a long-running node agent whose gRPC and HTTP threads each
// get a glibc malloc arena of their own by default (up to eight per core),
// which keeps freed memory resident per thread. Two arenas are plenty for
// its allocation rate and cut its resident memory by about a quarter
// (docs/PERFORMANCE.md). MALLOC_ARENA_MAX, when set, still decides. Must
// run before the first thread starts.
void LimitMallocArenas() {
  if (std::getenv("MALLOC_ARENA_MAX") == nullptr) mallopt(M_ARENA_MAX, 2);
}

int RunExample(ExampleFlags& flags) {
  LimitMallocArenas();
  if (flags.controller.enabled && flags.inventory_slices.empty()) {
    std::cerr << "error: --controller publishes the network-attached pools of --inventory-slices; "
                 "give it\n";
    return 2;
  }
  if (flags.print_slices || flags.controller.enabled) {
    DefaultNodeName(flags.plugin.options);
  } else if (int rc = CheckServingFlags(flags.plugin); rc != 0) {
    return rc;
  }
  driver::example::ExampleDriverOptions options = flags.driver;
  options.driver_name = flags.plugin.options.driver_name;
  options.node_name = flags.plugin.options.node_name;
  if (flags.mig_partitions && flags.multiple_allocations) {
    std::cerr
        << "error: --mig-partitions and --gpu-allow-multiple-allocations cannot be combined\n";
    return 2;
  }
  options.mode = flags.mig_partitions         ? driver::example::SharingMode::kPartitions
                 : flags.multiple_allocations ? driver::example::SharingMode::kMultipleAllocations
                                              : driver::example::SharingMode::kExclusive;
  if (!flags.inventory_slices.empty()) {
    std::vector<api::ResourceSlice> slices;
    if (int rc = ReadInventorySlices(flags.inventory_slices, options.driver_name, slices);
        rc != 0) {
      return rc;
    }
    options.inventory_slices = std::move(slices);
  }
  if (flags.device_status && !driver::KubernetesMode(flags.plugin)) {
    std::cerr << "error: --gpu-device-status writes to the Kubernetes API; it cannot be combined "
                 "with --claims\n";
    return 2;
  }
  options.device_status = flags.device_status;
  flags.plugin.write_device_status = flags.device_status;
  if (Status s = driver::example::ValidateExampleDriverOptions(options); !s) {
    std::cerr << "error: " << s.error() << "\n";
    return 2;
  }
  driver::example::ExampleDriver d(options);
  if (flags.controller.enabled)
    return driver::RunControllerFromFlags(d, flags.plugin, flags.controller);
  if (flags.print_slices) {
    if (!options.health_control_file.empty()) {
      if (Status s = d.ReloadHealthControl(); !s) {
        std::cerr << "error: " << options.health_control_file << ": " << s.error() << "\n";
        return 2;
      }
    }
    return PrintSlices(d, flags.plugin.options);
  }
  return driver::RunPluginFromFlags(d, flags.plugin);
}

struct NvmlFlags {
  driver::PluginFlags plugin;
  driver::nvml::NvmlDriverOptions driver;
  bool print_slices = false;
};

int RunNvml(NvmlFlags& flags) {
  LimitMallocArenas();
  if (flags.print_slices) {
    DefaultNodeName(flags.plugin.options);
  } else if (int rc = CheckServingFlags(flags.plugin); rc != 0) {
    return rc;
  }
  driver::nvml::NvmlDriverOptions options = flags.driver;
  options.driver_name = flags.plugin.options.driver_name;
  options.node_name = flags.plugin.options.node_name;
  Result<std::unique_ptr<driver::nvml::NvmlDriver>> d = driver::nvml::NvmlDriver::Create(options);
  if (!d) {
    std::cerr << "error: " << d.error() << "\n";
    return 1;
  }
  if (flags.print_slices) return PrintSlices(**d, flags.plugin.options);
  return driver::RunPluginFromFlags(**d, flags.plugin);
}

void AddExample(CLI::App& parent, int& exit_code) {
  auto flags = std::make_shared<ExampleFlags>();
  CLI::App* cmd = parent.add_subcommand(
      "example",
      "Kubelet plugin with simulated GPUs (H100-like, NVIDIA's attribute names), for trying DRA "
      "without hardware.\n"
      "Health: with --health-control-file, the file is re-read whenever it changes; each line "
      "\"gpu-<i> unhealthy [<reason>]\" taints that GPU's devices with <driver>/unhealthy=<reason> "
      "(NoSchedule) and reports them unhealthy on the health stream; \"gpu-<i> healthy\" or "
      "removing the line undoes it.");
  driver::AddPluginFlags(*cmd, flags->plugin, "gpu.example.com");
  RelaxServingFlags(*cmd);
  cmd->add_option("--num-devices", flags->driver.num_devices, "Number of simulated GPUs")
      ->envname("NUM_DEVICES")
      ->capture_default_str();
  cmd->add_flag("--mig-partitions", flags->mig_partitions,
                "Publish each GPU as a full device plus MIG-style partitions (1g.10gb ... "
                "7g.80gb) that share the counter set gpu-<i>-counter-set")
      ->envname("MIG_PARTITIONS");
  cmd->add_flag("--gpu-allow-multiple-allocations", flags->multiple_allocations,
                "Let several claims share a GPU through consumable capacity (memory in 1Gi "
                "steps, default all; compute in percent, default 1)")
      ->envname("GPU_ALLOW_MULTIPLE_ALLOCATIONS");
  cmd->add_option("--health-control-file", flags->driver.health_control_file,
                  "File that marks GPUs unhealthy while the driver runs (see above)")
      ->envname("HEALTH_CONTROL_FILE");
  driver::AddControllerFlags(*cmd, flags->controller);
  cmd->add_flag("--gpu-device-status", flags->device_status,
                "Write each prepared device's attributes (uuid, model, driverVersion) into the "
                "claim's status.devices[].data (Kubernetes mode)")
      ->envname("GPU_DEVICE_STATUS");
  cmd->add_option("--inventory-slices", flags->inventory_slices,
                  "Serve the devices of these ResourceSlices (files or directories; slices of "
                  "other drivers are skipped) instead of simulated GPUs, preparing them the same "
                  "way")
      ->envname("INVENTORY_SLICES");
  cmd->add_flag("--print-slices", flags->print_slices,
                "Print the ResourceSlices the driver would publish (YAML) and exit; starts no "
                "servers");
  cmd->callback([flags, &exit_code] { exit_code = RunExample(*flags); });
}

void AddNvml(CLI::App& parent, int& exit_code) {
  auto flags = std::make_shared<NvmlFlags>();
  CLI::App* cmd = parent.add_subcommand(
      "nvml",
      "Kubelet plugin for NVIDIA GPUs and existing MIG devices, read through NVML (loaded at run "
      "time), published with the names and attributes of NVIDIA's DRA driver");
  driver::AddPluginFlags(*cmd, flags->plugin, "gpu.nvidia.com");
  RelaxServingFlags(*cmd);
  cmd->add_option("--nvml-library", flags->driver.nvml_library,
                  "NVML shared library to load (file name or path)")
      ->envname("NVML_LIBRARY")
      ->capture_default_str();
  cmd->add_option("--sysfs-root", flags->driver.sysfs_root, "sysfs mount, for PCIe roots")
      ->capture_default_str();
  cmd->add_option("--dev-root", flags->driver.dev_root,
                  "Root under which /dev/nvidia* device nodes are looked for")
      ->capture_default_str();
  cmd->add_flag("--print-slices", flags->print_slices,
                "Print the ResourceSlices the driver would publish (YAML) and exit; starts no "
                "servers");
  cmd->callback([flags, &exit_code] { exit_code = RunNvml(*flags); });
}

}  // namespace

void AddDriverCommand(CLI::App& app, int& exit_code) {
  CLI::App* cmd = app.add_subcommand("driver", "Run a DRA kubelet plugin (driver)");
  cmd->require_subcommand(1);
  AddExample(*cmd, exit_code);
  AddNvml(*cmd, exit_code);
}

}  // namespace dra::cli
