// metav1.Time text on its own: Go's time.Parse(time.RFC3339, ...) as
// metav1.Time.UnmarshalJSON calls it, and Format(time.RFC3339) of a UTC time
// with whole seconds as MarshalJSON writes it. Expected instants are from
// GNU date (`date -u -d <text> +%s`).
#include "api/codec/time_format.h"

#include <gtest/gtest.h>

#include <cstdint>
#include <string>
#include <string_view>
#include <utility>

namespace dra::api::codec {
namespace {

std::int64_t Seconds(std::string_view text) {
  auto t = ParseRfc3339(text);
  EXPECT_TRUE(t.ok()) << text << ": " << (t.ok() ? "" : t.error());
  if (!t.ok()) return 0;
  EXPECT_TRUE(t->set);
  return t->seconds;
}

TEST(ParseRfc3339Test, UtcAndOffsets) {
  EXPECT_EQ(Seconds("1970-01-01T00:00:00Z"), 0);
  EXPECT_EQ(Seconds("2009-02-13T23:31:30Z"), 1234567890);
  // An offset is the local time's distance from UTC: 01:30+05:30 is 20:00Z
  // of the day before.
  EXPECT_EQ(Seconds("2024-01-01T01:30:00+05:30"), 1704052800);
  EXPECT_EQ(Seconds("2023-12-31T15:00:00-05:00"), 1704052800);
  EXPECT_EQ(Seconds("2023-12-31T20:00:00+00:00"), 1704052800);
}

// Leap years: every fourth year, except centuries not divisible by 400.
TEST(ParseRfc3339Test, Calendar) {
  EXPECT_EQ(Seconds("2000-02-29T12:00:00Z"), 951825600);
  EXPECT_EQ(Seconds("2000-03-01T00:00:00Z"), 951868800);
  EXPECT_EQ(Seconds("1900-03-01T00:00:00Z"), -2203891200);
  EXPECT_EQ(Seconds("1969-12-31T23:59:59Z"), -1);
  // The ends of the years Go's Time.MarshalJSON can write, [0, 9999].
  EXPECT_EQ(Seconds("0000-01-01T00:00:00Z"), -62167219200);
  EXPECT_EQ(Seconds("9999-12-31T23:59:59Z"), 253402300799);
}

// Fractional seconds are accepted and dropped: the instant's whole second.
TEST(ParseRfc3339Test, FractionalSecondsTruncate) {
  EXPECT_EQ(Seconds("2009-02-13T23:31:30.5Z"), 1234567890);
  EXPECT_EQ(Seconds("2009-02-13T23:31:30.999999999Z"), 1234567890);
  EXPECT_EQ(Seconds("2009-02-13T23:31:30.000000001+00:00"), 1234567890);
}

// Each of these fails time.Parse(time.RFC3339, ...) in Go.
TEST(ParseRfc3339Test, RejectsWhatGoRejects) {
  for (std::string_view bad : {
           "",
           "2024-01-01",                 // no time
           "2024-01-01T00:00:00",        // no zone
           "2024-01-01 00:00:00Z",       // space for T
           "2024-01-01T00:00:00Zjunk",   // extra text
           "2023-02-29T00:00:00Z",       // 2023 is not a leap year
           "1900-02-29T00:00:00Z",       // nor is 1900
           "2024-04-31T00:00:00Z",       // April has 30 days
           "2024-13-01T00:00:00Z",       // month
           "2024-01-01T24:00:00Z",       // hour
           "2024-01-01T00:60:00Z",       // minute
           "2024-01-01T00:00:60Z",       // second (no leap seconds)
           "2024-01-01T00:00:00.Z",      // a fraction needs digits
           "2024-01-01T00:00:00+0530",   // offset without colon
           "2024-01-01T00:00:00+25:00",  // offset hours
       }) {
    auto t = ParseRfc3339(bad);
    EXPECT_FALSE(t.ok()) << bad;
    if (!t.ok()) {
      EXPECT_EQ(t.code(), ErrorCode::kInvalidInput) << bad;
      // Go's *time.ParseError names the text and the layout.
      EXPECT_EQ(t.error().rfind("parsing time \"" + std::string(bad) + "\"", 0), 0u) << t.error();
    }
  }
}

// What Go's time.Parse(time.RFC3339, ...) answers (metav1.Time's decoder),
// word for word, as go1.26 prints these errors.
TEST(ParseRfc3339Test, GoParseErrors) {
  const std::string layout = R"( as "2006-01-02T15:04:05Z07:00": )";
  const std::pair<std::string_view, std::string> cases[] = {
      {"yyyy", R"(parsing time "yyyy")" + layout + R"(cannot parse "yyyy" as "2006")"},
      {"2024-1-01T00:00:00Z", R"(parsing time "2024-1-01T00:00:00Z")" + layout +
                                  R"(cannot parse "1-01T00:00:00Z" as "01")"},
      {"2024-00-01T00:00:00Z", R"(parsing time "2024-00-01T00:00:00Z": month out of range)"},
      {"2024-01-01T00:00:00.Z",
       R"(parsing time "2024-01-01T00:00:00.Z")" + layout + R"(cannot parse ".Z" as "Z07:00")"},
      {"2024-01-01T00:00:00+0530", R"(parsing time "2024-01-01T00:00:00+0530")" + layout +
                                       R"(cannot parse "+0530" as "Z07:00")"},
      {"2024-01-01T00:00:00+25:00",
       R"(parsing time "2024-01-01T00:00:00+25:00": time zone offset hour out of range)"},
      {"2024-02-30T00:00:00Z", R"(parsing time "2024-02-30T00:00:00Z": day out of range)"},
      {"2024-01-01T00:00:00Zx", R"(parsing time "2024-01-01T00:00:00Zx": extra text: "x")"},
      {"2024-01-01X00:00:00Z",
       R"(parsing time "2024-01-01X00:00:00Z")" + layout + R"(cannot parse "X00:00:00Z" as "T")"},
      {"\xc3\xbc"  // "ü", whose bytes Go quotes as \x escapes
       "024-01-01T00:00:00Z",
       R"(parsing time "\xc3\xbc024-01-01T00:00:00Z")" + layout +
           R"(cannot parse "\xc3\xbc024-01-01T00:00:00Z" as "2006")"},
      {"2024-01-01T00:00:00*05:00", R"(parsing time "2024-01-01T00:00:00*05:00")" + layout +
                                        R"(cannot parse "*05:00" as "Z07:00")"},
      {"2024-01-01T24:00:00Z", R"(parsing time "2024-01-01T24:00:00Z": hour out of range)"},
      {"2024-01-01T00:00:00",
       R"(parsing time "2024-01-01T00:00:00")" + layout + R"(cannot parse "" as "Z07:00")"},
      {"2024-01-01T00:00:60Z", R"(parsing time "2024-01-01T00:00:60Z": second out of range)"},
  };
  for (const auto& [text, want] : cases) {
    auto t = ParseRfc3339(text);
    ASSERT_FALSE(t.ok()) << text;
    EXPECT_EQ(t.error(), want);
  }
  // Go takes a one-digit hour and offsets of up to 24 hours or 60 minutes.
  EXPECT_TRUE(ParseRfc3339("2024-01-01T1:02:03Z").ok());
  EXPECT_TRUE(ParseRfc3339("2024-01-01T00:00:00+05:60").ok());
}

TEST(FormatRfc3339Test, UtcWholeSeconds) {
  EXPECT_EQ(FormatRfc3339(Time::FromUnix(0)), "1970-01-01T00:00:00Z");
  EXPECT_EQ(FormatRfc3339(Time::FromUnix(1234567890)), "2009-02-13T23:31:30Z");
  EXPECT_EQ(FormatRfc3339(Time::FromUnix(951825600)), "2000-02-29T12:00:00Z");
  EXPECT_EQ(FormatRfc3339(Time::FromUnix(253402300799)), "9999-12-31T23:59:59Z");
}

// Before 1970 the day must be floored, not truncated toward zero.
TEST(FormatRfc3339Test, BeforeTheEpoch) {
  EXPECT_EQ(FormatRfc3339(Time::FromUnix(-1)), "1969-12-31T23:59:59Z");
  EXPECT_EQ(FormatRfc3339(Time::FromUnix(-86400)), "1969-12-31T00:00:00Z");
  EXPECT_EQ(FormatRfc3339(Time::FromUnix(-86401)), "1969-12-30T23:59:59Z");
  EXPECT_EQ(FormatRfc3339(Time::FromUnix(-2203891200)), "1900-03-01T00:00:00Z");
  EXPECT_EQ(FormatRfc3339(Time::FromUnix(-62167219200)), "0000-01-01T00:00:00Z");
}

// Go's encoding/json writes map keys sorted bytewise, at every depth.
TEST(SortedKeysTest, SortsEveryObject) {
  auto v = json::ParseJson(R"({"b":1,"a":{"d":1,"c":2},"A":[{"z":1,"y":{"é":1,"e":2}}],"_":0})");
  ASSERT_TRUE(v.ok()) << v.error();
  EXPECT_EQ(json::ToJson(SortedKeys(*v)),
            R"({"A":[{"y":{"e":2,"é":1},"z":1}],"_":0,"a":{"c":2,"d":1},"b":1})");
}

}  // namespace
}  // namespace dra::api::codec
