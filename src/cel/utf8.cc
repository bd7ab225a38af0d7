#include "cel/utf8.h"

#include "dra/json/value.h"

namespace dra::cel {

std::size_t Utf8SequenceLength(std::string_view s) {
  std::size_t pos = 0;
  DecodeUtf8(s, &pos);
  return pos;
}

std::size_t CountCodePoints(std::string_view s) {
  std::size_t n = 0;
  for (unsigned char c : s) n += (c & 0xC0) != 0x80;
  return n;
}

char32_t DecodeUtf8(std::string_view s, std::size_t* pos) {
  // Go's utf8.DecodeRuneInString, as cel-go's strings see it.
  json::DecodedRune r = json::DecodeUtf8Rune(s.substr(*pos));
  *pos += r.size;
  return r.rune;
}

bool IsValidUtf8(std::string_view s) {
  std::size_t pos = 0;
  while (pos < s.size()) {
    std::size_t start = pos;
    char32_t c = DecodeUtf8(s, &pos);
    // A genuine U+FFFD is three bytes; the error path advances one.
    if (c == 0xFFFD && pos - start != 3) return false;
  }
  return true;
}

std::size_t CodePointOffset(std::string_view s, std::size_t index) {
  std::size_t pos = 0;
  for (std::size_t n = 0; n < index && pos < s.size(); ++n) DecodeUtf8(s, &pos);
  return pos;
}

}  // namespace dra::cel
