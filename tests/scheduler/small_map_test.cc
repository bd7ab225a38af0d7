// SmallMap against std::map: the same entries, in the same order, after
// every step of random inserts, updates, lookups and erasures.
#include "scheduler/small_map.h"

#include <gtest/gtest.h>

#include <map>
#include <random>
#include <string>
#include <vector>

namespace dra::scheduler {
namespace {

TEST(SmallMapTest, BehavesAsStdMap) {
  std::mt19937 rng(11);
  SmallMap<std::string, long> small;
  std::map<std::string, long> reference;
  for (int step = 0; step < 5000; ++step) {
    const std::string key = "k" + std::to_string(rng() % 40);
    switch (rng() % 4) {
      case 0:
      case 1:
        small[key] += step;
        reference[key] += step;
        break;
      case 2: {
        auto it = small.find(key);
        auto ref = reference.find(key);
        ASSERT_EQ(it == small.end(), ref == reference.end()) << key;
        if (it != small.end()) {
          EXPECT_EQ(it->second, ref->second);
        }
        break;
      }
      case 3:
        if (auto it = small.find(key); it != small.end()) {
          small.erase(it);
          reference.erase(key);
        }
        break;
    }
    ASSERT_EQ(small.size(), reference.size());
    ASSERT_TRUE(std::equal(
        small.begin(), small.end(), reference.begin(), reference.end(),
        [](const auto& a, const auto& b) { return a.first == b.first && a.second == b.second; }));
  }
  const SmallMap<std::string, long>& read = small;
  EXPECT_EQ(read.find("absent"), read.end());
  EXPECT_FALSE(read.empty());
}

}  // namespace
}  // namespace dra::scheduler
