#include "cli/serve/claim_facts.h"

namespace dra::cli::serve {
namespace {

// The fields of one line.
std::vector<std::string_view> Fields(std::string_view line) {
  std::vector<std::string_view> out;
  while (!line.empty()) {
    const std::size_t space = line.find(' ');
    out.push_back(line.substr(0, space));
    if (space == std::string_view::npos) break;
    line.remove_prefix(space + 1);
  }
  return out;
}

ClaimPhase PhaseOf(const api::ResourceClaim& claim) {
  if (!claim.status.allocation) return ClaimPhase::kPending;
  if (!claim.metadata.deletion_timestamp.IsZero()) return ClaimPhase::kDeallocating;
  if (!claim.status.reserved_for.empty()) return ClaimPhase::kReserved;
  return ClaimPhase::kAllocated;
}

}  // namespace

std::string EncodeClaimFacts(const api::ResourceClaim& claim) {
  std::string out = claim.metadata.namespace_ + " " + claim.metadata.name + " " +
                    static_cast<char>(PhaseOf(claim));
  for (const api::ResourceClaimConsumerReference& r : claim.status.reserved_for) {
    if (r.resource == "pods") out += "\np " + r.name;
  }
  if (claim.status.allocation) {
    for (const api::DeviceRequestAllocationResult& d : claim.status.allocation->devices.results) {
      out += "\nr " + d.request + " " + d.driver + " " + d.pool + " " + d.device +
             (d.admin_access.value_or(false) ? " 1" : " 0");
      for (const auto& [name, q] : d.consumed_capacity) {
        out += " " + name + " " + q.CanonicalString();
      }
    }
  }
  out.shrink_to_fit();
  return out;
}

Result<ClaimFacts> ParseClaimFacts(std::string_view text) {
  ClaimFacts f;
  bool first = true;
  while (!text.empty() || first) {
    const std::size_t end = text.find('\n');
    const std::vector<std::string_view> fields = Fields(text.substr(0, end));
    text = end == std::string_view::npos ? std::string_view() : text.substr(end + 1);
    if (first) {
      first = false;
      if (fields.size() != 3 || fields[2].size() != 1) return Error{"claim facts: bad first line"};
      f.namespace_ = fields[0];
      f.name = fields[1];
      f.phase = static_cast<ClaimPhase>(fields[2][0]);
    } else if (fields.size() == 2 && fields[0] == "p") {
      f.pods.push_back(fields[1]);
    } else if (fields.size() >= 6 && fields[0] == "r" && fields.size() % 2 == 0) {
      AllocatedDevice d{fields[1], fields[2], fields[3], fields[4], fields[5] == "1", {}};
      for (std::size_t i = 6; i + 1 < fields.size(); i += 2) {
        d.consumed.emplace_back(fields[i], fields[i + 1]);
      }
      f.devices.push_back(std::move(d));
    } else {
      return Error{"claim facts: bad line"};
    }
  }
  return f;
}

}  // namespace dra::cli::serve
