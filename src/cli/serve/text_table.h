// Each distinct text of a dashboard state once: forty thousand devices name
// a few drivers, thousands of nodes and pools, and a handful of device names
// and products, so cells and rows hold 4-byte ids instead of strings.
#pragma once

#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

namespace dra::cli::serve {

// Thread-safety: Intern and Seal need exclusive access; once sealed, reading
// is safe from any thread. A view stays valid as long as the table and until
// the next Intern.
class TextTable {
 public:
  using Id = std::uint32_t;
  static constexpr Id kEmpty = 0;  // ""

  TextTable();
  // The id of `text`, added if new.
  Id Intern(std::string_view text);
  std::string_view operator[](Id id) const {
    return std::string_view(text_).substr(starts_[id], starts_[id + 1] - starts_[id]);
  }
  std::size_t size() const { return starts_.size() - 1; }
  // Makes room for `texts` texts of `bytes` bytes in all, so that a table
  // that reaches them grows neither its text nor its index on the way.
  void Reserve(std::size_t texts, std::size_t bytes);
  std::size_t bytes() const { return text_.size(); }
  // Frees the lookup index and spare capacity; Intern must not follow.
  void Seal();

 private:
  static constexpr Id kNoSlot = ~Id{0};
  // The slot of `text` in index_, or the free slot where it would go.
  std::size_t SlotOf(std::string_view text) const;
  void Grow();
  // Makes the index `slots` in size (a power of two) with every id placed.
  void Rehash(std::size_t slots);

  std::string text_;                   // every text, back to back
  std::vector<std::uint32_t> starts_;  // text i is [starts_[i], starts_[i + 1])
  // While interning: the ids by hash of their text, open addressing with
  // linear probing, a power of two in size and at most half full. Four
  // bytes a text, where a map of strings took over a hundred (a state of
  // 5,000 nodes interns some 75,000 texts).
  std::vector<Id> index_;
};

}  // namespace dra::cli::serve
