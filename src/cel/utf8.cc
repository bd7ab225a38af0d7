#include "cel/utf8.h"

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
  auto byte = [&](std::size_t i) { return static_cast<unsigned char>(s[i]); };
  std::size_t i = *pos;
  unsigned char c = byte(i);
  if (c < 0x80) {
    *pos = i + 1;
    return c;
  }
  int extra;
  char32_t cp;
  char32_t min;
  if ((c & 0xE0) == 0xC0) {
    extra = 1, cp = c & 0x1F, min = 0x80;
  } else if ((c & 0xF0) == 0xE0) {
    extra = 2, cp = c & 0x0F, min = 0x800;
  } else if ((c & 0xF8) == 0xF0) {
    extra = 3, cp = c & 0x07, min = 0x10000;
  } else {
    *pos = i + 1;
    return 0xFFFD;
  }
  if (i + static_cast<std::size_t>(extra) >= s.size()) {
    *pos = i + 1;
    return 0xFFFD;
  }
  for (int k = 1; k <= extra; ++k) {
    unsigned char cc = byte(i + static_cast<std::size_t>(k));
    if ((cc & 0xC0) != 0x80) {
      *pos = i + 1;
      return 0xFFFD;
    }
    cp = (cp << 6) | (cc & 0x3F);
  }
  if (cp < min || cp > 0x10FFFF || (cp >= 0xD800 && cp <= 0xDFFF)) {
    *pos = i + 1;
    return 0xFFFD;
  }
  *pos = i + 1 + static_cast<std::size_t>(extra);
  return cp;
}

void AppendUtf8(char32_t c, std::string* out) {
  if (c < 0x80) {
    out->push_back(static_cast<char>(c));
  } else if (c < 0x800) {
    out->push_back(static_cast<char>(0xC0 | (c >> 6)));
    out->push_back(static_cast<char>(0x80 | (c & 0x3F)));
  } else if (c < 0x10000) {
    out->push_back(static_cast<char>(0xE0 | (c >> 12)));
    out->push_back(static_cast<char>(0x80 | ((c >> 6) & 0x3F)));
    out->push_back(static_cast<char>(0x80 | (c & 0x3F)));
  } else {
    out->push_back(static_cast<char>(0xF0 | (c >> 18)));
    out->push_back(static_cast<char>(0x80 | ((c >> 12) & 0x3F)));
    out->push_back(static_cast<char>(0x80 | ((c >> 6) & 0x3F)));
    out->push_back(static_cast<char>(0x80 | (c & 0x3F)));
  }
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
