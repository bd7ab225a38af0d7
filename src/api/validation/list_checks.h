// List-size and uniqueness checks shared by the hand-written and the
// declarative validators: both report `Too many` with the item count, and a
// duplicate at every index whose key already appeared earlier.
#pragma once

#include <cstddef>
#include <cstdint>
#include <string>
#include <vector>

#include "api/validation/formats.h"
#include "dra/api/field_error.h"

namespace dra::api::validation {

// Appends `Too many` and returns true when `size` exceeds `max`; the list's
// items are then left unchecked, as upstream does to bound the work.
inline bool ExceedsMaxItems(std::size_t size, std::size_t max, const std::string& field,
                            FieldErrors& errors) {
  if (size <= max) return false;
  errors.push_back(TooMany(field, static_cast<std::int64_t>(size), static_cast<std::int64_t>(max)));
  return true;
}

// `same(a, b)` tells items with equal keys apart from the rest; `render(item)`
// is the bad value of the duplicate. Lists here hold at most a few hundred
// items, so the quadratic scan stays cheap and needs no hashing of keys.
template <class T, class Same, class Render>
void ReportDuplicates(const std::vector<T>& items, const std::string& field, Same same,
                      Render render, FieldErrors& errors) {
  for (std::size_t j = 1; j < items.size(); ++j) {
    for (std::size_t i = 0; i < j; ++i) {
      if (same(items[i], items[j])) {
        errors.push_back(Duplicate(Index(field, j), render(items[j])));
        break;
      }
    }
  }
}

}  // namespace dra::api::validation
