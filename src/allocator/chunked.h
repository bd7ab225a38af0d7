// Items appended in chunks that never move, so that views and pointers into
// them stay valid for the owner's life without a heap block per item: the
// allocator's distinct attributes, and the texts of names and values it keeps
// once the API objects are dropped.
#pragma once

#include <algorithm>
#include <cstddef>
#include <memory>
#include <string_view>
#include <vector>

namespace dra::allocator {

// Appends `n` default-made items that never move, in chunks of `kChunk`
// (std::deque's blocks of 512 bytes would hold two attributes and waste a
// third of their room); more than kChunk at once get a chunk of their own.
// Thread-safety: none; one owner appends and reads.
template <class T, std::size_t kChunk>
class Chunked {
 public:
  T* Append(std::size_t n = 1) {
    if (n > kChunk) {
      // Longer than a chunk: a chunk of its own, placed before the last one
      // so that the room left in the last one stays in use.
      auto own = std::make_unique<T[]>(n);
      T* out = own.get();
      appended_ += n;
      chunks_.insert(chunks_.empty() ? chunks_.end() : chunks_.end() - 1, std::move(own));
      bytes_ += n * sizeof(T);
      return out;
    }
    if (chunks_.empty() || used_ + n > kChunk) {
      chunks_.push_back(std::make_unique<T[]>(kChunk));
      bytes_ += kChunk * sizeof(T);
      used_ = 0;
    }
    T* out = chunks_.back().get() + used_;
    used_ += n;
    appended_ += n;
    return out;
  }
  std::size_t bytes() const { return bytes_; }
  // The `number`th entry, when every Append was of one entry.
  const T* Entry(std::size_t number) const {
    return chunks_[number / kChunk].get() + number % kChunk;
  }
  std::size_t appended() const { return appended_; }

 private:
  std::vector<std::unique_ptr<T[]>> chunks_;
  std::size_t bytes_ = 0;      // of every chunk, those longer than kChunk included
  std::size_t used_ = kChunk;  // of the last chunk
  std::size_t appended_ = 0;   // entries
};

// A copy of `s` in `texts`, valid as long as they are; "" takes no room.
template <std::size_t kChunk>
std::string_view KeepText(Chunked<char, kChunk>& texts, std::string_view s) {
  if (s.empty()) return {};
  char* at = texts.Append(s.size());
  std::copy(s.begin(), s.end(), at);
  return {at, s.size()};
}

}  // namespace dra::allocator
