// string.format(list) of the cel-go strings extension v2: the legacy
// formatter of ext/formatting.go (not the v4 formatting_v2.go), including its
// locale-aware (en_US) output for %f and %e and its error texts.
#include <algorithm>
#include <cmath>
#include <cstdio>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "cel/format.h"
#include "cel/runtime.h"
#include "dra/api/field_error.h"

namespace dra::cel {
namespace {

using K = ValueKind;

constexpr int kDefaultPrecision = 6;

struct Formatted {
  bool ok = true;
  std::string text;  // the output, or the error message
};

Formatted Fail(std::string message) { return {false, std::move(message)}; }

std::string Fixed(double d, int precision) {
  char buf[512];
  std::snprintf(buf, sizeof buf, "%.*f", std::min(precision, 300), d);
  return buf;
}

// The en_US number printer: grouping separators in the integer part, and
// its spellings of infinity.
std::string LocaleFixed(double d, int precision) {
  if (std::isnan(d)) return "NaN";
  if (std::isinf(d)) return d > 0 ? "∞" : "-∞";
  std::string s = Fixed(d, precision);
  std::size_t start = s[0] == '-' ? 1 : 0;
  std::size_t end = s.find('.');
  if (end == std::string::npos) end = s.size();
  for (std::size_t i = end; i > start + 3; i -= 3) s.insert(i - 3, ",");
  return s;
}

// The en_US printer's scientific form: "1.052033 × 10⁰³" (narrow no-break
// spaces around the sign). The legacy formatter passes the precision as a
// width, so six fraction digits are always printed.
std::string LocaleScientific(double d) {
  if (std::isnan(d)) return "NaN";
  if (std::isinf(d)) return d > 0 ? "∞" : "-∞";
  char buf[64];
  std::snprintf(buf, sizeof buf, "%.*e", kDefaultPrecision, d);
  std::string s = buf;
  std::size_t e = s.find('e');
  std::string out = s.substr(0, e) + "\u202f\u00d7\u202f10";
  static const char* kSuper[] = {"\u2070", "\u00b9", "\u00b2", "\u00b3", "\u2074",
                                 "\u2075", "\u2076", "\u2077", "\u2078", "\u2079"};
  for (std::size_t i = e + 1; i < s.size(); ++i) {
    if (s[i] == '-') out += "\u207b";
    if (s[i] >= '0' && s[i] <= '9') out += kSuper[s[i] - '0'];
  }
  return out;
}

std::string InBase(const Value& v, unsigned base, bool upper) {
  const char* digits = upper ? "0123456789ABCDEF" : "0123456789abcdef";
  bool negative = v.kind() == K::kInt && v.int_value() < 0;
  std::uint64_t n = v.kind() == K::kInt ? (negative ? 0 - static_cast<std::uint64_t>(v.int_value())
                                                    : static_cast<std::uint64_t>(v.int_value()))
                                        : v.uint_value();
  std::string out;
  do {
    out += digits[n % base];
    n /= base;
  } while (n != 0);
  if (negative) out += '-';
  std::reverse(out.begin(), out.end());
  return out;
}

Formatted FormatString(const Value& v);

// How a value is written inside a list or map under %s.
Formatted FormatMember(const Value& v) {
  switch (v.kind()) {
    case K::kInt:
    case K::kUint:
      return {true, InBase(v, 10, false)};
    case K::kString:
      return {true, api::GoQuote(v.str())};
    case K::kBytes:
      return {true, "b" + api::GoQuote(v.str())};
    case K::kBool:
    case K::kNull:
    case K::kType:
    case K::kList:
    case K::kMap:
      return FormatString(v);
    case K::kTimestamp:
      return {true, "timestamp(" + api::GoQuote(DebugString(v)) + ")"};
    case K::kDuration:
      return {true, "duration(" + api::GoQuote(DebugString(v)) + ")"};
    case K::kDouble: {
      std::string s = Fixed(v.double_value(), kDefaultPrecision);
      if (std::isnan(v.double_value())) s = "NaN";
      if (std::isinf(v.double_value())) s = v.double_value() > 0 ? "+Inf" : "-Inf";
      return {true, std::isfinite(v.double_value()) ? s : api::GoQuote(s)};
    }
    default:
      return Fail("no formatting function for " + std::string(TypeName(v)));
  }
}

Formatted FormatString(const Value& v) {
  switch (v.kind()) {
    case K::kList: {
      std::string out = "[";
      for (std::size_t i = 0, n = ListSize(v); i < n; ++i) {
        Formatted m = FormatMember(ListAt(v, i));
        if (!m.ok) return m;
        if (i) out += ", ";
        out += m.text;
      }
      return {true, out + "]"};
    }
    case K::kMap: {
      std::vector<std::pair<std::string, std::string>> pairs;
      Formatted failure;
      MapForEachKey(v, [&](const Value& key) {
        Formatted k;
        if (key.kind() == K::kString) {
          k = {true, api::GoQuote(key.str())};
        } else if (key.kind() == K::kBool) {
          k = FormatString(key);
        } else if (key.kind() == K::kInt || key.kind() == K::kUint) {
          k = {true, InBase(key, 10, false)};
        } else {
          failure =
              Fail("no formatting function for map key of type " + std::string(TypeName(key)));
          return false;
        }
        Value value;
        MapFind(v, key, &value);
        Formatted m = FormatMember(value);
        if (!m.ok) {
          failure = m;
          return false;
        }
        pairs.emplace_back(k.text, m.text);
        return true;
      });
      if (!failure.ok) return failure;
      std::stable_sort(pairs.begin(), pairs.end(),
                       [](const auto& a, const auto& b) { return a.first < b.first; });
      std::string out = "{";
      for (std::size_t i = 0; i < pairs.size(); ++i) {
        if (i) out += ", ";
        out += pairs[i].first + ":" + pairs[i].second;
      }
      return {true, out + "}"};
    }
    case K::kNull:
      return {true, "null"};
    case K::kString:
    case K::kBytes:
    case K::kType:
      return {true, std::string(v.str())};
    case K::kInt:
    case K::kUint:
    case K::kDouble:
    case K::kBool:
    case K::kTimestamp:
    case K::kDuration:
      return {true, DebugString(v)};
    default:
      return Fail(
          "string clause can only be used on strings, bools, bytes, ints, doubles, maps, lists, "
          "types, durations, and timestamps, was given " +
          std::string(TypeName(v)));
  }
}

bool IsFloatWord(const Value& v) {
  return v.kind() == K::kString &&
         (v.str() == "NaN" || v.str() == "Infinity" || v.str() == "-Infinity");
}

double FloatOf(const Value& v) {
  if (v.kind() == K::kDouble) return v.double_value();
  if (v.str() == "NaN") return std::nan("");
  return v.str() == "Infinity" ? HUGE_VAL : -HUGE_VAL;
}

Formatted FormatClause(char clause, const int* precision, const Value& v) {
  std::string type(TypeName(v));
  switch (clause) {
    case 's':
      return FormatString(v);
    case 'd':
      if (v.kind() == K::kInt || v.kind() == K::kUint) return {true, InBase(v, 10, false)};
      return Fail("decimal clause can only be used on integers, was given " + type);
    case 'f':
      if (v.kind() != K::kDouble && !IsFloatWord(v))
        return Fail("fixed-point clause can only be used on doubles, was given " + type);
      return {true, LocaleFixed(FloatOf(v), precision ? *precision : kDefaultPrecision)};
    case 'e':
      if (v.kind() != K::kDouble && !IsFloatWord(v))
        return Fail("scientific clause can only be used on doubles, was given " + type);
      return {true, LocaleScientific(FloatOf(v))};
    case 'b':
      if (v.kind() == K::kInt || v.kind() == K::kUint) return {true, InBase(v, 2, false)};
      if (v.kind() == K::kBool) return {true, v.bool_value() ? "1" : "0"};
      return Fail("only integers and bools can be formatted as binary, was given " + type);
    case 'x':
    case 'X': {
      bool upper = clause == 'X';
      if (v.kind() == K::kInt || v.kind() == K::kUint) return {true, InBase(v, 16, upper)};
      if (v.kind() == K::kString || v.kind() == K::kBytes) {
        const char* digits = upper ? "0123456789ABCDEF" : "0123456789abcdef";
        std::string out;
        for (char c : v.str()) {
          auto u = static_cast<unsigned char>(c);
          out += digits[u >> 4];
          out += digits[u & 15];
        }
        return {true, out};
      }
      return Fail("only integers, byte buffers, and strings can be formatted as hex, was given " +
                  type);
    }
    case 'o':
      if (v.kind() == K::kInt || v.kind() == K::kUint) return {true, InBase(v, 8, false)};
      return Fail("octal clause can only be used on integers, was given " + type);
    default:
      return Fail("could not parse formatting clause: unrecognized formatting clause \"" +
                  std::string(1, clause) + "\"");
  }
}

Value Format(EvalContext&, const Value* a, std::size_t) {
  if (a[0].kind() != K::kString || a[1].kind() != K::kList) return NoSuchOverload();
  std::string_view f = a[0].str();
  std::size_t count = ListSize(a[1]);
  std::string out;
  std::size_t arg = 0;
  for (std::size_t i = 0; i < f.size();) {
    if (f[i] != '%') {
      out += f[i++];
      continue;
    }
    if (i + 1 < f.size() && f[i + 1] == '%') {
      out += '%';
      i += 2;
      continue;
    }
    if (arg >= count) return Value::Error("index " + std::to_string(arg) + " out of range");
    if (i + 1 >= f.size()) return Value::Error("unexpected end of string");
    std::size_t j = i + 1;
    int precision_value = 0;
    const int* precision = nullptr;
    if (f[j] == '.') {
      std::size_t start = ++j;
      while (j < f.size() && f[j] >= '0' && f[j] <= '9') ++j;
      if (j >= f.size()) {
        return Value::Error(
            "could not parse formatting clause: error while parsing precision: could not find "
            "end of precision specifier");
      }
      std::string_view digits = f.substr(start, j - start);
      if (digits.empty() || digits.size() > 18) {
        return Value::Error(
            "could not parse formatting clause: error while parsing precision: error while "
            "converting precision to integer: strconv.Atoi: parsing \"" +
            std::string(digits) +
            "\": " + (digits.empty() ? "invalid syntax" : "value out of range"));
      }
      long long p = std::stoll(std::string(digits));
      precision_value = static_cast<int>(std::min<long long>(p, 1 << 20));
      precision = &precision_value;
    }
    Formatted r = FormatClause(f[j], precision, ListAt(a[1], arg));
    if (!r.ok) {
      if (r.text.rfind("could not parse", 0) == 0) return Value::Error(r.text);
      return Value::Error("error during formatting: " + r.text);
    }
    out += r.text;
    i = j + 1;
    ++arg;
  }
  return Value::String(std::move(out));
}

constexpr Function kFormat[] = {
    {"format", true, 2, Format, nullptr, true},
};

}  // namespace

FunctionTable FormatFunctions() { return {std::begin(kFormat), std::end(kFormat)}; }

}  // namespace dra::cel
