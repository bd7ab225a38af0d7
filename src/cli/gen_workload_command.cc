// dra gen workload: write one of scheduler_perf's DRA workloads as manifests
// that `dra simulate` (or kubectl apply) reads.
#include <fstream>
#include <iostream>
#include <memory>
#include <string>

#include "cli/commands.h"
#include "scheduler/workloads.h"

namespace dra::cli {
namespace {

struct GenWorkloadFlags {
  std::string name;
  int nodes = 0;
  int pods = 0;
  bool list = false;
  std::string output;
};

int Run(const GenWorkloadFlags& flags) {
  if (flags.list || flags.name.empty()) {
    if (flags.name.empty() && !flags.list) {
      std::cerr << "error: a workload name is required; known workloads:\n";
    }
    std::ostream& out = flags.list ? std::cout : std::cerr;
    for (const scheduler::WorkloadInfo& w : scheduler::Workloads()) {
      out << w.name << "\t" << w.upstream << " (" << w.default_nodes << " nodes, " << w.default_pods
          << (w.steady_state ? " pods pending at a time" : " pods") << "): " << w.description
          << "\n";
    }
    return flags.list ? 0 : 2;
  }
  Result<scheduler::WorkloadManifests> w =
      scheduler::MakeWorkload(flags.name, flags.nodes, flags.pods);
  if (!w.ok()) {
    std::cerr << "error: " << w.error() << "\n";
    return 2;
  }
  std::string header = "# dra gen workload " + flags.name + ": " + std::to_string(w->init_pods) +
                       " init pods, " + std::to_string(w->measured_pods) + " measured pods\n";
  if (flags.output.empty() || flags.output == "-") {
    std::cout << header << w->cluster << w->pods;
    return 0;
  }
  std::ofstream f(flags.output, std::ios::binary | std::ios::trunc);
  f << header << w->cluster << w->pods;
  if (!f.flush()) {
    std::cerr << "error: " << flags.output << ": cannot write\n";
    return 2;
  }
  return 0;
}

}  // namespace

void AddGenWorkloadCommand(CLI::App& gen, int& exit_code) {
  auto flags = std::make_shared<GenWorkloadFlags>();
  CLI::App* cmd = gen.add_subcommand(
      "workload",
      "Write a scheduler_perf DRA workload (nodes, classes, slices, templates, pods) as "
      "manifests; --list names them");
  cmd->add_option("name", flags->name, "Workload name");
  cmd->add_option("--nodes", flags->nodes, "Number of nodes (default: the workload's)")
      ->check(CLI::Range(1, 100000));
  cmd->add_option("--pods", flags->pods,
                  "Measured pods (default: the workload's; steady-state workloads: pods "
                  "pending at a time)")
      ->check(CLI::Range(1, 1000000));
  cmd->add_flag("--list", flags->list, "List the workloads");
  cmd->add_option("-o,--output", flags->output, "Write to this file instead of standard output");
  cmd->callback([flags, &exit_code] { exit_code = Run(*flags); });
}

}  // namespace dra::cli
