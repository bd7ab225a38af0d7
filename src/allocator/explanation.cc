#include "dra/allocator/explanation.h"

#include <nlohmann/json.hpp>

namespace dra::allocator {

const char* StageName(Stage stage) {
  switch (stage) {
    case Stage::kNode:
      return "node";
    case Stage::kClassSelector:
      return "classSelector";
    case Stage::kRequestSelectors:
      return "requestSelectors";
    case Stage::kBindingConditions:
      return "bindingConditions";
    case Stage::kAllocated:
      return "allocated";
    case Stage::kCounters:
      return "counters";
    case Stage::kCapacity:
      return "capacity";
    case Stage::kTaints:
      return "taints";
    case Stage::kCount:
      return "count";
    case Stage::kConstraints:
      return "constraints";
  }
  return "unknown";
}

std::string ExplanationText(const Explanation& explanation) {
  std::string out = "unschedulable on node " + explanation.node + ": " + explanation.summary + "\n";
  for (const EntryExplanation& e : explanation.entries) {
    out += "  claim " + e.claim + ", request " + e.request + (e.all_mode ? " (All)" : "") + ": " +
           std::to_string(e.candidates) + " devices";
    for (int s = 0; s < kStageCount; ++s) {
      if (e.removed[s] == 0) continue;
      out += ", -" + std::to_string(e.removed[s]) + " " + StageName(static_cast<Stage>(s));
    }
    out += " -> " + std::to_string(e.remaining) + " left, " + std::to_string(e.requested) +
           " needed; blocked by " + StageName(e.blocking) + "\n";
    if (!e.note.empty()) out += "    note: " + e.note + "\n";
  }
  return out;
}

std::string ExplanationJson(const Explanation& explanation) {
  nlohmann::ordered_json entries = nlohmann::ordered_json::array();
  for (const EntryExplanation& e : explanation.entries) {
    nlohmann::ordered_json removed = nlohmann::ordered_json::object();
    for (int s = 0; s < kStageCount; ++s) {
      removed[StageName(static_cast<Stage>(s))] = e.removed[s];
    }
    nlohmann::ordered_json j = {{"claim", e.claim},
                                {"request", e.request},
                                {"allocationMode", e.all_mode ? "All" : "ExactCount"},
                                {"candidates", e.candidates},
                                {"removed", removed},
                                {"remaining", e.remaining},
                                {"requested", e.requested},
                                {"blockedBy", StageName(e.blocking)}};
    if (!e.note.empty()) j["note"] = e.note;
    entries.push_back(std::move(j));
  }
  nlohmann::ordered_json out = {
      {"node", explanation.node}, {"summary", explanation.summary}, {"requests", entries}};
  return out.dump(2);
}

}  // namespace dra::allocator
