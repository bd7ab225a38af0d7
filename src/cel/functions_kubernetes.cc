// The Kubernetes quantity and semver CEL libraries.
#include <cmath>

#include "cel/quantity_form.h"
#include "cel/runtime.h"
#include "cel/semver.h"

namespace dra::cel {
namespace {

using K = ValueKind;

QuantityForm FormOf(const Value& q) {
  if (q.quantity_form() != kQuantityFormUnknown)
    return static_cast<QuantityForm>(q.quantity_form());
  return QuantityFormOfText(q.quantity().String());
}

Value ParseQuantity(EvalContext&, const Value* a, std::size_t) {
  if (a[0].kind() != K::kString) return NoSuchOverload();
  auto q = api::Quantity::Parse(a[0].str());
  if (!q) return Value::Error(q.error());
  return Value::Quantity(std::move(*q), QuantityFormOfText(a[0].str()));
}

Value IsQuantity(EvalContext&, const Value* a, std::size_t) {
  if (a[0].kind() != K::kString) return NoSuchOverload();
  return Value::Bool(api::Quantity::Parse(a[0].str()).ok());
}

Value Sign(EvalContext&, const Value* a, std::size_t) {
  if (a[0].kind() != K::kQuantity) return NoSuchOverload();
  return Value::Int(a[0].quantity().Sign());
}

// compareTo / isGreaterThan / isLessThan for both Quantity and Semver.
bool Compare(const Value& x, const Value& y, int* out) {
  if (x.kind() == K::kQuantity && y.kind() == K::kQuantity) {
    *out = x.quantity().Compare(y.quantity());
    return true;
  }
  if (x.kind() == K::kSemver && y.kind() == K::kSemver) {
    *out = CompareSemver(x.semver(), y.semver());
    return true;
  }
  return false;
}

Value CompareTo(EvalContext&, const Value* a, std::size_t) {
  int c;
  if (!Compare(a[0], a[1], &c)) return NoSuchOverload();
  return Value::Int(c);
}
Value IsGreaterThan(EvalContext&, const Value* a, std::size_t) {
  int c;
  if (!Compare(a[0], a[1], &c)) return NoSuchOverload();
  return Value::Bool(c > 0);
}
Value IsLessThan(EvalContext&, const Value* a, std::size_t) {
  int c;
  if (!Compare(a[0], a[1], &c)) return NoSuchOverload();
  return Value::Bool(c < 0);
}

template <bool kSubtract>
Value AddSub(EvalContext&, const Value* a, std::size_t) {
  if (a[0].kind() != K::kQuantity) return NoSuchOverload();
  api::Quantity operand;
  QuantityForm operand_form;
  if (a[1].kind() == K::kQuantity) {
    operand = a[1].quantity();
    operand_form = FormOf(a[1]);
  } else if (a[1].kind() == K::kInt) {
    operand = api::Quantity::FromInt(a[1].int_value());
    operand_form = kQuantityFormFast;
  } else {
    return NoSuchOverload();
  }
  api::Quantity result = kSubtract ? a[0].quantity().Sub(operand) : a[0].quantity().Add(operand);
  // The fast form survives arithmetic unless an operand was already decimal
  // or the result leaves the int64 range.
  bool fast = FormOf(a[0]) == kQuantityFormFast && operand_form == kQuantityFormFast &&
              std::fabs(result.AsApproximateDouble()) < 9.2e18;
  return Value::Quantity(std::move(result), fast ? kQuantityFormFast : kQuantityFormDecimal);
}

bool QuantityAsInt(const Value& q, std::int64_t* out) {
  if (FormOf(q) != kQuantityFormFast) return false;
  const api::Quantity& v = q.quantity();
  if (!v.IsInteger() || !v.FitsInt64()) return false;
  *out = v.Value();
  return true;
}

Value AsInteger(EvalContext&, const Value* a, std::size_t) {
  if (a[0].kind() != K::kQuantity) return NoSuchOverload();
  std::int64_t v;
  if (!QuantityAsInt(a[0], &v)) return Value::Error("cannot convert value to integer");
  return Value::Int(v);
}
Value IsInteger(EvalContext&, const Value* a, std::size_t) {
  if (a[0].kind() != K::kQuantity) return NoSuchOverload();
  std::int64_t v;
  return Value::Bool(QuantityAsInt(a[0], &v));
}
Value AsApproximateFloat(EvalContext&, const Value* a, std::size_t) {
  if (a[0].kind() != K::kQuantity) return NoSuchOverload();
  return Value::Double(a[0].quantity().AsApproximateDouble());
}

Value ParseSemverValue(const Value* a, std::size_t n) {
  if (a[0].kind() != K::kString || (n == 2 && a[1].kind() != K::kBool)) return NoSuchOverload();
  bool normalize = n == 2 && a[1].bool_value();
  auto v = normalize ? ParseSemverNormalized(a[0].str()) : ParseSemver(a[0].str());
  if (!v) return Value::Error(v.error());
  return Value::Semver(std::make_shared<const Semver>(std::move(*v)));
}

Value MakeSemver(EvalContext&, const Value* a, std::size_t n) { return ParseSemverValue(a, n); }
Value IsSemver(EvalContext&, const Value* a, std::size_t n) {
  Value v = ParseSemverValue(a, n);
  if (v.is_error() && v.str() == "no such overload") return v;
  return Value::Bool(!v.is_error());
}

enum class Component { kMajor, kMinor, kPatch };
template <Component C>
Value SemverPart(EvalContext&, const Value* a, std::size_t) {
  if (a[0].kind() != K::kSemver) return NoSuchOverload();
  const Semver& v = a[0].semver();
  std::uint64_t part = C == Component::kMajor   ? v.major
                       : C == Component::kMinor ? v.minor
                                                : v.patch;
  return Value::Int(static_cast<std::int64_t>(part));
}

std::uint64_t ArgStringCost(const Value* a, std::size_t) {
  return a[0].kind() == K::kString ? StringCostFactor(a[0].str().size(), 10) : 1;
}

constexpr Function kKubernetes[] = {
    {"quantity", false, 1, ParseQuantity, ArgStringCost, true},
    {"isQuantity", false, 1, IsQuantity, ArgStringCost, true},
    {"sign", false, 1, Sign, nullptr, true},
    {"compareTo", true, 2, CompareTo, nullptr, true},
    {"isGreaterThan", true, 2, IsGreaterThan, nullptr, true},
    {"isLessThan", true, 2, IsLessThan, nullptr, true},
    {"add", true, 2, AddSub<false>, nullptr, true},
    {"sub", true, 2, AddSub<true>, nullptr, true},
    {"asInteger", true, 1, AsInteger, nullptr, true},
    {"isInteger", true, 1, IsInteger, nullptr, true},
    {"asApproximateFloat", true, 1, AsApproximateFloat, nullptr, true},
    {"semver", false, 1, MakeSemver, ArgStringCost, true},
    {"semver", false, 2, MakeSemver, ArgStringCost, true},
    {"isSemver", false, 1, IsSemver, ArgStringCost, true},
    {"isSemver", false, 2, IsSemver, ArgStringCost, true},
    {"major", true, 1, SemverPart<Component::kMajor>, nullptr, true},
    {"minor", true, 1, SemverPart<Component::kMinor>, nullptr, true},
    {"patch", true, 1, SemverPart<Component::kPatch>, nullptr, true},
};

}  // namespace

FunctionTable KubernetesFunctions() { return {std::begin(kKubernetes), std::end(kKubernetes)}; }

}  // namespace dra::cel
