// The names the resource-claim controller gives the claims it creates from a
// pod's templates (pkg/controller/resourceclaim/controller.go at the pinned
// release): "<pod>-<entry>-" shortened to fit, then the API server's
// generateName suffix (util::GenerateName).
#pragma once

#include <string>

namespace dra::scheduler {

// "<pod>-<entry>-", or when longer than 57 characters both parts cut in
// proportion to their lengths and joined by "-", so that the generated name
// stays within 63 characters.
std::string ClaimNamePrefix(const std::string& pod_name, const std::string& entry_name);

}  // namespace dra::scheduler
