#include "cel/format.h"

#include <charconv>
#include <cmath>
#include <cstdio>
#include <cstdlib>

namespace dra::cel {

std::string FormatDoubleG(double d) {
  if (std::isnan(d)) return "NaN";
  if (std::isinf(d)) return d > 0 ? "+Inf" : "-Inf";
  char buf[64];
  // Shortest round-trip digits in scientific form: d.ddddde[+-]xx.
  auto r = std::to_chars(buf, buf + sizeof buf, d, std::chars_format::scientific);
  std::string sci(buf, r.ptr);
  std::size_t e = sci.find('e');
  int exponent = std::atoi(sci.c_str() + e + 1);
  std::string mantissa = sci.substr(0, e);
  bool negative = mantissa[0] == '-';
  if (negative) mantissa.erase(0, 1);
  std::string digits;
  for (char c : mantissa) {
    if (c != '.') digits += c;
  }
  // Go's %g with shortest precision switches to exponent form when the
  // exponent is below -4 or at least 6.
  std::string out = negative ? "-" : "";
  if (exponent < -4 || exponent >= 6) {
    out += digits.substr(0, 1);
    if (digits.size() > 1) out += "." + digits.substr(1);
    char exp_buf[16];
    std::snprintf(exp_buf, sizeof exp_buf, "e%c%02d", exponent < 0 ? '-' : '+', std::abs(exponent));
    return out + exp_buf;
  }
  if (exponent < 0) {
    return out + "0." + std::string(static_cast<std::size_t>(-exponent - 1), '0') + digits;
  }
  std::size_t int_digits = static_cast<std::size_t>(exponent) + 1;
  if (digits.size() <= int_digits) {
    return out + digits + std::string(int_digits - digits.size(), '0');
  }
  return out + digits.substr(0, int_digits) + "." + digits.substr(int_digits);
}

std::int64_t DaysFromCivil(std::int64_t y, unsigned m, unsigned d) {
  y -= m <= 2;
  const std::int64_t era = (y >= 0 ? y : y - 399) / 400;
  const unsigned yoe = static_cast<unsigned>(y - era * 400);
  const unsigned doy = (153 * (m > 2 ? m - 3 : m + 9) + 2) / 5 + d - 1;
  const unsigned doe = yoe * 365 + yoe / 4 - yoe / 100 + doy;
  return era * 146097 + static_cast<std::int64_t>(doe) - 719468;
}

void CivilFromDays(std::int64_t z, std::int64_t* y, unsigned* m, unsigned* d) {
  z += 719468;
  const std::int64_t era = (z >= 0 ? z : z - 146096) / 146097;
  const unsigned doe = static_cast<unsigned>(z - era * 146097);
  const unsigned yoe = (doe - doe / 1460 + doe / 36524 - doe / 146096) / 365;
  const unsigned doy = doe - (365 * yoe + yoe / 4 - yoe / 100);
  const unsigned mp = (5 * doy + 2) / 153;
  *d = doy - (153 * mp + 2) / 5 + 1;
  *m = mp < 10 ? mp + 3 : mp - 9;
  *y = static_cast<std::int64_t>(yoe) + era * 400 + (*m <= 2);
}

std::string FormatTimestamp(std::int64_t seconds, std::int32_t nanos) {
  std::int64_t days = seconds >= 0 ? seconds / 86400 : -((-seconds + 86399) / 86400);
  std::int64_t rem = seconds - days * 86400;
  std::int64_t y;
  unsigned m, d;
  CivilFromDays(days, &y, &m, &d);
  char buf[64];
  std::snprintf(buf, sizeof buf, "%04lld-%02u-%02uT%02lld:%02lld:%02lld", static_cast<long long>(y),
                m, d, static_cast<long long>(rem / 3600), static_cast<long long>(rem / 60 % 60),
                static_cast<long long>(rem % 60));
  std::string out = buf;
  if (nanos != 0) {
    char frac[16];
    std::snprintf(frac, sizeof frac, ".%09d", nanos);
    std::string f = frac;
    while (f.back() == '0') f.pop_back();
    out += f;
  }
  return out + "Z";
}

std::string FormatDuration(std::int64_t nanos) {
  // As Go: float64 seconds printed in the shortest 'f' form.
  double seconds = static_cast<double>(
                       nanos / 1'000'000'000) +  // NOLINT(bugprone-integer-division): whole seconds
                   static_cast<double>(nanos % 1'000'000'000) / 1e9;
  char buf[64];
  auto r = std::to_chars(buf, buf + sizeof buf, seconds, std::chars_format::fixed);
  return std::string(buf, r.ptr) + "s";
}

namespace {

bool Digits(std::string_view s, std::size_t pos, std::size_t n, int* out) {
  if (pos + n > s.size()) return false;
  int v = 0;
  for (std::size_t i = pos; i < pos + n; ++i) {
    if (s[i] < '0' || s[i] > '9') return false;
    v = v * 10 + (s[i] - '0');
  }
  *out = v;
  return true;
}

}  // namespace

bool ParseTimestamp(std::string_view s, std::int64_t* seconds, std::int32_t* nanos) {
  int year, month, day, hour, minute, second;
  if (!Digits(s, 0, 4, &year) || s.size() < 20 || s[4] != '-' || !Digits(s, 5, 2, &month) ||
      s[7] != '-' || !Digits(s, 8, 2, &day) || s[10] != 'T' || !Digits(s, 11, 2, &hour) ||
      s[13] != ':' || !Digits(s, 14, 2, &minute) || s[16] != ':' || !Digits(s, 17, 2, &second)) {
    return false;
  }
  static constexpr int kDaysIn[] = {31, 29, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31};
  bool leap = (year % 4 == 0 && year % 100 != 0) || year % 400 == 0;
  if (month < 1 || month > 12 || day < 1 || day > kDaysIn[month - 1] ||
      (month == 2 && day == 29 && !leap) || hour > 23 || minute > 59 || second > 59) {
    return false;
  }
  std::size_t pos = 19;
  std::int64_t frac = 0;
  if (pos < s.size() && s[pos] == '.') {
    ++pos;
    std::size_t start = pos;
    int scale = 0;
    while (pos < s.size() && s[pos] >= '0' && s[pos] <= '9') {
      if (scale < 9) frac = frac * 10 + (s[pos] - '0'), ++scale;
      ++pos;
    }
    if (pos == start) return false;
    while (scale < 9) frac *= 10, ++scale;
  }
  std::int64_t offset = 0;
  if (pos < s.size() && s[pos] == 'Z') {
    ++pos;
  } else if (pos < s.size() && (s[pos] == '+' || s[pos] == '-')) {
    int oh, om;
    if (!Digits(s, pos + 1, 2, &oh) || pos + 3 >= s.size() || s[pos + 3] != ':' ||
        !Digits(s, pos + 4, 2, &om) || oh > 23 || om > 59) {
      return false;
    }
    offset = (oh * 3600 + om * 60) * (s[pos] == '-' ? -1 : 1);
    pos += 6;
  } else {
    return false;
  }
  if (pos != s.size()) return false;
  std::int64_t secs =
      DaysFromCivil(year, static_cast<unsigned>(month), static_cast<unsigned>(day)) * 86400 +
      hour * 3600 + minute * 60 + second - offset;
  if (secs < -62135596800 || secs > 253402300799) return false;
  *seconds = secs;
  *nanos = static_cast<std::int32_t>(frac);
  return true;
}

bool ParseDuration(std::string_view s, std::int64_t* nanos) {
  bool negative = false;
  if (!s.empty() && (s[0] == '-' || s[0] == '+')) {
    negative = s[0] == '-';
    s.remove_prefix(1);
  }
  if (s == "0") {
    *nanos = 0;
    return true;
  }
  if (s.empty()) return false;
  __int128 total = 0;
  while (!s.empty()) {
    __int128 whole = 0;
    std::size_t i = 0;
    while (i < s.size() && s[i] >= '0' && s[i] <= '9') {
      whole = whole * 10 + (s[i] - '0');
      if (whole > static_cast<__int128>(INT64_MAX)) return false;
      ++i;
    }
    bool had_digits = i > 0;
    __int128 frac = 0, frac_scale = 1;
    if (i < s.size() && s[i] == '.') {
      ++i;
      while (i < s.size() && s[i] >= '0' && s[i] <= '9') {
        if (frac_scale < 1'000'000'000'000'000'000)
          frac = frac * 10 + (s[i] - '0'), frac_scale *= 10;
        had_digits = true;
        ++i;
      }
    }
    if (!had_digits) return false;
    std::size_t unit_start = i;
    while (i < s.size() && !(s[i] >= '0' && s[i] <= '9') && s[i] != '.') ++i;
    std::string_view unit = s.substr(unit_start, i - unit_start);
    std::int64_t scale;
    if (unit == "ns") {
      scale = 1;
    } else if (unit == "us" || unit == "\u00b5s" || unit == "\u03bcs") {
      scale = 1000;
    } else if (unit == "ms") {
      scale = 1'000'000;
    } else if (unit == "s") {
      scale = 1'000'000'000;
    } else if (unit == "m") {
      scale = 60'000'000'000;
    } else if (unit == "h") {
      scale = 3'600'000'000'000;
    } else {
      return false;
    }
    total += whole * scale + frac * scale / frac_scale;
    if (total > static_cast<__int128>(INT64_MAX) + 1) return false;
    s.remove_prefix(i);
  }
  if (negative) total = -total;
  if (total > INT64_MAX || total < INT64_MIN) return false;
  *nanos = static_cast<std::int64_t>(total);
  return true;
}

}  // namespace dra::cel
