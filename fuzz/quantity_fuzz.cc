// Parses arbitrary text as a Quantity; for successes checks the invariants that the rest of dra
// relies on: emitted text re-parses to the same value, comparison is a consistent order, exact
// arithmetic round-trips, and the integer views agree with each other.
#include <cstddef>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <string>
#include <string_view>

#include "dra/api/quantity.h"

namespace {

using dra::api::Quantity;
using dra::api::QuantityFormat;

void Check(bool condition, const char* what, std::string_view input) {
  if (condition) return;
  std::fprintf(stderr, "invariant failed: %s for input '%.*s'\n", what,
               static_cast<int>(input.size()), input.data());
  std::abort();
}

// 10^100001: sums may exceed the largest value Parse accepts (quantity.cc, kMaxExponent).
Quantity BeyondParseLimit() {
  Quantity sum;
  for (int i = 0; i < 10; ++i) sum = sum.Add(Quantity::MustParse("1e100000"));
  return sum;
}

// Whether the canonical text parses back to the same value. It does not in three cases, all as
// in apimachinery (DecimalSI prints no suffix beyond E, BinarySI none beyond Ei, binary text
// re-parses clamped to 2^63-1), nor beyond our parse bound.
bool CanonicalTextIsExact(const Quantity& q) {
  static const Quantity kDecimalLimit = Quantity::MustParse("1e21");
  static const Quantity kBinaryLimit = Quantity::FromInt(INT64_MAX);
  static const Quantity kParseLimit = BeyondParseLimit();
  const Quantity magnitude = q.Sign() < 0 ? Quantity().Sub(q) : q;
  if (magnitude.Compare(kParseLimit) >= 0) return false;
  switch (q.format()) {
    case QuantityFormat::kDecimalExponent:
      return true;
    case QuantityFormat::kDecimalSI:
      return magnitude.Compare(kDecimalLimit) < 0;
    case QuantityFormat::kBinarySI:
      return magnitude.Compare(kBinaryLimit) <= 0;
  }
  return false;
}

void CheckRoundTrip(const Quantity& q, std::string_view input) {
  const std::string canonical = q.CanonicalString();
  if (!CanonicalTextIsExact(q)) return;
  auto emitted = Quantity::Parse(q.String());
  Check(emitted.ok() && emitted->Compare(q) == 0, "String() parses to the same value", input);
  auto reparsed = Quantity::Parse(canonical);
  Check(reparsed.ok() && reparsed->Compare(q) == 0, "CanonicalString() parses to the same value",
        input);
  // Binary text without a suffix re-parses as DecimalSI, so the text settles after one round.
  const std::string settled = reparsed->CanonicalString();
  Check(Quantity::MustParse(settled).CanonicalString() == settled,
        "CanonicalString() settles after one round", input);
}

void CheckOrderAndArithmetic(const Quantity& a, const Quantity& b, std::string_view input) {
  const int ab = a.Compare(b);
  Check(ab == -b.Compare(a), "Compare is antisymmetric", input);
  Check(a.Compare(a) == 0, "Compare is reflexive", input);
  const Quantity sum = a.Add(b);
  Check(sum.Sub(b).Compare(a) == 0, "Add then Sub round-trips", input);
  Check(sum.Compare(b.Add(a)) == 0, "Add commutes", input);
  const Quantity difference = a.Sub(b);
  Check(difference.Sign() == ab, "Sub's sign orders the operands", input);
  Check(difference.Add(b).Compare(a) == 0, "Sub then Add round-trips", input);
  Check(sum.Compare(a) == b.Sign(), "adding b moves a by b's sign", input);
  CheckRoundTrip(sum, input);
}

// view is q rounded away from zero to a multiple of unit: equal when exact, else further from
// zero by less than one unit.
void CheckRounded(const Quantity& q, const Quantity& view, const Quantity& unit, bool exact,
                  std::string_view input) {
  const Quantity error = view.Sub(q);
  if (exact) {
    Check(error.IsZero(), "an exact integer view equals the quantity", input);
    return;
  }
  Check(error.Sign() == q.Sign(), "an integer view rounds away from zero", input);
  const Quantity error_magnitude = error.Sign() < 0 ? Quantity().Sub(error) : error;
  Check(error_magnitude.Compare(unit) < 0, "an integer view rounds by less than a unit", input);
}

void CheckIntegerViews(const Quantity& q, std::string_view input) {
  const std::int64_t value = q.Value();
  const std::int64_t milli = q.MilliValue();
  if (q.FitsInt64()) {
    Check(q.IsInteger(), "FitsInt64 implies IsInteger", input);
    Check(q.Compare(Quantity::FromInt(value)) == 0, "FitsInt64 means Value() is exact", input);
  }
  if (q.IsInteger()) Check(q.IsMilliExact(), "integers are milli-exact", input);
  // Where neither view wraps, both are the quantity rounded away from zero.
  static const Quantity kNoWrap = Quantity::FromInt(INT64_C(9000000000000000));
  const Quantity magnitude = q.Sign() < 0 ? Quantity().Sub(q) : q;
  if (magnitude.Compare(kNoWrap) >= 0) return;
  CheckRounded(q, Quantity::FromInt(value), Quantity::FromInt(1), q.IsInteger(), input);
  CheckRounded(q, Quantity::MustParse(std::to_string(milli) + "m"), Quantity::MustParse("1m"),
               q.IsMilliExact(), input);
  Check(q.FitsInt64() == q.IsInteger(), "small integers fit in int64", input);
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  const std::string_view input(reinterpret_cast<const char*>(data), size);
  // Two quantities separated by a tab, or one.
  const std::size_t tab = input.find('\t');
  const std::string_view first = input.substr(0, tab);
  auto a = Quantity::Parse(first);
  if (!a.ok()) return 0;
  Check(a->String().size() > 0, "String() is never empty", input);
  CheckRoundTrip(*a, input);
  CheckIntegerViews(*a, input);
  Quantity copy = *a;
  Check(copy.Compare(*a) == 0 && copy.String() == a->String(), "copies are equal", input);
  if (tab == std::string_view::npos) {
    CheckOrderAndArithmetic(*a, Quantity::FromInt(1), input);
    return 0;
  }
  auto b = Quantity::Parse(input.substr(tab + 1));
  if (!b.ok()) return 0;
  CheckOrderAndArithmetic(*a, *b, input);
  return 0;
}
