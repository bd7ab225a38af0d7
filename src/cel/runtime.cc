#include "cel/runtime.h"

#include <charconv>
#include <cmath>
#include <type_traits>

#include "cel/format.h"
#include "cel/utf8.h"

namespace dra::cel {

Value NoSuchOverload() { return Value::Error("no such overload"); }

Value NoSuchKey(const Value& key) { return Value::Error("no such key: " + DebugString(key)); }

std::string DebugString(const Value& v) {
  switch (v.kind()) {
    case ValueKind::kNull:
      return "null";
    case ValueKind::kBool:
      return v.bool_value() ? "true" : "false";
    case ValueKind::kInt:
      return std::to_string(v.int_value());
    case ValueKind::kUint:
      return std::to_string(v.uint_value());
    case ValueKind::kDouble:
      return FormatDoubleG(v.double_value());
    case ValueKind::kString:
    case ValueKind::kBytes:
    case ValueKind::kType:
    case ValueKind::kError:
      return std::string(v.str());
    case ValueKind::kTimestamp:
      return FormatTimestamp(v.seconds(), v.nanos());
    case ValueKind::kDuration:
      return FormatDuration(v.duration_nanos());
    case ValueKind::kQuantity:
      return v.quantity().String();
    case ValueKind::kIP:
    case ValueKind::kCIDR:
      return std::string(NetToString(v).str());
    case ValueKind::kURL:
      return std::string(v.str());
    default:
      return std::string(TypeName(v));
  }
}

std::uint64_t MatchesCost(const Value* a, std::size_t) {
  std::size_t s = a[0].kind() == ValueKind::kString ? CountCodePoints(a[0].str()) : 0;
  std::size_t p = a[1].kind() == ValueKind::kString ? CountCodePoints(a[1].str()) : 0;
  return StringCostFactor(s + 1, 10) * StringCostFactor(p, 4);
}

bool ArgsAre(const Value* args, std::size_t n, ValueKind kind) {
  for (std::size_t i = 0; i < n; ++i) {
    if (args[i].kind() != kind) return false;
  }
  return true;
}

namespace {

// Number-line comparison of a double with an integer as cel-go defines it:
// out-of-range doubles order by sign, otherwise the integer is converted to
// double (so 2^63 - 1 and 2^63 compare equal).
template <typename Int>
int CompareDoubleInteger(double d, Int i) {
  constexpr double kMin = std::is_signed_v<Int> ? -9223372036854775808.0 : 0.0;
  constexpr double kMax = std::is_signed_v<Int> ? 9223372036854775807.0 : 18446744073709551615.0;
  if (d < kMin) return -1;
  if (d > kMax) return 1;
  double x = static_cast<double>(i);
  return d < x ? -1 : (d > x ? 1 : 0);
}

}  // namespace

bool CompareValues(const Value& a, const Value& b, int* result) {
  auto sign = [](auto x, auto y) { return x < y ? -1 : (y < x ? 1 : 0); };
  using K = ValueKind;
  K ka = a.kind(), kb = b.kind();
  if (ka == K::kDouble || kb == K::kDouble) {
    if (ka == K::kDouble && std::isnan(a.double_value())) return false;
    if (kb == K::kDouble && std::isnan(b.double_value())) return false;
    if (ka == K::kDouble && kb == K::kDouble) {
      *result = sign(a.double_value(), b.double_value());
      return true;
    }
    bool double_first = ka == K::kDouble;
    const Value& d = double_first ? a : b;
    const Value& i = double_first ? b : a;
    int c;
    if (i.kind() == K::kInt) {
      c = CompareDoubleInteger(d.double_value(), i.int_value());
    } else if (i.kind() == K::kUint) {
      c = CompareDoubleInteger(d.double_value(), i.uint_value());
    } else {
      return false;
    }
    *result = double_first ? c : -c;
    return true;
  }
  if (ka == K::kInt && kb == K::kUint) {
    *result =
        a.int_value() < 0 ? -1 : sign(static_cast<std::uint64_t>(a.int_value()), b.uint_value());
    return true;
  }
  if (ka == K::kUint && kb == K::kInt) {
    *result =
        b.int_value() < 0 ? 1 : sign(a.uint_value(), static_cast<std::uint64_t>(b.int_value()));
    return true;
  }
  if (ka != kb) return false;
  switch (ka) {
    case K::kInt:
      *result = sign(a.int_value(), b.int_value());
      return true;
    case K::kUint:
      *result = sign(a.uint_value(), b.uint_value());
      return true;
    case K::kBool:
      *result = sign(a.bool_value(), b.bool_value());
      return true;
    case K::kString:
    case K::kBytes: {
      int c = a.str().compare(b.str());
      *result = c < 0 ? -1 : (c > 0 ? 1 : 0);
      return true;
    }
    case K::kTimestamp:
      *result =
          a.seconds() != b.seconds() ? sign(a.seconds(), b.seconds()) : sign(a.nanos(), b.nanos());
      return true;
    case K::kDuration:
      *result = sign(a.duration_nanos(), b.duration_nanos());
      return true;
    default:
      return false;
  }
}

const Function* FindFunction(std::string_view name, bool member, std::size_t arity) {
  for (FunctionTable t :
       {CoreFunctions(), StringFunctions(), ListFunctions(), KubernetesFunctions(), TimeFunctions(),
        NetFunctions(), FormatFunctions()}) {
    for (const Function* f = t.begin; f != t.end; ++f) {
      if (f->name == name && f->member == member && f->arity == arity) return f;
    }
  }
  return nullptr;
}

bool IsFunctionName(std::string_view name) {
  for (FunctionTable t :
       {CoreFunctions(), StringFunctions(), ListFunctions(), KubernetesFunctions(), TimeFunctions(),
        NetFunctions(), FormatFunctions()}) {
    for (const Function* f = t.begin; f != t.end; ++f) {
      if (f->name == name) return true;
    }
  }
  return false;
}

}  // namespace dra::cel
