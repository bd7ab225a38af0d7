// dra gen cluster: a seeded random cluster workload (nodes with taints and
// allocatable, devices, templates, pods) for the differential test against
// the real kube-scheduler (src/testing/cluster_workload.h).
#include <fstream>
#include <iostream>
#include <memory>
#include <string>

#include "cli/commands.h"
#include "testing/cluster_workload.h"

namespace dra::cli {
namespace {

struct GenClusterFlags {
  testing::ClusterWorkloadParams params;
  std::string output;
};

int Run(const GenClusterFlags& flags) {
  Result<std::string> yaml =
      testing::ClusterWorkloadYaml(testing::GenerateClusterWorkload(flags.params));
  if (!yaml.ok()) {
    std::cerr << "error: internal: seed " << flags.params.seed << ": " << yaml.error() << "\n";
    return 3;
  }
  if (flags.output.empty()) {
    std::cout << *yaml;
    return 0;
  }
  std::ofstream f(flags.output, std::ios::binary | std::ios::trunc);
  f << *yaml;
  if (!f.flush()) {
    std::cerr << "error: " << flags.output << ": cannot write\n";
    return 2;
  }
  return 0;
}

}  // namespace

void AddGenClusterCommand(CLI::App& gen, int& exit_code) {
  auto flags = std::make_shared<GenClusterFlags>();
  CLI::App* cmd = gen.add_subcommand(
      "cluster",
      "Write a seeded random cluster workload (Nodes with taints and allocatable, devices, "
      "DeviceClasses, claim templates, an extended resource, Pods) for kubectl create");
  cmd->add_option("--seed", flags->params.seed, "Seed (the same seed gives the same workload)");
  cmd->add_option("--nodes", flags->params.nodes, "Nodes")->check(CLI::Range(1, 1000));
  cmd->add_option("--pods", flags->params.pods, "Pods (at most 10 per node)")
      ->check(CLI::Range(0, 10000));
  cmd->add_option("-o,--output", flags->output, "Write to this file instead of standard output");
  cmd->callback([flags, &exit_code] { exit_code = Run(*flags); });
}

}  // namespace dra::cli
