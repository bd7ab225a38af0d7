// DecodeUtf8Rune against the tables of Go's unicode/utf8 tests
// (src/unicode/utf8/utf8_test.go: utf8map, surrogateMap,
// invalidSequenceTests) and the rules of utf8.DecodeRuneInString.
#include <gtest/gtest.h>

#include <string>
#include <string_view>

#include "dra/json/go_text.h"
#include "dra/json/value.h"

namespace dra::json {
namespace {

constexpr char32_t kRuneError = 0xFFFD;

struct Encoded {
  char32_t rune;
  std::string_view bytes;
};

// The first and last code point of every encoded length, and the edges of
// the surrogate gap (utf8map in Go's utf8_test.go).
constexpr Encoded kBoundaries[] = {
    {0x0000, std::string_view("\x00", 1)},
    {0x0001, "\x01"},
    {0x007F, "\x7f"},
    {0x0080, "\xc2\x80"},
    {0x07FF, "\xdf\xbf"},
    {0x0800, "\xe0\xa0\x80"},
    {0xD7FF, "\xed\x9f\xbf"},
    {0xE000, "\xee\x80\x80"},
    {0xFFFD, "\xef\xbf\xbd"},
    {0xFFFF, "\xef\xbf\xbf"},
    {0x10000, "\xf0\x90\x80\x80"},
    {0x10FFFF, "\xf4\x8f\xbf\xbf"},
};

TEST(DecodeUtf8RuneTest, LengthBoundaries) {
  for (const Encoded& e : kBoundaries) {
    DecodedRune r = DecodeUtf8Rune(e.bytes);
    EXPECT_EQ(r.rune, e.rune) << std::hex << static_cast<unsigned>(e.rune);
    EXPECT_EQ(r.size, e.bytes.size()) << std::hex << static_cast<unsigned>(e.rune);
    // Bytes after the sequence are not part of it.
    std::string longer = std::string(e.bytes) + "\x80";
    EXPECT_EQ(DecodeUtf8Rune(longer).rune, e.rune);
    EXPECT_EQ(DecodeUtf8Rune(longer).size, e.bytes.size());
  }
}

// Every proper prefix of a multi-byte sequence is an error of width one
// (TestDecodeRune's truncation loop in Go).
TEST(DecodeUtf8RuneTest, TruncatedSequences) {
  for (const Encoded& e : kBoundaries) {
    for (std::size_t n = 1; n < e.bytes.size(); ++n) {
      DecodedRune r = DecodeUtf8Rune(e.bytes.substr(0, n));
      EXPECT_EQ(r.rune, kRuneError) << std::hex << static_cast<unsigned>(e.rune) << " n=" << n;
      EXPECT_EQ(r.size, 1u) << std::hex << static_cast<unsigned>(e.rune) << " n=" << n;
    }
  }
}

// Encoded surrogates U+D800 and U+DFFF (surrogateMap): invalid.
TEST(DecodeUtf8RuneTest, Surrogates) {
  for (std::string_view s : {"\xed\xa0\x80", "\xed\xbf\xbf"}) {
    DecodedRune r = DecodeUtf8Rune(s);
    EXPECT_EQ(r.rune, kRuneError);
    EXPECT_EQ(r.size, 1u);
  }
}

// Go's invalidSequenceTests: each decodes as (RuneError, 1).
TEST(DecodeUtf8RuneTest, InvalidSequences) {
  constexpr std::string_view kInvalid[] = {
      "\xed\xa0\x80\x80", "\xed\xbf\xbf\x80",  // surrogates
      "\x91\x80\x80\x80",                      // continuation byte first
      "\xC2\x7F\x80\x80", "\xC2\xC0\x80\x80", "\xDF\x7F\x80\x80", "\xDF\xC0\x80\x80",
      "\xE0\x9F\xBF\x80",  // overlong three-byte form
      "\xE0\xA0\x7F\x80", "\xE0\xBF\xC0\x80", "\xE0\xC0\x80\x80", "\xE1\x7F\xBF\x80",
      "\xE1\x80\x7F\x80", "\xE1\xBF\xC0\x80", "\xE1\xC0\x80\x80", "\xED\x7F\xBF\x80",
      "\xED\x80\x7F\x80", "\xED\x9F\xC0\x80", "\xED\xA0\x80\x80",
      "\xF0\x8F\xBF\xBF",  // overlong four-byte form
      "\xF0\x90\x7F\xBF", "\xF0\x90\x80\x7F", "\xF0\xBF\xBF\xC0", "\xF0\xC0\x80\x80",
      "\xF1\x7F\xBF\xBF", "\xF1\x80\x7F\xBF", "\xF1\x80\x80\x7F", "\xF1\xBF\xBF\xC0",
      "\xF1\xC0\x80\x80", "\xF4\x7F\xBF\xBF", "\xF4\x80\x7F\xBF", "\xF4\x80\x80\x7F",
      "\xF4\x8F\xBF\xC0",
      "\xF4\x90\x80\x80",  // above U+10FFFF
  };
  for (std::string_view s : kInvalid) {
    DecodedRune r = DecodeUtf8Rune(s);
    EXPECT_EQ(r.rune, kRuneError) << ::testing::PrintToString(std::string(s));
    EXPECT_EQ(r.size, 1u) << ::testing::PrintToString(std::string(s));
  }
}

// Lead bytes that never start a sequence: C0 and C1 (only overlong
// two-byte forms) and F5..FF (beyond U+10FFFF, or not UTF-8 at all).
TEST(DecodeUtf8RuneTest, ImpossibleLeadBytes) {
  for (int b : {0xC0, 0xC1, 0xF5, 0xF7, 0xF8, 0xFC, 0xFE, 0xFF}) {
    std::string s = {static_cast<char>(b), '\xbf', '\xbf', '\xbf'};
    DecodedRune r = DecodeUtf8Rune(s);
    EXPECT_EQ(r.rune, kRuneError) << std::hex << b;
    EXPECT_EQ(r.size, 1u) << std::hex << b;
  }
}

// utf8.AppendRune for the first and last code point of each length, and
// U+FFFD for a surrogate or a value above U+10FFFF.
TEST(Utf8Test, AppendUtf8Rune) {
  const struct {
    char32_t c;
    std::string_view bytes;
  } kCases[] = {
      {0x00, std::string_view("\0", 1)},
      {0x7F, "\x7f"},
      {0x80, "\xc2\x80"},
      {0x7FF, "\xdf\xbf"},
      {0x800, "\xe0\xa0\x80"},
      {0xFFFF, "\xef\xbf\xbf"},
      {0x10000, "\xf0\x90\x80\x80"},
      {0x10FFFF, "\xf4\x8f\xbf\xbf"},
      {0xD800, "\xef\xbf\xbd"},
      {0xDFFF, "\xef\xbf\xbd"},
      {0x110000, "\xef\xbf\xbd"},
  };
  for (const auto& k : kCases) {
    std::string out = "x";
    AppendUtf8Rune(out, k.c);
    EXPECT_EQ(out, "x" + std::string(k.bytes)) << std::hex << static_cast<unsigned>(k.c);
  }
}

// encoding/json's quoteChar: the byte read as the code point of the same
// value and quoted as strconv.Quote would, in single quotes; ' and " as
// themselves. U+00A0 and U+00AD are not printable in Go (strconv.IsPrint).
TEST(Utf8Test, GoQuoteChar) {
  EXPECT_EQ(GoQuoteChar('a'), "'a'");
  EXPECT_EQ(GoQuoteChar('\''), R"('\'')");
  EXPECT_EQ(GoQuoteChar('"'), R"('"')");
  EXPECT_EQ(GoQuoteChar('\\'), R"('\\')");
  EXPECT_EQ(GoQuoteChar('\n'), R"('\n')");
  EXPECT_EQ(GoQuoteChar(0x01), R"('\x01')");
  EXPECT_EQ(GoQuoteChar(0x7F), R"('\x7f')");
  EXPECT_EQ(GoQuoteChar(0x80), R"('\u0080')");
  EXPECT_EQ(GoQuoteChar(0xA0), R"('\u00a0')");
  EXPECT_EQ(GoQuoteChar(0xAD), R"('\u00ad')");
  EXPECT_EQ(GoQuoteChar(0xE9), "'\xc3\xa9'");  // é
}
}  // namespace
}  // namespace dra::json
