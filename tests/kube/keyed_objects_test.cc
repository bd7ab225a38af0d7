#include "kube/keyed_objects.h"

#include <gtest/gtest.h>

#include <map>
#include <memory>
#include <string>

#include "dra/util/random.h"

namespace dra::kube::internal {
namespace {

ErasedObject Obj(int v) { return std::make_shared<const int>(v); }
int ValueOf(const ErasedObject& o) { return *static_cast<const int*>(o.get()); }

std::map<std::string, int> Contents(const KeyedObjects& t) {
  std::map<std::string, int> out;
  t.ForEach([&](std::string_view key, const ErasedObject& o) {
    EXPECT_TRUE(out.emplace(std::string(key), ValueOf(o)).second) << "key twice: " << key;
  });
  return out;
}

TEST(KeyedObjects, PutFindReplaceErase) {
  KeyedObjects t;
  EXPECT_EQ(t.Find("a"), nullptr);
  EXPECT_EQ(t.Erase("a"), nullptr);
  EXPECT_EQ(t.Put("default/a", Obj(1)), nullptr);
  EXPECT_EQ(t.Put("b", Obj(2)), nullptr);
  ASSERT_NE(t.Find("default/a"), nullptr);
  EXPECT_EQ(ValueOf(*t.Find("default/a")), 1);
  ErasedObject old = t.Put("default/a", Obj(3));
  ASSERT_NE(old, nullptr);
  EXPECT_EQ(ValueOf(old), 1);
  EXPECT_EQ(t.size(), 2u);
  EXPECT_EQ(ValueOf(*t.Find("default/a")), 3);
  EXPECT_EQ(t.Find("default/"), nullptr);  // a prefix is another key
  EXPECT_EQ(t.Find(""), nullptr);
  ErasedObject gone = t.Erase("b");
  ASSERT_NE(gone, nullptr);
  EXPECT_EQ(ValueOf(gone), 2);
  EXPECT_EQ(t.Find("b"), nullptr);
  EXPECT_EQ(t.size(), 1u);
  EXPECT_EQ(Contents(t), (std::map<std::string, int>{{"default/a", 3}}));
}

// Random puts, replacements and erasures over a small key space (long runs
// of colliding slots, erasures inside them, growth and the compaction of
// erased keys), checked against std::map after every step.
TEST(KeyedObjects, AgreesWithAMapUnderRandomChanges) {
  for (std::uint64_t seed : {1u, 2u, 3u, 4u}) {
    SCOPED_TRACE(seed);
    util::SplitMix64 rng(seed);
    KeyedObjects t;
    std::map<std::string, int> want;
    const int keys = seed % 2 == 0 ? 40 : 3000;
    for (int step = 0; step < 20000; ++step) {
      std::string key = "ns-" + std::to_string(rng.Below(7)) + "/object-" +
                        std::to_string(rng.Below(static_cast<std::uint64_t>(keys)));
      const int op = static_cast<int>(rng.Below(10));
      if (op < 5) {
        ErasedObject old = t.Put(key, Obj(step));
        auto it = want.find(key);
        ASSERT_EQ(old != nullptr, it != want.end()) << key;
        if (old != nullptr) {
          EXPECT_EQ(ValueOf(old), it->second);
        }
        want[key] = step;
      } else if (op < 9) {
        ErasedObject old = t.Erase(key);
        auto it = want.find(key);
        ASSERT_EQ(old != nullptr, it != want.end()) << key;
        if (old != nullptr) {
          EXPECT_EQ(ValueOf(old), it->second);
          want.erase(it);
        }
      } else {
        const ErasedObject* found = t.Find(key);
        auto it = want.find(key);
        ASSERT_EQ(found != nullptr, it != want.end()) << key;
        if (found != nullptr) {
          EXPECT_EQ(ValueOf(*found), it->second);
        }
      }
      ASSERT_EQ(t.size(), want.size());
      // Every entry stays reachable: an erasure that broke a probe run
      // would hide the keys after it.
      if (step % 97 == 0) {
        for (const auto& [k, v] : want) {
          const ErasedObject* found = t.Find(k);
          ASSERT_NE(found, nullptr) << k << " at step " << step;
          ASSERT_EQ(ValueOf(*found), v);
        }
        ASSERT_EQ(Contents(t), want);
      }
    }
    ASSERT_EQ(Contents(t), want);
  }
}

TEST(KeyedObjects, ReserveKeepsEntriesAndBytesStayBounded) {
  KeyedObjects t;
  for (int i = 0; i < 100; ++i) t.Put("k" + std::to_string(i), Obj(i));
  t.Reserve(10000);
  EXPECT_EQ(t.size(), 100u);
  for (int i = 0; i < 100; ++i) ASSERT_EQ(ValueOf(*t.Find("k" + std::to_string(i))), i);
  // Churn through many distinct keys with few alive: erased keys' bytes are
  // dropped, so the text does not grow with every key ever seen.
  KeyedObjects churn;
  for (int i = 0; i < 200000; ++i) {
    churn.Put("default/pod-" + std::to_string(i), Obj(i));
    if (i >= 10) churn.Erase("default/pod-" + std::to_string(i - 10));
  }
  EXPECT_EQ(churn.size(), 10u);
  EXPECT_LT(churn.bytes(), 64u * 1024);
}

}  // namespace
}  // namespace dra::kube::internal
