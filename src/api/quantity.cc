// resource.Quantity: parsing, canonical text, exact arithmetic and integer views.
// Behaviour follows apimachinery (k8s.io/apimachinery/pkg/api/resource/quantity.go at v0.37.2);
// the representation is our own: an int64 or GMP coefficient times a power of ten, normalised so
// that each value has one representation.
#include "dra/api/quantity.h"

#include <gmp.h>

#include <array>
#include <cstdlib>
#include <cstring>
#include <limits>
#include <optional>
#include <stdexcept>
#include <string>
#include <utility>

namespace dra::api {
namespace {

using Int128 = __int128;
using UInt128 = unsigned __int128;

static_assert(sizeof(long) == sizeof(std::int64_t), "GMP's _si/_ui calls must carry 64 bits");

constexpr std::string_view kFormatError =
    "quantities must match the regular expression "
    "'^([+-]?[0-9.]+)([eEinumkKMGTP]*[-+]?[0-9]*)$'";
constexpr std::string_view kNumericError = "unable to parse numeric part of quantity";
constexpr std::string_view kSuffixError = "unable to parse quantity's suffix";

constexpr std::int64_t kNanoExponent = -9;

// Decimal text whose value needs a power of ten above this (after the coefficient's trailing
// zeros move into the exponent) is refused, although apimachinery accepts any exponent suffix that
// fits in int64 (truncated to int32). Exact addition of 1 to 1e999999999 needs a billion digits;
// with this bound no operation needs more than ~100k digits beyond the size of its inputs, and the
// canonical text of every parsed value parses again. 10^100000 is far outside any resource
// amount. Small values need no bound: below 1n they round to 1n without expansion.
constexpr std::int64_t kMaxExponent = 100000;

// 10^0 ... 10^18, every power of ten that fits in int64.
constexpr std::array<std::int64_t, 19> kPowersOfTen = [] {
  std::array<std::int64_t, 19> powers{};
  powers[0] = 1;
  for (std::size_t i = 1; i < powers.size(); ++i) powers[i] = powers[i - 1] * 10;
  return powers;
}();

// Powers of ten that a double holds exactly.
constexpr double kExactDoublePowersOfTen[23] = {1e0,  1e1,  1e2,  1e3,  1e4,  1e5,  1e6,  1e7,
                                                1e8,  1e9,  1e10, 1e11, 1e12, 1e13, 1e14, 1e15,
                                                1e16, 1e17, 1e18, 1e19, 1e20, 1e21, 1e22};

// An owned GMP integer.
class BigInt {
 public:
  BigInt() { mpz_init(z_); }
  explicit BigInt(std::int64_t v) { mpz_init_set_si(z_, v); }
  BigInt(const BigInt& other) { mpz_init_set(z_, other.z_); }
  BigInt(BigInt&& other) noexcept {
    mpz_init(z_);
    mpz_swap(z_, other.z_);
  }
  BigInt& operator=(BigInt other) noexcept {
    mpz_swap(z_, other.z_);
    return *this;
  }
  ~BigInt() { mpz_clear(z_); }

  mpz_ptr get() { return z_; }
  mpz_srcptr get() const { return z_; }

