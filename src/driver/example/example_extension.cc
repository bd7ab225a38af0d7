// The example driver as an extension: `dra driver example` (simulated GPUs,
// a network-pool controller, --print-slices) and the drivers of the
// simulations, built from the same flags.
#include "driver/example/example_extension.h"

#include <cstdlib>
#include <iostream>
#include <optional>
#include <string>
#include <utility>
#include <variant>
#include <vector>

#include "dra/api/manifest.h"
#include "dra/driver/flags.h"
#include "driver/cli_flags.h"
#include "driver/driver_program.h"
#include "driver/example/example_driver.h"

namespace dra::driver::example {
namespace {

struct ExampleFlags {
  PluginFlags plugin;
  ExampleDriverOptions driver;
  bool mig_partitions = false;
  bool multiple_allocations = false;
  bool print_slices = false;
  bool device_status = false;
  std::vector<std::string> inventory_slices;  // files or directories
  ControllerFlags controller;
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

// The example driver's own flags, for Main and for Create's args. Only
// Main's also read the environment: a driver built for a simulation takes
// what its args say and nothing else.
void AddOwnFlags(CLI::App& app, ExampleFlags& flags, bool read_environment) {
  auto env = [read_environment](CLI::Option* option, const char* name) {
    if (read_environment) option->envname(name);
  };
  env(app.add_option("--num-devices", flags.driver.num_devices, "Number of simulated GPUs")
          ->capture_default_str(),
      "NUM_DEVICES");
  env(app.add_flag("--mig-partitions", flags.mig_partitions,
                   "Publish each GPU as a full device plus MIG-style partitions (1g.10gb ... "
                   "7g.80gb) that share the counter set gpu-<i>-counter-set"),
      "MIG_PARTITIONS");
  env(app.add_flag("--gpu-allow-multiple-allocations", flags.multiple_allocations,
                   "Let several claims share a GPU through consumable capacity (memory in 1Gi "
                   "steps, default all; compute in percent, default 1)"),
      "GPU_ALLOW_MULTIPLE_ALLOCATIONS");
  env(app.add_option("--health-control-file", flags.driver.health_control_file,
                     "File that marks GPUs unhealthy while the driver runs (see above)"),
      "HEALTH_CONTROL_FILE");
}

// The sharing mode the flags ask for; an error when they conflict.
Result<SharingMode> ModeOf(const ExampleFlags& flags) {
  if (flags.mig_partitions && flags.multiple_allocations) {
    return Error{"--mig-partitions and --gpu-allow-multiple-allocations cannot be combined"};
  }
  return flags.mig_partitions         ? SharingMode::kPartitions
         : flags.multiple_allocations ? SharingMode::kMultipleAllocations
                                      : SharingMode::kExclusive;
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
  ExampleDriverOptions options = flags.driver;
  options.driver_name = flags.plugin.options.driver_name;
  options.node_name = flags.plugin.options.node_name;
  Result<SharingMode> mode = ModeOf(flags);
  if (!mode) {
    std::cerr << "error: " << mode.error() << "\n";
    return 2;
  }
  options.mode = *mode;
  if (!flags.inventory_slices.empty()) {
    std::vector<api::ResourceSlice> slices;
    if (int rc = ReadInventorySlices(flags.inventory_slices, options.driver_name, slices);
        rc != 0) {
      return rc;
    }
    options.inventory_slices = std::move(slices);
  }
  if (flags.device_status && !KubernetesMode(flags.plugin)) {
    std::cerr << "error: --gpu-device-status writes to the Kubernetes API; it cannot be combined "
                 "with --claims\n";
    return 2;
  }
  options.device_status = flags.device_status;
  flags.plugin.write_device_status = flags.device_status;
  if (Status s = ValidateExampleDriverOptions(options); !s) {
    std::cerr << "error: " << s.error() << "\n";
    return 2;
  }
  ExampleDriver d(options);
  if (flags.controller.enabled) return RunControllerFromFlags(d, flags.plugin, flags.controller);
  if (flags.print_slices) {
    if (!options.health_control_file.empty()) {
      if (Status s = d.ReloadHealthControl(); !s) {
        std::cerr << "error: " << options.health_control_file << ": " << s.error() << "\n";
        return 2;
      }
    }
    return PrintSlices(d, flags.plugin.options);
  }
  return RunPluginFromFlags(d, flags.plugin);
}

class ExampleExtension final : public DriverExtension {
 public:
  std::string_view name() const override { return "example"; }
  std::string_view summary() const override {
    return "Kubelet plugin with simulated GPUs (H100-like, NVIDIA's attribute names)";
  }

  Result<std::unique_ptr<Driver>> Create(const DriverConfig& config) const override {
    ExampleFlags flags;
    CLI::App app("example driver", "example");
    AddOwnFlags(app, flags, /*read_environment=*/false);
    if (Status s = ParseConfigArgs(app, config.args); !s) return s.failure();
    Result<SharingMode> mode = ModeOf(flags);
    if (!mode) return mode.failure();
    ExampleDriverOptions options = flags.driver;
    options.driver_name = config.driver_name;
    options.node_name = config.node_name;
    options.mode = *mode;
    options.inventory_slices = config.inventory_slices;
    if (Status s = ValidateExampleDriverOptions(options); !s) return s.failure();
    return std::unique_ptr<Driver>(std::make_unique<ExampleDriver>(std::move(options)));
  }

  int Main(int argc, char** argv) const override {
    ExampleFlags flags;
    CLI::App app(
        "Kubelet plugin with simulated GPUs (H100-like, NVIDIA's attribute names), for trying DRA "
        "without hardware.\n"
        "Health: with --health-control-file, the file is re-read whenever it changes; each line "
        "\"gpu-<i> unhealthy [<reason>]\" taints that GPU's devices with "
        "<driver>/unhealthy=<reason> "
        "(NoSchedule) and reports them unhealthy on the health stream; \"gpu-<i> healthy\" or "
        "removing the line undoes it.",
        argc > 0 ? argv[0] : "example");
    AddPluginFlags(app, flags.plugin, "gpu.example.com");
    RelaxServingFlags(app);
    AddOwnFlags(app, flags, /*read_environment=*/true);
    AddControllerFlags(app, flags.controller);
    app.add_flag("--gpu-device-status", flags.device_status,
                 "Write each prepared device's attributes (uuid, model, driverVersion) into the "
                 "claim's status.devices[].data (Kubernetes mode)")
        ->envname("GPU_DEVICE_STATUS");
    app.add_option("--inventory-slices", flags.inventory_slices,
                   "Serve the devices of these ResourceSlices (files or directories; slices of "
                   "other drivers are skipped) instead of simulated GPUs, preparing them the same "
                   "way")
        ->envname("INVENTORY_SLICES");
    app.add_flag("--print-slices", flags.print_slices,
                 "Print the ResourceSlices the driver would publish (YAML) and exit; starts no "
                 "servers");
    if (std::optional<int> done = ParseProgramArgs(app, argc, argv)) return *done;
    return RunExample(flags);
  }
};

}  // namespace

std::unique_ptr<DriverExtension> NewExampleDriverExtension() {
  return std::make_unique<ExampleExtension>();
}

}  // namespace dra::driver::example
