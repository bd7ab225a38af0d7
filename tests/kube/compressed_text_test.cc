#include "dra/kube/compressed_text.h"

#include <gtest/gtest.h>

#include <string>
#include <thread>
#include <vector>

namespace dra::kube {
namespace {

// Claims as an informer over a large cluster sees them: alike but for names.
std::string Claim(int i) {
  return R"({"apiVersion":"resource.k8s.io/v1","kind":"ResourceClaim","metadata":{"name":"claim-)" +
         std::to_string(i) + R"(","namespace":"team-)" + std::to_string(i % 7) +
         R"("},"spec":{"devices":{"requests":[{"name":"gpu","exactly":{"deviceClassName":"gpu.example.com","allocationMode":"ExactCount","count":1}}]}},"status":{"allocation":{"devices":{"results":[{"request":"gpu","driver":"gpu.example.com","pool":"node-)" +
         std::to_string(i / 8) + R"(","device":"gpu-)" + std::to_string(i % 8) + R"("}]}}}})";
}

TEST(CompressedText, EveryTextComesBackExactlyBeforeAndAfterTraining) {
  TextCompressorOptions options;
  options.train_after_texts = 500;
  TextCompressor c(options);
  std::vector<std::shared_ptr<const CompressedText>> kept;
  for (int i = 0; i < 2000; ++i) {
    Result<std::shared_ptr<const CompressedText>> t =
        c.Compress(Claim(i), "claim-" + std::to_string(i));
    ASSERT_TRUE(t.ok()) << t.error();
    kept.push_back(std::move(*t));
  }
  EXPECT_TRUE(c.trained());
  for (int i = 0; i < 2000; ++i) {
    Result<std::string> back = kept[i]->Decompress();
    ASSERT_TRUE(back.ok()) << back.error();
    EXPECT_EQ(*back, Claim(i));
    EXPECT_EQ(kept[i]->original_size(), Claim(i).size());
    EXPECT_EQ(kept[i]->label(), "claim-" + std::to_string(i));
  }
  // What the dictionary is for: texts after training are a fraction of those
  // compressed alone.
  std::size_t before = 0, after = 0;
  for (int i = 0; i < 400; ++i) before += kept[i]->compressed_size();
  for (int i = 1600; i < 2000; ++i) after += kept[i]->compressed_size();
  EXPECT_LT(after * 3, before) << "before " << before << ", after " << after;
}

TEST(CompressedText, EmptyAndUnlikeTextsAndFewSamples) {
  TextCompressorOptions options;
  options.train_after_texts = 3;  // too few to learn from: no dictionary, still exact
  TextCompressor c(options);
  for (const std::string& text :
       {std::string(), std::string("x"), std::string(100000, 'a'), std::string("\0\xff\x01", 3)}) {
    Result<std::shared_ptr<const CompressedText>> t = c.Compress(text, text.substr(0, 10));
    ASSERT_TRUE(t.ok()) << t.error();
    EXPECT_EQ((*t)->label(), text.substr(0, 10));
    Result<std::string> back = (*t)->Decompress();
    ASSERT_TRUE(back.ok()) << back.error();
    EXPECT_EQ(*back, text);
  }
  EXPECT_TRUE(c.trained());
  EXPECT_FALSE(c.Compress("x", std::string(70000, 'k')).ok());  // label too long
}

// The blocks of texts that are gone are reused: a cache that replaces its
// objects over and over stays the size of what it holds.
TEST(CompressedText, FreedBlocksAreReused) {
  TextCompressor c;
  std::vector<std::shared_ptr<const CompressedText>> held;
  held.reserve(3000);
  for (int i = 0; i < 3000; ++i) held.push_back(*c.Compress(Claim(i)));
  const std::size_t slabs = c.slab_bytes();
  EXPECT_GT(slabs, 0u);
  for (int round = 0; round < 20; ++round) {
    for (int i = 0; i < 3000; ++i) held[i] = *c.Compress(Claim(i + round));
  }
  EXPECT_LE(c.slab_bytes(), slabs * 2);
  for (int i = 0; i < 3000; ++i) EXPECT_EQ(*held[i]->Decompress(), Claim(i + 19));
}

TEST(CompressedText, TextsOutliveTheirCompressorAndReadFromManyThreads) {
  std::vector<std::shared_ptr<const CompressedText>> kept;
  {
    TextCompressorOptions options;
    options.train_after_texts = 200;
    TextCompressor c(options);
    for (int i = 0; i < 1000; ++i) {
      Result<std::shared_ptr<const CompressedText>> t = c.Compress(Claim(i));
      ASSERT_TRUE(t.ok()) << t.error();
      kept.push_back(std::move(*t));
    }
  }
  std::vector<std::thread> readers;
  readers.reserve(4);
  std::vector<int> wrong(4, 0);
  for (int r = 0; r < 4; ++r) {
    readers.emplace_back([&, r] {
      for (int i = r; i < 1000; i += 4) {
        Result<std::string> back = kept[i]->Decompress();
        if (!back.ok() || *back != Claim(i)) ++wrong[r];
      }
    });
  }
  for (auto& t : readers) t.join();
  for (int w : wrong) EXPECT_EQ(w, 0);
}

}  // namespace
}  // namespace dra::kube
