// Text the JSON layer writes as Go does, for the layers above that must
// match Go's output byte for byte (the decoding side, DecodeUtf8Rune, and
// Go's float formatting are in value.h).
#pragma once

#include <string>

namespace dra::json {

// Appends `r` in UTF-8 as Go's utf8.AppendRune does: a surrogate or a value
// above U+10FFFF is written as U+FFFD.
void AppendUtf8Rune(std::string& out, char32_t r);

// Go's quoteChar from encoding/json's scanner: how its syntax errors name the
// offending byte ('x', '\'', '"', '\n', '\x01', '\u0080', 'é' for 0xE9), the
// byte taken as the code point of the same value.
std::string GoQuoteChar(unsigned char c);

}  // namespace dra::json
