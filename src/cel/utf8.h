// Small UTF-8 helpers: CEL string sizes and indices count code points.
#pragma once

#include <cstddef>
#include <cstdint>
#include <string>
#include <string_view>

namespace dra::cel {

// Length in bytes of the sequence starting at s[0] (1 for invalid bytes, so
// that callers always make progress). REQUIRES: !s.empty().
std::size_t Utf8SequenceLength(std::string_view s);

std::size_t CountCodePoints(std::string_view s);

// Decodes the code point at s[*pos] and advances *pos; invalid input yields
// U+FFFD and advances one byte.
char32_t DecodeUtf8(std::string_view s, std::size_t* pos);

bool IsValidUtf8(std::string_view s);

// Byte offset of code point `index` (index == count gives s.size()).
// REQUIRES: index <= CountCodePoints(s).
std::size_t CodePointOffset(std::string_view s, std::size_t index);

}  // namespace dra::cel
