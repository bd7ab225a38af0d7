// Timestamps and durations: construction from strings, arithmetic lives in
// functions_core.cc, and the calendar accessors. Time zones: UTC and fixed
// offsets ("+05:30"); IANA names need a zone database and are rejected.
#include <cctype>

#include "cel/format.h"
#include "cel/runtime.h"

namespace dra::cel {
namespace {

using K = ValueKind;

Value MakeTimestamp(EvalContext&, const Value* a, std::size_t) {
  if (a[0].kind() == K::kTimestamp) return a[0];
  if (a[0].kind() == K::kInt) {
    std::int64_t s = a[0].int_value();
    if (s < -62135596800 || s > 253402300799) return Value::Error("timestamp overflow");
    return Value::Timestamp(s, 0);
  }
  if (a[0].kind() != K::kString) return NoSuchOverload();
  std::int64_t seconds;
  std::int32_t nanos;
  if (!ParseTimestamp(a[0].str(), &seconds, &nanos)) {
    return Value::Error("parsing time \"" + std::string(a[0].str()) +
                        "\" as \"2006-01-02T15:04:05Z07:00\": cannot parse");
  }
  return Value::Timestamp(seconds, nanos);
}

Value MakeDuration(EvalContext&, const Value* a, std::size_t) {
  if (a[0].kind() == K::kDuration) return a[0];
  if (a[0].kind() != K::kString) return NoSuchOverload();
  std::int64_t nanos;
  if (!ParseDuration(a[0].str(), &nanos)) {
    return Value::Error("time: invalid duration \"" + std::string(a[0].str()) + "\"");
  }
  return Value::Duration(nanos);
}

// Offset in seconds for a zone argument, or false for unsupported zones.
bool ZoneOffset(std::string_view zone, std::int64_t* offset) {
  if (zone == "UTC" || zone == "Z" || zone.empty()) {
    *offset = 0;
    return true;
  }
  std::string_view z = zone;
  int sign = 1;
  if (z[0] == '+' || z[0] == '-') {
    sign = z[0] == '-' ? -1 : 1;
    z.remove_prefix(1);
  }
  if (z.size() == 5 && z[2] == ':' && std::isdigit(static_cast<unsigned char>(z[0])) &&
      std::isdigit(static_cast<unsigned char>(z[1])) &&
      std::isdigit(static_cast<unsigned char>(z[3])) &&
      std::isdigit(static_cast<unsigned char>(z[4]))) {
    *offset = sign *
              (((z[0] - '0') * 10 + (z[1] - '0')) * 3600 + ((z[3] - '0') * 10 + (z[4] - '0')) * 60);
    return true;
  }
  return false;
}

enum class Part {
  kYear,
  kMonth,
  kDate,
  kDayOfMonth,
  kDayOfWeek,
  kDayOfYear,
  kHours,
  kMinutes,
  kSeconds,
  kMilliseconds
};

template <Part P>
Value TimePart(EvalContext&, const Value* a, std::size_t n) {
  if (a[0].kind() == K::kDuration) {
    if (n != 1) return NoSuchOverload();
    std::int64_t ns = a[0].duration_nanos();
    switch (P) {
      case Part::kHours:
        return Value::Int(ns / 3'600'000'000'000);
      case Part::kMinutes:
        return Value::Int(ns / 60'000'000'000);
      case Part::kSeconds:
        return Value::Int(ns / 1'000'000'000);
      case Part::kMilliseconds:
        return Value::Int(ns / 1'000'000 % 1000);
      default:
        return NoSuchOverload();
    }
  }
  if (a[0].kind() != K::kTimestamp) return NoSuchOverload();
  std::int64_t offset = 0;
  if (n == 2) {
    if (a[1].kind() != K::kString) return NoSuchOverload();
    if (!ZoneOffset(a[1].str(), &offset)) {
      return Value::Error("unknown time zone " + std::string(a[1].str()));
    }
  }
  std::int64_t s = a[0].seconds() + offset;
  std::int64_t days = s >= 0 ? s / 86400 : -((-s + 86399) / 86400);
  std::int64_t rem = s - days * 86400;
  std::int64_t y;
  unsigned m, d;
  CivilFromDays(days, &y, &m, &d);
  switch (P) {
    case Part::kYear:
      return Value::Int(y);
    case Part::kMonth:
      return Value::Int(m - 1);
    case Part::kDate:
      return Value::Int(d);
    case Part::kDayOfMonth:
      return Value::Int(d - 1);
    case Part::kDayOfWeek:
      return Value::Int(((days % 7) + 11) % 7);  // 1970-01-01 was a Thursday
    case Part::kDayOfYear:
      return Value::Int(days - DaysFromCivil(y, 1, 1));
    case Part::kHours:
      return Value::Int(rem / 3600);
    case Part::kMinutes:
      return Value::Int(rem / 60 % 60);
    case Part::kSeconds:
      return Value::Int(rem % 60);
    case Part::kMilliseconds:
      return Value::Int(a[0].nanos() / 1'000'000);
  }
  return NoSuchOverload();
}

#define DRA_CEL_TIME_PART(name, part) \
  {name, true, 1, TimePart<part>, nullptr, true}, { name, true, 2, TimePart<part>, nullptr, true }

constexpr Function kTime[] = {
    {"timestamp", false, 1, MakeTimestamp, nullptr, true},
    {"duration", false, 1, MakeDuration, nullptr, true},
    DRA_CEL_TIME_PART("getFullYear", Part::kYear),
    DRA_CEL_TIME_PART("getMonth", Part::kMonth),
    DRA_CEL_TIME_PART("getDate", Part::kDate),
    DRA_CEL_TIME_PART("getDayOfMonth", Part::kDayOfMonth),
    DRA_CEL_TIME_PART("getDayOfWeek", Part::kDayOfWeek),
    DRA_CEL_TIME_PART("getDayOfYear", Part::kDayOfYear),
    DRA_CEL_TIME_PART("getHours", Part::kHours),
    DRA_CEL_TIME_PART("getMinutes", Part::kMinutes),
    DRA_CEL_TIME_PART("getSeconds", Part::kSeconds),
    DRA_CEL_TIME_PART("getMilliseconds", Part::kMilliseconds),
};

#undef DRA_CEL_TIME_PART

}  // namespace

FunctionTable TimeFunctions() { return {std::begin(kTime), std::end(kTime)}; }

}  // namespace dra::cel
