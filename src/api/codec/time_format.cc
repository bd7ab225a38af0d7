#include "api/codec/time_format.h"

#include <algorithm>
#include <chrono>
#include <cstdio>

namespace dra::api::codec {
namespace {

constexpr std::string_view kLayout = "2006-01-02T15:04:05Z07:00";

bool Digits(std::string_view s, std::size_t pos, std::size_t n, int& out) {
  if (pos + n > s.size()) return false;
  int v = 0;
  for (std::size_t i = pos; i < pos + n; ++i) {
    if (s[i] < '0' || s[i] > '9') return false;
    v = v * 10 + (s[i] - '0');
  }
  out = v;
  return true;
}

Error Bad(std::string_view text, std::string_view detail) {
  std::string msg = "parsing time \"" + std::string(text) + "\" as \"" + std::string(kLayout) +
                    "\": " + std::string(detail);
  return Error{msg};
}

}  // namespace

Result<Time> ParseRfc3339(std::string_view s) {
  int year, month, day, hour, minute, second;
  if (!Digits(s, 0, 4, year) || s.size() < 5 || s[4] != '-' || !Digits(s, 5, 2, month) ||
      s.size() < 8 || s[7] != '-' || !Digits(s, 8, 2, day) || s.size() < 11 || s[10] != 'T' ||
      !Digits(s, 11, 2, hour) || s.size() < 14 || s[13] != ':' || !Digits(s, 14, 2, minute) ||
      s.size() < 17 || s[16] != ':' || !Digits(s, 17, 2, second)) {
    return Bad(s, "cannot parse \"" + std::string(s) + "\" as \"2006-01-02T15:04:05\"");
  }
  std::size_t pos = 19;
  if (pos < s.size() && (s[pos] == '.' || s[pos] == ',')) {
    ++pos;
    std::size_t start = pos;
    while (pos < s.size() && s[pos] >= '0' && s[pos] <= '9') ++pos;
    if (pos == start) return Bad(s, "cannot parse fractional seconds");
  }
  int offset_seconds = 0;
  if (pos < s.size() && s[pos] == 'Z') {
    ++pos;
  } else if (pos < s.size() && (s[pos] == '+' || s[pos] == '-')) {
    int oh, om;
    if (!Digits(s, pos + 1, 2, oh) || pos + 3 >= s.size() || s[pos + 3] != ':' ||
        !Digits(s, pos + 4, 2, om) || oh > 23 || om > 59) {
      return Bad(s, "cannot parse time zone offset");
    }
    offset_seconds = (oh * 3600 + om * 60) * (s[pos] == '-' ? -1 : 1);
    pos += 6;
  } else {
    return Bad(s, "missing time zone");
  }
  if (pos != s.size()) {
    return Bad(s, "extra text: \"" + std::string(s.substr(pos)) + "\"");
  }
  using namespace std::chrono;
  year_month_day ymd{std::chrono::year(year), std::chrono::month(static_cast<unsigned>(month)),
                     std::chrono::day(static_cast<unsigned>(day))};
  if (!ymd.ok() || hour > 23 || minute > 59 || second > 59) {
    return Bad(s, "day or time out of range");
  }
  std::int64_t days = sys_days(ymd).time_since_epoch().count();
  std::int64_t secs = days * 86400 + hour * 3600 + minute * 60 + second - offset_seconds;
  // Go cannot encode such a time again (Time.MarshalJSON's range).
  constexpr std::int64_t kYear0 = -62167219200;     // 0000-01-01T00:00:00Z
  constexpr std::int64_t kYear9999 = 253402300799;  // 9999-12-31T23:59:59Z
  if (secs < kYear0 || secs > kYear9999) return Bad(s, "year outside of range [0,9999]");
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
