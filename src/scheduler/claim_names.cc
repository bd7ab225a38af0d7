#include "scheduler/claim_names.h"

#include <cstdio>

namespace dra::scheduler {

std::uint64_t Rng::Next() {
  std::uint64_t z = (state_ += 0x9e3779b97f4a7c15ULL);
  z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ULL;
  z = (z ^ (z >> 27)) * 0x94d049bb133111ebULL;
  return z ^ (z >> 31);
}

std::string ClaimNamePrefix(const std::string& pod_name, const std::string& entry_name) {
  // 63 characters at most for a label-compatible name: 57 + "-" + 5 random.
  constexpr std::size_t kMaxBase = 57;
  std::string prefix = pod_name + "-" + entry_name + "-";
  if (prefix.size() <= kMaxBase) return prefix;
  std::size_t total = prefix.size();
  return pod_name.substr(0, pod_name.size() * kMaxBase / total) + "-" +
         entry_name.substr(0, entry_name.size() * kMaxBase / total);
}

std::string GenerateName(const std::string& prefix, Rng& rng) {
  static constexpr char kAlphabet[] = "bcdfghjklmnpqrstvwxz2456789";
  constexpr std::size_t kMaxGeneratedBase = 58;
  std::string name = prefix.substr(0, kMaxGeneratedBase);
  for (int i = 0; i < 5; ++i) name += kAlphabet[rng.Below(sizeof(kAlphabet) - 1)];
  return name;
}

std::string NewUid(Rng& rng) {
  std::uint64_t a = rng.Next(), b = rng.Next();
  char buf[40];
  std::snprintf(buf, sizeof(buf), "%08x-%04x-4%03x-%04x-%012llx", static_cast<unsigned>(a >> 32),
                static_cast<unsigned>((a >> 16) & 0xffff), static_cast<unsigned>(a & 0xfff),
                static_cast<unsigned>(0x8000 | (b >> 48 & 0x3fff)),
                static_cast<unsigned long long>(b & 0xffffffffffffULL));
  return buf;
}

}  // namespace dra::scheduler
