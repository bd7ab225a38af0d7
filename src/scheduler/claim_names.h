// Names and identities the simulated control plane hands out: generated claim
// names (resource-claim controller + kube-apiserver's generateName) and UIDs.
#pragma once

#include <cstdint>
#include <string>

namespace dra::scheduler {

// splitmix64: a small PRNG whose output is the same on every platform.
class Rng {
 public:
  explicit Rng(std::uint64_t seed) : state_(seed) {}
  std::uint64_t Next();
  // Uniform in [0, n). REQUIRES: n > 0.
  std::uint64_t Below(std::uint64_t n) { return Next() % n; }

 private:
  std::uint64_t state_;
};

// The generateName prefix the resource-claim controller uses for a pod's
// template claim: "<pod>-<entry>-", both parts shortened in proportion to
// their lengths when the prefix would exceed 57 characters.
std::string ClaimNamePrefix(const std::string& pod_name, const std::string& entry_name);

// kube-apiserver's generateName: the prefix cut to 58 characters plus five
// random characters from apimachinery's alphabet (no vowels, no 0/1/3).
std::string GenerateName(const std::string& prefix, Rng& rng);

// A UUID-shaped identifier drawn from `rng`.
std::string NewUid(Rng& rng);

}  // namespace dra::scheduler
