#include "api/codec/time_format.h"

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <optional>

namespace dra::api::codec {
namespace {

constexpr std::string_view kLayout = "2006-01-02T15:04:05Z07:00";

bool IsDigit(std::string_view s, std::size_t i) {
  return i < s.size() && s[i] >= '0' && s[i] <= '9';
}

// Go's time.quote: printable ASCII as is (with " and \ escaped), every
// other byte of a non-ASCII or control character as \xNN.
std::string GoTimeQuote(std::string_view s) {
  static constexpr char kHex[] = "0123456789abcdef";
  std::string out = "\"";
  for (unsigned char c : s) {
    if (c >= 0x80 || c < ' ') {
      out += "\\x";
      out += kHex[c >> 4];
      out += kHex[c & 0xF];
    } else {
      if (c == '"' || c == '\\') out += '\\';
      out += static_cast<char>(c);
    }
  }
  return out + '"';
}

// time.ParseError's two forms: an element that does not match, and a
// message of its own (a value out of range, extra text).
Error CannotParse(std::string_view text, std::string_view rest, std::string_view element) {
  return Error{"parsing time " + GoTimeQuote(text) + " as " + GoTimeQuote(kLayout) +
               ": cannot parse " + GoTimeQuote(rest) + " as " + GoTimeQuote(element)};
}

Error Message(std::string_view text, std::string_view message) {
  return Error{"parsing time " + GoTimeQuote(text) + std::string(message)};
}

// time's getnum: one or two digits; exactly two when `fixed`.
bool GetNum(std::string_view& s, bool fixed, int& out) {
  if (!IsDigit(s, 0)) return false;
  if (!IsDigit(s, 1)) {
    if (fixed) return false;
    out = s[0] - '0';
    s.remove_prefix(1);
    return true;
  }
  out = (s[0] - '0') * 10 + (s[1] - '0');
  s.remove_prefix(2);
  return true;
}

int DaysIn(int month, int year) {
  static constexpr int kDays[] = {31, 28, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31};
  const bool leap = year % 4 == 0 && (year % 100 != 0 || year % 400 == 0);
  return month == 2 && leap ? 29 : kDays[month - 1];
}

// "2006": four characters, the first a digit, all of them an integer.
std::optional<Error> ParseYear(std::string_view text, std::string_view& v, int& year) {
  bool ok = v.size() >= 4;
  for (std::size_t i = 0; ok && i < 4; ++i) ok = IsDigit(v, i);
  if (!ok) return CannotParse(text, v, "2006");
  year = (v[0] - '0') * 1000 + (v[1] - '0') * 100 + (v[2] - '0') * 10 + (v[3] - '0');
  v.remove_prefix(4);
  return std::nullopt;
}

// "Z07:00": Z, or a sign, two digits, a colon and two digits. Go allows
// offsets up to 24 hours and 60 minutes, and reports a range before a bad
// sign.
std::optional<Error> ParseOffset(std::string_view text, std::string_view& v, int& seconds) {
  if (!v.empty() && v[0] == 'Z') {
    v.remove_prefix(1);
    return std::nullopt;
  }
  if (v.size() < 6 || v[3] != ':') return CannotParse(text, v, "Z07:00");
  std::string_view hh = v.substr(1, 2), mm = v.substr(4, 2);
  int oh = 0, om = 0;
  const bool digits = GetNum(hh, true, oh) && GetNum(mm, true, om);
  if (oh > 24) return Message(text, ": time zone offset hour out of range");
  if (om > 60) return Message(text, ": time zone offset minute out of range");
  if (!digits || (v[0] != '+' && v[0] != '-')) return CannotParse(text, v, "Z07:00");
  seconds = (oh * 3600 + om * 60) * (v[0] == '-' ? -1 : 1);
  v.remove_prefix(6);
  return std::nullopt;
}

}  // namespace

// Go's time.Parse(time.RFC3339, text) as metav1.Time calls it: the layout's
// elements in order, each error worded as time.ParseError words it.
Result<Time> ParseRfc3339(std::string_view text) {
  std::string_view v = text;
  auto literal = [&](char c) {
    return !v.empty() && v[0] == c ? (v.remove_prefix(1), true) : false;
  };

  int year = 0;
  if (std::optional<Error> e = ParseYear(text, v, year)) return *e;
  // Each two-digit element with its range; "15" (hour) takes one digit too.
  struct Element {
    char before;
    std::string_view layout;
    bool fixed;
    int max;  // exclusive upper bound; the month is 1..12
    std::string_view name;
  };
  static constexpr Element kElements[] = {{'-', "01", true, 13, "month"},
                                          {'-', "02", true, 100, ""},
                                          {'T', "15", false, 24, "hour"},
                                          {':', "04", true, 60, "minute"},
                                          {':', "05", true, 60, "second"}};
  int values[5] = {};
  for (std::size_t i = 0; i < std::size(kElements); ++i) {
    const Element& e = kElements[i];
    const std::string_view before = v;
    if (!literal(e.before)) return CannotParse(text, before, std::string_view(&e.before, 1));
    const std::string_view hold = v;
    if (!GetNum(v, e.fixed, values[i])) return CannotParse(text, hold, e.layout);
    const bool month_bad = i == 0 && values[i] == 0;
    if (month_bad || values[i] >= e.max) {
      return Message(text, ": " + std::string(e.name) + " out of range");
    }
  }
  const auto [month, day, hour, minute, second] = values;
  // Fractional seconds after "05": a comma or period and at least a digit.
  if (v.size() >= 2 && (v[0] == '.' || v[0] == ',') && IsDigit(v, 1)) {
    std::size_t n = 2;
    while (IsDigit(v, n)) ++n;
    v.remove_prefix(n);
  }
  int offset_seconds = 0;
  if (std::optional<Error> e = ParseOffset(text, v, offset_seconds)) return *e;
  if (!v.empty()) return Message(text, ": extra text: " + GoTimeQuote(v));
  if (day < 1 || day > DaysIn(month, year)) return Message(text, ": day out of range");

  using namespace std::chrono;
  year_month_day ymd{std::chrono::year(year), std::chrono::month(static_cast<unsigned>(month)),
                     std::chrono::day(static_cast<unsigned>(day))};
  std::int64_t days = sys_days(ymd).time_since_epoch().count();
  std::int64_t secs = days * 86400 + hour * 3600 + minute * 60 + second - offset_seconds;
  // Go cannot encode such a time again (Time.MarshalJSON's range).
  constexpr std::int64_t kYear0 = -62167219200;     // 0000-01-01T00:00:00Z
  constexpr std::int64_t kYear9999 = 253402300799;  // 9999-12-31T23:59:59Z
  if (secs < kYear0 || secs > kYear9999) {
    return Message(text, ": year outside of range [0,9999]");
  }
  return Time::FromUnix(secs);
}

std::string FormatRfc3339(const Time& t) {
  using namespace std::chrono;
  std::int64_t secs = t.seconds;
  std::int64_t days = secs >= 0 ? secs / 86400 : -((-secs + 86399) / 86400);
  std::int64_t rem = secs - days * 86400;
  year_month_day ymd{sys_days{std::chrono::days{days}}};
  char buf[32];
  std::snprintf(buf, sizeof buf, "%04d-%02u-%02uT%02d:%02d:%02dZ", static_cast<int>(ymd.year()),
                static_cast<unsigned>(ymd.month()), static_cast<unsigned>(ymd.day()),
                static_cast<int>(rem / 3600), static_cast<int>(rem % 3600 / 60),
                static_cast<int>(rem % 60));
  return buf;
}

json::Value SortedKeys(const json::Value& v) {
  json::Value out;
  out.kind = v.kind;
  out.boolean = v.boolean;
  out.text = v.text;
  out.pos = v.pos;
  out.items.reserve(v.items.size());
  for (const json::Value& item : v.items) out.items.push_back(SortedKeys(item));
  out.members.reserve(v.members.size());
  for (const json::Member& m : v.members) {
    out.members.push_back(json::Member{m.key, SortedKeys(m.value), m.key_pos});
  }
  std::stable_sort(out.members.begin(), out.members.end(),
                   [](const json::Member& a, const json::Member& b) { return a.key < b.key; });
  return out;
}

}  // namespace dra::api::codec
