// IsValidSemver against known valid and invalid versions and, for random text,
// against upstream's regex in RE2.
#include <gtest/gtest.h>
#include <re2/re2.h>

#include <random>
#include <string>

#include "dra/api/quantity.h"

namespace dra::api {
namespace {

// semverRe of k8s.io/kubernetes/pkg/apis/resource/validation/validation.go,
// assembled; RE2's \d is ASCII-only like Go's.
constexpr char kSemverPattern[] =
    R"(^(0|[1-9]\d*)\.(0|[1-9]\d*)\.(0|[1-9]\d*))"
    R"((-(0|[1-9]\d*|\d*[a-zA-Z-][0-9a-zA-Z-]*)(\.(0|[1-9]\d*|\d*[a-zA-Z-][0-9a-zA-Z-]*))*)?)"
    R"((\+[0-9a-zA-Z-]+(\.[0-9a-zA-Z-]+)*)?$)";

TEST(SemverTest, SpecTable) {
  for (const char* v : {"1.2.3", "0.0.0", "1.2.3-alpha.1", "1.2.3-0", "1.2.3-rc.1+sha.5114f85",
                        "1.2.3-alpha+001.002"}) {
    EXPECT_TRUE(IsValidSemver(v)) << v;
  }
  for (const char* v : {"v1.2.3", "1.2", "01.2.3", "1.2.3-alpha.01", "1.2.3-00", "1.2.3-", "1.2.3+",
                        "1.2.3-alpha..1", "1.2.3 "}) {
    EXPECT_FALSE(IsValidSemver(v)) << v;
  }
}

TEST(SemverTest, SpecConsequences) {
  EXPECT_TRUE(IsValidSemver("1.2.3-0a"));
  EXPECT_FALSE(IsValidSemver("1.2.3-01"));
  EXPECT_TRUE(IsValidSemver("1.2.3+001"));
  EXPECT_FALSE(IsValidSemver("1.2.3.4"));
  EXPECT_FALSE(IsValidSemver("1.02.3"));
  EXPECT_FALSE(IsValidSemver("1.2.03"));
}

TEST(SemverTest, EdgeCases) {
  EXPECT_TRUE(IsValidSemver("10.20.30"));
  EXPECT_TRUE(IsValidSemver("1.2.3--"));
  EXPECT_TRUE(IsValidSemver("1.2.3-a-b.c-d+e-f.g-h"));
  EXPECT_TRUE(IsValidSemver("1.2.3-0.0.0"));
  EXPECT_TRUE(IsValidSemver("1.2.3+0.00.-"));
  EXPECT_TRUE(IsValidSemver("99999999999999999999.0.0"));
  EXPECT_FALSE(IsValidSemver(""));
  EXPECT_FALSE(IsValidSemver("1"));
  EXPECT_FALSE(IsValidSemver("1.2."));
  EXPECT_FALSE(IsValidSemver(".1.2"));
  EXPECT_FALSE(IsValidSemver("1..2"));
  EXPECT_FALSE(IsValidSemver("1.2.3-+x"));
  EXPECT_FALSE(IsValidSemver("1.2.3+x+y"));
  EXPECT_FALSE(IsValidSemver("1.2.3+x."));
  EXPECT_FALSE(IsValidSemver("1.2.3-x."));
  EXPECT_FALSE(IsValidSemver("1.2.3-é"));
  EXPECT_FALSE(IsValidSemver("1.2.3\n"));
  EXPECT_FALSE(IsValidSemver(" 1.2.3"));
  EXPECT_FALSE(IsValidSemver("1.2.3_4"));
  EXPECT_FALSE(IsValidSemver(std::string("1.2.3\0", 6)));
}

TEST(SemverTest, AgreesWithSpecRegexOnRandomText) {
  const RE2 regex(kSemverPattern);
  ASSERT_TRUE(regex.ok()) << regex.error();
  std::mt19937 rng(20260723);
  const std::string alphabet = "0000111999..--++aZ-x \n";
  std::uniform_int_distribution<std::size_t> pick(0, alphabet.size() - 1);
  std::uniform_int_distribution<int> length(0, 16);
  int valid = 0;
  for (int i = 0; i < 200000; ++i) {
    std::string text = (i % 2 == 0) ? "1.2.3" : "";
    for (int n = length(rng); n > 0; --n) text += alphabet[pick(rng)];
    const bool expected = RE2::FullMatch(text, regex);
    valid += expected ? 1 : 0;
    ASSERT_EQ(IsValidSemver(text), expected) << "'" << text << "'";
  }
  EXPECT_GT(valid, 1000);  // the sample reaches the accepting paths
}

}  // namespace
}  // namespace dra::api
