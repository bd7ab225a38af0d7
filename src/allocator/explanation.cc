#include "dra/allocator/explanation.h"

#include "dra/json/build.h"

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

std::string AbsentText(const EntryExplanation& e) {
  if (e.drivers_elsewhere.empty()) return "no device in the cluster matches its device class";
  std::string out = "no devices of driver ";
  for (std::size_t i = 0; i < e.drivers_elsewhere.size(); ++i) {
    out += (i == 0 ? "" : " or ") + e.drivers_elsewhere[i];
  }
  return out + " on this node";
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
           " needed; " +
           (e.blocks ? std::string("blocked by ") + StageName(e.blocking)
                     : std::string("not the blocker")) +
           "\n";
    if (e.class_absent_here) out += "    " + AbsentText(e) + "\n";
    if (!e.note.empty()) out += "    note: " + e.note + "\n";
  }
  return out;
}

json::Value ExplanationValue(const Explanation& explanation) {
  using json::Put;
  using json::Str;
  using json::Uint;
  json::Value entries = json::Value::Array();
  for (const EntryExplanation& e : explanation.entries) {
    json::Value removed = json::Value::Object();
    for (int s = 0; s < kStageCount; ++s) {
      Put(removed, StageName(static_cast<Stage>(s)), Uint(e.removed[s]));
    }
    json::Value j = json::Value::Object();
    Put(j, "claim", Str(e.claim));
    Put(j, "request", Str(e.request));
    Put(j, "allocationMode", Str(e.all_mode ? "All" : "ExactCount"));
    Put(j, "candidates", Uint(e.candidates));
    Put(j, "removed", std::move(removed));
    Put(j, "remaining", Uint(e.remaining));
    Put(j, "requested", Uint(e.requested));
    Put(j, "blockedBy", e.blocks ? Str(StageName(e.blocking)) : json::Value());
    if (e.class_absent_here) {
      Put(j, "absentHere", Str(AbsentText(e)));
      json::Value drivers = json::Value::Array();
      for (const std::string& d : e.drivers_elsewhere) drivers.items.push_back(Str(d));
      Put(j, "driversElsewhere", std::move(drivers));
    }
    if (!e.note.empty()) Put(j, "note", Str(e.note));
    entries.items.push_back(std::move(j));
  }
  json::Value out = json::Value::Object();
  Put(out, "node", Str(explanation.node));
  Put(out, "summary", Str(explanation.summary));
  Put(out, "requests", std::move(entries));
  return out;
}

std::string ExplanationJson(const Explanation& explanation) {
  return json::ToIndentedJson(ExplanationValue(explanation), 2);
}

}  // namespace dra::allocator
