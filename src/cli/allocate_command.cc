// dra allocate: run the structured-parameters allocator on a scenario for one
// node and print each claim's AllocationResult, or why there is none.
#include <iostream>
#include <memory>
#include <string>

#include "allocator/report.h"
#include "allocator/scenario.h"
#include "cli/commands.h"
#include "cli/manifest_flags.h"
#include "dra/allocator/allocator.h"

namespace dra::cli {
namespace {

struct AllocateFlags {
  ManifestFlags manifests;
  std::string node;
  bool explain = false;
  std::string output = "yaml";
  std::uint64_t max_steps = allocator::AllocateOptions{}.max_steps;
};

// Exit status: 0 allocated, 1 unschedulable or an allocation error, 2 bad
// input.
int Run(const AllocateFlags& flags) {
  api::ManifestOptions options;
  api::FeatureGates gates;
  if (int rc = flags.manifests.Prepare(options, gates); rc != 0) return rc;
  api::ManifestSet set = api::ReadManifests(flags.manifests.files, options);
  Result<allocator::Scenario> scenario =
      allocator::ScenarioFromManifests(set, allocator::Features::FromGates(gates));
  if (!scenario.ok()) {
    std::cerr << "error: " << scenario.error() << "\n";
    return 2;
  }
  for (api::ResourceClaim& claim : scenario->claims) {
    if (claim.metadata.namespace_.empty()) claim.metadata.namespace_ = flags.manifests.namespace_;
  }
  api::Node node = allocator::FindNode(*scenario, flags.node);
  allocator::Allocator alloc(std::move(scenario->snapshot));
  allocator::AllocateOptions allocate_options;
  allocate_options.explain = flags.explain;
  allocate_options.max_steps = flags.max_steps;
  allocator::AllocateResult result = alloc.Allocate(node, scenario->claims, allocate_options);

  if (flags.output == "text") {
    std::cout << allocator::ReportText(flags.node, scenario->claims, result);
  } else {
    Result<json::Value> tree = allocator::ReportJson(flags.node, scenario->claims, result);
    if (!tree.ok()) {
      std::cerr << "error: internal: " << tree.error() << "\n";
      return 3;
    }
    std::cout << (flags.output == "json" ? json::ToIndentedJson(*tree) + "\n"
                                         : json::ToYaml(*tree));
  }
  return result.outcome == allocator::Outcome::kAllocated ? 0 : 1;
}

}  // namespace

void AddAllocateCommand(CLI::App& app, int& exit_code) {
  auto flags = std::make_shared<AllocateFlags>();
  CLI::App* cmd = app.add_subcommand("allocate",
                                     "Allocate devices on a node for every claim without "
                                     "status.allocation in the scenario "
                                     "(allocated claims are in use)");
  flags->manifests.Register(*cmd, /*with_gates=*/true);
  cmd->add_option("--node", flags->node, "Name of the node to allocate on")->required();
  cmd->add_flag("--explain", flags->explain,
                "When unschedulable, show how many devices each filter removed "
                "per request");
  cmd->add_option("--max-steps", flags->max_steps, "Search step budget (exceeding it is an error)");
  cmd->add_option("-o,--output", flags->output, "Output format")
      ->check(CLI::IsMember({"yaml", "json", "text"}));
  cmd->callback([flags, &exit_code] { exit_code = Run(*flags); });
}

}  // namespace dra::cli
