// resource.Quantity against apimachinery's behaviour (k8s.io/apimachinery/pkg/api/resource),
// observed by running it.
#include "dra/api/quantity.h"

#include <gtest/gtest.h>

#include <chrono>
#include <cmath>
#include <cstdint>
#include <limits>
#include <stdexcept>
#include <string>
#include <utility>
#include <vector>

namespace dra::api {
namespace {

constexpr char kFormatError[] =
    "quantities must match the regular expression "
    "'^([+-]?[0-9.]+)([eEinumkKMGTP]*[-+]?[0-9]*)$'";
constexpr char kSuffixError[] = "unable to parse quantity's suffix";
constexpr char kNumericError[] = "unable to parse numeric part of quantity";

constexpr std::int64_t kMaxInt64 = std::numeric_limits<std::int64_t>::max();
constexpr std::int64_t kMinInt64 = std::numeric_limits<std::int64_t>::min();

Quantity Q(std::string_view text) { return Quantity::MustParse(text); }

std::string Emitted(std::string_view text) {
  Result<Quantity> q = Quantity::Parse(text);
  return q.ok() ? q->String() : "error: " + q.error();
}

std::string ParseError(std::string_view text) {
  Result<Quantity> q = Quantity::Parse(text);
  return q.ok() ? "parsed as " + q->String() : q.error();
}

struct TextCase {
  std::string input;
  std::string output;
};

void ExpectEmitted(const std::vector<TextCase>& cases) {
  for (const TextCase& c : cases) {
    EXPECT_EQ(Emitted(c.input), c.output) << "input " << c.input;
  }
}

// Inputs and the text apimachinery stores and emits for them.
TEST(QuantityTest, SpecExamples) {
  ExpectEmitted({
      {"1.5", "1500m"},
      {"1.5Gi", "1536Mi"},
      {"1.1Ki", "1126400m"},
      {"0.5Ki", "512"},
      {"1024Ki", "1Mi"},
      {"0.1m", "100u"},
      {"0.0000000001", "1n"},
      {"10000", "10k"},
      {"1e10", "10e9"},
      {"1.23456789e3", "1234567890e-6"},
      {"1e-12", "1e-9"},
      {"123.456", "123.456"},
      {"+1", "+1"},
      {"01", "01"},
      {"8Ei", "9223372036854775807"},
      {"7.99Ei", "9211842821808707338240m"},
      {"1000E", "1"},
      {"9.3e18", "9300e15"},
      {"-1.5Ki", "-1536"},
  });
}

// Texts kept exactly as sent: ParseQuantity's int64 fast path keeps text that
// already looks canonical.
TEST(QuantityTest, KeepsCanonicalLookingTextVerbatim) {
  for (const char* text : {"+1",       "01",
                           "-01",      "5.",
                           "1.G",      "123.456",
                           "1.000001", "1e3",
                           "1E+3",     "2.5e-2",
                           "50e-3",    "5.e3",
                           "+1Ki",     "01Ki",
                           "0",        "1.500",
                           "1.Ki",     "000000000000000000001",
                           "12Ki",     "1e-0",
                           "-1Ki",     "100m",
                           "3e-3",     "+4Ki",
                           "012Ki",    "+12345678901Ki",
                           "+99Ti"}) {
    EXPECT_EQ(Emitted(text), text);
  }
}

// Texts that fail one of ParseQuantity's conditions for keeping them verbatim.
TEST(QuantityTest, RewritesOtherText) {
  ExpectEmitted({
      {"1.5", "1500m"},                       // x - F = -1, not a multiple of 3
      {"2.50", "2500m"},                      // x - F = -2
      {"10000", "10k"},                       // ends in 000
      {"1e10", "10e9"},                       // exponent not a multiple of 3
      {"0.5", "500m"},                        // digits start with 0
      {"-0", "0"},                            // only the literal "0" is kept
      {"00", "0"},                            //
      {"1.000", "1"},                         // digits 1000 end in 000
      {"+8Ki", "8Ki"},                        // a multiple of 8
      {"016Ki", "16Ki"},                      //
      {"2048Ki", "2Mi"},                      //
      {"+123456789012Ki", "123456789012Ki"},  // 12 digits: too long for the int64 path
      {"1048576000000Ki", "1000000Gi"},       //
      {"+1Pi", "1Pi"},                        // Pi and Ei never take the int64 path
      {"+1Ei", "1Ei"},                        //
      {"1.0Ki", "1Ki"},                       // a fraction, even zero, leaves the int64 path
      {"+1234567890123456789", "1234567890123456789"},  // 19 digits
      {"0.0000000010", "1n"},  // scale below nano before trailing zeros are dropped
  });
}

// Rejected texts and apimachinery's messages for them.
TEST(QuantityTest, RejectsWithApimachineryMessages) {
  for (const char* text : {"", "1 ", " 1", "1_000", "1.2.3", "1e3.5", "1Kib", "1e3e", "x", "1x",
                           "1.5.", "1e+-3", "Kix", "0x10"}) {
    EXPECT_EQ(ParseError(text), kFormatError) << "input '" << text << "'";
  }
  for (const char* text :
       {"1K", "1ki", "1mi", "1e", "1m5", "1Gi5", "+-1", "--1", "1E-", "1e+", "1Ee3", "1ee3", "1ii",
        "1mm", "1e9223372036854775808", "1e-9223372036854775809"}) {
    EXPECT_EQ(ParseError(text), kSuffixError) << "input '" << text << "'";
  }
  // Texts without a digit that need apimachinery's exact-decimal parser.
  for (const char* text : {".e-10", "e-10", "-e-10", "Pi", "-Pi", ".Pi", "+Ei"}) {
    EXPECT_EQ(ParseError(text), kNumericError) << "input '" << text << "'";
  }
}

TEST(QuantityTest, OdditiesParseAsZero) {
  for (const char* text : {"+", "-", ".", ".e3", "Ki", "-Ki", ".Ki", "0Pi", "E", "m", "e5", "0.0",
                           "-000", "+0", "0e-20", "0.000Pi"}) {
    Result<Quantity> q = Quantity::Parse(text);
    ASSERT_TRUE(q.ok()) << text << ": " << q.error();
    EXPECT_TRUE(q->IsZero()) << text;
    EXPECT_EQ(q->String(), "0") << text;
  }
}

TEST(QuantityTest, ZeroIsCanonicallyPlainZero) {
  EXPECT_EQ(Quantity().String(), "0");
  EXPECT_EQ(Quantity::FromInt(0, QuantityFormat::kBinarySI).String(), "0");
  EXPECT_EQ(Q("-0.0e5").String(), "0");
  EXPECT_EQ(Q("0").CanonicalString(), "0");
  EXPECT_EQ(Q("1Ki").Sub(Q("1024")).String(), "0");
}

TEST(QuantityTest, RemembersFormat) {
  EXPECT_EQ(Q("5").format(), QuantityFormat::kDecimalSI);
  EXPECT_EQ(Q("5m").format(), QuantityFormat::kDecimalSI);
  EXPECT_EQ(Q("5E").format(), QuantityFormat::kDecimalSI);
  EXPECT_EQ(Q("5Ki").format(), QuantityFormat::kBinarySI);
  EXPECT_EQ(Q("5e3").format(), QuantityFormat::kDecimalExponent);
  EXPECT_EQ(Q("5E3").format(), QuantityFormat::kDecimalExponent);
  EXPECT_EQ(Quantity().format(), QuantityFormat::kDecimalSI);
  EXPECT_EQ(Quantity::FromInt(3, QuantityFormat::kBinarySI).format(), QuantityFormat::kBinarySI);
}

TEST(QuantityTest, BinaryBelowOneSwitchesToDecimal) {
  EXPECT_EQ(Q("0.0001Ki").format(), QuantityFormat::kDecimalSI);
  EXPECT_EQ(Q("0.0001Ki").String(), "102400u");
  EXPECT_EQ(Q("-0.0001Ki").format(), QuantityFormat::kDecimalSI);
  // Exactly one, and zero, stay binary.
  EXPECT_EQ(Q("0.0009765625Ki").format(), QuantityFormat::kBinarySI);
  EXPECT_EQ(Q("0.0Ki").format(), QuantityFormat::kBinarySI);
  EXPECT_EQ(Q("0.5Ki").format(), QuantityFormat::kBinarySI);
}

TEST(QuantityTest, RoundsFinerThanNanoAwayFromZero) {
  ExpectEmitted({
      {"0.0000000001", "1n"},
      {"-0.1n", "-1n"},
      {"0.9n", "1n"},
      {"-1e-12", "-1e-9"},
      {"1.0000000001", "1000000001n"},
      {"-1.0000000001", "-1000000001n"},
      {"0.000000000000000000001", "1n"},
      {"1.9999999981", "1999999999n"},
      {"1.9999999991", "2"},
      {"1.9999999999", "2"},
      {"0.9999999999", "1"},
      {"-0.9999999999", "-1"},
      {"1e-999999999", "1e-9"},
      {"0.00000000100000000000000000001", "2n"},
      {"0.1234567891Ki", "126419752039n"},  // binary with fraction
  });
  // The exponent form keeps its format through rounding.
  EXPECT_EQ(Q("1e-12").format(), QuantityFormat::kDecimalExponent);
}

TEST(QuantityTest, ClampsOnlyBinaryValues) {
  ExpectEmitted({
      {"8Ei", "9223372036854775807"},
      {"-8Ei", "-9223372036854775807"},
      {"16Ei", "9223372036854775807"},
      {"123456789Ei", "9223372036854775807"},
      {"9007199254740992.5Ki", "9223372036854775807"},
      {"7.9999999999999999999Ei", "9223372036854775807"},
      {"10E", "10E"},
      {"100E", "100E"},
      {"9223372036854775808", "9223372036854775808"},
      {"18446744073709551616", "18446744073709551616"},
      {"9.3e18", "9300e15"},
  });
  EXPECT_EQ(Q("8Ei").Compare(Quantity::FromInt(kMaxInt64)), 0);
  EXPECT_GT(Q("8Ei").Compare(Q("7.9999Ei")), 0);
}

TEST(QuantityTest, CanonicalDecimalText) {
  ExpectEmitted({
      {"1234", "1234"},
      {"12340", "12340"},
      {"123400", "123400"},
      {"1234000", "1234k"},
      {"0.001", "1m"},
      {"0.01", "10m"},
      {"0.000001", "1u"},
      {"0.0000001", "100n"},
      {"1000000000000000000", "1E"},
      {"1000000", "1M"},
      {"1000000000", "1G"},
      {"1000000000000", "1T"},
      {"1000000000000000", "1P"},
      {"10000000000000000000", "10E"},
      {"1000000000000000000000n", "1T"},
      {"-12345.6", "-12345600m"},
      {"123456789012345678901234567890", "123456789012345678901234567890"},
      {"-123456789012345678901234567890.123456789012", "-123456789012345678901234567890123456790n"},
  });
}

// Apimachinery has no DecimalSI suffix beyond E and then prints no suffix at all.
TEST(QuantityTest, DecimalSuffixBeyondExaIsDropped) {
  EXPECT_EQ(Q("1000E").String(), "1");
  EXPECT_EQ(Q("1000E").Compare(Q("1e21")), 0);
  EXPECT_EQ(Q("12345000E").String(), "12345");
  EXPECT_EQ(Q("1e21").String(), "1e21");  // the exponent format is unaffected
  EXPECT_EQ(Q("1").Add(Q("1e21")).String(), "1000000000000000000001");
}

TEST(QuantityTest, CanonicalExponentText) {
  ExpectEmitted({
      {"1e10", "10e9"},
      {"1e11", "100e9"},
      {"1e12", "1e12"},
      {"12e1", "120"},
      {"1.5e0", "1500e-3"},
      {"1.23456789e3", "1234567890e-6"},
      {"-2.5e-1", "-250e-3"},
      {"1e100000", "10e99999"},
      {"1.5e-4", "150e-6"},
      {"1E4", "10e3"},
  });
}

TEST(QuantityTest, CanonicalBinaryText) {
  ExpectEmitted({
      {"1.5Gi", "1536Mi"},
      {"1.5Pi", "1536Ti"},
      {"1.0Ei", "1Ei"},
      {"0.5Ki", "512"},
      {"1023.0Ki", "1023Ki"},
      {"0.999Ki", "1022976m"},
      {"1.1Ki", "1126400m"},
      {"-1.5Ki", "-1536"},
      {"-2.0Mi", "-2Mi"},
      {"1024Ki", "1Mi"},
      {"1048576Ki", "1Gi"},
      {"1.0000000001Ki", "1024000000103n"},  // 1024.0000001024 rounded up to nano
  });
  EXPECT_EQ(Quantity::FromInt(1023, QuantityFormat::kBinarySI).String(), "1023");
  EXPECT_EQ(Quantity::FromInt(-1023, QuantityFormat::kBinarySI).String(), "-1023");
  EXPECT_EQ(Quantity::FromInt(1024, QuantityFormat::kBinarySI).String(), "1Ki");
  EXPECT_EQ(Quantity::FromInt(-1024, QuantityFormat::kBinarySI).String(), "-1Ki");
  EXPECT_EQ(Quantity::FromInt(1025, QuantityFormat::kBinarySI).String(), "1025");
  EXPECT_EQ(Quantity::FromInt(3 << 20, QuantityFormat::kBinarySI).String(), "3Mi");
  EXPECT_EQ(Quantity::FromInt(std::int64_t{1} << 62, QuantityFormat::kBinarySI).String(), "4Ei");
  EXPECT_EQ(Quantity::FromInt(1000, QuantityFormat::kBinarySI).String(), "1k");
}

// Apimachinery has no binary suffix beyond Ei and then prints no suffix at all.
TEST(QuantityTest, BinarySuffixBeyondExbiIsDropped) {
  Quantity sum = Q("1Ei");
  for (int i = 1; i < 1024; ++i) sum = sum.Add(Q("1Ei"));
  EXPECT_EQ(sum.format(), QuantityFormat::kBinarySI);
  EXPECT_EQ(sum.String(), "1");
  EXPECT_EQ(sum.Compare(Q("1180591620717411303424")), 0);
  EXPECT_EQ(sum.Add(Q("1Ei")).String(), "1025Ei");
}

TEST(QuantityTest, CanonicalStringIgnoresKeptText) {
  EXPECT_EQ(Q("+1").String(), "+1");
  EXPECT_EQ(Q("+1").CanonicalString(), "1");
  EXPECT_EQ(Q("01Ki").CanonicalString(), "1Ki");
  EXPECT_EQ(Q("1.G").CanonicalString(), "1G");
  EXPECT_EQ(Q("50e-3").CanonicalString(), "50e-3");
  EXPECT_EQ(Q("2.5e-2").CanonicalString(), "25e-3");
  EXPECT_EQ(Q("1.500").CanonicalString(), "1500m");
  EXPECT_EQ(Q("1E3").CanonicalString(), "1e3");
  EXPECT_EQ(Q("12e0").CanonicalString(), "12");
  EXPECT_EQ(Q("-2.5e-2").CanonicalString(), "-25e-3");
}

TEST(QuantityTest, ExponentSuffixIsGoInt64TruncatedToInt32) {
  EXPECT_EQ(Q("1e4294967296").Compare(Q("1")), 0);
  EXPECT_EQ(Q("1e4294967296").String(), "1e4294967296");
  EXPECT_EQ(Q("1e4294967299").Compare(Q("1000")), 0);
  EXPECT_EQ(Q("1e9223372036854775807").Compare(Q("0.1")), 0);  // low 32 bits: -1
  EXPECT_EQ(Q("1e-4294967296").Compare(Q("1")), 0);
  EXPECT_EQ(Q("1e0003").Compare(Q("1000")), 0);
  EXPECT_EQ(Q("1e-9223372036854775808").Compare(Q("1")), 0);
}

// Our bound (quantity.cc, kMaxExponent): apimachinery accepts larger values, but exact arithmetic
// on them needs unbounded memory.
TEST(QuantityTest, RefusesValuesBeyondBoundQuickly) {
  const auto start = std::chrono::steady_clock::now();
  EXPECT_EQ(ParseError("1e999999999"), kSuffixError);
  EXPECT_EQ(ParseError("1e100001"), kSuffixError);
  EXPECT_EQ(ParseError("-1e100001"), kSuffixError);
  EXPECT_EQ(ParseError("0500e100000"), kSuffixError);  // 5e100002
  EXPECT_EQ(ParseError("12345678901234567890123e2147483647"), kSuffixError);
  EXPECT_EQ(ParseError("1" + std::string(100001, '0')), kNumericError);
  EXPECT_EQ(ParseError("1" + std::string(99984, '0') + "E"), kNumericError);
  EXPECT_TRUE(Quantity::Parse("1" + std::string(100000, '0')).ok());
  EXPECT_TRUE(Quantity::Parse("1e100000").ok());
  EXPECT_TRUE(Quantity::Parse("0.01e100002").ok());
  EXPECT_TRUE(Quantity::Parse("0e999999999").ok());
  EXPECT_EQ(Q("1.5e-2147483648").String(), "1e-9");
  EXPECT_LT(std::chrono::steady_clock::now() - start, std::chrono::seconds(5));
}

TEST(QuantityTest, HugeValuesStayExactAndCheap) {
  const auto start = std::chrono::steady_clock::now();
  const Quantity huge = Q("1e100000");
  const Quantity tiny = Q("1n");
  const Quantity sum = huge.Add(tiny);
  EXPECT_GT(sum.Compare(huge), 0);
  EXPECT_EQ(sum.Sub(huge).Compare(tiny), 0);
  EXPECT_EQ(sum.Sub(tiny).Compare(huge), 0);
  EXPECT_EQ(sum.CanonicalString(), "1" + std::string(100008, '0') + "1e-9");
  EXPECT_EQ(huge.Value(), 0);  // 2^64 divides 10^100000
  EXPECT_EQ(huge.Compare(Q("9e99999")), 1);
  EXPECT_EQ(Q("-1e100000").Compare(Q("-9e99999")), -1);
  EXPECT_TRUE(std::isinf(huge.AsApproximateDouble()));
  EXPECT_LT(std::chrono::steady_clock::now() - start, std::chrono::seconds(5));
}

TEST(QuantityTest, LongDigitStrings) {
  const std::string digits(5000, '7');
  const Quantity q = Q(digits);
  EXPECT_EQ(q.String(), digits);
  EXPECT_EQ(Q(digits + ".5").Sub(q).Compare(Q("0.5")), 0);
  EXPECT_EQ(Q("0." + std::string(5000, '0') + "1").String(), "1n");
  EXPECT_EQ(Q("1" + std::string(5000, '0')).Compare(Q("1e5000")), 0);
  EXPECT_EQ(Q(std::string(5000, '0') + "1").String(), std::string(5000, '0') + "1");
}

TEST(QuantityTest, ComparesNumericallyAcrossFormats) {
  EXPECT_EQ(Q("1Gi").Compare(Q("1073741824")), 0);
  EXPECT_EQ(Q("1k").Compare(Q("1000")), 0);
  EXPECT_EQ(Q("1000").Compare(Q("1e3")), 0);
  EXPECT_EQ(Q("1Ki").Compare(Q("1.024k")), 0);
  EXPECT_EQ(Q("1500m").Compare(Q("1.5")), 0);
  EXPECT_EQ(Q("0.5Ki").Compare(Q("512")), 0);
  EXPECT_TRUE(Q("1Ki") == Q("1024"));
  EXPECT_TRUE(Q("1k") < Q("1Ki"));
  EXPECT_FALSE(Q("1Ki") < Q("1k"));
  EXPECT_EQ(Q("1Mi").Compare(Q("1M")), 1);
  EXPECT_EQ(Q("1M").Compare(Q("1Mi")), -1);
}

TEST(QuantityTest, ComparesSignsAndMagnitudes) {
  const std::vector<std::string> ascending = {"-1e100000",
                                              "-123456789012345678901234567890",
                                              "-10E",
                                              "-8Ei",
                                              "-1Ki",
                                              "-1",
                                              "-999999999n",
                                              "-1n",
                                              "0",
                                              "1n",
                                              "2n",
                                              "999m",
                                              "1",
                                              "1.000000001",
                                              "1023",
                                              "1Ki",
                                              "9223372036854775807",
                                              "9223372036854775808",
                                              "10E",
                                              "1000E",
                                              "1e22",
                                              "1e100000"};
  for (std::size_t i = 0; i < ascending.size(); ++i) {
    for (std::size_t j = 0; j < ascending.size(); ++j) {
      const int expected = i < j ? -1 : (i > j ? 1 : 0);
      EXPECT_EQ(Q(ascending[i]).Compare(Q(ascending[j])), expected)
          << ascending[i] << " vs " << ascending[j];
    }
  }
}

TEST(QuantityTest, ComparesValuesThatDifferInLowDigitsOnly) {
  EXPECT_EQ(Q("123456789012345678901234567890").Compare(Q("123456789012345678901234567891")), -1);
  EXPECT_EQ(Q("123456789012345678901234567890n").Compare(Q("123456789012345678901.23456789")), 0);
  EXPECT_EQ(Q("99999999999999999999").Compare(Q("1e20")), -1);
  EXPECT_EQ(Q("100000000000000000001").Compare(Q("1e20")), 1);
  EXPECT_EQ(Q("-9223372036854775808").Compare(Quantity::FromInt(kMinInt64)), 0);
  EXPECT_EQ(Q("9223372036854775807000").Compare(Q("9223372036854775807k")), 0);
  // GMP's digit count overstates 2^66 (20 digits) as 21; the exact comparison must decide.
  EXPECT_EQ(Q("73786976294838206464").Compare(Q("9e19")), -1);
  EXPECT_EQ(Q("9e19").Compare(Q("73786976294838206464")), 1);
  EXPECT_EQ(Q("-73786976294838206464").Compare(Q("-9e19")), 1);
}

TEST(QuantityTest, AddsExactlyAcrossScales) {
  EXPECT_EQ(Q("0.1").Add(Q("0.2")).Compare(Q("0.3")), 0);
  EXPECT_EQ(Q("1").Add(Q("1n")).String(), "1000000001n");
  EXPECT_EQ(Q("1E").Add(Q("1n")).String(), "1000000000000000000000000001n");
  EXPECT_EQ(Q("1Gi").Add(Q("1Mi")).String(), "1025Mi");
  EXPECT_EQ(Q("1.5").Add(Q("-1.5")).String(), "0");
  EXPECT_EQ(Q("1k").Add(Q("1e3")).String(), "2k");
  EXPECT_EQ(Q("1e3").Add(Q("1k")).String(), "2e3");
  EXPECT_EQ(Q("-5").Add(Q("3")).String(), "-2");
  EXPECT_EQ(Q("1e100").Add(Q("1e100")).String(), "20e99");
}

TEST(QuantityTest, AddOverflowsIntoBigValuesAndBack) {
  const Quantity max = Quantity::FromInt(kMaxInt64);
  const Quantity min = Quantity::FromInt(kMinInt64);
  const Quantity beyond = max.Add(Q("1"));
  EXPECT_EQ(beyond.String(), "9223372036854775808");
  EXPECT_EQ(beyond.Sub(Q("1")).Compare(max), 0);
  EXPECT_TRUE(beyond.Sub(Q("1")).FitsInt64());
  EXPECT_EQ(min.Sub(Q("1")).String(), "-9223372036854775809");
  EXPECT_EQ(min.Sub(Q("1")).Add(Q("1")).Compare(min), 0);
  EXPECT_EQ(min.Add(min).String(), "-18446744073709551616");
  EXPECT_EQ(max.Add(max).Sub(max).Compare(max), 0);
  EXPECT_EQ(Q("0").Sub(min).String(), "9223372036854775808");
  EXPECT_EQ(Q("9223372036854775807n").Add(Q("1n")).String(), "9223372036854775808n");
}

TEST(QuantityTest, ArithmeticFormatAndText) {
  // The receiver's format, or the other's when the receiver is zero.
  EXPECT_EQ(Q("1Ki").Add(Q("1")).format(), QuantityFormat::kBinarySI);
  EXPECT_EQ(Q("1").Add(Q("1Ki")).format(), QuantityFormat::kDecimalSI);
  EXPECT_EQ(Q("0").Add(Q("1Ki")).format(), QuantityFormat::kBinarySI);
  EXPECT_EQ(Q("0Ki").Add(Q("5")).format(), QuantityFormat::kDecimalSI);
  EXPECT_EQ(Q("0").Sub(Q("1e3")).format(), QuantityFormat::kDecimalExponent);
  EXPECT_EQ(Q("1e3").Sub(Q("1e3")).format(), QuantityFormat::kDecimalExponent);
  EXPECT_EQ(Q("1Ki").Add(Q("0")).format(), QuantityFormat::kBinarySI);
  // Kept text never survives arithmetic.
  EXPECT_EQ(Q("+1").Add(Q("0")).String(), "1");
  EXPECT_EQ(Q("0").Add(Q("01Ki")).String(), "1Ki");
  EXPECT_EQ(Q("1.500").Sub(Q("0")).String(), "1500m");
  EXPECT_EQ(Q("1Ki").Add(Q("1Ki")).String(), "2Ki");
  EXPECT_EQ(Q("1Ki").Add(Q("0.5")).String(), "1024500m");
}

TEST(QuantityTest, Sign) {
  EXPECT_EQ(Q("-1n").Sign(), -1);
  EXPECT_EQ(Q("0").Sign(), 0);
  EXPECT_EQ(Q("5Ki").Sign(), 1);
  EXPECT_EQ(Q("-123456789012345678901234567890").Sign(), -1);
  EXPECT_EQ(Q("123456789012345678901234567890").Sign(), 1);
  EXPECT_TRUE(Q("-0").IsZero());
  EXPECT_FALSE(Q("1n").IsZero());
}

TEST(QuantityTest, ValueRoundsUpInMagnitude) {
  EXPECT_EQ(Q("1.5").Value(), 2);
  EXPECT_EQ(Q("-1.5").Value(), -2);
  EXPECT_EQ(Q("1n").Value(), 1);
  EXPECT_EQ(Q("-1n").Value(), -1);
  EXPECT_EQ(Q("2").Value(), 2);
  EXPECT_EQ(Q("1.1Ki").Value(), 1127);
  EXPECT_EQ(Q("-1.1Ki").Value(), -1127);
  EXPECT_EQ(Q("123.456").Value(), 124);
  EXPECT_EQ(Q("1Ki").Value(), 1024);
  EXPECT_EQ(Q("8Ei").Value(), kMaxInt64);
  EXPECT_EQ(Q("-9223372036854775808").Value(), kMinInt64);
  EXPECT_EQ(Q("0").Value(), 0);
}

TEST(QuantityTest, MilliValueRoundsUpInMagnitude) {
  EXPECT_EQ(Q("1.5").MilliValue(), 1500);
  EXPECT_EQ(Q("1.0001").MilliValue(), 1001);
  EXPECT_EQ(Q("-1.0001").MilliValue(), -1001);
  EXPECT_EQ(Q("1n").MilliValue(), 1);
  EXPECT_EQ(Q("-1n").MilliValue(), -1);
  EXPECT_EQ(Q("0.0001Ki").MilliValue(), 103);
  EXPECT_EQ(Q("1k").MilliValue(), 1000000);
  EXPECT_EQ(Q("9223372036854775807m").MilliValue(), kMaxInt64);
}

// The integer views wrap modulo 2^64 like Go's int64 conversion (10E has
// Value() -8446744073709551616; see docs/COMPATIBILITY.md).
TEST(QuantityTest, IntegerViewsWrap) {
  EXPECT_EQ(Q("10E").Value(), -8446744073709551616);
  EXPECT_EQ(Q("9223372036854775808").Value(), kMinInt64);
  EXPECT_EQ(Q("18446744073709551616").Value(), 0);
  EXPECT_EQ(Q("18446744073709551617").Value(), 1);
  EXPECT_EQ(Q("-18446744073709551617").Value(), -1);
  EXPECT_EQ(Q("9.3e18").Value(), -9146744073709551616);
  EXPECT_EQ(Q("1000E").Value(), 3875820019684212736);
  EXPECT_EQ(Q("123456789012345678901234567890").Value(), -4362896299872285998);
  EXPECT_EQ(Q("-123456789012345678901234567890.5").Value(), 4362896299872285997);
  EXPECT_EQ(Q("1e64").Value(), 0);
  EXPECT_EQ(Q("10E").MilliValue(), 1864712049423024128);
  EXPECT_EQ(Q("8Ei").MilliValue(), -1000);
  EXPECT_EQ(Q("-8Ei").MilliValue(), 1000);
  EXPECT_EQ(Q("1000E").MilliValue(), 2003764205206896640);
  EXPECT_EQ(Q("7.99Ei").MilliValue(), 6917529027641081856);
}

TEST(QuantityTest, IntegerAndMilliExactness) {
  EXPECT_TRUE(Q("1").IsInteger());
  EXPECT_TRUE(Q("1k").IsInteger());
  EXPECT_TRUE(Q("1.000").IsInteger());
  EXPECT_TRUE(Q("1e100").IsInteger());
  EXPECT_TRUE(Q("0").IsInteger());
  EXPECT_FALSE(Q("1.5").IsInteger());
  EXPECT_FALSE(Q("1m").IsInteger());
  EXPECT_FALSE(Q("-1n").IsInteger());
  EXPECT_TRUE(Q("1.5").IsMilliExact());
  EXPECT_TRUE(Q("1m").IsMilliExact());
  EXPECT_TRUE(Q("1000u").IsMilliExact());
  EXPECT_TRUE(Q("-7.001").IsMilliExact());
  EXPECT_TRUE(Q("10P").IsMilliExact());
  EXPECT_FALSE(Q("1.0001").IsMilliExact());
  EXPECT_FALSE(Q("1u").IsMilliExact());
  EXPECT_FALSE(Q("0.1m").IsMilliExact());
  EXPECT_FALSE(Q("123456789012345678901234567890.0001").IsMilliExact());
}

TEST(QuantityTest, FitsInt64) {
  EXPECT_TRUE(Q("0").FitsInt64());
  EXPECT_TRUE(Q("1Gi").FitsInt64());
  EXPECT_TRUE(Q("8Ei").FitsInt64());
  EXPECT_TRUE(Q("9E").FitsInt64());
  EXPECT_TRUE(Q("-9223372036854775808").FitsInt64());
  EXPECT_TRUE(Q("9223372036854775807000m").FitsInt64());
  EXPECT_FALSE(Q("9223372036854775808").FitsInt64());
  EXPECT_FALSE(Q("-9223372036854775809").FitsInt64());
  EXPECT_FALSE(Q("10E").FitsInt64());
  EXPECT_FALSE(Q("1e19").FitsInt64());
  EXPECT_FALSE(Q("1.5").FitsInt64());
  EXPECT_FALSE(Q("1n").FitsInt64());
}

TEST(QuantityTest, AsApproximateDouble) {
  EXPECT_EQ(Q("1.5").AsApproximateDouble(), 1.5);
  EXPECT_EQ(Q("1.1").AsApproximateDouble(), 1.1);
  EXPECT_EQ(Q("0.1").AsApproximateDouble(), 0.1);
  EXPECT_EQ(Q("-2.5e-2").AsApproximateDouble(), -0.025);
  EXPECT_EQ(Q("1Gi").AsApproximateDouble(), 1073741824.0);
  EXPECT_EQ(Q("1n").AsApproximateDouble(), 1e-9);
  EXPECT_EQ(Q("123456789012345678901234567890").AsApproximateDouble(), 1.2345678901234568e29);
  EXPECT_EQ(Q("9007199254740993").AsApproximateDouble(), 9007199254740992.0);
  EXPECT_EQ(Q("1e300").AsApproximateDouble(), 1e300);
  EXPECT_EQ(Q("1e23").AsApproximateDouble(), 1e23);
  EXPECT_EQ(Q("123e30").AsApproximateDouble(), 123e30);
  EXPECT_EQ(Q("4.35e23").AsApproximateDouble(), 4.35e23);
  EXPECT_EQ(Q("0.3").AsApproximateDouble(), 0.3);
  EXPECT_EQ(Q("8Ei").AsApproximateDouble(), 9223372036854775807.0);
  EXPECT_EQ(Q("1e400").AsApproximateDouble(), std::numeric_limits<double>::infinity());
  EXPECT_EQ(Q("-1e400").AsApproximateDouble(), -std::numeric_limits<double>::infinity());
  EXPECT_EQ(Q("0").AsApproximateDouble(), 0.0);
}

TEST(QuantityTest, FromInt) {
  EXPECT_EQ(Quantity::FromInt(5).String(), "5");
  EXPECT_EQ(Quantity::FromInt(-5000).String(), "-5k");
  EXPECT_EQ(Quantity::FromInt(kMaxInt64).String(), "9223372036854775807");
  EXPECT_EQ(Quantity::FromInt(kMinInt64).String(), "-9223372036854775808");
  EXPECT_EQ(Quantity::FromInt(kMinInt64).Value(), kMinInt64);
  EXPECT_EQ(Quantity::FromInt(1000, QuantityFormat::kDecimalExponent).String(), "1e3");
  EXPECT_EQ(Quantity::FromInt(2048, QuantityFormat::kBinarySI).String(), "2Ki");
}

TEST(QuantityTest, MustParse) {
  EXPECT_EQ(Quantity::MustParse("16Gi").Value(), std::int64_t{16} << 30);
  try {
    (void)Quantity::MustParse("1K");
    FAIL() << "MustParse accepted bad text";
  } catch (const std::invalid_argument& e) {
    EXPECT_EQ(std::string(e.what()), "cannot parse '1K': unable to parse quantity's suffix");
  }
}

TEST(QuantityTest, CopiesAndMovesAreIndependent) {
  Quantity big = Q("123456789012345678901234567890.5");
  Quantity copy = big;
  EXPECT_EQ(copy.Compare(big), 0);
  copy = copy.Add(Q("1"));
  EXPECT_EQ(big.String(), "123456789012345678901234567890500m");
  EXPECT_EQ(copy.String(), "123456789012345678901234567891500m");
  Quantity assigned;
  assigned = big;
  EXPECT_EQ(assigned.String(), big.String());
  assigned = Q("+7");
  EXPECT_EQ(assigned.String(), "+7");
  const Quantity& alias = assigned;
  assigned = alias;  // self-assignment keeps the value
  EXPECT_EQ(assigned.String(), "+7");
  Quantity moved = std::move(big);
  EXPECT_EQ(moved.String(), "123456789012345678901234567890500m");
  Quantity move_assigned;
  move_assigned = std::move(moved);
  EXPECT_EQ(move_assigned.Compare(copy.Sub(Q("1"))), 0);
  EXPECT_EQ(move_assigned.format(), QuantityFormat::kDecimalSI);
}

TEST(QuantityTest, StringReparsesToEqualValue) {
  for (const char* text :
       {"1.5", "1.5Gi", "1.1Ki", "-7.99Ei", "1e-12", "9.3e18", "123456789012345678901234567890.1",
        "-0.0000000001", "1.23456789e3", "5.e3", "0.5Ki", "1e100000", "12345678901Ki"}) {
    const Quantity q = Q(text);
    EXPECT_EQ(Q(q.String()).Compare(q), 0) << text;
    EXPECT_EQ(Q(q.CanonicalString()).Compare(q), 0) << text;
    EXPECT_EQ(Q(q.CanonicalString()).CanonicalString(), q.CanonicalString()) << text;
  }
}

}  // namespace
}  // namespace dra::api
