// Why claims could not be allocated on a node: for each request entry, how
// many devices each filtering stage removed and which stage left none.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "dra/json/value.h"

namespace dra::allocator {

// Filtering stages in the order they are applied to a request entry's devices.
enum class Stage : std::uint8_t {
  kNode,               // not visible from the node, or in an incomplete/invalid pool
  kBindingConditions,  // has binding conditions while the feature is off
  kClassSelector,      // rejected by the DeviceClass selectors
  kRequestSelectors,   // rejected by the request's own selectors
  kAllocated,          // already allocated to a claim in use
  kCounters,           // shared counters exhausted by allocated devices, or feature off
  kCapacity,           // requested capacity does not fit
  kTaints,             // an untolerated NoSchedule/NoExecute taint
  kCount,              // fewer devices left than requested
  kConstraints,        // enough devices each, but no combination satisfies constraints
                       // and the other requests together
};
inline constexpr int kStageCount = 10;

const char* StageName(Stage stage);  // "node", "classSelector", ...

struct EntryExplanation {
  std::string claim;             // namespace/name
  std::string request;           // request or request/subrequest
  std::uint64_t candidates = 0;  // devices in the snapshot considered
  std::uint64_t requested = 0;   // devices needed (All: every remaining one)
  bool all_mode = false;
  std::uint64_t removed[kStageCount] = {};  // devices removed per stage
  std::uint64_t remaining = 0;              // devices that passed every filter
  // The stage that removed the last remaining devices or made the count
  // impossible. When every entry has enough devices on its own, the entries
  // of claims with constraints are blocked by kConstraints, and without any
  // constraint every entry by kCount (the requests together need more than
  // is left). Meaningful only when `blocks`.
  Stage blocking = Stage::kConstraints;
  // False for an entry that had enough devices while another entry of the
  // pod was the one that could not be served.
  bool blocks = true;
  // When no device visible from the node matches the request's DeviceClass:
  // the drivers whose devices match it elsewhere in the cluster (sorted);
  // empty also when no device anywhere matches.
  std::vector<std::string> drivers_elsewhere;
  bool class_absent_here = false;  // no device visible from the node matches the class
  std::string note;                // e.g. a selector error met while explaining
};

struct Explanation {
  std::string node;
  std::vector<EntryExplanation> entries;
  std::string summary;  // one line
};

std::string ExplanationText(const Explanation& explanation);
// "no devices of driver X on this node" for an entry with class_absent_here.
std::string AbsentText(const EntryExplanation& entry);
// The JSON form `dra allocate --explain`, `dra simulate` and `dra explain`
// print (docs/ALLOCATE.md); ExplanationJson indents it.
json::Value ExplanationValue(const Explanation& explanation);
std::string ExplanationJson(const Explanation& explanation);

}  // namespace dra::allocator
