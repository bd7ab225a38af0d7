// CEL's code-point helpers on their own. CEL counts string sizes and
// indices in code points (cel-spec langdef.md, "size" and string
// functions); cel-go decodes with Go's utf8.DecodeRuneInString and encodes
// with utf8.EncodeRune. Inputs here are valid UTF-8 unless said otherwise.
#include "cel/utf8.h"

#include <gtest/gtest.h>

#include <string>

namespace dra::cel {
namespace {

// "aé€😀": one code point of each encoded length, 1 + 2 + 3 + 4 bytes.
constexpr std::string_view kMixed = "a\xc3\xa9\xe2\x82\xac\xf0\x9f\x98\x80";

TEST(CelUtf8Test, CountCodePoints) {
  EXPECT_EQ(CountCodePoints(""), 0u);
  EXPECT_EQ(CountCodePoints("abc"), 3u);
  EXPECT_EQ(CountCodePoints(kMixed), 4u);
  EXPECT_EQ(CountCodePoints(std::string_view("\0\0", 2)), 2u);
}

TEST(CelUtf8Test, CodePointOffset) {
  EXPECT_EQ(CodePointOffset(kMixed, 0), 0u);
  EXPECT_EQ(CodePointOffset(kMixed, 1), 1u);
  EXPECT_EQ(CodePointOffset(kMixed, 2), 3u);
  EXPECT_EQ(CodePointOffset(kMixed, 3), 6u);
  EXPECT_EQ(CodePointOffset(kMixed, 4), kMixed.size());
  EXPECT_EQ(CodePointOffset("", 0), 0u);
}

TEST(CelUtf8Test, SequenceLengthAndDecode) {
  EXPECT_EQ(Utf8SequenceLength(kMixed), 1u);
  EXPECT_EQ(Utf8SequenceLength(kMixed.substr(1)), 2u);
  EXPECT_EQ(Utf8SequenceLength(kMixed.substr(3)), 3u);
  EXPECT_EQ(Utf8SequenceLength(kMixed.substr(6)), 4u);
  std::size_t pos = 0;
  EXPECT_EQ(DecodeUtf8(kMixed, &pos), U'a');
  EXPECT_EQ(DecodeUtf8(kMixed, &pos), U'\u00e9');
  EXPECT_EQ(DecodeUtf8(kMixed, &pos), U'\u20ac');
  EXPECT_EQ(DecodeUtf8(kMixed, &pos), U'\U0001F600');
  EXPECT_EQ(pos, kMixed.size());
  // An invalid byte is U+FFFD of width one, so a scan always progresses.
  pos = 0;
  EXPECT_EQ(DecodeUtf8("\xff"
                       "a",
                       &pos),
            U'\uFFFD');
  EXPECT_EQ(pos, 1u);
  EXPECT_EQ(Utf8SequenceLength("\xe2\x82"), 1u);
}

// utf8.ValidString: a genuine U+FFFD is valid, an error byte is not.
TEST(CelUtf8Test, IsValidUtf8) {
  EXPECT_TRUE(IsValidUtf8(""));
  EXPECT_TRUE(IsValidUtf8(kMixed));
  EXPECT_TRUE(IsValidUtf8("\xef\xbf\xbd"));
  EXPECT_FALSE(IsValidUtf8("a\xff"));
  EXPECT_FALSE(IsValidUtf8("\xc0\x80"));          // overlong NUL
  EXPECT_FALSE(IsValidUtf8("\xed\xa0\x80"));      // surrogate U+D800
  EXPECT_FALSE(IsValidUtf8("\xf4\x90\x80\x80"));  // above U+10FFFF
  EXPECT_FALSE(IsValidUtf8("\xe2\x82"));          // truncated
  EXPECT_FALSE(IsValidUtf8("\xef\xbf\xbd\xff"));
}

}  // namespace
}  // namespace dra::cel
