// dra gen scenario: write seeded random scenarios from the shared generator
// (src/testing/scenario_generator.h), one to standard output or many
// into a directory.
#include <filesystem>
#include <fstream>
#include <iostream>
#include <memory>
#include <string>

#include "cli/commands.h"
#include "testing/scenario_generator.h"

namespace dra::cli {
namespace {

struct GenFlags {
  std::uint64_t seed = 1;
  std::string profile = "all";
  int nodes = -1;
  int devices = -1;
  int claims = -1;
  int count = 1;
  std::string out_dir;
};

int Run(const GenFlags& flags) {
  Result<testing::GeneratorParams> params = testing::ProfileParams(flags.profile);
  if (!params.ok()) {
    std::cerr << "error: invalid argument \"" << flags.profile
              << "\" for \"--profile\" flag: " << params.error() << "\n";
    return 2;
  }
  if (flags.nodes >= 0) params->nodes = flags.nodes;
  if (flags.devices >= 0) params->devices_per_node = flags.devices;
  if (flags.claims >= 0) params->claims = flags.claims;
  if (flags.count < 1) {
    std::cerr << "error: --count must be at least 1\n";
    return 2;
  }
  if (flags.out_dir.empty() && flags.count != 1) {
    std::cerr << "error: --count above 1 needs --out-dir\n";
    return 2;
  }
  if (!flags.out_dir.empty()) {
    std::error_code ec;
    std::filesystem::create_directories(flags.out_dir, ec);
    if (ec) {
      std::cerr << "error: " << flags.out_dir << ": " << ec.message() << "\n";
      return 2;
    }
  }
  for (int i = 0; i < flags.count; ++i) {
    testing::GeneratorParams p = *params;
    p.seed = flags.seed + static_cast<std::uint64_t>(i);
    Result<std::string> yaml = testing::ManifestYaml(testing::GenerateScenario(p));
    if (!yaml.ok()) {
      std::cerr << "error: internal: seed " << p.seed << ": " << yaml.error() << "\n";
      return 3;
    }
    if (flags.out_dir.empty()) {
      std::cout << *yaml;
      continue;
    }
    const std::string path =
        flags.out_dir + "/" + flags.profile + "-" + std::to_string(p.seed) + ".yaml";
    std::ofstream f(path, std::ios::binary | std::ios::trunc);
    f << *yaml;
    if (!f.flush()) {
      std::cerr << "error: " << path << ": cannot write\n";
      return 2;
    }
  }
  return 0;
}

}  // namespace

void AddGenCommand(CLI::App& app, int& exit_code) {
  auto flags = std::make_shared<GenFlags>();
  CLI::App* gen = app.add_subcommand("gen", "Generate seeded random test inputs");
  gen->require_subcommand(1);
  AddGenWorkloadCommand(*gen, exit_code);
  AddGenClusterCommand(*gen, exit_code);
  CLI::App* cmd = gen->add_subcommand(
      "scenario",
      "Write an allocation scenario (multi-document YAML whose '# dra-gen:' header names the "
      "node and feature gates to run it with)");
  cmd->add_option("--seed", flags->seed, "Seed (the same seed gives the same scenario)");
  cmd->add_option("--profile", flags->profile,
                  "Feature mix: small, all, bench, partitionable, "
                  "taints, capacity, constraints, prioritized, "
                  "admin, binding");
  cmd->add_option("--nodes", flags->nodes, "Number of nodes (default: the profile's)");
  cmd->add_option("--devices", flags->devices, "Devices per node (default: the profile's)");
  cmd->add_option("--claims", flags->claims, "Claims to allocate (default: the profile's)");
  cmd->add_option("--count", flags->count,
                  "Scenarios to write, seeds SEED .. SEED+COUNT-1 (needs --out-dir)");
  cmd->add_option("--out-dir", flags->out_dir,
                  "Write <profile>-<seed>.yaml files into this directory");
  cmd->callback([flags, &exit_code] { exit_code = Run(*flags); });
}

}  // namespace dra::cli
