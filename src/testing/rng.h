// The seeded generators' random numbers (scenario_generator.cc,
// cluster_workload.cc): splitmix64, whose output is the same on every
// platform, unlike std::*_distribution. Not thread-safe: one per generator.
#pragma once

#include <cstdint>
#include <vector>

#include "dra/util/random.h"

namespace dra::testing {

// util::SplitMix64 with the generators' own seeding (the seed is spread over
// the state first) and the draws they use.
class Rng {
 public:
  explicit Rng(std::uint64_t seed) : bits_(seed * 0x9E3779B97F4A7C15ULL + 0x2545F4914F6CDD1DULL) {}
  std::uint64_t Next() { return bits_.Next(); }
  // Uniform in [0, n); n > 0.
  int Below(int n) { return n <= 1 ? 0 : static_cast<int>(Next() % static_cast<std::uint64_t>(n)); }
  // Uniform in [lo, hi].
  int Between(int lo, int hi) { return lo + Below(hi - lo + 1); }
  bool Chance(double p) {
    if (p <= 0) return false;
    if (p >= 1) return true;
    return bits_.NextDouble() < p;
  }
  template <class T>
  const T& Pick(const std::vector<T>& v) {
    return v[static_cast<std::size_t>(Below(static_cast<int>(v.size())))];
  }

 private:
  util::SplitMix64 bits_;
};

}  // namespace dra::testing
