#include "allocator/share_id.h"

#include <cstdint>
#include <random>

namespace dra::allocator {

std::string NewShareId() {
  thread_local std::mt19937_64 rng{std::random_device{}()};
  std::uint64_t hi = rng(), lo = rng();
  hi = (hi & ~0xF000ull) | 0x4000ull;              // version 4
  lo = (lo & ~(0xC0ull << 56)) | (0x80ull << 56);  // RFC 4122 variant
  static constexpr char kHex[] = "0123456789abcdef";
  std::string out;
  out.reserve(36);
  for (int i = 0; i < 32; ++i) {
    std::uint64_t word = i < 16 ? hi : lo;
    int shift = 60 - 4 * (i % 16);
    out += kHex[(word >> shift) & 0xF];
    if (i == 7 || i == 11 || i == 15 || i == 19) out += '-';
  }
  return out;
}

}  // namespace dra::allocator
