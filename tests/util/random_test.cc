#include "dra/util/random.h"

#include <gtest/gtest.h>

#include <regex>
#include <set>
#include <string>

namespace dra::util {
namespace {

// The first outputs of splitmix64 from state 0, as Vigna's reference
// implementation (prng.di.unimi.it/splitmix64.c) prints them.
TEST(SplitMix64, MatchesTheReferenceSequence) {
  SplitMix64 rng(0);
  EXPECT_EQ(rng.Next(), 0xe220a8397b1dcdafULL);
  EXPECT_EQ(rng.Next(), 0x6e789e6aa1b965f4ULL);
  EXPECT_EQ(rng.Next(), 0x06c45d188009454fULL);
}

TEST(SplitMix64, SameSeedSameSequenceAndBounds) {
  SplitMix64 a(42), b(42);
  for (int i = 0; i < 1000; ++i) {
    std::uint64_t below = a.Below(27);
    EXPECT_EQ(below, b.Below(27));
    EXPECT_LT(below, 27u);
    double d = a.NextDouble();
    EXPECT_EQ(d, b.NextDouble());
    EXPECT_GE(d, 0.0);
    EXPECT_LT(d, 1.0);
  }
}

TEST(Uuid, FormatsAndSetsVersionAndVariant) {
  EXPECT_EQ(FormatUuid(0x0123456789abcdefULL, 0xfedcba9876543210ULL),
            "01234567-89ab-cdef-fedc-ba9876543210");
  // Version 4 in the 13th digit, variant 10xx in the 17th.
  EXPECT_EQ(UuidV4(0x0123456789abcdefULL, 0xfedcba9876543210ULL),
            "01234567-89ab-4def-bedc-ba9876543210");
  SplitMix64 rng(7);
  const std::regex v4("^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$");
  std::set<std::string> seen;
  for (int i = 0; i < 100; ++i) {
    std::string id = UuidV4(rng);
    EXPECT_TRUE(std::regex_match(id, v4)) << id;
    seen.insert(id);
  }
  EXPECT_EQ(seen.size(), 100u);
}

TEST(GenerateName, ApiServerShape) {
  SplitMix64 rng(1);
  std::string name = GenerateName("pod-gpu-", rng);
  ASSERT_EQ(name.size(), 8u + 5u);
  EXPECT_EQ(name.substr(0, 8), "pod-gpu-");
  for (char c : name.substr(8)) {
    EXPECT_NE(std::string("bcdfghjklmnpqrstvwxz2456789").find(c), std::string::npos) << c;
  }
  // The prefix is cut to 58 characters so that the name fits 63.
  std::string long_name = GenerateName(std::string(70, 'a'), rng);
  EXPECT_EQ(long_name.size(), 63u);
  EXPECT_EQ(long_name.substr(0, 58), std::string(58, 'a'));
}

}  // namespace
}  // namespace dra::util
