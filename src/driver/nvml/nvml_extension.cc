// The NVML driver as an extension: `dra driver nvml`, and NVML drivers built
// from flags.
#include "driver/nvml/nvml_extension.h"

#include <iostream>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "dra/driver/flags.h"
#include "driver/cli_flags.h"
#include "driver/driver_program.h"
#include "driver/nvml/nvml_driver.h"

namespace dra::driver::nvml {
namespace {

struct NvmlFlags {
  PluginFlags plugin;
  NvmlDriverOptions driver;
  bool print_slices = false;
};

// The NVML driver's own flags, for Main and for Create's args (only Main's
// read the environment).
void AddOwnFlags(CLI::App& app, NvmlDriverOptions& options, bool read_environment) {
  CLI::Option* library = app.add_option("--nvml-library", options.nvml_library,
                                        "NVML shared library to load (file name or path)")
                             ->capture_default_str();
  if (read_environment) library->envname("NVML_LIBRARY");
  app.add_option("--sysfs-root", options.sysfs_root, "sysfs mount, for PCIe roots")
      ->capture_default_str();
  app.add_option("--dev-root", options.dev_root,
                 "Root under which /dev/nvidia* device nodes are looked for")
      ->capture_default_str();
}

int RunNvml(NvmlFlags& flags) {
  LimitMallocArenas();
  if (flags.print_slices) {
    DefaultNodeName(flags.plugin.options);
  } else if (int rc = CheckServingFlags(flags.plugin); rc != 0) {
    return rc;
  }
  NvmlDriverOptions options = flags.driver;
  options.driver_name = flags.plugin.options.driver_name;
  options.node_name = flags.plugin.options.node_name;
  Result<std::unique_ptr<NvmlDriver>> d = NvmlDriver::Create(options);
  if (!d) {
    std::cerr << "error: " << d.error() << "\n";
    return 1;
  }
  if (flags.print_slices) return PrintSlices(**d, flags.plugin.options);
  return RunPluginFromFlags(**d, flags.plugin);
}

class NvmlExtension final : public DriverExtension {
 public:
  std::string_view name() const override { return "nvml"; }
  std::string_view summary() const override {
    return "Kubelet plugin for NVIDIA GPUs and MIG devices, read through NVML";
  }

  Result<std::unique_ptr<Driver>> Create(const DriverConfig& config) const override {
    NvmlDriverOptions options;
    CLI::App app("NVML driver", "nvml");
    AddOwnFlags(app, options, /*read_environment=*/false);
    if (Status s = ParseConfigArgs(app, config.args); !s) return s.failure();
    if (config.inventory_slices) {
      return Error{"the NVML driver serves the GPUs NVML reports, not given ResourceSlices"};
    }
    options.driver_name = config.driver_name;
    options.node_name = config.node_name;
    Result<std::unique_ptr<NvmlDriver>> d = NvmlDriver::Create(options);
    if (!d) return d.failure();
    return std::unique_ptr<Driver>(std::move(*d));
  }

  int Main(int argc, char** argv) const override {
    NvmlFlags flags;
    CLI::App app(
        "Kubelet plugin for NVIDIA GPUs and existing MIG devices, read through NVML (loaded at run "
        "time), published with the names and attributes of NVIDIA's DRA driver",
        argc > 0 ? argv[0] : "nvml");
    AddPluginFlags(app, flags.plugin, "gpu.nvidia.com");
    RelaxServingFlags(app);
    AddOwnFlags(app, flags.driver, /*read_environment=*/true);
    app.add_flag("--print-slices", flags.print_slices,
                 "Print the ResourceSlices the driver would publish (YAML) and exit; starts no "
                 "servers");
    if (std::optional<int> done = ParseProgramArgs(app, argc, argv)) return *done;
    return RunNvml(flags);
  }
};

}  // namespace

std::unique_ptr<DriverExtension> NewNvmlDriverExtension() {
  return std::make_unique<NvmlExtension>();
}

}  // namespace dra::driver::nvml
