// List functions: the Kubernetes lists library, cel-go's lists (v3) and sets
// extensions, DRA's includes(), and the optional-value functions.
#include <algorithm>

#include "cel/runtime.h"

namespace dra::cel {
namespace {

using K = ValueKind;

// includes() refuses lists longer than this: the API's limit on attribute values per device
// (ResourceSliceMaxAttributeValuesPerDevice).
constexpr std::size_t kMaxIncludesListSize = 48;

std::vector<Value> Elements(const Value& list) {
  std::vector<Value> out;
  std::size_t n = ListSize(list);
  out.reserve(n);
  for (std::size_t i = 0; i < n; ++i) out.push_back(ListAt(list, i));
  return out;
}

Value IsSorted(EvalContext&, const Value* a, std::size_t) {
  if (a[0].kind() != K::kList) return NoSuchOverload();
  std::size_t n = ListSize(a[0]);
  for (std::size_t i = 1; i < n; ++i) {
    int c;
    if (!CompareValues(ListAt(a[0], i - 1), ListAt(a[0], i), &c)) return NoSuchOverload();
    if (c > 0) return Value::Bool(false);
  }
  return Value::Bool(true);
}

Value Sum(EvalContext& ctx, const Value* a, std::size_t) {
  if (a[0].kind() != K::kList) return NoSuchOverload();
  std::size_t n = ListSize(a[0]);
  if (n == 0) return Value::Int(0);  // the int overload answers for dyn lists
  Value acc = ListAt(a[0], 0);
  if (acc.kind() != K::kInt && acc.kind() != K::kUint && acc.kind() != K::kDouble &&
      acc.kind() != K::kDuration) {
    return NoSuchOverload();
  }
  const Function* add = FindFunction("_+_", false, 2);
  for (std::size_t i = 1; i < n; ++i) {
    Value pair[2] = {acc, ListAt(a[0], i)};
    acc = add->impl(ctx, pair, 2);
    if (acc.is_error()) return acc;
  }
  return acc;
}

template <bool kMax>
Value MinMax(EvalContext&, const Value* a, std::size_t) {
  if (a[0].kind() != K::kList) return NoSuchOverload();
  std::size_t n = ListSize(a[0]);
  if (n == 0) return Value::Error(kMax ? "max called on empty list" : "min called on empty list");
  Value best = ListAt(a[0], 0);
  for (std::size_t i = 1; i < n; ++i) {
    Value e = ListAt(a[0], i);
    int c;
    if (!CompareValues(e, best, &c)) return NoSuchOverload();
    if (kMax ? c > 0 : c < 0) best = e;
  }
  return best;
}

Value Includes(EvalContext&, const Value* a, std::size_t) {
  if (a[0].kind() != K::kList) return Value::Bool(Equal(a[0], a[1]));
  std::size_t n = ListSize(a[0]);
  for (std::size_t i = 0; i < n; ++i) {
    if (i == kMaxIncludesListSize) {
      return Value::Error("'includes' function cannot be applied to lists longer than 48 values");
    }
    if (Equal(ListAt(a[0], i), a[1])) return Value::Bool(true);
  }
  return Value::Bool(false);
}

Value Slice(EvalContext&, const Value* a, std::size_t) {
  if (a[0].kind() != K::kList || a[1].kind() != K::kInt || a[2].kind() != K::kInt) {
    return NoSuchOverload();
  }
  std::int64_t size = static_cast<std::int64_t>(ListSize(a[0]));
  std::int64_t start = a[1].int_value(), end = a[2].int_value();
  if (start < 0 || end < 0) {
    return Value::Error("cannot slice(" + std::to_string(start) + ", " + std::to_string(end) +
                        "), negative indexes not supported");
  }
  if (start > end) {
    return Value::Error("cannot slice(" + std::to_string(start) + ", " + std::to_string(end) +
                        "), start index must be less than or equal to end index");
  }
  if (end > size) {
    return Value::Error("cannot slice(" + std::to_string(start) + ", " + std::to_string(end) +
                        "), list is length " + std::to_string(size));
  }
  std::vector<Value> out;
  for (std::int64_t i = start; i < end; ++i)
    out.push_back(ListAt(a[0], static_cast<std::size_t>(i)));
  return Value::List(std::move(out));
}

void FlattenInto(const Value& list, std::int64_t depth, std::vector<Value>* out) {
  std::size_t n = ListSize(list);
  for (std::size_t i = 0; i < n; ++i) {
    Value e = ListAt(list, i);
    if (e.kind() == K::kList && depth > 0) {
      FlattenInto(e, depth - 1, out);
    } else {
      out->push_back(std::move(e));
    }
  }
}

Value Flatten(EvalContext&, const Value* a, std::size_t n) {
  if (a[0].kind() != K::kList || (n == 2 && a[1].kind() != K::kInt)) return NoSuchOverload();
  std::int64_t depth = n == 2 ? a[1].int_value() : 1;
  if (depth < 0) return Value::Error("level must be non-negative");
  std::vector<Value> out;
  FlattenInto(a[0], std::min<std::int64_t>(depth, 64), &out);
  return Value::List(std::move(out));
}

Value Distinct(EvalContext&, const Value* a, std::size_t) {
  if (a[0].kind() != K::kList) return NoSuchOverload();
  std::vector<Value> out;
  for (Value& e : Elements(a[0])) {
    bool seen = std::any_of(out.begin(), out.end(), [&](const Value& o) { return Equal(o, e); });
    if (!seen) out.push_back(std::move(e));
  }
  return Value::List(std::move(out));
}

Value Reverse(EvalContext&, const Value* a, std::size_t) {
  if (a[0].kind() != K::kList) return NoSuchOverload();
  std::vector<Value> out = Elements(a[0]);
  std::reverse(out.begin(), out.end());
  return Value::List(std::move(out));
}

Value Sort(EvalContext&, const Value* a, std::size_t) {
  if (a[0].kind() != K::kList) return NoSuchOverload();
  std::vector<Value> out = Elements(a[0]);
  for (std::size_t i = 1; i < out.size(); ++i) {
    int c;
    if (out[i].kind() != out[0].kind() || !CompareValues(out[0], out[i], &c)) {
      return Value::Error("list elements must have the same type");
    }
  }
  std::stable_sort(out.begin(), out.end(), [](const Value& x, const Value& y) {
    int c = 0;
    CompareValues(x, y, &c);
    return c < 0;
  });
  return Value::List(std::move(out));
}

Value Range(EvalContext&, const Value* a, std::size_t) {
  if (a[0].kind() != K::kInt) return NoSuchOverload();
  if (a[0].int_value() > 1'000'000) return Value::Error("lists.range: size too large");
  std::vector<Value> out;
  for (std::int64_t i = 0; i < a[0].int_value(); ++i) out.push_back(Value::Int(i));
  return Value::List(std::move(out));
}

bool ListContains(const Value& list, const Value& v) {
  std::size_t n = ListSize(list);
  for (std::size_t i = 0; i < n; ++i) {
    if (Equal(ListAt(list, i), v)) return true;
  }
  return false;
}

enum class SetOp { kContains, kEquivalent, kIntersects };

template <SetOp kOp>
Value SetFunction(EvalContext&, const Value* a, std::size_t) {
  if (a[0].kind() != K::kList || a[1].kind() != K::kList) return NoSuchOverload();
  auto contains_all = [](const Value& x, const Value& y) {
    std::size_t n = ListSize(y);
    for (std::size_t i = 0; i < n; ++i) {
      if (!ListContains(x, ListAt(y, i))) return false;
    }
    return true;
  };
  switch (kOp) {
    case SetOp::kContains:
      return Value::Bool(contains_all(a[0], a[1]));
    case SetOp::kEquivalent:
      return Value::Bool(contains_all(a[0], a[1]) && contains_all(a[1], a[0]));
    case SetOp::kIntersects: {
      std::size_t n = ListSize(a[1]);
      for (std::size_t i = 0; i < n; ++i) {
        if (ListContains(a[0], ListAt(a[1], i))) return Value::Bool(true);
      }
      return Value::Bool(false);
    }
  }
  return NoSuchOverload();
}

// --- optionals ---------------------------------------------------------------

Value OptionalOf(EvalContext&, const Value* a, std::size_t) { return Value::OptionalOf(a[0]); }

bool IsZeroValue(const Value& v) {
  switch (v.kind()) {
    case K::kNull:
      return true;
    case K::kBool:
      return !v.bool_value();
    case K::kInt:
      return v.int_value() == 0;
    case K::kUint:
      return v.uint_value() == 0;
    case K::kDouble:
      return v.double_value() == 0;
    case K::kString:
    case K::kBytes:
      return v.str().empty();
    case K::kList:
      return ListSize(v) == 0;
    case K::kMap:
      return MapSize(v) == 0;
    case K::kDuration:
      return v.duration_nanos() == 0;
    case K::kTimestamp:
      return v.seconds() == 0 && v.nanos() == 0;
    default:
      return false;
  }
}

Value OptionalOfNonZero(EvalContext&, const Value* a, std::size_t) {
  return IsZeroValue(a[0]) ? Value::OptionalNone() : Value::OptionalOf(a[0]);
}
Value OptionalNone(EvalContext&, const Value*, std::size_t) { return Value::OptionalNone(); }
Value HasValue(EvalContext&, const Value* a, std::size_t) {
  if (a[0].kind() != K::kOptional) return NoSuchOverload();
  return Value::Bool(a[0].has_value());
}
Value OptionalValue(EvalContext&, const Value* a, std::size_t) {
  if (a[0].kind() != K::kOptional) return NoSuchOverload();
  if (!a[0].has_value()) return Value::Error("optional.none() dereference");
  return a[0].optional_value();
}
template <bool kLast>
Value FirstLast(EvalContext&, const Value* a, std::size_t) {
  if (a[0].kind() != K::kList) return NoSuchOverload();
  std::size_t n = ListSize(a[0]);
  if (n == 0) return Value::OptionalNone();
  return Value::OptionalOf(ListAt(a[0], kLast ? n - 1 : 0));
}
Value Unwrap(EvalContext&, const Value* a, std::size_t) {
  if (a[0].kind() != K::kList) return NoSuchOverload();
  std::vector<Value> out;
  for (const Value& e : Elements(a[0])) {
    if (e.kind() != K::kOptional) return NoSuchOverload();
    if (e.has_value()) out.push_back(e.optional_value());
  }
  return Value::List(std::move(out));
}

std::uint64_t ListSizeCost(const Value* a, std::size_t) {
  return a[0].kind() == K::kList ? std::max<std::size_t>(1, ListSize(a[0])) : 1;
}

constexpr Function kLists[] = {
    {"isSorted", true, 1, IsSorted, ListSizeCost, true},
    {"sum", true, 1, Sum, ListSizeCost, true},
    {"min", true, 1, MinMax<false>, ListSizeCost, true},
    {"max", true, 1, MinMax<true>, ListSizeCost, true},
    {"includes", true, 2, Includes, nullptr, true},
    {"slice", true, 3, Slice, nullptr, true},
    {"flatten", true, 1, Flatten, nullptr, true},
    {"flatten", true, 2, Flatten, nullptr, true},
    {"distinct", true, 1, Distinct, nullptr, true},
    {"reverse", true, 1, Reverse, nullptr, true},
    {"sort", true, 1, Sort, nullptr, true},
    {"lists.range", false, 1, Range, nullptr, true},
    {"sets.contains", false, 2, SetFunction<SetOp::kContains>, nullptr, true},
    {"sets.equivalent", false, 2, SetFunction<SetOp::kEquivalent>, nullptr, true},
    {"sets.intersects", false, 2, SetFunction<SetOp::kIntersects>, nullptr, true},
    {"optional.of", false, 1, OptionalOf, nullptr, true},
    {"optional.ofNonZeroValue", false, 1, OptionalOfNonZero, nullptr, true},
    {"optional.none", false, 0, OptionalNone, nullptr, true},
    {"hasValue", true, 1, HasValue, nullptr, true},
    {"value", true, 1, OptionalValue, nullptr, true},
    {"first", true, 1, FirstLast<false>, nullptr, true},
    {"last", true, 1, FirstLast<true>, nullptr, true},
    {"optional.unwrap", false, 1, Unwrap, nullptr, true},
    {"unwrapOpt", true, 1, Unwrap, nullptr, true},
};

}  // namespace

Value ListIndexOf(EvalContext&, const Value* a, std::size_t, bool last) {
  std::size_t n = ListSize(a[0]);
  for (std::size_t k = 0; k < n; ++k) {
    std::size_t i = last ? n - 1 - k : k;
    if (Equal(ListAt(a[0], i), a[1])) return Value::Int(static_cast<std::int64_t>(i));
  }
  return Value::Int(-1);
}

FunctionTable ListFunctions() { return {std::begin(kLists), std::end(kLists)}; }

}  // namespace dra::cel
