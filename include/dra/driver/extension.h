// Drivers as extensions of the SDK. A driver that ships with dra (the
// simulated-GPU example driver, the NVML driver) registers a DriverExtension
// under its name; the SDK's own code (the node-agent simulation, the
// NodeInventory expansion) and the dra program find it here by name and never
// include the driver. The built-in drivers are registered on the first
// lookup; a program that embeds the SDK may register its own.
#pragma once

#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "dra/api/resource.h"
#include "dra/driver/driver.h"
#include "dra/util/result.h"

namespace dra::driver {

// What a driver is built from: its DRA driver name, its node, and its own
// flags as its `dra driver <name>` program takes them ("--num-devices=8",
// "--mig-partitions"); the plugin flags of flags.h are not among them.
struct DriverConfig {
  std::string driver_name;
  std::string node_name;
  std::vector<std::string> args;
  // For simulations: serve exactly these ResourceSlices' devices (this
  // driver's) instead of discovering devices. A driver that cannot fails.
  std::optional<std::vector<api::ResourceSlice>> inventory_slices;
};

// Thread-safe: every member may be called from any thread at any time.
class DriverExtension {
 public:
  virtual ~DriverExtension() = default;

  // The name `dra driver <name>` runs it under ("example", "nvml").
  virtual std::string_view name() const = 0;
  // One line for `dra driver --help`.
  virtual std::string_view summary() const = 0;

  // A driver ready to be served (RunPlugin, Plugin::Start) or enumerated.
  // Bad args are an error that names the flag.
  virtual Result<std::unique_ptr<Driver>> Create(const DriverConfig& config) const = 0;

  // The `dra driver <name>` program: argv[0] names it in messages and help,
  // the rest are its flags (flags.h's and its own). Returns the exit status:
  // 0 after a clean shutdown or --help, 1 when the driver cannot start, 2 for
  // flags that cannot be used.
  virtual int Main(int argc, char** argv) const = 0;
};

// Adds an extension; one with the same name is replaced. Thread-safe.
void RegisterDriverExtension(std::unique_ptr<DriverExtension> extension);

// The extension registered under `name`, or nullptr. The pointer stays valid
// until an extension of the same name is registered. Thread-safe.
const DriverExtension* FindDriverExtension(std::string_view name);

// Every registered extension, sorted by name. Thread-safe.
std::vector<const DriverExtension*> DriverExtensions();

}  // namespace dra::driver
