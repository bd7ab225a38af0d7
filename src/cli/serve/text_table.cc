#include "cli/serve/text_table.h"

#include <functional>
#include <stdexcept>

namespace dra::cli::serve {

TextTable::TextTable() : starts_{0, 0}, index_(16, kNoSlot) { index_[SlotOf("")] = kEmpty; }

std::size_t TextTable::SlotOf(std::string_view text) const {
  const std::size_t mask = index_.size() - 1;
  for (std::size_t slot = std::hash<std::string_view>{}(text)&mask;; slot = (slot + 1) & mask) {
    const Id id = index_[slot];
    if (id == kNoSlot || (*this)[id] == text) return slot;
  }
}

void TextTable::Grow() { Rehash(index_.size() * 2); }

void TextTable::Rehash(std::size_t slots) {
  std::vector<Id> old(slots, kNoSlot);
  old.swap(index_);
  for (Id id : old) {
    if (id != kNoSlot) index_[SlotOf((*this)[id])] = id;
  }
}

TextTable::Id TextTable::Intern(std::string_view text) {
  if (index_.empty()) throw std::logic_error("TextTable: Intern after Seal");
  std::size_t slot = SlotOf(text);
  if (index_[slot] != kNoSlot) return index_[slot];
  // Offsets are 32-bit: a state's texts stay far below 4 GiB (a few MiB on
  // 5,000 nodes), and a table that would pass it is a broken invariant.
  if (text_.size() + text.size() > UINT32_MAX) throw std::length_error("TextTable: over 4 GiB");
  const auto id = static_cast<Id>(size());
  text_.append(text);
  starts_.push_back(static_cast<std::uint32_t>(text_.size()));
  index_[slot] = id;
  if (2 * (size() + 1) > index_.size()) Grow();
  return id;
}

void TextTable::Reserve(std::size_t texts, std::size_t bytes) {
  if (index_.empty()) throw std::logic_error("TextTable: Reserve after Seal");
  text_.reserve(bytes);
  starts_.reserve(texts + 1);
  // The size Intern's growth would reach for `texts`: at most half full
  // with one more to come.
  std::size_t slots = index_.size();
  while (2 * (texts + 1) > slots) slots *= 2;
  if (slots > index_.size()) Rehash(slots);
}

void TextTable::Seal() {
  index_ = {};
  text_.shrink_to_fit();
  starts_.shrink_to_fit();
}

}  // namespace dra::cli::serve
