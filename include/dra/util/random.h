// Random numbers and the identifiers made of them, one implementation of each
// for all of dra:
//   SplitMix64        a seeded generator whose sequence is the same on every
//                     platform (std::*_distribution's are not), for
//                     everything that must be reproducible from a seed;
//   RandomSeed        64 bits from the operating system, to seed a
//                     SplitMix64 where values must differ between runs;
//   FormatUuid        128 bits as 8-4-4-4-12 lowercase hex;
//   UuidV4            the same with RFC 4122's version-4 and variant bits,
//                     the form of Kubernetes UIDs and DRA share IDs;
//   GenerateName      the API server's generateName: the prefix cut to 58
//                     characters and 5 random ones from its alphabet
//                     (k8s.io/apiserver/pkg/storage/names and
//                     k8s.io/apimachinery/pkg/util/rand at the pinned release).
// Not thread-safe: each SplitMix64 belongs to one thread at a time.
#pragma once

#include <cstdint>
#include <cstdio>
#include <random>
#include <string>
#include <string_view>

namespace dra::util {

// splitmix64 (Steele, Lea and Flood, "Fast splittable pseudorandom number
// generators", 2014): the state advances by a fixed odd constant and each
// output is the state mixed. The raw state is the seed: SplitMix64(s) always
// yields the same sequence.
class SplitMix64 {
 public:
  explicit SplitMix64(std::uint64_t state) : state_(state) {}

  std::uint64_t Next() {
    std::uint64_t z = (state_ += 0x9e3779b97f4a7c15ULL);
    z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ULL;
    z = (z ^ (z >> 27)) * 0x94d049bb133111ebULL;
    return z ^ (z >> 31);
  }
  // Next() % n. REQUIRES: n > 0. (The modulo bias is below 2^-40 for the
  // small n used here, and keeping it keeps seeded outputs stable.)
  std::uint64_t Below(std::uint64_t n) { return Next() % n; }
  // Uniform in [0, 1), from the top 53 bits.
  double NextDouble() { return static_cast<double>(Next() >> 11) * (1.0 / 9007199254740992.0); }

 private:
  std::uint64_t state_;
};

inline std::uint64_t RandomSeed() {
  std::random_device device;
  return (static_cast<std::uint64_t>(device()) << 32) ^ device();
}

inline std::string FormatUuid(std::uint64_t hi, std::uint64_t lo) {
  char buf[37];
  std::snprintf(buf, sizeof buf, "%08x-%04x-%04x-%04x-%012llx", static_cast<unsigned>(hi >> 32),
                static_cast<unsigned>((hi >> 16) & 0xffff), static_cast<unsigned>(hi & 0xffff),
                static_cast<unsigned>(lo >> 48),
                static_cast<unsigned long long>(lo & 0xffffffffffffULL));
  return buf;
}

inline std::string UuidV4(std::uint64_t hi, std::uint64_t lo) {
  hi = (hi & ~0xf000ULL) | 0x4000ULL;              // version 4
  lo = (lo & ~(0xc0ULL << 56)) | (0x80ULL << 56);  // RFC 4122 variant
  return FormatUuid(hi, lo);
}

inline std::string UuidV4(SplitMix64& rng) {
  std::uint64_t hi = rng.Next();
  std::uint64_t lo = rng.Next();
  return UuidV4(hi, lo);
}

inline std::string GenerateName(std::string_view prefix, SplitMix64& rng) {
  static constexpr std::string_view kAlphabet = "bcdfghjklmnpqrstvwxz2456789";
  constexpr std::size_t kMaxGeneratedBase = 58;  // 63 - 5 random characters
  std::string name(prefix.substr(0, kMaxGeneratedBase));
  for (int i = 0; i < 5; ++i) name += kAlphabet[rng.Below(kAlphabet.size())];
  return name;
}

}  // namespace dra::util
