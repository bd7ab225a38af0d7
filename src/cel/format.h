// Text forms that must match Go's: %g for doubles, RFC 3339 timestamps,
// and CEL's seconds-based duration strings; plus their parsers.
#pragma once

#include <cstdint>
#include <string>
#include <string_view>

namespace dra::cel {

// Go's fmt %g (shortest representation; exponent form when the decimal
// exponent is < -4 or >= 21... as strconv 'g' with precision -1 decides).
std::string FormatDoubleG(double d);

// Seconds since the Unix epoch plus nanoseconds, in UTC, RFC 3339 with the
// fractional part trimmed of trailing zeros ("2024-01-02T03:04:05.5Z").
std::string FormatTimestamp(std::int64_t seconds, std::int32_t nanos);
// "5400s", "1.5s", "-0.000000001s".
std::string FormatDuration(std::int64_t nanos);

// RFC 3339 (with 'T', optional fraction, 'Z' or +hh:mm). False when invalid
// or outside 0001-01-01..9999-12-31.
bool ParseTimestamp(std::string_view s, std::int64_t* seconds, std::int32_t* nanos);
// Go's time.ParseDuration syntax ("1h30m", "-1.5s", "300ms").
bool ParseDuration(std::string_view s, std::int64_t* nanos);

// Days since 1970-01-01 of a proleptic Gregorian date, and back.
std::int64_t DaysFromCivil(std::int64_t y, unsigned m, unsigned d);
void CivilFromDays(std::int64_t z, std::int64_t* y, unsigned* m, unsigned* d);

}  // namespace dra::cel
