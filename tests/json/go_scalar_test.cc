#include <gtest/gtest.h>

#include <cmath>
#include <limits>
#include <string>

#include "dra/json/value.h"

namespace dra::json {
namespace {

TEST(Utf8Test, DecodesLikeGo) {
  EXPECT_EQ(DecodeUtf8Rune("a").rune, U'a');
  EXPECT_EQ(DecodeUtf8Rune("é").rune, U'é');
  EXPECT_EQ(DecodeUtf8Rune("é").size, 2u);
  EXPECT_EQ(DecodeUtf8Rune("€x").rune, U'€');
  EXPECT_EQ(DecodeUtf8Rune("😀").size, 4u);
  EXPECT_EQ(DecodeUtf8Rune("😀").rune, U'😀');
  for (std::string_view bad :
       {"\x80", "\xbf", "\xc0\x80", "\xc1\xbf", "\xe0\x80\x80", "\xed\xa0\x80", "\xf0\x80\x80\x80",
        "\xf4\x90\x80\x80", "\xf5", "\xff", "\xe2\x82", "\xc3"}) {
    DecodedRune r = DecodeUtf8Rune(bad);
    EXPECT_EQ(r.rune, 0xFFFDu) << bad;
    EXPECT_EQ(r.size, 1u) << bad;
  }
}

// strconv.FormatFloat(f, 'g', -1, bits).
TEST(GoFloatTest, FormatG) {
  EXPECT_EQ(FormatGoFloatG(0), "0");
  EXPECT_EQ(FormatGoFloatG(-0.0), "-0");
  EXPECT_EQ(FormatGoFloatG(1), "1");
  EXPECT_EQ(FormatGoFloatG(1.5), "1.5");
  EXPECT_EQ(FormatGoFloatG(100000), "100000");
  EXPECT_EQ(FormatGoFloatG(1e6), "1e+06");
  EXPECT_EQ(FormatGoFloatG(1000000.5), "1.0000005e+06");
  EXPECT_EQ(FormatGoFloatG(123456.7), "123456.7");
  EXPECT_EQ(FormatGoFloatG(0.0001), "0.0001");
  EXPECT_EQ(FormatGoFloatG(0.00001), "1e-05");
  EXPECT_EQ(FormatGoFloatG(1e21), "1e+21");
  EXPECT_EQ(FormatGoFloatG(1e100), "1e+100");
  EXPECT_EQ(FormatGoFloatG(5e-324), "5e-324");
  EXPECT_EQ(FormatGoFloatG(0.1), "0.1");
  EXPECT_EQ(FormatGoFloatG(1.2345678901234568e+23), "1.2345678901234569e+23");
  EXPECT_EQ(FormatGoFloatG(std::numeric_limits<double>::infinity()), "+Inf");
  EXPECT_EQ(FormatGoFloatG(-std::numeric_limits<double>::infinity()), "-Inf");
  EXPECT_EQ(FormatGoFloatG(std::nan("")), "NaN");
  EXPECT_EQ(FormatGoFloatG(0.1234567891, 32), "0.12345679");
  EXPECT_EQ(FormatGoFloatG(1e7, 32), "1e+07");
  EXPECT_EQ(FormatGoFloatG(3.4e39, 32), "+Inf");
}

// encoding/json's float encoder.
TEST(GoFloatTest, FormatJson) {
  EXPECT_EQ(*FormatGoJsonFloat(0), "0");
  EXPECT_EQ(*FormatGoJsonFloat(-0.0), "-0");
  EXPECT_EQ(*FormatGoJsonFloat(1.1), "1.1");
  EXPECT_EQ(*FormatGoJsonFloat(1000), "1000");
  EXPECT_EQ(*FormatGoJsonFloat(1e20), "100000000000000000000");
  EXPECT_EQ(*FormatGoJsonFloat(1e21), "1e+21");
  EXPECT_EQ(*FormatGoJsonFloat(0.000001), "0.000001");
  EXPECT_EQ(*FormatGoJsonFloat(1e-7), "1e-7");
  EXPECT_EQ(*FormatGoJsonFloat(1.5e-10), "1.5e-10");
  EXPECT_EQ(*FormatGoJsonFloat(1.2345678901234568e+23), "1.2345678901234569e+23");
  EXPECT_EQ(*FormatGoJsonFloat(5e-324), "5e-324");
  EXPECT_EQ(FormatGoJsonFloat(std::numeric_limits<double>::infinity()).error(),
            "json: unsupported value: +Inf");
  EXPECT_EQ(FormatGoJsonFloat(std::nan("")).error(), "json: unsupported value: NaN");
}

TEST(YamlResolveTest, Types) {
  auto type = [](std::string_view tag, std::string_view text) {
    Result<YamlScalar> r = ResolveYamlScalar(tag, text);
    EXPECT_TRUE(r.ok()) << text;
    return r.ok() ? r->type : YamlScalarType::kString;
  };
  EXPECT_EQ(type("", ""), YamlScalarType::kNull);
  EXPECT_EQ(type("", "off"), YamlScalarType::kBool);
  EXPECT_EQ(type("", "0x7fffffffffffffff"), YamlScalarType::kInt);
  EXPECT_EQ(type("", "0xffffffffffffffff"), YamlScalarType::kUint);
  EXPECT_EQ(type("", "1e3"), YamlScalarType::kFloat);
  EXPECT_EQ(type("", "2001-12-14"), YamlScalarType::kTimestamp);
  EXPECT_EQ(type("", "2001-12-14t21:59:43.10-05:00"), YamlScalarType::kTimestamp);
  EXPECT_EQ(type("", "2001-12-14 21:59:43"), YamlScalarType::kTimestamp);
  EXPECT_EQ(type("", "2001-12-14T21:59:43"), YamlScalarType::kString);  // no zone
  EXPECT_EQ(type("", "2001-02-29"), YamlScalarType::kString);           // no such day
  EXPECT_EQ(type("", "<<"), YamlScalarType::kString);
  EXPECT_EQ(type("tag:yaml.org,2002:str", "1"), YamlScalarType::kString);
  EXPECT_EQ(type("!custom", "1"), YamlScalarType::kString);
  EXPECT_EQ(type("tag:yaml.org,2002:binary", "1"), YamlScalarType::kString);
  Result<YamlScalar> f = ResolveYamlScalar("tag:yaml.org,2002:float", "3");
  EXPECT_EQ(f->type, YamlScalarType::kFloat);
  EXPECT_EQ(f->float_value, 3.0);
  EXPECT_EQ(ResolveYamlScalar("", "-9223372036854775808")->int_value,
            std::numeric_limits<std::int64_t>::min());
  EXPECT_EQ(ResolveYamlScalar("", "0b-101")->int_value, -5);
}

TEST(YamlResolveTest, TagMismatches) {
  EXPECT_EQ(ResolveYamlScalar("tag:yaml.org,2002:int", "abc").error(),
            "cannot decode !!str `abc` as a !!int");
  EXPECT_EQ(ResolveYamlScalar("tag:yaml.org,2002:int", "1.5").error(),
            "cannot decode !!float `1.5` as a !!int");
  EXPECT_EQ(ResolveYamlScalar("tag:yaml.org,2002:bool", "1").error(),
            "cannot decode !!int `1` as a !!bool");
  EXPECT_EQ(ResolveYamlScalar("tag:yaml.org,2002:null", "x").error(),
            "cannot decode !!str `x` as a !!null");
  EXPECT_EQ(ResolveYamlScalar("tag:yaml.org,2002:timestamp", "12").error(),
            "cannot decode !!int `12` as a !!timestamp");
  EXPECT_EQ(ResolveYamlScalar("tag:yaml.org,2002:float", "18446744073709551615").error(),
            "cannot decode !!int `18446744073709551615` as a !!float");
}

std::string YamlValueToJson(const std::string& scalar) {
  Result<std::vector<YamlDocument>> r = ParseYaml("v: " + scalar + "\n");
  if (!r.ok()) return "error: " + r.error();
  return ToJson(*(*r)[0].root.Find("v"));
}

// Expected values are sigs.k8s.io/yaml v1.6.0's YAMLToJSON of "v: <scalar>".
TEST(YamlResolveTest, PlainScalarsConvertAsSigsYaml) {
  struct Case {
    std::string scalar;
    std::string json;
  } cases[] = {
      {"~", "null"},
      {"null", "null"},
      {"Null", "null"},
      {"NULL", "null"},
      {"y", "true"},
      {"Y", "true"},
      {"yes", "true"},
      {"Yes", "true"},
      {"YES", "true"},
      {"n", "false"},
      {"N", "false"},
      {"no", "false"},
      {"No", "false"},
      {"NO", "false"},
      {"true", "true"},
      {"True", "true"},
      {"TRUE", "true"},
      {"false", "false"},
      {"False", "false"},
      {"FALSE", "false"},
      {"on", "true"},
      {"On", "true"},
      {"ON", "true"},
      {"off", "false"},
      {"Off", "false"},
      {"OFF", "false"},
      {"yEs", "\"yEs\""},
      {"nULL", "\"nULL\""},
      {"tRUE", "\"tRUE\""},
      {"0", "0"},
      {"-0", "0"},
      {"+0", "0"},
      {"00", "0"},
      {"007", "7"},
      {"08", "8"},
      {"09", "9"},
      {"0o17", "15"},
      {"0O17", "15"},
      {"0x1F", "31"},
      {"0X1f", "31"},
      {"0x", "\"0x\""},
      {"0b101", "5"},
      {"0B101", "5"},
      {"0b", "\"0b\""},
      {"-0b101", "-5"},
      {"+0b101", "5"},
      {"0b-101", "-5"},
      {"1_000", "1000"},
      {"_1", "\"_1\""},
      {"1__0", "10"},
      {"1_", "1"},
      {"+1", "1"},
      {"-1", "-1"},
      {"+", "\"+\""},
      {"+-1", "\"+-1\""},
      {"9223372036854775807", "9223372036854775807"},
      {"9223372036854775808", "9223372036854775808"},
      {"-9223372036854775808", "-9223372036854775808"},
      {"-9223372036854775809", "-9223372036854776000"},
      {"18446744073709551615", "18446744073709551615"},
      {"18446744073709551616", "18446744073709552000"},
      {"0xFFFFFFFFFFFFFFFF", "18446744073709551615"},
      {"0x10000000000000000", "\"0x10000000000000000\""},
      {"1.0", "1"},
      {"1.10", "1.1"},
      {"-1.5", "-1.5"},
      {"1.", "1"},
      {".5", "0.5"},
      {"-.5", "-0.5"},
      {"+.5", "0.5"},
      {".", "\".\""},
      {".e1", "\".e1\""},
      {".5e3", "500"},
      {".5E-3", "0.0005"},
      {"1e3", "1000"},
      {"1E3", "1000"},
      {"1e+3", "1000"},
      {"1e-3", "0.001"},
      {"1e21", "1e+21"},
      {"1e20", "100000000000000000000"},
      {"123456789012345678901234", "1.2345678901234569e+23"},
      {"1e-7", "1e-7"},
      {"1e-6", "0.000001"},
      {"0.000001", "0.000001"},
      {"0.0000001", "1e-7"},
      {"1e400", "\"1e400\""},
      {"-1e400", "\"-1e400\""},
      {"1e-400", "0"},
      {"-0.0", "-0"},
      {"00.5", "0.5"},
      {"01.5", "1.5"},
      {"1_000.5", "1000.5"},
      {".5_0", "0.5"},
      {"._5", "\"._5\""},
      {"1e1_0", "10000000000"},
      {"inf", "\"inf\""},
      {"nan", "\"nan\""},
      {"12:30", "\"12:30\""},
      {"1:20:30", "\"1:20:30\""},
      {"2001-12-14", "\"2001-12-14\""},
      {"2001-12-14T21:59:43Z", "\"2001-12-14T21:59:43Z\""},
      {"2001-12-14T21:59:43", "\"2001-12-14T21:59:43\""},
      {"2001-02-29", "\"2001-02-29\""},
      {"2000-02-29", "\"2000-02-29\""},
      {"2001-13-01", "\"2001-13-01\""},
      {"<<", "\"\\u003c\\u003c\""},
      {"=", "\"=\""},
      {"abc", "\"abc\""},
      {"1e", "\"1e\""},
      {"0x1p3", "\"0x1p3\""},
      {"1.2.3", "\"1.2.3\""},
      {"0.1", "0.1"},
      {"5e-324", "5e-324"},
  };
  for (const Case& c : cases) EXPECT_EQ(YamlValueToJson(c.scalar), c.json) << c.scalar;
}

TEST(YamlResolveTest, NonFiniteFloatsAreJsonErrors) {
  struct Case {
    std::string scalar;
    std::string error;
  } cases[] = {
      {".inf", "json: unsupported value: +Inf"}, {"-.inf", "json: unsupported value: -Inf"},
      {".nan", "json: unsupported value: NaN"},  {"+.INF", "json: unsupported value: +Inf"},
      {".NaN", "json: unsupported value: NaN"},
  };
  for (const Case& c : cases) {
    EXPECT_EQ(YamlValueToJson(c.scalar), "error: line 1, column 4: " + c.error) << c.scalar;
  }
}

// Expected keys are sigs.k8s.io/yaml's conversion of non-string keys.
TEST(YamlResolveTest, KeysConvertAsSigsYaml) {
  struct Case {
    std::string key;
    std::string json_key;
  } cases[] = {
      {"1", "1"},       {"0x10", "16"},
      {"1.5", "1.5"},   {"0.1234567891", "0.12345679"},
      {"1e3", "1000"},  {"1e7", "1e+07"},
      {".inf", ".inf"}, {"-.inf", "-.inf"},
      {".nan", ".nan"}, {"yes", "true"},
      {"no", "false"},  {"true", "true"},
      {"~x", "~x"},     {"2001-01-01", "2001-01-01"},
      {"-0", "0"},      {"1_0", "10"},
      {"077", "63"},    {"9223372036854775807", "9223372036854775807"},
  };
  for (const Case& c : cases) {
    Result<std::vector<YamlDocument>> r = ParseYaml(c.key + ": v\n");
    ASSERT_TRUE(r.ok()) << c.key << ": " << r.error();
    const Value& root = (*r)[0].root;
    ASSERT_EQ(root.members.size(), 1u);
    EXPECT_EQ(root.members[0].key, c.json_key) << c.key;
  }
}

}  // namespace
}  // namespace dra::json
