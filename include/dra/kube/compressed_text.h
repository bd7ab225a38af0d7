// Many small, similar texts kept compressed: the objects of one kind in a
// cache that holds a whole cluster (an informer over thousands of nodes).
// Each text is compressed alone with zstd (RFC 8878), so any one can be read
// without the others, against a dictionary trained on the first texts of
// the kind: what one object shares with the others (keys, drivers, class
// names) is then nearly free. Measured on 5,000 nodes: a ResourceSlice of 8
// devices goes from 1.5 KB of compact JSON to 65 bytes, a ResourceClaim from
// 360 to 43 (docs/PERFORMANCE.md, issue 16).
//
// The texts live apart from the rest of the heap, in slabs of their
// compressor: a cache's objects are made while large transient documents (a
// list of thousands of objects) come and go, and small long-lived blocks
// scattered among those would keep most of the freed pages resident.
#pragma once

#include <atomic>
#include <cstddef>
#include <cstdint>
#include <memory>
#include <string>
#include <string_view>
#include <vector>

#include "dra/util/mutex.h"
#include "dra/util/result.h"

namespace dra::kube {

namespace internal {
struct CompressorShared;  // a compressor's slabs and dictionary
}

// Immutable once made; safe to read from any thread. Made by a
// TextCompressor; keeps what it needs of it alive.
class CompressedText {
  struct Token {};

 public:
  // The text as it was given; fails only if the bytes were damaged.
  Result<std::string> Decompress() const;
  // The label given with the text, stored as it is.
  std::string_view label() const { return {block_, label_size_}; }
  std::size_t compressed_size() const { return size_; }
  std::size_t original_size() const { return original_size_; }

  CompressedText(Token, internal::CompressorShared* shared, char* block, std::uint32_t label_size,
                 std::uint32_t size, std::uint32_t original_size, bool with_dictionary);
  ~CompressedText();
  CompressedText(const CompressedText&) = delete;
  CompressedText& operator=(const CompressedText&) = delete;

 private:
  friend class TextCompressor;
  // Kept alive by the allocator in this text's shared_ptr control block
  // (TextCompressor::Compress makes every text with std::allocate_shared),
  // which outlives the text: the pointer is valid until the text is gone.
  internal::CompressorShared* shared_;
  char* block_;  // label, then the compressed text
  std::uint32_t label_size_, size_, original_size_;
  bool with_dictionary_;
};

struct TextCompressorOptions {
  // zstd's fastest level: on these texts within 15% of the default level's
  // size, and a dictionary's compression tables take 64 KiB instead of 420.
  int level = 1;
  // The dictionary is trained once the texts seen reach this many bytes (or
  // `train_after_texts` texts); until then texts are compressed without one.
  std::size_t train_after_bytes = 1 << 20;
  std::size_t train_after_texts = 2000;
  std::size_t dictionary_bytes = 16 * 1024;
};

// Thread-safety: every method may be called from any thread (Compress
// serializes on a lock). The texts it made stay readable after it is gone.
class TextCompressor {
 public:
  explicit TextCompressor(TextCompressorOptions options = {});
  ~TextCompressor();
  TextCompressor(const TextCompressor&) = delete;
  TextCompressor& operator=(const TextCompressor&) = delete;

  // `text` compressed, with `label` (e.g. a key to find or group the text
  // by without decompressing it) kept as it is. Texts over 2 GiB and labels
  // over 64 KiB are refused.
  Result<std::shared_ptr<const CompressedText>> Compress(std::string_view text,
                                                         std::string_view label = {})
      DRA_EXCLUDES(mu_);
  // Whether a dictionary has been trained (or training was given up).
  bool trained() const DRA_EXCLUDES(mu_);
  // Bytes of the slabs its texts live in (used or free for reuse).
  std::size_t slab_bytes() const;

 private:
  struct Context;
  void Train() DRA_REQUIRES(mu_);

  const TextCompressorOptions options_;
  const std::shared_ptr<internal::CompressorShared> shared_;
  mutable Mutex mu_;
  std::unique_ptr<Context> context_ DRA_GUARDED_BY(mu_);
  bool trained_ DRA_GUARDED_BY(mu_) = false;
  std::string samples_ DRA_GUARDED_BY(mu_);  // the texts seen before training
  std::vector<std::size_t> sample_sizes_ DRA_GUARDED_BY(mu_);
};

}  // namespace dra::kube