 private:
  mpz_t z_;
};

BigInt BigFromInt128(Int128 v) {
  const bool negative = v < 0;
  const UInt128 magnitude =
      negative ? UInt128{0} - static_cast<UInt128>(v) : static_cast<UInt128>(v);
  BigInt result;
  mpz_set_ui(result.get(), static_cast<unsigned long>(magnitude >> 64));
  mpz_mul_2exp(result.get(), result.get(), 64);
  mpz_add_ui(result.get(), result.get(), static_cast<unsigned long>(magnitude));
  if (negative) mpz_neg(result.get(), result.get());
  return result;
}

// REQUIRES: digits is a non-empty run of ASCII digits.
BigInt BigFromDigits(std::string_view digits) {
  BigInt result;
  mpz_set_str(result.get(), std::string(digits).c_str(), 10);
  return result;
}

void MultiplyByPowerOfTen(BigInt& v, std::int64_t n) {
  if (n <= 0) return;
  BigInt power;
  mpz_ui_pow_ui(power.get(), 10, static_cast<unsigned long>(n));
  mpz_mul(v.get(), v.get(), power.get());
}

std::int64_t RemoveTrailingZeros(std::int64_t& v) {
  std::int64_t removed = 0;
  while (v != 0 && v % 10 == 0) {
    v /= 10;
    ++removed;
  }
  return removed;
}

std::int64_t RemoveTrailingZeros(BigInt& v) {
  if (mpz_sgn(v.get()) == 0) return 0;
  const BigInt ten(10);
  return static_cast<std::int64_t>(mpz_remove(v.get(), v.get(), ten.get()));
}

bool FitsInInt64(Int128 v) {
  return v >= std::numeric_limits<std::int64_t>::min() &&
         v <= std::numeric_limits<std::int64_t>::max();
}

std::uint64_t Magnitude(std::int64_t v) {
  return v < 0 ? std::uint64_t{0} - static_cast<std::uint64_t>(v) : static_cast<std::uint64_t>(v);
}

std::int64_t DigitCount(std::uint64_t v) {
  std::int64_t digits = 1;
  while (v >= 10) {
    v /= 10;
    ++digits;
  }
  return digits;
}

int CompareValues(Int128 a, Int128 b) { return a < b ? -1 : (a > b ? 1 : 0); }

// v * 10^n modulo 2^64.
std::uint64_t WrappingMultiplyByPowerOfTen(std::uint64_t v, std::int64_t n) {
  if (n >= 64) return 0;  // 2^64 divides 10^64
  for (; n > 0; --n) v *= 10;
  return v;
}

// v modulo 2^64, i.e. its two's-complement low word.
std::uint64_t LowWord(const BigInt& v) {
  BigInt low;
  mpz_fdiv_r_2exp(low.get(), v.get(), 64);
  return mpz_get_ui(low.get());
}

void AppendInt128(std::string& out, Int128 v) {
  if (v < 0) out += '-';
  UInt128 magnitude = v < 0 ? UInt128{0} - static_cast<UInt128>(v) : static_cast<UInt128>(v);
  char digits[40];
  int n = 0;
  do {
    digits[n++] = static_cast<char>('0' + static_cast<int>(magnitude % 10));
    magnitude /= 10;
  } while (magnitude != 0);
  while (n > 0) out += digits[--n];
}

void AppendBig(std::string& out, const BigInt& v) {
  const std::size_t start = out.size();
  out.resize(start + mpz_sizeinbase(v.get(), 10) + 2);
  mpz_get_str(out.data() + start, 10, v.get());
  out.resize(start + std::strlen(out.data() + start));
}

// The suffix for 10^exponent; exponent is a multiple of 3 and at least -9.
void AppendDecimalSuffix(std::string& out, std::int64_t exponent, QuantityFormat format) {
  if (format == QuantityFormat::kDecimalExponent) {
    if (exponent != 0) {
      out += 'e';
      out += std::to_string(exponent);
    }
    return;
  }
  switch (exponent) {
    case -9:
      out += 'n';
      break;
    case -6:
      out += 'u';
      break;
    case -3:
      out += 'm';
      break;
    case 3:
      out += 'k';
      break;
    case 6:
      out += 'M';
      break;
    case 9:
      out += 'G';
      break;
    case 12:
      out += 'T';
      break;
    case 15:
      out += 'P';
      break;
    case 18:
      out += 'E';
      break;
    default:
      break;  // 10^0, or beyond E where apimachinery prints no suffix at all (1000E prints as "1")
  }
}

// The suffix for 1024^power; apimachinery prints none beyond Ei, as it does beyond E.
std::string_view BinarySuffix(std::int64_t power) {
  static constexpr std::string_view kSuffixes[] = {"", "Ki", "Mi", "Gi", "Ti", "Pi", "Ei"};
  return power >= 0 && power <= 6 ? kSuffixes[power] : std::string_view();
}

bool IsDigit(char c) { return c >= '0' && c <= '9'; }

bool IsSuffixLetter(char c) {
  switch (c) {
    case 'e':
    case 'E':
    case 'i':
    case 'n':
    case 'u':
    case 'm':
    case 'k':
    case 'K':
    case 'M':
    case 'G':
    case 'T':
    case 'P':
      return true;
    default:
      return false;
  }
}

// The pieces of quantity text as apimachinery's scanner splits it.
struct ScannedQuantity {
  bool negative = false;
  std::string_view integer;   // integer digits after the leading zeros
  std::string_view fraction;  // digits after the '.'
  std::string_view suffix;
  // Whether the text before the suffix has a digit (even a skipped zero); apimachinery's
  // exact-decimal parser needs one.
  bool has_digit = false;
};

// A sign, leading zeros, integer digits, an optional '.' and fraction digits, then a run of
// suffix letters, an optional sign and digits. nullopt where apimachinery reports the
// regular-expression error. Text that ends within the leading zeros is zero.
std::optional<ScannedQuantity> ScanQuantity(std::string_view text) {
  ScannedQuantity s;
  const std::size_t end = text.size();
  std::size_t pos = 0;
  if (pos < end && (text[pos] == '-' || text[pos] == '+')) {
    s.negative = text[pos] == '-';
    ++pos;
  }
  while (pos < end && text[pos] == '0') ++pos;
  if (pos == end) {
    s.has_digit = true;  // apimachinery reads this as the number "0"
    return s;
  }
  s.has_digit = pos > 0 && IsDigit(text[pos - 1]);
  const std::size_t integer_start = pos;
  while (pos < end && IsDigit(text[pos])) ++pos;
  s.integer = text.substr(integer_start, pos - integer_start);
  if (pos < end && text[pos] == '.') {
    const std::size_t fraction_start = ++pos;
    while (pos < end && IsDigit(text[pos])) ++pos;
    s.fraction = text.substr(fraction_start, pos - fraction_start);
  }
  s.has_digit = s.has_digit || !s.integer.empty() || !s.fraction.empty();
  const std::size_t suffix_start = pos;
  while (pos < end && IsSuffixLetter(text[pos])) ++pos;
  if (pos < end && (text[pos] == '-' || text[pos] == '+')) ++pos;
  while (pos < end && IsDigit(text[pos])) ++pos;
  if (pos != end) return std::nullopt;
  s.suffix = text.substr(suffix_start);
  return s;
}

struct SuffixMeaning {
  int base;               // 10 or 2
  std::int64_t exponent;  // of the base
  QuantityFormat format;
};

// Go's strconv.ParseInt(s, 10, 64): an optional sign and at least one digit, within int64.
std::optional<std::int64_t> ParseInt64(std::string_view s) {
  bool negative = false;
  if (!s.empty() && (s[0] == '+' || s[0] == '-')) {
    negative = s[0] == '-';
    s.remove_prefix(1);
  }
  if (s.empty()) return std::nullopt;
  const std::uint64_t limit = (std::uint64_t{1} << 63) - (negative ? 0 : 1);
  std::uint64_t magnitude = 0;
  for (char c : s) {
    if (!IsDigit(c)) return std::nullopt;
    const auto digit = static_cast<std::uint64_t>(c - '0');
    if (magnitude > (limit - digit) / 10) return std::nullopt;
    magnitude = magnitude * 10 + digit;
  }
  return static_cast<std::int64_t>(negative ? std::uint64_t{0} - magnitude : magnitude);
}

std::optional<SuffixMeaning> InterpretSuffix(std::string_view suffix) {
  constexpr auto kDecimal = QuantityFormat::kDecimalSI;
  constexpr auto kBinary = QuantityFormat::kBinarySI;
  if (suffix.empty()) return SuffixMeaning{10, 0, kDecimal};
  if (suffix.size() == 1) {
    switch (suffix[0]) {
      case 'n':
        return SuffixMeaning{10, -9, kDecimal};
      case 'u':
        return SuffixMeaning{10, -6, kDecimal};
      case 'm':
        return SuffixMeaning{10, -3, kDecimal};
      case 'k':
        return SuffixMeaning{10, 3, kDecimal};
      case 'M':
        return SuffixMeaning{10, 6, kDecimal};
      case 'G':
        return SuffixMeaning{10, 9, kDecimal};
      case 'T':
        return SuffixMeaning{10, 12, kDecimal};
      case 'P':
        return SuffixMeaning{10, 15, kDecimal};
      case 'E':
        return SuffixMeaning{10, 18, kDecimal};
      default:
        return std::nullopt;
    }
  }
  if (suffix.size() == 2 && suffix[1] == 'i') {
    switch (suffix[0]) {
      case 'K':
        return SuffixMeaning{2, 10, kBinary};
      case 'M':
        return SuffixMeaning{2, 20, kBinary};
      case 'G':
        return SuffixMeaning{2, 30, kBinary};
      case 'T':
        return SuffixMeaning{2, 40, kBinary};
      case 'P':
        return SuffixMeaning{2, 50, kBinary};
      case 'E':
        return SuffixMeaning{2, 60, kBinary};
      default:
        break;
    }
  }
  if (suffix[0] != 'e' && suffix[0] != 'E') return std::nullopt;
  const std::optional<std::int64_t> exponent = ParseInt64(suffix.substr(1));
  if (!exponent) return std::nullopt;
  // apimachinery keeps the exponent as an int32, dropping the high bits: 1e4294967296 is 1.
  const auto truncated = static_cast<std::int32_t>(static_cast<std::uint32_t>(*exponent));
  return SuffixMeaning{10, truncated, QuantityFormat::kDecimalExponent};
}

std::int64_t AccumulateDigits(std::int64_t value, std::string_view digits) {
  for (char c : digits) value = value * 10 + (c - '0');
  return value;
}

// Whether integer digits followed by fraction digits end in "000".
bool DigitsEndInThreeZeros(std::string_view integer, std::string_view fraction) {
  std::size_t zeros = 0;
  for (std::string_view part : {fraction, integer}) {
    std::size_t i = part.size();
    while (i > 0 && part[i - 1] == '0') --i;
    zeros += part.size() - i;
    if (zeros >= 3 || i > 0) break;
  }
  return zeros >= 3;
}

// ParseQuantity's rule for keeping decimal text verbatim on its int64 path
// (k8s.io/apimachinery/pkg/api/resource/quantity.go).
// integer is non-empty ("0" when the text has no integer digits).
bool KeepsDecimalText(std::string_view integer, std::string_view fraction, std::int64_t exponent) {
  return exponent % 3 == 0 && integer[0] != '0' && !DigitsEndInThreeZeros(integer, fraction);
}

// Our refusal of values beyond kMaxExponent, blamed on the exponent suffix where there is one.
Error OutOfRangeError(QuantityFormat format) {
  return Error{
      std::string(format == QuantityFormat::kDecimalExponent ? kSuffixError : kNumericError)};
}

// An exact decimal used while parsing: coefficient * 10^exponent.
struct ExactDecimal {
  BigInt coefficient;
  std::int64_t exponent = 0;
};

// digits * 10^exponent rounded away from zero to a multiple of 10^-9. digits may be empty or
// start with zeros; nullopt when the value needs an exponent beyond kMaxExponent.
std::optional<ExactDecimal> RoundedDecimal(std::string_view digits, std::int64_t exponent) {
  const std::size_t first = digits.find_first_not_of('0');
  if (first == std::string_view::npos) return ExactDecimal{};
  const std::size_t last = digits.find_last_not_of('0');
  const std::string_view significant = digits.substr(first, last - first + 1);
  exponent += static_cast<std::int64_t>(digits.size() - 1 - last);
  if (exponent > kMaxExponent) return std::nullopt;
  if (exponent >= kNanoExponent) return ExactDecimal{BigFromDigits(significant), exponent};
  // The dropped digits end in a non-zero digit, so rounding always moves away from zero.
  const std::uint64_t dropped = static_cast<std::uint64_t>(kNanoExponent - exponent);
  if (dropped >= significant.size()) return ExactDecimal{BigInt(1), kNanoExponent};
  ExactDecimal result{BigFromDigits(significant.substr(0, significant.size() - dropped)),
                      kNanoExponent};
  mpz_add_ui(result.coefficient.get(), result.coefficient.get(), 1);
  return result;
}

// integer.fraction * 2^power rounded away from zero to a multiple of 10^-9 and clamped to
// 2^63-1, as apimachinery treats binary suffixes.
ExactDecimal RoundedBinary(std::string_view integer, std::string_view fraction,
                           std::int64_t power) {
  std::string digits(integer);
  digits += fraction;
  ExactDecimal result{BigFromDigits(digits), -static_cast<std::int64_t>(fraction.size())};
  mpz_mul_2exp(result.coefficient.get(), result.coefficient.get(), static_cast<mp_bitcnt_t>(power));
  if (result.exponent < kNanoExponent) {
    BigInt divisor(1);
    MultiplyByPowerOfTen(divisor, kNanoExponent - result.exponent);
    mpz_cdiv_q(result.coefficient.get(), result.coefficient.get(), divisor.get());
    result.exponent = kNanoExponent;
  }
  BigInt limit(std::numeric_limits<std::int64_t>::max());
  MultiplyByPowerOfTen(limit, -result.exponent);
  if (mpz_cmp(result.coefficient.get(), limit.get()) > 0) {
    result = ExactDecimal{BigInt(std::numeric_limits<std::int64_t>::max()), 0};
  }
  return result;
}

}  // namespace

struct Quantity::BigCoefficient {
  BigInt value;
};

Quantity::Quantity() = default;
Quantity::~Quantity() = default;
Quantity::Quantity(Quantity&&) noexcept = default;
Quantity& Quantity::operator=(Quantity&&) noexcept = default;

Quantity::Quantity(const Quantity& other)
    : small_(other.small_),
      exponent_(other.exponent_),
      format_(other.format_),
      big_(other.big_ ? std::make_unique<BigCoefficient>(*other.big_) : nullptr),
      text_(other.text_) {}

Quantity& Quantity::operator=(const Quantity& other) {
  if (this != &other) {
    small_ = other.small_;
    exponent_ = other.exponent_;
    format_ = other.format_;
    big_ = other.big_ ? std::make_unique<BigCoefficient>(*other.big_) : nullptr;
    text_ = other.text_;
  }
  return *this;
}

void Quantity::SetValue(std::int64_t coefficient, std::int64_t exponent) {
  big_.reset();
  exponent += RemoveTrailingZeros(coefficient);
  small_ = coefficient;
  exponent_ = coefficient == 0 ? 0 : static_cast<std::int32_t>(exponent);
}

void Quantity::SetValue(BigCoefficient&& coefficient, std::int64_t exponent) {
  BigInt& value = coefficient.value;
  if (mpz_sgn(value.get()) == 0) {
    SetValue(0, 0);
    return;
  }
  exponent += RemoveTrailingZeros(value);
  exponent_ = static_cast<std::int32_t>(exponent);
  if (mpz_fits_slong_p(value.get())) {
    small_ = mpz_get_si(value.get());
    big_.reset();
  } else {
    small_ = 0;
    big_ = std::make_unique<BigCoefficient>(std::move(coefficient));
  }
}

Quantity::BigCoefficient Quantity::Coefficient() const {
  return big_ ? *big_ : BigCoefficient{BigInt(small_)};
}

void Quantity::Negate() {
  if (!big_ && small_ != std::numeric_limits<std::int64_t>::min()) {
    small_ = -small_;
    return;
  }
  BigCoefficient negated = Coefficient();
  mpz_neg(negated.value.get(), negated.value.get());
  SetValue(std::move(negated), exponent_);
}

Result<Quantity> Quantity::Parse(std::string_view text) {
  if (text.empty()) return Error{std::string(kFormatError)};
  Quantity q;
  if (text == "0") {
    q.text_ = "0";
    return q;
  }
  const std::optional<ScannedQuantity> scanned = ScanQuantity(text);
  if (!scanned) return Error{std::string(kFormatError)};
  const std::optional<SuffixMeaning> suffix = InterpretSuffix(scanned->suffix);
  if (!suffix) return Error{std::string(kSuffixError)};
  q.format_ = suffix->format;
  const std::string_view integer = scanned->integer.empty() ? "0" : scanned->integer;
  const std::string_view fraction = scanned->fraction;

  // apimachinery's int64 path: the only one that keeps the text verbatim.
  if (suffix->base == 10) {
    const std::int64_t exponent = suffix->exponent - static_cast<std::int64_t>(fraction.size());
    if (integer.size() + fraction.size() <= 18 && exponent >= kNanoExponent) {
      const std::int64_t digits = AccumulateDigits(AccumulateDigits(0, integer), fraction);
      std::int64_t significant = digits;
      if (digits != 0 && exponent + RemoveTrailingZeros(significant) > kMaxExponent) {
        return OutOfRangeError(q.format_);
      }
      if (KeepsDecimalText(integer, fraction, exponent)) q.text_ = text;
      q.SetValue(scanned->negative ? -digits : digits, exponent);
      return q;
    }
  } else {
    // apimachinery's estimate of the decimal digits left for the integer after the suffix.
    const std::int64_t spare_digits =
        15 - static_cast<std::int64_t>(integer.size()) - suffix->exponent * 3 / 10 - 1;
    if (fraction.empty() && spare_digits >= 0) {
      const std::int64_t digits = AccumulateDigits(0, integer);
      if ((digits & 7) != 0) q.text_ = text;
      const std::int64_t magnitude = digits << suffix->exponent;
      q.SetValue(scanned->negative ? -magnitude : magnitude, 0);
      return q;
    }
  }

  // apimachinery's exact-decimal path.
  if (!scanned->has_digit) return Error{std::string(kNumericError)};
  ExactDecimal exact;
  if (suffix->base == 10) {
    std::string digits(scanned->integer);
    digits += fraction;
    std::optional<ExactDecimal> rounded =
        RoundedDecimal(digits, suffix->exponent - static_cast<std::int64_t>(fraction.size()));
    if (!rounded) return OutOfRangeError(q.format_);
    exact = std::move(*rounded);
  } else {
    exact = RoundedBinary(integer, fraction, suffix->exponent);
  }
  if (scanned->negative) mpz_neg(exact.coefficient.get(), exact.coefficient.get());
  q.SetValue(BigCoefficient{std::move(exact.coefficient)}, exact.exponent);
  if (q.format_ == QuantityFormat::kBinarySI && !q.IsZero() && q.exponent_ < 0 &&
      q.Compare(FromInt(1)) < 0 && q.Compare(FromInt(-1)) > 0) {
    q.format_ = QuantityFormat::kDecimalSI;
  }
  return q;
}

Quantity Quantity::MustParse(std::string_view text) {
  Result<Quantity> parsed = Parse(text);
  if (!parsed.ok()) {
    throw std::invalid_argument("cannot parse '" + std::string(text) + "': " + parsed.error());
  }
  return std::move(parsed).value();
}

Quantity Quantity::FromInt(std::int64_t v, QuantityFormat format) {
  Quantity q;
  q.format_ = format;
  q.SetValue(v, 0);
  return q;
}

Quantity Quantity::FromMilli(std::int64_t milli, QuantityFormat format) {
  Quantity q;
  q.format_ = format;
  q.SetValue(milli, -3);
  return q;
}

std::string Quantity::String() const { return text_.empty() ? CanonicalString() : text_; }

std::string Quantity::CanonicalString() const {
  if (IsZero()) return "0";
  std::string out;
  QuantityFormat format = format_;
  if (format == QuantityFormat::kBinarySI) {
    const bool below_1024 = Compare(FromInt(1024)) < 0 && Compare(FromInt(-1024)) > 0;
    if (below_1024 || !IsInteger()) format = QuantityFormat::kDecimalSI;
  }
  if (format == QuantityFormat::kBinarySI) {
    // value = m * 1024^power with power as large as possible.
    std::int64_t power = 0;
    if (!big_ && exponent_ <= 18) {
      Int128 value = static_cast<Int128>(small_) * kPowersOfTen[exponent_];
      while (value % 1024 == 0) {
        value /= 1024;
        ++power;
      }
      AppendInt128(out, value);
    } else {
      BigInt value = Coefficient().value;
      MultiplyByPowerOfTen(value, exponent_);
      power = static_cast<std::int64_t>(mpz_scan1(value.get(), 0)) / 10;
      mpz_tdiv_q_2exp(value.get(), value.get(), static_cast<mp_bitcnt_t>(power * 10));
      AppendBig(out, value);
    }
    out += BinarySuffix(power);
    return out;
  }
  // value = m * 10^exponent with the exponent lowered to a multiple of 3.
  const int lowered = ((exponent_ % 3) + 3) % 3;
  if (big_) {
    BigInt m = big_->value;
    mpz_mul_ui(m.get(), m.get(), static_cast<unsigned long>(kPowersOfTen[lowered]));
    AppendBig(out, m);
  } else {
    AppendInt128(out, static_cast<Int128>(small_) * kPowersOfTen[lowered]);
  }
  AppendDecimalSuffix(out, static_cast<std::int64_t>(exponent_) - lowered, format);
  return out;
}

QuantityFormat Quantity::format() const { return format_; }

int Quantity::Sign() const {
  if (big_) return mpz_sgn(big_->value.get());
  return (small_ > 0) - (small_ < 0);
}

int Quantity::Compare(const Quantity& other) const {
  const int sign = Sign();
  const int other_sign = other.Sign();
  if (sign != other_sign) return sign < other_sign ? -1 : 1;
  if (sign == 0) return 0;
  const std::int64_t gap = static_cast<std::int64_t>(exponent_) - other.exponent_;
  if (!big_ && !other.big_) {
    if (gap == 0) return CompareValues(small_, other.small_);
    // A small coefficient has at most 19 digits, so 19 more powers of ten dominate it.
    if (gap > 18) return sign;
    if (gap < -18) return -sign;
    Int128 a = small_;
    Int128 b = other.small_;
    if (gap > 0) a *= kPowersOfTen[gap];
    if (gap < 0) b *= kPowersOfTen[-gap];
    return CompareValues(a, b);
  }
  // Magnitudes are decided by the leading digit's position unless the estimates (which
  // mpz_sizeinbase may overstate by one) are within one of each other.
  const auto leading_digit = [](const Quantity& q) {
    const std::int64_t digits =
        q.big_ ? static_cast<std::int64_t>(mpz_sizeinbase(q.big_->value.get(), 10))
               : DigitCount(Magnitude(q.small_));
    return digits + q.exponent_;
  };
  const std::int64_t lead = leading_digit(*this);
  const std::int64_t other_lead = leading_digit(other);
  if (lead > other_lead + 1) return sign;
  if (other_lead > lead + 1) return -sign;
  BigCoefficient a = Coefficient();
  BigCoefficient b = other.Coefficient();
  MultiplyByPowerOfTen(a.value, gap);
  MultiplyByPowerOfTen(b.value, -gap);
  const int c = mpz_cmp(a.value.get(), b.value.get());
  return (c > 0) - (c < 0);
}

Quantity Quantity::Add(const Quantity& other) const {
  Quantity sum;
  if (other.IsZero() || IsZero()) {
    sum = IsZero() ? other : *this;
    sum.text_.clear();
    sum.format_ = IsZero() ? other.format_ : format_;
    return sum;
  }
  sum.format_ = format_;
  const Quantity& high = exponent_ >= other.exponent_ ? *this : other;
  const Quantity& low = exponent_ >= other.exponent_ ? other : *this;
  const std::int64_t gap = static_cast<std::int64_t>(high.exponent_) - low.exponent_;
  if (!big_ && !other.big_ && gap <= 18) {
    const Int128 exact = static_cast<Int128>(high.small_) * kPowersOfTen[gap] + low.small_;
    if (FitsInInt64(exact)) {
      sum.SetValue(static_cast<std::int64_t>(exact), low.exponent_);
    } else {
      sum.SetValue(BigCoefficient{BigFromInt128(exact)}, low.exponent_);
    }
    return sum;
  }
  BigCoefficient total = high.Coefficient();
  MultiplyByPowerOfTen(total.value, gap);
  const BigCoefficient addend = low.Coefficient();
  mpz_add(total.value.get(), total.value.get(), addend.value.get());
  sum.SetValue(std::move(total), low.exponent_);
  return sum;
}

Quantity Quantity::Sub(const Quantity& other) const {
  Quantity negated = other;
  negated.Negate();
  return Add(negated);
}

std::int64_t Quantity::WrappedUnits(int unit_exponent) const {
  const std::int64_t shift = static_cast<std::int64_t>(exponent_) - unit_exponent;
  // shift >= -9 - unit_exponent, so a division is by at most 10^9.
  if (!big_) {
    if (shift >= 0) {
      return static_cast<std::int64_t>(
          WrappingMultiplyByPowerOfTen(static_cast<std::uint64_t>(small_), shift));
    }
    const std::int64_t divisor = kPowersOfTen[-shift];
    std::int64_t units = small_ / divisor;
    if (small_ % divisor != 0) units += small_ < 0 ? -1 : 1;
    return units;
  }
  if (shift >= 0) {
    return static_cast<std::int64_t>(WrappingMultiplyByPowerOfTen(LowWord(big_->value), shift));
  }
  BigInt units;
  BigInt remainder;
  mpz_tdiv_qr_ui(units.get(), remainder.get(), big_->value.get(),
                 static_cast<unsigned long>(kPowersOfTen[-shift]));
  if (mpz_sgn(remainder.get()) != 0) {
    if (mpz_sgn(big_->value.get()) < 0) {
      mpz_sub_ui(units.get(), units.get(), 1);
    } else {
      mpz_add_ui(units.get(), units.get(), 1);
    }
  }
  return static_cast<std::int64_t>(LowWord(units));
}

std::int64_t Quantity::Value() const { return WrappedUnits(0); }

std::int64_t Quantity::MilliValue() const { return WrappedUnits(-3); }

bool Quantity::IsInteger() const { return exponent_ >= 0; }

bool Quantity::IsMilliExact() const { return exponent_ >= -3; }

bool Quantity::FitsInt64() const {
  if (big_ || exponent_ < 0 || exponent_ > 18) return false;
  return FitsInInt64(static_cast<Int128>(small_) * kPowersOfTen[exponent_]);
}

double Quantity::AsApproximateDouble() const {
  // An integer below 2^53 and a power of ten below 10^23 are exact doubles, so one
  // multiplication or division rounds correctly.
  if (!big_ && Magnitude(small_) <= (std::uint64_t{1} << 53) && exponent_ >= -22 &&
      exponent_ <= 22) {
    const auto coefficient = static_cast<double>(small_);
    return exponent_ >= 0 ? coefficient * kExactDoublePowersOfTen[exponent_]
                          : coefficient / kExactDoublePowersOfTen[-exponent_];
  }
  std::string text;
  if (big_) {
    AppendBig(text, big_->value);
  } else {
    AppendInt128(text, small_);
  }
  text += 'e';
  text += std::to_string(exponent_);
  return std::strtod(text.c_str(), nullptr);
}

}  // namespace dra::api
