// Shared formats (DNS labels and subdomains, label keys and values, qualified
// names, driver and pool names, UUIDs), sub-validators (node selectors, raw
// extensions, conditions) and ObjectMeta.
#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "api/validation/formats.h"

namespace dra::api::validation {
namespace {

// The messages of apimachinery's format checks (k8s.io/apimachinery/pkg/util/validation
// and pkg/api/validate/content) in full, as a client sees them.
const std::string kLabel =
    R"x(a lowercase RFC 1123 label must consist of lower case alphanumeric characters or '-', and must start and end with an alphanumeric character (e.g. 'my-name',  or '123-abc', regex used for validation is '[a-z0-9]([-a-z0-9]*[a-z0-9])?'))x";
const std::string kSub =
    R"x(a lowercase RFC 1123 subdomain must consist of lower case alphanumeric characters, '-' or '.', and must start and end with an alphanumeric character (e.g. 'example.com', regex used for validation is '[a-z0-9]([-a-z0-9]*[a-z0-9])?(\.[a-z0-9]([-a-z0-9]*[a-z0-9])?)*'))x";
const std::string kSubCi =
    R"x(an RFC 1123 subdomain must consist of alphanumeric characters, '-' or '.', and must start and end with an alphanumeric character (e.g. 'Example.com', regex used for validation is '[a-z0-9]([-a-z0-9]*[a-z0-9])?(\.[a-z0-9]([-a-z0-9]*[a-z0-9])?)*'))x";
const std::string kCid =
    R"x(a valid C identifier must start with alphabetic character or '_', followed by a string of alphanumeric characters or '_' (e.g. 'my_name',  or 'MY_NAME',  or 'MyName', regex used for validation is '[A-Za-z_][A-Za-z0-9_]*'))x";
const std::string kLkName =
    R"x(name part must consist of alphanumeric characters, '-', '_' or '.', and must start and end with an alphanumeric character (e.g. 'MyName',  or 'my.name',  or '123-abc', regex used for validation is '([A-Za-z0-9][-A-Za-z0-9_.]*)?[A-Za-z0-9]'))x";
const std::string kLk3 =
    R"x(a valid label key must consist of alphanumeric characters, '-', '_' or '.', and must start and end with an alphanumeric character (e.g. 'MyName',  or 'my.name',  or '123-abc', regex used for validation is '([A-Za-z0-9][-A-Za-z0-9_.]*)?[A-Za-z0-9]') with an optional DNS subdomain prefix and '/' (e.g. 'example.com/MyName'))x";
const std::string kLValue =
    R"x(a valid label must be an empty string or consist of alphanumeric characters, '-', '_' or '.', and must start and end with an alphanumeric character (e.g. 'MyValue',  or 'my_value',  or '12345', regex used for validation is '(([A-Za-z0-9][-A-Za-z0-9_.]*)?[A-Za-z0-9])?'))x";

std::vector<std::string> Texts(const FieldErrors& errors) {
  std::vector<std::string> out;
  for (const FieldError& e : errors) out.push_back(e.ToString());
  return out;
}

template <class Fn>
std::vector<std::string> Check(Fn fn) {
  FieldErrors errors;
  fn(errors);
  return Texts(errors);
}

using Strings = std::vector<std::string>;

TEST(PathsTest, ChildIndexKey) {
  EXPECT_EQ(Child("", "spec"), "spec");
  EXPECT_EQ(Child("spec", "devices"), "spec.devices");
  EXPECT_EQ(Index("spec.devices", 3), "spec.devices[3]");
  EXPECT_EQ(Key("x.attributes", "gpu.example.com/model"), "x.attributes[gpu.example.com/model]");
  EXPECT_EQ(ExactKey("x", std::string(100, 'k')), "x[" + std::string(100, 'k') + "]");
}

TEST(PathsTest, LongKeysKeepHeadAndTail) {
  const std::string key = std::string(50, 'a') + std::string(47, 'b');  // 97 bytes
  EXPECT_EQ(Key("x", std::string(96, 'a')), "x[" + std::string(96, 'a') + "]");
  EXPECT_EQ(Key("x", key), "x[" + std::string(47, 'a') + "..." + std::string(46, 'b') + "]");
  EXPECT_EQ(TruncatedKey("x", "abcdefghijklmnopqrstuvwxyz", 10), "x[abcdefg...uvwxyz]");
}

TEST(DnsLabelTest, UtilAndContentTexts) {
  EXPECT_EQ(Check([](FieldErrors& e) { ValidateDnsLabel("gpu-0", "f", e); }), Strings{});
  EXPECT_EQ(Check([](FieldErrors& e) { ValidateDnsLabel("GPU", "f", e); }),
            Strings{R"(f: Invalid value: "GPU": )" + kLabel});
  EXPECT_EQ(Check([](FieldErrors& e) { ValidateDnsLabel("", "f", e); }),
            Strings{R"(f: Invalid value: "": )" + kLabel});
  EXPECT_EQ(Check([](FieldErrors& e) { ValidateDnsLabel("a.b", "f", e); }),
            Strings{R"(f: Invalid value: "a.b": must not contain dots)"});
  const std::string long_label(64, 'a');
  EXPECT_EQ(
      Check([&](FieldErrors& e) { ValidateDnsLabel(long_label, "f", e); }),
      Strings{"f: Invalid value: \"" + long_label + "\": must be no more than 63 characters"});
  EXPECT_EQ(Check([&](FieldErrors& e) { ValidateDnsLabel(long_label, "f", e, true); }),
            Strings{"f: Invalid value: \"" + long_label + "\": must be no more than 63 bytes"});
  const std::string long_bad = std::string(64, 'a') + "_";
  EXPECT_EQ(Check([&](FieldErrors& e) { ValidateDnsLabel(long_bad, "f", e); }),
            (Strings{"f: Invalid value: \"" + long_bad + "\": must be no more than 63 characters",
                     "f: Invalid value: \"" + long_bad + "\": " + kLabel}));
}

TEST(DnsSubdomainTest, UtilContentAndCaseless) {
  EXPECT_EQ(Check([](FieldErrors& e) { ValidateDnsSubdomain("gpu.example.com", "f", e); }),
            Strings{});
  EXPECT_EQ(Check([](FieldErrors& e) { ValidateDnsSubdomain("Example.com", "f", e); }),
            Strings{R"(f: Invalid value: "Example.com": )" + kSub});
  EXPECT_EQ(Check([](FieldErrors& e) { ValidateDnsSubdomain("a..b", "f", e); }),
            Strings{R"(f: Invalid value: "a..b": )" + kSub});
  const std::string long_name(254, 'a');
  EXPECT_EQ(
      Check([&](FieldErrors& e) { ValidateDnsSubdomain(long_name, "f", e); }),
      Strings{"f: Invalid value: \"" + long_name + "\": must be no more than 253 characters"});
  EXPECT_EQ(Check([&](FieldErrors& e) { ValidateDnsSubdomain(long_name, "f", e, true); }),
            Strings{"f: Invalid value: \"" + long_name + "\": must be no more than 253 bytes"});
  EXPECT_EQ(Check([](FieldErrors& e) { ValidateCaselessSubdomain("Example.COM", "f", e); }),
            Strings{});
  EXPECT_EQ(Check([](FieldErrors& e) { ValidateCaselessSubdomain("a_b", "f", e); }),
            Strings{R"(f: Invalid value: "a_b": )" + kSubCi});
}

TEST(LabelKeyTest, Messages) {
  auto check = [](const std::string& v) {
    return Check([&](FieldErrors& e) { ValidateLabelKey(v, "k", e); });
  };
  EXPECT_EQ(check("example.com/My.Name_1"), Strings{});
  EXPECT_EQ(check("a/b/c"), Strings{R"(k: Invalid value: "a/b/c": )" + kLk3});
  EXPECT_EQ(check("/x"), Strings{R"(k: Invalid value: "/x": prefix part must be non-empty)"});
  EXPECT_EQ(check("Bad_/x"), Strings{R"(k: Invalid value: "Bad_/x": prefix part )" + kSub});
  EXPECT_EQ(check("x/"), (Strings{R"(k: Invalid value: "x/": name part must be non-empty)",
                                  R"(k: Invalid value: "x/": )" + kLkName}));
  EXPECT_EQ(check(""), (Strings{R"(k: Invalid value: "": name part must be non-empty)",
                                R"(k: Invalid value: "": )" + kLkName}));
  const std::string long_name(64, 'n');
  EXPECT_EQ(check(long_name), Strings{"k: Invalid value: \"" + long_name +
                                      "\": name part must be no more than 63 bytes"});
  EXPECT_EQ(check("-x"), Strings{R"(k: Invalid value: "-x": )" + kLkName});
  const std::string long_prefix = std::string(254, 'p') + "/x";
  EXPECT_EQ(check(long_prefix), Strings{"k: Invalid value: \"" + long_prefix +
                                        "\": prefix part must be no more than 253 bytes"});
}

TEST(LabelValueTest, Messages) {
  EXPECT_EQ(Check([](FieldErrors& e) { ValidateLabelValue("", "v", e); }), Strings{});
  EXPECT_EQ(Check([](FieldErrors& e) { ValidateLabelValue("my_value.1", "v", e); }), Strings{});
  EXPECT_EQ(Check([](FieldErrors& e) { ValidateLabelValue("-bad", "v", e); }),
            Strings{R"(v: Invalid value: "-bad": )" + kLValue});
  const std::string long_value(64, 'v');
  EXPECT_EQ(Check([&](FieldErrors& e) { ValidateLabelValue(long_value, "v", e); }),
            Strings{"v: Invalid value: \"" + long_value + "\": must be no more than 63 bytes"});
}

TEST(CIdentifierTest, Messages) {
  EXPECT_EQ(Check([](FieldErrors& e) { ValidateCIdentifier("_My_id9", "c", e); }), Strings{});
  EXPECT_EQ(Check([](FieldErrors& e) { ValidateCIdentifier("1abc", "c", e); }),
            Strings{R"(c: Invalid value: "1abc": )" + kCid});
  const std::string long_id(33, 'a');
  EXPECT_EQ(Check([&](FieldErrors& e) { ValidateCIdentifier(long_id, "c", e); }),
            Strings{"c: Too long: may not be more than 32 bytes"});
}

TEST(DriverNameTest, HandWritten) {
  auto check = [](const std::string& v) {
    return Check([&](FieldErrors& e) { ValidateDriverName(v, "spec.driver", e); });
  };
  EXPECT_EQ(check("GPU.Example.com"), Strings{});  // upper case is only warned about
  // Required and nothing else (ValidateCSIDriverName, k8s.io/kubernetes v1.37.2).
  EXPECT_EQ(check(""), Strings{"spec.driver: Required value"});
  EXPECT_EQ(check("bad_Name"), Strings{R"(spec.driver: Invalid value: "bad_Name": )" + kSub});
  EXPECT_EQ(check(std::string(64, 'a')),
            Strings{"spec.driver: Too long: may not be more than 63 bytes"});
}

TEST(DriverNameTest, Declarative) {
  auto check = [](const std::string& v) {
    return Check([&](FieldErrors& e) { ValidateDriverNameDeclarative(v, "d", e); });
  };
  EXPECT_EQ(check(""), Strings{"d: Required value"});
  EXPECT_EQ(check("Gpu.Example.com"), Strings{});
  EXPECT_EQ(check("bad_Name"), Strings{R"(d: Invalid value: "bad_Name": )" + kSubCi});
  EXPECT_EQ(check(std::string(64, 'a')),
            Strings{"d: Too long: may not be more than 63 characters"});
}

TEST(PoolNameTest, HandWrittenReportsSegments) {
  auto check = [](const std::string& v) {
    return Check([&](FieldErrors& e) { ValidatePoolName(v, "p", e); });
  };
  EXPECT_EQ(check("node-1/pool.a"), Strings{});
  EXPECT_EQ(check(""), Strings{"p: Required value"});
  EXPECT_EQ(check("a//B"),
            (Strings{R"(p: Invalid value: "": )" + kSub, R"(p: Invalid value: "B": )" + kSub}));
  const std::string long_segment(254, 'a');
  EXPECT_EQ(check(long_segment), (Strings{"p: Too long: may not be more than 253 bytes",
                                          "p: Invalid value: \"" + long_segment +
                                              "\": must be no more than 253 characters"}));
}

TEST(PoolNameTest, DeclarativeNumbersSegments) {
  auto check = [](const std::string& v) {
    return Check([&](FieldErrors& e) { ValidatePoolNameDeclarative(v, "p", e); });
  };
  EXPECT_EQ(check("a/b"), Strings{});
  EXPECT_EQ(check(""), Strings{"p: Required value"});
  EXPECT_EQ(check("a//b"), Strings{R"(p: Invalid value: "a//b": segment 1: must not be empty)"});
  EXPECT_EQ(check("a/B"), Strings{R"(p: Invalid value: "B": segment 1: )" + kSub});
}

TEST(QualifiedNameTest, HandWritten) {
  auto check = [](const std::string& v) {
    return Check([&](FieldErrors& e) { ValidateQualifiedName(v, "d.attributes", e); });
  };
  EXPECT_EQ(check("model"), Strings{});
  EXPECT_EQ(check("Gpu.Example.com/model"), Strings{});
  EXPECT_EQ(check("/x"),
            Strings{R"(d.attributes: Invalid value: "": the domain must not be empty)"});
  EXPECT_EQ(check("x/"), Strings{R"(d.attributes: Invalid value: "": the name must not be empty)"});
  EXPECT_EQ(check("1abc"), Strings{R"(d.attributes: Invalid value: "1abc": )" + kCid});
  EXPECT_EQ(check("bad_domain/x-y"),
            (Strings{R"(d.attributes: Invalid value: "bad_domain": )" + kSub,
                     R"(d.attributes: Invalid value: "x-y": )" + kCid}));
  EXPECT_EQ(check("a/b/c"), Strings{});  // upstream gap, kept
  EXPECT_EQ(check(std::string(64, 'a') + "/x"),
            Strings{"d.attributes: Too long: may not be more than 63 bytes"});
}

TEST(FullyQualifiedNameTest, HandWrittenAndDeclarative) {
  const std::string no_slash =
      "a fully qualified name must be a domain and a name separated by a slash";
  EXPECT_EQ(Check([](FieldErrors& e) { ValidateFullyQualifiedName("model", "m", e); }),
            Strings{R"(m: Invalid value: "model": )" + no_slash});
  EXPECT_EQ(Check([](FieldErrors& e) { ValidateFullyQualifiedName("Example.com/x", "m", e); }),
            Strings{});
  EXPECT_EQ(
      Check([](FieldErrors& e) { ValidateFullyQualifiedNameDeclarative("Example.com/x", "m", e); }),
      Strings{R"(m: Invalid value: "Example.com": prefix: )" + kSub});
  EXPECT_EQ(Check([](FieldErrors& e) { ValidateFullyQualifiedNameDeclarative("/x", "m", e); }),
            Strings{R"(m: Invalid value: "": prefix must not be empty)"});
  EXPECT_EQ(Check([](FieldErrors& e) { ValidateFullyQualifiedNameDeclarative("a.com/", "m", e); }),
            Strings{R"(m: Invalid value: "": name must not be empty)"});
  EXPECT_EQ(Check([](FieldErrors& e) { ValidateFullyQualifiedNameDeclarative("model", "m", e); }),
            Strings{R"(m: Invalid value: "model": )" + no_slash});
  FieldErrors errors;
  ValidateFullyQualifiedName("model", "m", errors);
  EXPECT_EQ(errors.at(0).origin, "format=k8s-resource-fully-qualified-name");
}

TEST(UuidTest, LowercaseCanonicalOnly) {
  auto check = [](const std::string& v) {
    return Check([&](FieldErrors& e) { ValidateUuid(v, "u", e); });
  };
  EXPECT_EQ(check("123e4567-e89b-12d3-a456-426614174000"), Strings{});
  EXPECT_EQ(
      check("123E4567-E89B-12D3-A456-426614174000"),
      Strings{
          R"(u: Invalid value: "123E4567-E89B-12D3-A456-426614174000": must be a lowercase UUID in 8-4-4-4-12 format)"});
  EXPECT_EQ(
      check("123e4567e89b12d3a456426614174000"),
      Strings{
          R"(u: Invalid value: "123e4567e89b12d3a456426614174000": must be a lowercase UUID in 8-4-4-4-12 format)"});
}

TEST(ExtendedResourceNameTest, Messages) {
  auto check = [](const std::string& v) {
    return Check([&](FieldErrors& e) { ValidateExtendedResourceName(v, "x", e); });
  };
  EXPECT_EQ(check("example.com/gpu"), Strings{});
  EXPECT_EQ(
      check("gpu"),
      Strings{
          R"(x: Invalid value: "gpu": a name must be a domain-prefixed path, such as 'example.com/my-prop')"});
  EXPECT_EQ(
      check("kubernetes.io/gpu"),
      Strings{R"(x: Invalid value: "kubernetes.io/gpu": must not have "kubernetes.io/" domain)"});
  EXPECT_EQ(check("requests.a/b"),
            Strings{R"(x: Invalid value: "requests.a/b": must not have "requests." prefix)"});
  EXPECT_EQ(check("example.com/a/b"), Strings{R"(x: Invalid value: "example.com/a/b": )" + kLk3});
}

TEST(UnionTest, Messages) {
  const std::vector<std::string_view> members = {"a", "b", "c"};
  EXPECT_EQ(UnionNoneSet("p", members).ToString(),
            R"(p: Invalid value: "": must specify one of: `a`, `b`, `c`)");
  EXPECT_EQ(UnionSeveralSet("p", {"a", "c"}, members).ToString(),
            R"(p: Invalid value: "{a, c}": must specify exactly one of: `a`, `b`, `c`)");
}

TEST(DeviceTaintTest, KeyValueAndEffect) {
  DeviceTaint taint{"example.com/x", "-bad", "", {}};
  EXPECT_EQ(Check([&](FieldErrors& e) { ValidateDeviceTaintKeyAndValue(taint, "t", e); }),
            Strings{R"(t.value: Invalid value: "-bad": )" + kLValue});
  taint = DeviceTaint{"", "", "", {}};
  EXPECT_EQ(Check([&](FieldErrors& e) { ValidateDeviceTaintKeyAndValue(taint, "t", e); }),
            (Strings{R"(t.key: Invalid value: "": name part must be non-empty)",
                     R"(t.key: Invalid value: "": )" + kLkName}));
  EXPECT_EQ(Check([](FieldErrors& e) { ValidateDeviceTaintEffect("", "t.effect", e); }),
            Strings{"t.effect: Required value"});
  EXPECT_EQ(
      Check([](FieldErrors& e) { ValidateDeviceTaintEffect("Bad", "t.effect", e); }),
      Strings{
          R"(t.effect: Unsupported value: "Bad": supported values: "NoExecute", "NoSchedule", "None")"});
  EXPECT_EQ(Check([](FieldErrors& e) { ValidateDeviceTaintEffect("NoExecute", "t.effect", e); }),
            Strings{});
}

NodeSelectorRequirement Req(std::string key, std::string op, List<std::string> values) {
  return NodeSelectorRequirement{std::move(key), std::move(op), std::move(values)};
}

TEST(NodeSelectorTest, NeedsATerm) {
  EXPECT_EQ(
      Check([](FieldErrors& e) { ValidateNodeSelector(NodeSelector{}, "s", e); }),
      Strings{"s.nodeSelectorTerms: Required value: must have at least one node selector term"});
}

TEST(NodeSelectorTest, MatchExpressions) {
  NodeSelector selector;
  NodeSelectorTerm term;
  term.match_expressions = {Req("a", "In", {}), Req("b", "Exists", {"x"}), Req("c", "Gt", {}),
                            Req("d", "Near", {}), Req("-e", "In", {"-v"})};
  selector.node_selector_terms = {term};
  const std::string p = "s.nodeSelectorTerms[0].matchExpressions";
  EXPECT_EQ(
      Check([&](FieldErrors& e) { ValidateNodeSelector(selector, "s", e); }),
      (Strings{
          p + "[0].values: Required value: must be specified when `operator` is 'In' or 'NotIn'",
          p + "[1].values: Forbidden: may not be specified when `operator` is 'Exists' or "
              "'DoesNotExist'",
          p + "[2].values: Required value: must be specified single value when `operator` is "
              "'Lt' or 'Gt'",
          p + R"([3].operator: Invalid value: "Near": not a valid selector operator)",
          p + R"([4].key: Invalid value: "-e": )" + kLkName,
          p + R"([4].values[0]: Invalid value: "-v": )" + kLValue,
      }));
}

TEST(NodeSelectorTest, MatchFields) {
  NodeSelector selector;
  NodeSelectorTerm term;
  term.match_fields = {Req("metadata.name", "In", {"a", "b"}), Req("metadata.name", "Exists", {}),
                       Req("spec.x", "In", {"a"}), Req("metadata.name", "NotIn", {"Bad"})};
  selector.node_selector_terms = {term};
  const std::string p = "s.nodeSelectorTerms[0].matchFields";
  EXPECT_EQ(Check([&](FieldErrors& e) { ValidateNodeSelector(selector, "s", e); }),
            (Strings{
                p + "[0].values: Required value: must be only one value when `operator` is 'In' or "
                    "'NotIn' for node field selector",
                p + R"([1].operator: Invalid value: "Exists": not a valid selector operator)",
                p + R"([2].key: Invalid value: "spec.x": not a valid field selector key)",
                p + R"([3].values[0]: Invalid value: "Bad": )" + kSub,
            }));
}

TEST(RawExtensionTest, RequiredSizeAndObject) {
  auto check = [](const std::string& raw, long max = 10240) {
    return Check([&](FieldErrors& e) { ValidateRawExtension(RawExtension{raw}, "p", max, e); });
  };
  EXPECT_EQ(check(R"({"a": [1, 2]})"), Strings{});
  EXPECT_EQ(check(""), Strings{"p: Required value"});
  EXPECT_EQ(check(" null "), Strings{"p: Required value"});
  EXPECT_EQ(check("[1]"),
            Strings{R"(p: Invalid value: "<value omitted>": must be a valid JSON object)"});
  EXPECT_EQ(check("\"x\""),
            Strings{R"(p: Invalid value: "<value omitted>": must be a valid JSON object)"});
  const std::string big = "{\"a\":\"" + std::string(10240, 'x') + "\"}";
  EXPECT_EQ(check(big), Strings{"p: Too long: may not be more than 10240 bytes"});
  EXPECT_EQ(check(big, -1), Strings{});
}

// Expected messages were produced by Go's encoding/json.Unmarshal.
TEST(RawExtensionTest, GoJsonSyntaxErrors) {
  auto message = [](const std::string& raw) {
    FieldErrors errors;
    ValidateRawExtension(RawExtension{raw}, "p", -1, errors);
    const std::string prefix =
        R"(p: Invalid value: "<value omitted>": error parsing data as JSON: )";
    if (errors.size() != 1) return std::string("<" + std::to_string(errors.size()) + " errors>");
    const std::string text = errors[0].ToString();
    return text.compare(0, prefix.size(), prefix) == 0 ? text.substr(prefix.size()) : text;
  };
  EXPECT_EQ(message("x"), "invalid character 'x' looking for beginning of value");
  EXPECT_EQ(message("{"), "unexpected end of JSON input");
  EXPECT_EQ(message("  "), "unexpected end of JSON input");
  EXPECT_EQ(message("\""), "unexpected end of JSON input");
  EXPECT_EQ(message(R"({"a" 1})"), "invalid character '1' after object key");
  EXPECT_EQ(message(R"({"a":1 "b"})"), "invalid character '\"' after object key:value pair");
  EXPECT_EQ(message("[1 2]"), "invalid character '2' after array element");
  EXPECT_EQ(message("\"a\x01\""), R"(invalid character '\x01' in string literal)");
  EXPECT_EQ(message(R"("\q")"), "invalid character 'q' in string escape code");
  EXPECT_EQ(message(R"("\u12g4")"), R"(invalid character 'g' in \u hexadecimal character escape)");
  EXPECT_EQ(message("-x"), "invalid character 'x' in numeric literal");
  EXPECT_EQ(message("1.x"), "invalid character 'x' after decimal point in numeric literal");
  EXPECT_EQ(message("1ex"), "invalid character 'x' in exponent of numeric literal");
  EXPECT_EQ(message("tru"), "invalid character ' ' in literal true (expecting 'e')");
  EXPECT_EQ(message("trx"), "invalid character 'x' in literal true (expecting 'u')");
  EXPECT_EQ(message("nul!"), "invalid character '!' in literal null (expecting 'l')");
  EXPECT_EQ(message("{} x"), "invalid character 'x' after top-level value");
  EXPECT_EQ(message("{,}"), "invalid character ',' looking for beginning of object key string");
  EXPECT_EQ(message(R"({"a":1,})"),
            "invalid character '}' looking for beginning of object key string");
  EXPECT_EQ(message("[1,]"), "invalid character ']' looking for beginning of value");
  EXPECT_EQ(message("01"), "invalid character '1' after top-level value");
  EXPECT_EQ(message("\xff"), "invalid character '\xC3\xBF' looking for beginning of value");
  EXPECT_EQ(message("'"), R"(invalid character '\'' looking for beginning of value)");
  EXPECT_EQ(message(std::string(10001, '[') + std::string(10001, ']')),
            "invalid character '[' exceeded max depth");
}

Condition GoodCondition(std::string type) {
  Condition c;
  c.type = std::move(type);
  c.status = "True";
  c.last_transition_time = Time::FromUnix(1);
  c.reason = "Ok";
  return c;
}

TEST(ConditionsTest, Rules) {
  List<Condition> conditions = {GoodCondition("Ready"), GoodCondition("Ready"), Condition{}};
  conditions[2].observed_generation = -1;
  Condition bad = GoodCondition("a/b/c");
  bad.status = "Maybe";
  bad.reason = "1bad";
  bad.message = std::string(32 * 1024 + 1, 'm');
  conditions.push_back(bad);
  Condition long_reason = GoodCondition("Long");
  long_reason.reason = std::string(1025, 'R');
  conditions.push_back(long_reason);
  const std::string reason_msg =
      "a condition reason must start with alphabetic character, optionally followed by a string "
      "of alphanumeric characters or '_,:', and must end with an alphanumeric character or '_' "
      "(e.g. 'my_name',  or 'MY_NAME',  or 'MyName',  or 'ReasonA,ReasonB',  or "
      "'ReasonA:ReasonB', regex used for validation is '[A-Za-z]([A-Za-z0-9_,:]*[A-Za-z0-9_])?')";
  EXPECT_EQ(
      Check([&](FieldErrors& e) { ValidateConditions(conditions, "status.conditions", e); }),
      (Strings{
          R"(status.conditions[1]: Duplicate value: "Ready")",
          "status.conditions[2].type: Required value: is required",
          "status.conditions[2].status: Required value",
          R"(status.conditions[2].observedGeneration: Invalid value: -1: must be greater than or equal to zero)",
          "status.conditions[2].lastTransitionTime: Required value",
          "status.conditions[2].reason: Required value",
          R"(status.conditions[3].type: Invalid value: "a/b/c": )" + kLk3,
          R"(status.conditions[3].status: Unsupported value: "Maybe": supported values: "False", "True", "Unknown")",
          R"(status.conditions[3].reason: Invalid value: "1bad": )" + reason_msg,
          "status.conditions[3].message: Too long: may not be more than 32768 bytes",
          "status.conditions[4].reason: Too long: may not be more than 1024 bytes",
      }));
}

ObjectMeta Meta(std::string name) {
  ObjectMeta meta;
  meta.name = std::move(name);
  return meta;
}

TEST(ObjectMetaTest, NameRules) {
  auto check = [](const ObjectMeta& meta, bool namespaced = false, bool content = false) {
    return Check([&](FieldErrors& e) { ValidateObjectMeta(meta, namespaced, content, e); });
  };
  EXPECT_EQ(check(Meta("s1")), Strings{});
  EXPECT_EQ(check(Meta("")),
            Strings{"metadata.name: Required value: name or generateName is required"});
  EXPECT_EQ(check(Meta("Bad")), Strings{R"(metadata.name: Invalid value: "Bad": )" + kSub});
  ObjectMeta generated = Meta("abc-x7k2b");
  generated.generate_name = "abc-";
  EXPECT_EQ(check(generated), Strings{});
  // The trailing-dash mask replaces two characters (upstream quirk).
  generated.generate_name = "ab_-";
  EXPECT_EQ(check(generated), Strings{});
  generated.generate_name = "Ab-";
  EXPECT_EQ(check(generated), Strings{R"(metadata.generateName: Invalid value: "Ab-": )" + kSub});
  ObjectMeta unnamed;
  unnamed.generate_name = "x-";
  EXPECT_EQ(
      check(unnamed, false, true),
      (Strings{
          R"(metadata.name: Internal error: generateName was specified ("x-"), but no name was generated)",
          "metadata.name: Required value: name or generateName is required"}));
  EXPECT_EQ(check(Meta("Bad"), false, true),
            Strings{R"(metadata.name: Invalid value: "Bad": )" + kSub});
  EXPECT_EQ(check(Meta(std::string(254, 'a')), false, true),
            Strings{"metadata.name: Invalid value: \"" + std::string(254, 'a') +
                    "\": must be no more than 253 bytes"});
}

TEST(ObjectMetaTest, Namespace) {
  ObjectMeta meta = Meta("c1");
  EXPECT_EQ(Check([&](FieldErrors& e) { ValidateObjectMeta(meta, true, false, e); }),
            Strings{"metadata.namespace: Required value"});
  meta.namespace_ = "Ns";
  EXPECT_EQ(Check([&](FieldErrors& e) { ValidateObjectMeta(meta, true, false, e); }),
            Strings{R"(metadata.namespace: Invalid value: "Ns": )" + kLabel});
  EXPECT_EQ(Check([&](FieldErrors& e) { ValidateObjectMeta(meta, false, false, e); }),
            Strings{"metadata.namespace: Forbidden: not allowed on this type"});
}

TEST(ObjectMetaTest, LabelsAnnotationsGeneration) {
  ObjectMeta meta = Meta("s1");
  meta.generation = -1;
  meta.labels = {{"-k", "v"}, {"k", "-v"}};
  meta.annotations = {{"Example.COM/Key", "x"}, {"bad key", "y"}};
  EXPECT_EQ(Check([&](FieldErrors& e) { ValidateObjectMeta(meta, false, false, e); }),
            (Strings{
                "metadata.generation: Invalid value: -1: must be greater than or equal to 0",
                R"(metadata.labels: Invalid value: "-k": )" + kLkName,
                R"(metadata.labels: Invalid value: "-v": )" + kLValue,
                R"(metadata.annotations: Invalid value: "bad key": )" + kLkName,
            }));
  ObjectMeta big = Meta("s1");
  big.annotations = {{"a", std::string(256 * 1024, 'x')}};
  EXPECT_EQ(Check([&](FieldErrors& e) { ValidateObjectMeta(big, false, false, e); }),
            Strings{"metadata.annotations: Too long: may not be more than 262144 bytes"});
}

TEST(ObjectMetaTest, OwnerReferences) {
  ObjectMeta meta = Meta("s1");
  OwnerReference empty;
  OwnerReference event{"v1", "Event", "e", "u1", std::nullopt, std::nullopt};
  OwnerReference first{"v1", "Node", "n1", "u2", true, std::nullopt};
  OwnerReference second{"apps/v1", "ReplicaSet", "r", "u3", true, true};
  meta.owner_references = {empty, event, first, second};
  EXPECT_EQ(
      Check([&](FieldErrors& e) { ValidateObjectMeta(meta, false, false, e); }),
      // validateOwnerReference of k8s.io/apimachinery v0.37.2
      // (pkg/api/validation/objectmeta.go): indexed paths, Required for
      // empty fields.
      (Strings{
          "metadata.ownerReferences[0].apiVersion: Required value: must not be empty",
          "metadata.ownerReferences[0].kind: Required value: must not be empty",
          "metadata.ownerReferences[0].name: Required value: must not be empty",
          "metadata.ownerReferences[0].uid: Required value: must not be empty",
          R"(metadata.ownerReferences[1]: Invalid value: {"apiVersion":"v1","kind":"Event","name":"e","uid":"u1"}: /v1, Kind=Event is disallowed from being an owner)",
          R"(metadata.ownerReferences: Invalid value: [{"apiVersion":"","kind":"","name":"","uid":""},{"apiVersion":"v1","kind":"Event","name":"e","uid":"u1"},{"apiVersion":"v1","kind":"Node","name":"n1","uid":"u2","controller":true},{"apiVersion":"apps/v1","kind":"ReplicaSet","name":"r","uid":"u3","controller":true,"blockOwnerDeletion":true}]: Only one reference can have Controller set to true. Found "true" in references for Node/n1 and ReplicaSet/r)",
      }));
}

TEST(ObjectMetaTest, Finalizers) {
  ObjectMeta meta = Meta("s1");
  meta.finalizers = {"bad finalizer", "custom", "orphan", "foregroundDeletion", "example.com/ok"};
  EXPECT_EQ(
      Check([&](FieldErrors& e) { ValidateObjectMeta(meta, false, false, e); }),
      (Strings{
          R"(metadata.finalizers: Invalid value: "bad finalizer": )" + kLkName,
          R"(metadata.finalizers: Invalid value: ["bad finalizer","custom","orphan","foregroundDeletion","example.com/ok"]: finalizer orphan and foregroundDeletion cannot be both set)",
          R"(metadata.finalizers[0]: Invalid value: "bad finalizer": name is neither a standard finalizer name nor is it fully qualified)",
          R"(metadata.finalizers[1]: Invalid value: "custom": name is neither a standard finalizer name nor is it fully qualified)",
      }));
}

TEST(ObjectMetaTest, ManagedFields) {
  ObjectMeta meta = Meta("s1");
  ManagedFieldsEntry entry;
  entry.operation = "Patch";
  entry.fields_type = "FieldsV2";
  entry.manager = std::string(129, 'm');
  meta.managed_fields = {entry};
  EXPECT_EQ(
      Check([&](FieldErrors& e) { ValidateObjectMeta(meta, false, false, e); }),
      (Strings{
          R"(metadata.managedFields[0].operation: Invalid value: "Patch": must be `Apply` or `Update`)",
          R"(metadata.managedFields[0].fieldsType: Invalid value: "FieldsV2": must be `FieldsV1`)",
          "metadata.managedFields[0].manager: Too long: may not be more than 128 bytes",
      }));
}

TEST(ObjectMetaUpdateTest, ImmutableFields) {
  ObjectMeta old = Meta("s1");
  old.uid = "u1";
  old.generation = 3;
  old.creation_timestamp = Time::FromUnix(1785000000);
  ObjectMeta meta = old;
  EXPECT_EQ(Check([&](FieldErrors& e) { ValidateObjectMetaUpdate(meta, old, e); }), Strings{});
  meta.name = "s2";
  meta.namespace_ = "ns";
  meta.uid = "u2";
  meta.generation = 2;
  meta.creation_timestamp = Time::FromUnix(1785000001);
  meta.deletion_timestamp = Time::FromUnix(1785000002);
  meta.deletion_grace_period_seconds = 30;
  EXPECT_EQ(
      Check([&](FieldErrors& e) { ValidateObjectMetaUpdate(meta, old, e); }),
      (Strings{
          "metadata.generation: Invalid value: 2: must not be decremented",
          R"(metadata.name: Invalid value: "s2": field is immutable)",
          R"(metadata.namespace: Invalid value: "ns": field is immutable)",
          R"(metadata.uid: Invalid value: "u2": field is immutable)",
          R"(metadata.creationTimestamp: Invalid value: "2026-07-25T17:20:01Z": field is immutable)",
          R"(metadata.deletionTimestamp: Invalid value: "2026-07-25T17:20:02Z": field is immutable)",
          "metadata.deletionGracePeriodSeconds: Invalid value: 30: field is immutable",
      }));
  ObjectMeta cleared = old;
  cleared.creation_timestamp = Time{};
  EXPECT_EQ(Check([&](FieldErrors& e) { ValidateObjectMetaUpdate(cleared, old, e); }),
            Strings{"metadata.creationTimestamp: Invalid value: null: field is immutable"});
}

TEST(ObjectMetaUpdateTest, NoNewFinalizersWhileDeleting) {
  ObjectMeta old = Meta("s1");
  old.deletion_timestamp = Time::FromUnix(5);
  old.finalizers = {"example.com/a"};
  ObjectMeta meta = old;
  meta.finalizers = {"example.com/a", "example.com/c", "example.com/b"};
  EXPECT_EQ(
      Check([&](FieldErrors& e) { ValidateObjectMetaUpdate(meta, old, e); }),
      Strings{
          R"(metadata.finalizers: Forbidden: no new finalizers can be added if the object is being deleted, found new finalizers []string{"example.com/b", "example.com/c"})"});
}

TEST(ObjectMetaUpdateTest, RevalidatesLabelsAndLegacyFinalizers) {
  ObjectMeta old = Meta("s1");
  ObjectMeta meta = old;
  meta.labels = {{"k", "-v"}};
  meta.finalizers = {"custom"};
  EXPECT_EQ(
      Check([&](FieldErrors& e) { ValidateObjectMetaUpdate(meta, old, e); }),
      (Strings{
          R"(metadata.labels: Invalid value: "-v": )" + kLValue,
          R"(metadata.finalizers[0]: Invalid value: "custom": name is neither a standard finalizer name nor is it fully qualified)"}));
}

}  // namespace
}  // namespace dra::api::validation
