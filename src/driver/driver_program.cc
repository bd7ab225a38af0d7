#include "driver/driver_program.h"

#include <malloc.h>
#include <unistd.h>

#include <cstdlib>
#include <iostream>
#include <memory>
#include <vector>

#include "dra/driver/slice_publisher.h"

namespace dra::driver {

std::optional<int> ParseProgramArgs(CLI::App& app, int argc, char** argv) {
  try {
    app.parse(argc, argv);
  } catch (const CLI::ParseError& e) {
    int rc = app.exit(e);
    // Usage errors are "input that cannot be read": status 2, as dra's.
    return rc == 0 ? 0 : 2;
  }
  return std::nullopt;
}

Status ParseConfigArgs(CLI::App& app, const std::vector<std::string>& args) {
  std::vector<std::string> reversed(args.rbegin(), args.rend());  // CLI11 parses from the back
  try {
    app.parse(reversed);
  } catch (const CLI::ParseError& e) {
    return Error{e.what()};
  }
  return {};
}

void RelaxServingFlags(CLI::App& app) {
  app.get_option("--node-name")->required(false);
  app.get_option("--claims")->required(false);
}

int CheckServingFlags(const PluginFlags& flags) {
  if (flags.options.node_name.empty()) {
    std::cerr << "error: --node-name (NODE_NAME) is required\n";
    return 2;
  }
  return 0;
}

void DefaultNodeName(PluginOptions& options) {
  if (!options.node_name.empty()) return;
  char host[256] = {};
  if (::gethostname(host, sizeof host - 1) == 0) options.node_name = host;
}

int PrintSlices(Driver& driver, const PluginOptions& options) {
  Result<Inventory> inventory = driver.Enumerate();
  if (!inventory) {
    std::cerr << "error: enumerating devices: " << inventory.error() << "\n";
    return 1;
  }
  Result<std::vector<api::ResourceSlice>> slices = BuildResourceSlices(
      options.driver_name, SliceOwner{options.node_name, options.node_uid}, *inventory, {});
  if (!slices) {
    std::cerr << "error: building ResourceSlices: " << slices.error() << "\n";
    return 1;
  }
  std::unique_ptr<SlicePublisher> out = NewStreamSlicePublisher(std::cout);
  if (Status s = out->Publish(*slices); !s) {
    std::cerr << "error: " << s.error() << "\n";
    return 1;
  }
  return 0;
}

void LimitMallocArenas() {
  if (std::getenv("MALLOC_ARENA_MAX") == nullptr) mallopt(M_ARENA_MAX, 2);
}

}  // namespace dra::driver
