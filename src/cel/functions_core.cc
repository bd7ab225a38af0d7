// Standard-library operators and functions: arithmetic with CEL's overflow
// rules, comparison, membership, indexing, size, the basic string functions
// and type conversions.
#include <algorithm>
#include <cctype>
#include <cerrno>
#include <charconv>
#include <cmath>
#include <cstring>
#include <limits>

#include "cel/regex_cache.h"
#include "cel/runtime.h"
#include "cel/utf8.h"

namespace dra::cel {
namespace {

using K = ValueKind;

Value Overflow() { return Value::Error("integer overflow"); }
Value UintOverflow() { return Value::Error("unsigned integer overflow"); }

// timestamp + duration, within CEL's timestamp range.
Value AddToTimestamp(const Value& ts, std::int64_t duration_nanos) {
  std::int64_t ns = ts.nanos() + duration_nanos % 1'000'000'000;
  std::int64_t s = ts.seconds() + duration_nanos / 1'000'000'000;
  if (ns >= 1'000'000'000) ns -= 1'000'000'000, ++s;
  if (ns < 0) ns += 1'000'000'000, --s;
  if (s < -62135596800 || s > 253402300799) return Value::Error("timestamp overflow");
  return Value::Timestamp(s, static_cast<std::int32_t>(ns));
}

Value Add(EvalContext&, const Value* a, std::size_t) {
  const Value& x = a[0];
  const Value& y = a[1];
  if (x.kind() != y.kind()) {
    if (x.kind() == K::kTimestamp && y.kind() == K::kDuration) {
      return AddToTimestamp(x, y.duration_nanos());
    }
    if (x.kind() == K::kDuration && y.kind() == K::kTimestamp) {
      return AddToTimestamp(y, x.duration_nanos());
    }
    return NoSuchOverload();
  }
  switch (x.kind()) {
    case K::kInt: {
      std::int64_t r;
      if (__builtin_add_overflow(x.int_value(), y.int_value(), &r)) return Overflow();
      return Value::Int(r);
    }
    case K::kUint: {
      std::uint64_t r;
      if (__builtin_add_overflow(x.uint_value(), y.uint_value(), &r)) return UintOverflow();
      return Value::Uint(r);
    }
    case K::kDouble:
      return Value::Double(x.double_value() + y.double_value());
    case K::kString:
      return Value::String(std::string(x.str()) + std::string(y.str()));
    case K::kBytes:
      return Value::Bytes(std::string(x.str()) + std::string(y.str()));
    case K::kDuration: {
      std::int64_t r;
      if (__builtin_add_overflow(x.duration_nanos(), y.duration_nanos(), &r)) {
        return Value::Error("duration overflow");
      }
      return Value::Duration(r);
    }
    case K::kList: {
      std::vector<Value> out;
      std::size_t nx = ListSize(x), ny = ListSize(y);
      out.reserve(nx + ny);
      for (std::size_t i = 0; i < nx; ++i) out.push_back(ListAt(x, i));
      for (std::size_t i = 0; i < ny; ++i) out.push_back(ListAt(y, i));
      return Value::List(std::move(out));
    }
    default:
      return NoSuchOverload();
  }
}

Value Subtract(EvalContext&, const Value* a, std::size_t) {
  const Value& x = a[0];
  const Value& y = a[1];
  if (x.kind() == K::kTimestamp && y.kind() == K::kTimestamp) {
    __int128 ns = (static_cast<__int128>(x.seconds()) - y.seconds()) * 1'000'000'000 +
                  (x.nanos() - y.nanos());
    if (ns > INT64_MAX || ns < INT64_MIN) return Value::Error("duration overflow");
    return Value::Duration(static_cast<std::int64_t>(ns));
  }
  if (x.kind() == K::kTimestamp && y.kind() == K::kDuration) {
    if (y.duration_nanos() == INT64_MIN) return Value::Error("timestamp overflow");
    return AddToTimestamp(x, -y.duration_nanos());
  }
  if (x.kind() != y.kind()) return NoSuchOverload();
  switch (x.kind()) {
    case K::kInt: {
      std::int64_t r;
      if (__builtin_sub_overflow(x.int_value(), y.int_value(), &r)) return Overflow();
      return Value::Int(r);
    }
    case K::kUint: {
      std::uint64_t r;
      if (__builtin_sub_overflow(x.uint_value(), y.uint_value(), &r)) return UintOverflow();
      return Value::Uint(r);
    }
    case K::kDouble:
      return Value::Double(x.double_value() - y.double_value());
    case K::kDuration: {
      std::int64_t r;
      if (__builtin_sub_overflow(x.duration_nanos(), y.duration_nanos(), &r)) {
        return Value::Error("duration overflow");
      }
      return Value::Duration(r);
    }
    default:
      return NoSuchOverload();
  }
}

Value Multiply(EvalContext&, const Value* a, std::size_t) {
  const Value& x = a[0];
  const Value& y = a[1];
  if (x.kind() != y.kind()) return NoSuchOverload();
  switch (x.kind()) {
    case K::kInt: {
      std::int64_t r;
      if (__builtin_mul_overflow(x.int_value(), y.int_value(), &r)) return Overflow();
      return Value::Int(r);
    }
    case K::kUint: {
      std::uint64_t r;
      if (__builtin_mul_overflow(x.uint_value(), y.uint_value(), &r)) return UintOverflow();
      return Value::Uint(r);
    }
    case K::kDouble:
      return Value::Double(x.double_value() * y.double_value());
    default:
      return NoSuchOverload();
  }
}

Value Divide(EvalContext&, const Value* a, std::size_t) {
  const Value& x = a[0];
  const Value& y = a[1];
  if (x.kind() != y.kind()) return NoSuchOverload();
  switch (x.kind()) {
    case K::kInt:
      if (y.int_value() == 0) return Value::Error("division by zero");
      if (x.int_value() == INT64_MIN && y.int_value() == -1) return Overflow();
      return Value::Int(x.int_value() / y.int_value());
    case K::kUint:
      if (y.uint_value() == 0) return Value::Error("division by zero");
      return Value::Uint(x.uint_value() / y.uint_value());
    case K::kDouble:
      return Value::Double(x.double_value() / y.double_value());
    default:
      return NoSuchOverload();
  }
}

Value Modulo(EvalContext&, const Value* a, std::size_t) {
  const Value& x = a[0];
  const Value& y = a[1];
  if (x.kind() != y.kind()) return NoSuchOverload();
  switch (x.kind()) {
    case K::kInt:
      if (y.int_value() == 0) return Value::Error("modulus by zero");
      if (x.int_value() == INT64_MIN && y.int_value() == -1) return Overflow();
      return Value::Int(x.int_value() % y.int_value());
    case K::kUint:
      if (y.uint_value() == 0) return Value::Error("modulus by zero");
      return Value::Uint(x.uint_value() % y.uint_value());
    default:
      return NoSuchOverload();
  }
}

Value Negate(EvalContext&, const Value* a, std::size_t) {
  switch (a[0].kind()) {
    case K::kInt:
      if (a[0].int_value() == INT64_MIN) return Overflow();
      return Value::Int(-a[0].int_value());
    case K::kDouble:
      return Value::Double(-a[0].double_value());
    case K::kDuration:
      if (a[0].duration_nanos() == INT64_MIN) return Value::Error("duration overflow");
      return Value::Duration(-a[0].duration_nanos());
    default:
      return NoSuchOverload();
  }
}

Value Not(EvalContext&, const Value* a, std::size_t) {
  if (a[0].kind() != K::kBool) return NoSuchOverload();
  return Value::Bool(!a[0].bool_value());
}

Value Equals(EvalContext&, const Value* a, std::size_t) { return Value::Bool(Equal(a[0], a[1])); }
Value NotEquals(EvalContext&, const Value* a, std::size_t) {
  return Value::Bool(!Equal(a[0], a[1]));
}

std::uint64_t EqualityCost(const Value* a, std::size_t) {
  // Strings and bytes are charged by the shorter operand.
  if ((a[0].kind() == K::kString || a[0].kind() == K::kBytes) && a[1].kind() == a[0].kind()) {
    std::size_t m = std::min(a[0].str().size(), a[1].str().size());
    return std::max<std::uint64_t>(1, StringCostFactor(m, 10));
  }
  return 1;
}

template <bool (*Accept)(int)>
Value Compare(EvalContext&, const Value* a, std::size_t) {
  int c;
  if (!CompareValues(a[0], a[1], &c)) {
    if (a[0].kind() == K::kDouble || a[1].kind() == K::kDouble) {
      // NaN compares false with everything (no error).
      bool nan = (a[0].kind() == K::kDouble && std::isnan(a[0].double_value())) ||
                 (a[1].kind() == K::kDouble && std::isnan(a[1].double_value()));
      if (nan) return Value::Bool(false);
    }
    return NoSuchOverload();
  }
  return Value::Bool(Accept(c));
}
bool IsLess(int c) { return c < 0; }
bool IsLessEq(int c) { return c <= 0; }
bool IsGreater(int c) { return c > 0; }
bool IsGreaterEq(int c) { return c >= 0; }

Value In(EvalContext&, const Value* a, std::size_t) {
  const Value& needle = a[0];
  const Value& haystack = a[1];
  if (haystack.kind() == K::kList) {
    std::size_t n = ListSize(haystack);
    for (std::size_t i = 0; i < n; ++i) {
      if (Equal(needle, ListAt(haystack, i))) return Value::Bool(true);
    }
    return Value::Bool(false);
  }
  if (haystack.kind() == K::kMap) {
    Value unused;
    return Value::Bool(MapFind(haystack, needle, &unused));
  }
  return NoSuchOverload();
}

std::uint64_t InCost(const Value* a, std::size_t) {
  return a[1].kind() == K::kList ? std::max<std::size_t>(1, ListSize(a[1])) : 1;
}

// Converts an index operand to a list position, as cel-go accepts it (int,
// uint, or an integral double).
bool ListIndex(const Value& index, std::int64_t* out, Value* error) {
  switch (index.kind()) {
    case K::kInt:
      *out = index.int_value();
      return true;
    case K::kUint:
      if (index.uint_value() > INT64_MAX) break;
      *out = static_cast<std::int64_t>(index.uint_value());
      return true;
    case K::kDouble: {
      double d = index.double_value();
      if (d != std::trunc(d) || d < -9.2e18 || d > 9.2e18) {
        *error = Value::Error("unsupported index value " + DebugString(index) + " in list");
        return false;
      }
      *out = static_cast<std::int64_t>(d);
      return true;
    }
    default:
      break;
  }
  *error = Value::Error("unsupported index type '" + std::string(TypeName(index)) + "' in list");
  return false;
}

Value Index(EvalContext& ctx, const Value* a, std::size_t n) {
  const Value& c = a[0];
  const Value& k = a[1];
  if (c.kind() == K::kOptional) {
    // Indexing an optional value chains like c[?k].
    if (!c.has_value()) return c;
    Value inner[2] = {c.optional_value(), k};
    Value v = Index(ctx, inner, n);
    if (v.is_error()) {
      return v.str().starts_with("no such key") || v.str().starts_with("index '")
                 ? Value::OptionalNone()
                 : v;
    }
    return Value::OptionalOf(std::move(v));
  }
  if (c.kind() == K::kList) {
    std::int64_t i;
    Value error;
    if (!ListIndex(k, &i, &error)) return error;
    std::size_t n = ListSize(c);
    if (i < 0 || static_cast<std::size_t>(i) >= n) {
      return Value::Error("index '" + std::to_string(i) + "' out of range in list size '" +
                          std::to_string(n) + "'");
    }
    return ListAt(c, static_cast<std::size_t>(i));
  }
  if (c.kind() == K::kMap) {
    // Unknown domains of device.attributes / device.capacity read as {}.
    if (c.rep() == ValueRep::kDeviceAttributes || c.rep() == ValueRep::kDeviceCapacity) {
      if (k.kind() != K::kString) return NoSuchKey(k);
      return Value::DomainMap(&c.device(), c.rep() == ValueRep::kDeviceCapacity, k.str(),
                              k.owner());
    }
    Value out;
    if (MapFind(c, k, &out)) return out;
    return NoSuchKey(k);
  }
  return NoSuchOverload();
}

Value Size(EvalContext&, const Value* a, std::size_t) {
  switch (a[0].kind()) {
    case K::kString:
      return Value::Int(static_cast<std::int64_t>(CountCodePoints(a[0].str())));
    case K::kBytes:
      return Value::Int(static_cast<std::int64_t>(a[0].str().size()));
    case K::kList:
      return Value::Int(static_cast<std::int64_t>(ListSize(a[0])));
    case K::kMap:
      return Value::Int(static_cast<std::int64_t>(MapSize(a[0])));
    default:
      return NoSuchOverload();
  }
}

Value Contains(EvalContext&, const Value* a, std::size_t n) {
  if (!ArgsAre(a, n, K::kString)) return NoSuchOverload();
  return Value::Bool(a[0].str().find(a[1].str()) != std::string_view::npos);
}
std::uint64_t ContainsCost(const Value* a, std::size_t) {
  return StringCostFactor(a[0].str().size(), 10) * StringCostFactor(a[1].str().size(), 10);
}

Value StartsWith(EvalContext&, const Value* a, std::size_t n) {
  if (!ArgsAre(a, n, K::kString)) return NoSuchOverload();
  return Value::Bool(a[0].str().starts_with(a[1].str()));
}
Value EndsWith(EvalContext&, const Value* a, std::size_t n) {
  if (!ArgsAre(a, n, K::kString)) return NoSuchOverload();
  return Value::Bool(a[0].str().ends_with(a[1].str()));
}
std::uint64_t ReceiverStringCost(const Value* a, std::size_t) {
  return StringCostFactor(a[0].kind() == K::kString ? a[0].str().size() : 0, 10);
}

Value Matches(EvalContext&, const Value* a, std::size_t n) {
  if (!ArgsAre(a, n, K::kString)) return NoSuchOverload();
  std::string error;
  const RE2* re = CompiledRegex(a[1].str(), &error);
  if (!re) return Value::Error("error parsing regexp: " + error);
  return Value::Bool(RE2::PartialMatch(a[0].str(), *re));
}

// --- conversions ------------------------------------------------------------

Value ToInt(EvalContext&, const Value* a, std::size_t) {
  const Value& v = a[0];
  switch (v.kind()) {
    case K::kInt:
      return v;
    case K::kUint:
      if (v.uint_value() > INT64_MAX) return Overflow();
      return Value::Int(static_cast<std::int64_t>(v.uint_value()));
    case K::kDouble: {
      double d = v.double_value();
      // The open range (-2^63, 2^63): the end points do not round-trip.
      if (!(d > -9223372036854775808.0 && d < 9223372036854775808.0)) return Overflow();
      return Value::Int(static_cast<std::int64_t>(d));
    }
    case K::kString: {
      std::string_view s = v.str();
      std::int64_t out;
      std::string_view digits = s;
      if (!digits.empty() && digits[0] == '+') digits.remove_prefix(1);
      auto r = std::from_chars(digits.data(), digits.data() + digits.size(), out);
      if (digits.empty() || r.ec != std::errc() || r.ptr != digits.data() + digits.size()) {
        const char* why =
            r.ec == std::errc::result_out_of_range ? "value out of range" : "invalid syntax";
        return Value::Error("strconv.ParseInt: parsing \"" + std::string(s) + "\": " + why);
      }
      return Value::Int(out);
    }
    case K::kTimestamp:
      return Value::Int(v.seconds());
    default:
      return NoSuchOverload();
  }
}

Value ToUint(EvalContext&, const Value* a, std::size_t) {
  const Value& v = a[0];
  switch (v.kind()) {
    case K::kUint:
      return v;
    case K::kInt:
      if (v.int_value() < 0) return UintOverflow();
      return Value::Uint(static_cast<std::uint64_t>(v.int_value()));
    case K::kDouble: {
      double d = v.double_value();
      if (!(d > -1.0 && d < 18446744073709551616.0)) return UintOverflow();
      return Value::Uint(static_cast<std::uint64_t>(d));
    }
    case K::kString: {
      std::string_view s = v.str();
      std::uint64_t out;
      auto r = std::from_chars(s.data(), s.data() + s.size(), out);
      if (s.empty() || r.ec != std::errc() || r.ptr != s.data() + s.size()) {
        const char* why =
            r.ec == std::errc::result_out_of_range ? "value out of range" : "invalid syntax";
        return Value::Error("strconv.ParseUint: parsing \"" + std::string(s) + "\": " + why);
      }
      return Value::Uint(out);
    }
    default:
      return NoSuchOverload();
  }
}

bool ParseGoFloat(std::string_view s, double* out) {
  std::string t(s);
  std::string lower = t;
  for (char& c : lower) c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
  std::string_view l = lower;
  bool neg = false;
  if (!l.empty() && (l[0] == '+' || l[0] == '-')) {
    neg = l[0] == '-';
    l.remove_prefix(1);
  }
  if (l == "inf" || l == "infinity") {
    *out = neg ? -INFINITY : INFINITY;
    return true;
  }
  if (l == "nan") {
    *out = NAN;
    return true;
  }
  // Decimal forms only (digits, one '.', optional exponent).
  for (char c : t) {
    if (!(std::isdigit(static_cast<unsigned char>(c)) || c == '.' || c == 'e' || c == 'E' ||
          c == '+' || c == '-')) {
      return false;
    }
  }
  char* end = nullptr;
  errno = 0;
  *out = std::strtod(t.c_str(), &end);
  return !t.empty() && end == t.c_str() + t.size();
}

Value ToDouble(EvalContext&, const Value* a, std::size_t) {
  const Value& v = a[0];
  switch (v.kind()) {
    case K::kDouble:
      return v;
    case K::kInt:
      return Value::Double(static_cast<double>(v.int_value()));
    case K::kUint:
      return Value::Double(static_cast<double>(v.uint_value()));
    case K::kString: {
      double d;
      if (!ParseGoFloat(v.str(), &d)) {
        return Value::Error("strconv.ParseFloat: parsing \"" + std::string(v.str()) +
                            "\": invalid syntax");
      }
      return Value::Double(d);
    }
    default:
      return NoSuchOverload();
  }
}

Value ToString(EvalContext&, const Value* a, std::size_t) {
  const Value& v = a[0];
  switch (v.kind()) {
    case K::kString:
      return v;
    case K::kBytes:
      if (!IsValidUtf8(v.str()))
        return Value::Error("invalid UTF-8 in bytes, cannot convert to string");
      return Value::String(std::string(v.str()));
    case K::kInt:
    case K::kUint:
    case K::kDouble:
    case K::kBool:
    case K::kTimestamp:
    case K::kDuration:
      return Value::String(DebugString(v));
    case K::kIP:
    case K::kCIDR:
      return NetToString(v);
    default:
      return NoSuchOverload();
  }
}

Value ToBytes(EvalContext&, const Value* a, std::size_t) {
  if (a[0].kind() == K::kBytes) return a[0];
  if (a[0].kind() == K::kString) return Value::Bytes(std::string(a[0].str()));
  return NoSuchOverload();
}

Value ToBool(EvalContext&, const Value* a, std::size_t) {
  if (a[0].kind() == K::kBool) return a[0];
  if (a[0].kind() != K::kString) return NoSuchOverload();
  std::string_view s = a[0].str();
  if (s == "1" || s == "t" || s == "true" || s == "TRUE" || s == "True") return Value::Bool(true);
  if (s == "0" || s == "f" || s == "false" || s == "FALSE" || s == "False") {
    return Value::Bool(false);
  }
  return Value::Error("strconv.ParseBool: parsing \"" + std::string(s) + "\": invalid syntax");
}

Value Dyn(EvalContext&, const Value* a, std::size_t) { return a[0]; }
Value TypeOf(EvalContext&, const Value* a, std::size_t) { return Value::Type(TypeName(a[0])); }

constexpr Function kCore[] = {
    {"_+_", false, 2, Add, nullptr, true},
    {"_-_", false, 2, Subtract, nullptr, true},
    {"_*_", false, 2, Multiply, nullptr, true},
    {"_/_", false, 2, Divide, nullptr, true},
    {"_%_", false, 2, Modulo, nullptr, true},
    {"-_", false, 1, Negate, nullptr, true},
    {"!_", false, 1, Not, nullptr, true},
    {"_==_", false, 2, Equals, EqualityCost, true},
    {"_!=_", false, 2, NotEquals, EqualityCost, true},
    {"_<_", false, 2, Compare<IsLess>, EqualityCost, true},
    {"_<=_", false, 2, Compare<IsLessEq>, EqualityCost, true},
    {"_>_", false, 2, Compare<IsGreater>, EqualityCost, true},
    {"_>=_", false, 2, Compare<IsGreaterEq>, EqualityCost, true},
    {"@in", false, 2, In, InCost, true},
    {"_[_]", false, 2, Index, nullptr, true},
    {"size", false, 1, Size, nullptr, true},
    {"size", true, 1, Size, nullptr, true},
    {"contains", true, 2, Contains, ContainsCost, true},
    {"startsWith", true, 2, StartsWith, ReceiverStringCost, true},
    {"endsWith", true, 2, EndsWith, ReceiverStringCost, true},
    {"matches", true, 2, Matches, MatchesCost, true},
    {"matches", false, 2, Matches, MatchesCost, true},
    {"int", false, 1, ToInt, nullptr, true},
    {"uint", false, 1, ToUint, nullptr, true},
    {"double", false, 1, ToDouble, nullptr, true},
    {"string", false, 1, ToString, nullptr, true},
    {"bytes", false, 1, ToBytes, nullptr, true},
    {"bool", false, 1, ToBool, nullptr, true},
    // Not folded: dyn() exists to defer typing to run time.
    {"dyn", false, 1, Dyn, nullptr, false},
    {"type", false, 1, TypeOf, nullptr, true},
};

}  // namespace

FunctionTable CoreFunctions() { return {std::begin(kCore), std::end(kCore)}; }

}  // namespace dra::cel
