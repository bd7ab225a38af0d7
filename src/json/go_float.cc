// Go's float formatting: strconv.FormatFloat(f, 'g', -1, bits) and the
// encoding/json float encoder. Both start from the shortest decimal digits
// that round-trip (std::to_chars gives the same digits as Go's Ryū-based
// shortest formatting) and lay them out with Go's rules.
#include <algorithm>
#include <charconv>
#include <cmath>
#include <string>

#include "dra/json/value.h"

namespace dra::json {
namespace {

// f = 0.digits × 10^dp; digits is empty for zero.
struct Decimal {
  bool neg = false;
  std::string digits;
  int dp = 0;
};

Decimal ShortestDecimal(double f, int bits) {
  Decimal d;
  d.neg = std::signbit(f);
  if (f == 0) return d;
  char buf[64];
  std::to_chars_result r =
      bits == 32
          ? std::to_chars(buf, buf + sizeof buf, std::fabs(static_cast<float>(f)),
                          std::chars_format::scientific)
          : std::to_chars(buf, buf + sizeof buf, std::fabs(f), std::chars_format::scientific);
  std::string_view s(buf, static_cast<std::size_t>(r.ptr - buf));
  std::size_t e = s.find('e');
  for (char c : s.substr(0, e)) {
    if (c != '.') d.digits.push_back(c);
  }
  int exp = 0;
  std::string_view es = s.substr(e + 1);
  if (!es.empty() && es[0] == '+') es.remove_prefix(1);
  std::from_chars(es.data(), es.data() + es.size(), exp);
  d.dp = exp + 1;
  return d;
}

// %e with `prec` digits after the point (Go's fmtE).
void AppendE(std::string& out, const Decimal& d, int prec) {
  if (d.neg) out.push_back('-');
  const int nd = static_cast<int>(d.digits.size());
  out.push_back(nd == 0 ? '0' : d.digits[0]);
  if (prec > 0) {
    out.push_back('.');
    for (int i = 1; i <= prec; ++i) out.push_back(i < nd ? d.digits[i] : '0');
  }
  out.push_back('e');
  int exp = nd == 0 ? 0 : d.dp - 1;
  out.push_back(exp < 0 ? '-' : '+');
  exp = std::abs(exp);
  if (exp < 10) out.push_back('0');
  out += std::to_string(exp);
}

// %f with `prec` digits after the point (Go's fmtF).
void AppendF(std::string& out, const Decimal& d, int prec) {
  if (d.neg) out.push_back('-');
  const int nd = static_cast<int>(d.digits.size());
  if (d.dp > 0) {
    int m = std::min(nd, d.dp);
    out.append(d.digits, 0, static_cast<std::size_t>(m));
    out.append(static_cast<std::size_t>(d.dp - m), '0');
  } else {
    out.push_back('0');
  }
  if (prec > 0) {
    out.push_back('.');
    for (int i = 1; i <= prec; ++i) {
      int j = d.dp + i - 1;
      out.push_back(j >= 0 && j < nd ? d.digits[static_cast<std::size_t>(j)] : '0');
    }
  }
}

}  // namespace

std::string FormatGoFloatG(double f, int bits) {
  if (std::isnan(f)) return "NaN";
  if (std::isinf(f)) return f > 0 ? "+Inf" : "-Inf";
  if (bits == 32 && std::isinf(static_cast<float>(f))) return f > 0 ? "+Inf" : "-Inf";
  Decimal d = ShortestDecimal(f, bits);
  const int nd = static_cast<int>(d.digits.size());
  std::string out;
  // Shortest %g switches to %e when the exponent is < -4 or >= 6 (Go uses
  // precision 6 for this decision when formatting the shortest digits).
  int exp = d.dp - 1;
  if (exp < -4 || exp >= 6) {
    AppendE(out, d, nd - 1);
  } else {
    AppendF(out, d, std::max(nd - d.dp, 0));
  }
  return out;
}

Result<std::string> FormatGoJsonFloat(double f) {
  if (std::isnan(f) || std::isinf(f)) {
    return Error{"json: unsupported value: " + FormatGoFloatG(f, 64)};
  }
  Decimal d = ShortestDecimal(f, 64);
  const int nd = static_cast<int>(d.digits.size());
  double abs = std::fabs(f);
  std::string out;
  if (abs != 0 && (abs < 1e-6 || abs >= 1e21)) {
    AppendE(out, d, std::max(nd - 1, 0));
    // Go trims the exponent's leading zero: e-07 becomes e-7.
    std::size_t n = out.size();
    if (n >= 4 && out[n - 4] == 'e' && out[n - 3] == '-' && out[n - 2] == '0') {
      out.erase(n - 2, 1);
    }
  } else {
    AppendF(out, d, std::max(nd - d.dp, 0));
  }
  return out;
}

}  // namespace dra::json
