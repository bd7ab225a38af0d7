// ParseWarningHeader on its own, against apimachinery's
// pkg/util/net/http.go ParseWarningHeader/ParseWarningHeaders (v1.37.2) and
// client-go's default warning handler, which keeps code 299 with a
// non-empty text.
#include "kube/warning_header.h"

#include <gtest/gtest.h>

#include <string>
#include <vector>

namespace dra::kube {
namespace {

using Texts = std::vector<std::string>;

TEST(WarningHeaderTest, OneWarning) {
  EXPECT_EQ(ParseWarningHeader(R"(299 - "example warning")"), Texts{"example warning"});
  EXPECT_EQ(ParseWarningHeader(R"(  299 kube-apiserver "agent named")"), Texts{"agent named"});
  EXPECT_EQ(ParseWarningHeader(""), Texts{});
}

// Warnings separated by commas, each with an optional quoted date; a comma
// inside the quoted date does not separate.
TEST(WarningHeaderTest, SeveralWarningsAndDates) {
  EXPECT_EQ(ParseWarningHeader(R"(299 - "a", 299 - "b" "Wed, 21 Oct 2015 07:28:00 GMT",)"
                               R"( 299 - "c" "Thu, 22 Oct 2015 07:28:00 GMT")"),
            (Texts{"a", "b", "c"}));
}

// In the quoted text a backslash takes the next byte literally.
TEST(WarningHeaderTest, QuotedPairs) {
  EXPECT_EQ(ParseWarningHeader(R"(299 - "say \"hi\" \\ done")"), Texts{R"(say "hi" \ done)"});
  EXPECT_EQ(ParseWarningHeader(R"(299 - "\n")"), Texts{"n"});
}

// Other codes and empty texts parse but are not reported.
TEST(WarningHeaderTest, OnlyNonEmpty299) {
  EXPECT_EQ(ParseWarningHeader(R"(199 - "old", 299 - "", 214 - "transformed", 299 - "kept")"),
            Texts{"kept"});
}

// A malformed warning ends the header; the warnings before it stay.
TEST(WarningHeaderTest, MalformedEndsTheHeader) {
  EXPECT_EQ(ParseWarningHeader(R"(299 - "a", bogus, 299 - "b")"), Texts{"a"});
  EXPECT_EQ(ParseWarningHeader(R"(299 - "a", 2990 - "b", 299 - "c")"), Texts{"a"});
  EXPECT_EQ(ParseWarningHeader(R"(299 - "a", 299 - "unterminated)"), Texts{"a"});
  EXPECT_EQ(ParseWarningHeader(R"(299 - "a", 299 - "b" "unterminated date)"), Texts{"a"});
  EXPECT_EQ(ParseWarningHeader(R"(299 - unquoted)"), Texts{});
}

// utf8.ValidString and unicode.IsControl: a text with invalid UTF-8 or a
// control character (C0, DEL, C1) is refused, and with it the rest.
TEST(WarningHeaderTest, TextMustBePrintableUtf8) {
  EXPECT_EQ(ParseWarningHeader("299 - \"a\", 299 - \"red \x1b[31m\", 299 - \"c\""), Texts{"a"});
  EXPECT_EQ(ParseWarningHeader("299 - \"tab\there\""), Texts{});
  EXPECT_EQ(ParseWarningHeader("299 - \"del\x7f\""), Texts{});
  EXPECT_EQ(ParseWarningHeader("299 - \"csi\xc2\x9b\""), Texts{});
  EXPECT_EQ(ParseWarningHeader("299 - \"bad\xff\""), Texts{});
  // Valid non-ASCII text, a genuine U+FFFD and U+00A0 (not a control) pass.
  EXPECT_EQ(ParseWarningHeader("299 - \"h\xc3\xa9llo \xef\xbf\xbd\xc2\xa0!\""),
            Texts{"h\xc3\xa9llo \xef\xbf\xbd\xc2\xa0!"});
}

// A warning followed by anything but a date or a comma is malformed
// ("unexpected token after warn-date") and dropped with the rest, as
// ParseWarningHeaders does.
TEST(WarningHeaderTest, TrailingTokenDropsTheWarning) {
  EXPECT_EQ(ParseWarningHeader(R"(299 - "a" junk)"), Texts{});
  EXPECT_EQ(ParseWarningHeader(R"(299 - "a", 299 - "b" "date" junk)"), Texts{"a"});
}

}  // namespace
}  // namespace dra::kube
