// dra driver NAME [flags]: runs the program of the driver extension NAME
// (dra/driver/extension.h); the simulated-GPU example driver ("example") and
// the NVML driver ("nvml") ship with dra. Everything after NAME, --help
// included, is the driver program's.
#include <iostream>
#include <memory>
#include <string>
#include <vector>

#include "cli/commands.h"
#include "dra/driver/extension.h"

namespace dra::cli {
namespace {

struct DriverArgs {
  std::string name;
};

std::string DriverNames() {
  std::string names;
  for (const driver::DriverExtension* e : driver::DriverExtensions()) {
    names += (names.empty() ? "" : ", ") + std::string(e->name());
  }
  return names;
}

// `program` is how dra was called ("dra", or "kubectl dra" as a plugin).
int RunDriver(const std::string& program, const std::string& name,
              const std::vector<std::string>& rest) {
  if (name.empty()) {
    // `dra driver --help` (or no driver named): the drivers there are.
    const bool help = !rest.empty() && (rest.front() == "-h" || rest.front() == "--help");
    std::ostream& out = help ? std::cout : std::cerr;
    if (!help) out << "error: dra driver: name a driver\n";
    out << "Run a DRA kubelet plugin (driver)\nUsage: " << program << " driver NAME [flags...]\n\n";
    for (const driver::DriverExtension* e : driver::DriverExtensions()) {
      out << "  " << e->name() << "\t" << e->summary() << "\n";
    }
    out << "\n`dra driver NAME --help` lists the driver's flags.\n";
    return help ? 0 : 2;
  }
  const driver::DriverExtension* extension = driver::FindDriverExtension(name);
  if (extension == nullptr) {
    std::cerr << "error: dra driver: no driver named \"" << name << "\" (drivers: " << DriverNames()
              << ")\n";
    return 2;
  }
  std::vector<std::string> args{program + " driver " + name};
  args.insert(args.end(), rest.begin(), rest.end());
  std::vector<char*> argv;
  argv.reserve(args.size() + 1);
  for (std::string& a : args) argv.push_back(a.data());
  argv.push_back(nullptr);
  return extension->Main(static_cast<int>(args.size()), argv.data());
}

}  // namespace

void AddDriverCommand(CLI::App& app, int& exit_code) {
  auto args = std::make_shared<DriverArgs>();
  CLI::App* cmd = app.add_subcommand(
      "driver", "Run a DRA kubelet plugin (driver): dra driver NAME [flags], NAME one of " +
                    DriverNames() + "; dra driver NAME --help lists its flags");
  // The driver's program parses the rest, its --help included.
  cmd->prefix_command();
  cmd->set_help_flag();
  cmd->add_option("name", args->name, "The driver: " + DriverNames());
  cmd->callback([&app, cmd, args, &exit_code] {
    exit_code = RunDriver(app.get_name(), args->name, cmd->remaining());
  });
}

}  // namespace dra::cli
