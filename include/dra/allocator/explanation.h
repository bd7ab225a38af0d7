// Why claims could not be allocated on a node: for each request entry, how
// many devices each filtering stage removed and which stage left none.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

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
  // impossible; kConstraints when each filter left enough devices.
  Stage blocking = Stage::kConstraints;
  std::string note;  // e.g. a selector error met while explaining
};

struct Explanation {
  std::string node;
  std::vector<EntryExplanation> entries;
  std::string summary;  // one line
};

std::string ExplanationText(const Explanation& explanation);
std::string ExplanationJson(const Explanation& explanation);  // indented JSON

}  // namespace dra::allocator
