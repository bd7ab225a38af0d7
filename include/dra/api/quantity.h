// resource.Quantity with apimachinery's semantics: an exact decimal value with
// a remembered format and, where apimachinery keeps it, the original text
// (k8s.io/apimachinery/pkg/api/resource/quantity.go at v0.37.2).
#pragma once

#include <cstdint>
#include <memory>
#include <string>
#include <string_view>

#include "dra/util/result.h"

namespace dra::api {

enum class QuantityFormat : std::uint8_t { kDecimalSI, kBinarySI, kDecimalExponent };

class Quantity {
 public:
  Quantity();  // zero, DecimalSI
  ~Quantity();
  Quantity(const Quantity&);
  Quantity(Quantity&&) noexcept;
  Quantity& operator=(const Quantity&);
  Quantity& operator=(Quantity&&) noexcept;

  // Parses Kubernetes quantity text. Errors carry apimachinery's messages
  // ("quantities must match the regular expression '...'",
  // "unable to parse quantity's suffix", ...).
  static Result<Quantity> Parse(std::string_view text);
  // As Parse, but REQUIRES valid text (for constants in code and tests).
  static Quantity MustParse(std::string_view text);
  static Quantity FromInt(std::int64_t v, QuantityFormat format = QuantityFormat::kDecimalSI);
  // milli / 1000, as apimachinery's NewMilliQuantity.
  static Quantity FromMilli(std::int64_t milli, QuantityFormat format);

  // The text apimachinery stores and emits (Quantity.String): the original
  // text when parsing kept it verbatim, otherwise the canonical form.
  std::string String() const;
  // Always the canonical form.
  std::string CanonicalString() const;

  QuantityFormat format() const;
  int Sign() const;  // -1, 0, 1
  bool IsZero() const { return Sign() == 0; }
  // -1, 0, 1 by exact numeric value; format and text are irrelevant.
  int Compare(const Quantity& other) const;
  bool operator==(const Quantity& other) const { return Compare(other) == 0; }
  bool operator<(const Quantity& other) const { return Compare(other) < 0; }

  // Exact arithmetic. The result takes this quantity's format (the other's
  // when this one is zero) and no preserved text, as apimachinery's Add/Sub do.
  Quantity Add(const Quantity& other) const;
  Quantity Sub(const Quantity& other) const;

  // Value rounded up in magnitude to an integer, as apimachinery's
  // Quantity.Value; wraps like Go's int64 conversion when it does not fit
  // (docs/COMPATIBILITY.md).
  std::int64_t Value() const;
  // Likewise in thousandths.
  std::int64_t MilliValue() const;
  // True when the value is an integer / an exact multiple of 0.001.
  bool IsInteger() const;
  bool IsMilliExact() const;
  // True when Value() is exact and fits in int64 (no rounding, no wrap).
  bool FitsInt64() const;
  // Nearest double (for CEL's asApproximateFloat).
  double AsApproximateDouble() const;

 private:
  // An arbitrary-precision integer (GMP), defined in quantity.cc.
  struct BigCoefficient;

  // Sets the value to coefficient * 10^exponent and restores the invariants below.
  void SetValue(std::int64_t coefficient, std::int64_t exponent);
  void SetValue(BigCoefficient&& coefficient, std::int64_t exponent);
  // The coefficient as a big integer, whichever form holds it.
  BigCoefficient Coefficient() const;
  void Negate();
  // The value divided by 10^unit_exponent, rounded away from zero, modulo 2^64.
  std::int64_t WrappedUnits(int unit_exponent) const;

  // The value is coefficient * 10^exponent_, the coefficient being small_ unless big_ is set.
  // Invariants, which make the representation of each value unique:
  //  * a non-zero coefficient has no trailing decimal zero; zero has exponent_ 0;
  //  * big_ is set exactly when the coefficient does not fit in int64;
  //  * exponent_ >= -9: parsing rounds to nano and arithmetic keeps multiples of 10^-9.
  std::int64_t small_ = 0;
  std::int32_t exponent_ = 0;
  QuantityFormat format_ = QuantityFormat::kDecimalSI;
  std::unique_ptr<BigCoefficient> big_;
  // The input text when ParseQuantity keeps it verbatim (int64 fast path and
  // already canonical-looking text); empty otherwise.
  std::string text_;
};

// Semantic Versioning 2.0.0 as the DRA "version" attribute accepts it (semverRe
// in k8s.io/kubernetes/pkg/apis/resource/validation/validation.go): the
// grammar only; the 64-byte limit is a separate check.
bool IsValidSemver(std::string_view text);

}  // namespace dra::api
