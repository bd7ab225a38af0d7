// UTF-8 decoding and encoding with Go's unicode/utf8 semantics.
#include "dra/json/go_text.h"
#include "dra/json/value.h"

namespace dra::json {

DecodedRune DecodeUtf8Rune(std::string_view s) {
  constexpr DecodedRune kError{0xFFFD, 1};
  const auto b0 = static_cast<unsigned char>(s[0]);
  if (b0 < 0x80) return {b0, 1};
  // Lead bytes C0, C1 and F5..FF never start a valid sequence.
  if (b0 < 0xC2 || b0 > 0xF4) return kError;
  std::uint32_t size = b0 < 0xE0 ? 2 : b0 < 0xF0 ? 3 : 4;
  if (s.size() < size) return kError;
  // The second byte's range excludes overlong forms (E0, F0), surrogates (ED)
  // and code points above U+10FFFF (F4).
  unsigned char lo = 0x80;
  unsigned char hi = 0xBF;
  if (b0 == 0xE0) lo = 0xA0;
  if (b0 == 0xED) hi = 0x9F;
  if (b0 == 0xF0) lo = 0x90;
  if (b0 == 0xF4) hi = 0x8F;
  const auto b1 = static_cast<unsigned char>(s[1]);
  if (b1 < lo || b1 > hi) return kError;
  if (size == 2) return {static_cast<char32_t>((b0 & 0x1F) << 6 | (b1 & 0x3F)), 2};
  const auto b2 = static_cast<unsigned char>(s[2]);
  if (b2 < 0x80 || b2 > 0xBF) return kError;
  if (size == 3) {
    return {static_cast<char32_t>((b0 & 0x0F) << 12 | (b1 & 0x3F) << 6 | (b2 & 0x3F)), 3};
  }
  const auto b3 = static_cast<unsigned char>(s[3]);
  if (b3 < 0x80 || b3 > 0xBF) return kError;
  return {
      static_cast<char32_t>((b0 & 0x07) << 18 | (b1 & 0x3F) << 12 | (b2 & 0x3F) << 6 | (b3 & 0x3F)),
      4};
}

void AppendUtf8Rune(std::string& out, char32_t r) {
  if (r > 0x10FFFF || (r >= 0xD800 && r < 0xE000)) r = 0xFFFD;
  if (r < 0x80) {
    out.push_back(static_cast<char>(r));
  } else if (r < 0x800) {
    out.push_back(static_cast<char>(0xC0 | (r >> 6)));
    out.push_back(static_cast<char>(0x80 | (r & 0x3F)));
  } else if (r < 0x10000) {
    out.push_back(static_cast<char>(0xE0 | (r >> 12)));
    out.push_back(static_cast<char>(0x80 | ((r >> 6) & 0x3F)));
    out.push_back(static_cast<char>(0x80 | (r & 0x3F)));
  } else {
    out.push_back(static_cast<char>(0xF0 | (r >> 18)));
    out.push_back(static_cast<char>(0x80 | ((r >> 12) & 0x3F)));
    out.push_back(static_cast<char>(0x80 | ((r >> 6) & 0x3F)));
    out.push_back(static_cast<char>(0x80 | (r & 0x3F)));
  }
}

}  // namespace dra::json
