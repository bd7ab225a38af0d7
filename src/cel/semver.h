// kubernetes.Semver: Semantic Versioning 2.0.0 values as the Kubernetes CEL
// semver library defines them (strict parsing, optional normalization,
// precedence ordering that ignores build metadata).
#pragma once

#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

#include "dra/util/result.h"

namespace dra::cel {

struct Semver {
  std::uint64_t major = 0;
  std::uint64_t minor = 0;
  std::uint64_t patch = 0;
  // Dot-separated pre-release identifiers; build metadata is dropped (it
  // never affects precedence or equality).
  std::vector<std::string> pre_release;
};

// Strict semver 2.0.0 parse; errors use the upstream library's wording
// ("No Major.Minor.Patch elements found", ...).
Result<Semver> ParseSemver(std::string_view text);
// The `semver(s, true)` form: strips a leading 'v', pads missing minor and
// patch components, strips leading zeros, then parses strictly.
Result<Semver> ParseSemverNormalized(std::string_view text);

// Precedence: -1, 0, 1.
int CompareSemver(const Semver& a, const Semver& b);

}  // namespace dra::cel
