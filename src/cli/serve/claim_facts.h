// What a dashboard state reads of a ResourceClaim, kept beside the claim as
// one short line of text so that a state never decodes the claims: on 5,000
// nodes decoding the 20,000 claims of each state took as long as everything
// else together.
#pragma once

#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "dra/api/resource.h"
#include "dra/util/result.h"

namespace dra::cli::serve {

// A claim counts in one: no allocation; allocated and reserved for nobody;
// reserved; allocated while being deleted.
enum class ClaimPhase : char {
  kPending = 'P',
  kAllocated = 'A',
  kReserved = 'R',
  kDeallocating = 'D'
};

// One allocation result.
struct AllocatedDevice {
  std::string_view request, driver, pool, device;
  bool admin_access = false;
  // Consumed capacity: (name, quantity in canonical form).
  std::vector<std::pair<std::string_view, std::string_view>> consumed;
};

// Views into the text given to ParseClaimFacts: valid as long as it is.
struct ClaimFacts {
  std::string_view namespace_, name;
  ClaimPhase phase = ClaimPhase::kPending;
  std::vector<std::string_view> pods;  // reservedFor entries of resource "pods", in order
  std::vector<AllocatedDevice> devices;
};

// The facts of `claim` as text: space-separated fields, one line for the
// claim, one per pod and one per result. Kubernetes names hold neither
// spaces nor newlines, and quantities print canonically without them.
std::string EncodeClaimFacts(const api::ResourceClaim& claim);

// Fails on text EncodeClaimFacts did not write.
Result<ClaimFacts> ParseClaimFacts(std::string_view text);

}  // namespace dra::cli::serve
