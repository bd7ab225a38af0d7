// Arbitrary scenario text through the allocator: every claim without an
// allocation is allocated on every node the scenario names (and on "node-1"),
// with all features on and a small step budget, and the outcome is reported.
// Invariants checked: an allocation has one result per claim, and no claim
// gets more than 32 devices.
#include <cstddef>
#include <cstdint>
#include <string_view>

#include "allocator/report.h"
#include "allocator/scenario.h"
#include "dra/allocator/allocator.h"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  std::string_view text(reinterpret_cast<const char*>(data), size);
  dra::allocator::Features features;
  features.admin_access = features.prioritized_list = features.partitionable_devices = true;
  features.device_taints = features.device_binding_and_status = true;
  features.consumable_capacity = (size % 2) == 0;
  auto scenario = dra::allocator::ParseScenario(text, features);
  if (!scenario.ok()) return 0;
  dra::allocator::Allocator allocator(scenario->snapshot);
  dra::allocator::AllocateOptions options;
  options.max_steps = 20000;
  options.explain = true;
  std::vector<std::string> nodes = {"node-1"};
  for (const auto& n : scenario->nodes) nodes.push_back(n.metadata.name);
  for (const auto& name : nodes) {
    dra::api::Node node = dra::allocator::FindNode(*scenario, name);
    auto result = allocator.Allocate(node, scenario->claims, options);
    if (result.outcome == dra::allocator::Outcome::kAllocated) {
      if (result.allocations.size() != scenario->claims.size()) __builtin_trap();
      for (const auto& a : result.allocations) {
        if (a.devices.results.size() > 32) __builtin_trap();
      }
    }
    (void)dra::allocator::ReportJson(name, scenario->claims, result);
    (void)dra::allocator::ReportText(name, scenario->claims, result);
  }
  return 0;
}
