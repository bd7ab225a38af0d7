#include "cli/serve/text_table.h"

#include <stdexcept>

namespace dra::cli::serve {

TextTable::TextTable() : starts_{0, 0} { index_.emplace("", kEmpty); }

TextTable::Id TextTable::Intern(std::string_view text) {
  if (auto found = index_.find(text); found != index_.end()) return found->second;
  auto it = index_.emplace(std::string(text), 0).first;
  // Offsets are 32-bit: a state's texts stay far below 4 GiB (a few MiB on
  // 5,000 nodes), and a table that would pass it is a broken invariant.
  if (text_.size() + text.size() > UINT32_MAX) throw std::length_error("TextTable: over 4 GiB");
  it->second = static_cast<Id>(size());
  text_.append(text);
  starts_.push_back(static_cast<std::uint32_t>(text_.size()));
  return it->second;
}

void TextTable::Seal() {
  index_ = {};
  text_.shrink_to_fit();
  starts_.shrink_to_fit();
}

}  // namespace dra::cli::serve
