#include <gtest/gtest.h>

#include <string>

#include "dra/json/value.h"

namespace dra::json {
namespace {

Value Parse(std::string_view text) {
  Result<Value> r = ParseJson(text);
  EXPECT_TRUE(r.ok()) << r.error();
  return r.ok() ? std::move(r).value() : Value();
}

// Expected output is what kubectl -o yaml prints for the JSON: Go's
// json.Marshal, then sigs.k8s.io/yaml v1.6.0's JSONToYAML (go-yaml v2.4.2).
// (Key sets for which go-yaml's order is not transitive, such as x1y, x2y,
// x10y, are left out: kubectl's own order for them varies from run to run.)
TEST(YamlWriterTest, MatchesKubectl) {
  struct Case {
    std::string_view json;
    std::string_view yaml;
  } cases[] = {
      {R"json({"a":"true"})json", "a: \"true\"\n"},
      {R"json({"a":"1"})json", "a: \"1\"\n"},
      {R"json({"a":"null"})json", "a: \"null\"\n"},
      {R"json({"a":""})json", "a: \"\"\n"},
      {R"json({"a":"~"})json", "a: \"~\"\n"},
      {R"json({"a":"1.5"})json", "a: \"1.5\"\n"},
      {R"json({"a":"2001-01-01"})json", "a: \"2001-01-01\"\n"},
      {R"json({"a":"2026-07-24T04:09:49Z"})json", "a: \"2026-07-24T04:09:49Z\"\n"},
      {R"json({"a":"1:20"})json", "a: \"1:20\"\n"},
      {R"json({"a":"0x10"})json", "a: \"0x10\"\n"},
      {R"json({"a":"y"})json", "a: \"y\"\n"},
      {R"json({"a":"<<"})json", "a: <<\n"},
      {R"json({"a":"- a"})json", "a: '- a'\n"},
      {R"json({"a":": a"})json", "a: ': a'\n"},
      {R"json({"a":"#a"})json", "a: '#a'\n"},
      {R"json({"a":"a #b"})json", "a: 'a #b'\n"},
      {R"json({"a":"a: b"})json", "a: 'a: b'\n"},
      {R"json({"a":" lead"})json", "a: ' lead'\n"},
      {R"json({"a":"trail "})json", "a: 'trail '\n"},
      {R"json({"a":"key:"})json", "a: 'key:'\n"},
      {R"json({"a":"@x"})json", "a: '@x'\n"},
      {R"json({"a":"`x"})json", "a: '`x'\n"},
      {R"json({"a":"%x"})json", "a: '%x'\n"},
      {R"json({"a":"a\tb"})json", "a: \"a\\tb\"\n"},
      {R"json({"a":"it's"})json", "a: it's\n"},
      {R"json({"a":"'q'"})json", "a: '''q'''\n"},
      {R"json({"a":"\"q\""})json", "a: '\"q\"'\n"},
      {R"json({"a":"a\nb"})json", "a: |-\n  a\n  b\n"},
      {R"json({"a":"a\n"})json", "a: |\n  a\n"},
      {R"json({"a":"a\n\n"})json", "a: |+\n  a\n\n"},
      {R"json({"a":"\n"})json", "a: |2+\n\n"},
      {R"json({"a":"\na"})json", "a: |2-\n\n  a\n"},
      {R"json({"a":" a\nb"})json", "a: |2-\n   a\n  b\n"},
      {R"json({"a":"a \nb"})json", "a: \"a \\nb\"\n"},
      {R"json({"a":"a\n b"})json", "a: |-\n  a\n   b\n"},
      {R"json({"a":"\u00e9"})json",
       "a: \xc3"
       "\xa9"
       "\n"},
      {R"json({"a":"😀"})json", "a: \"\\U0001F600\"\n"},
      {R"json({"a":"\u00a0"})json",
       "a: \xc2"
       "\xa0"
       "\n"},
      {R"json({"a":"\u2028"})json",
       "a: '\xe2"
       "\x80"
       "\xa8"
       "'\n"},
      {R"json({"a":"\u0000"})json", "a: \"\\0\"\n"},
      {R"json({"a":"\u001b"})json", "a: \"\\e\"\n"},
      {R"json({"a":"a\\b"})json", "a: a\\b\n"},
      {R"json({"a":"---"})json", "a: '---'\n"},
      {R"json({"a":"--- x"})json", "a: '--- x'\n"},
      {R"json({"a":"k8s.io/x"})json", "a: k8s.io/x\n"},
      {R"json({"a":"http://x:80/y"})json", "a: http://x:80/y\n"},
      {R"json({"a":"[a"})json", "a: '[a'\n"},
      {R"json({"a":"a[b"})json", "a: a[b\n"},
      {R"json({"a":"{"})json", "a: '{'\n"},
      {R"json({"a":"a,b"})json", "a: a,b\n"},
      {R"json({"a":"*a"})json", "a: '*a'\n"},
      {R"json({"a":"&a"})json", "a: '&a'\n"},
      {R"json({"a":"!a"})json", "a: '!a'\n"},
      {R"json({"a":"|a"})json", "a: '|a'\n"},
      {R"json({"a":">a"})json", "a: '>a'\n"},
      {R"json({"n":0})json", "\"n\": 0\n"},
      {R"json({"n":-0})json", "\"n\": 0\n"},
      {R"json({"n":1.0})json", "\"n\": 1\n"},
      {R"json({"n":1.5})json", "\"n\": 1.5\n"},
      {R"json({"n":1e3})json", "\"n\": 1000\n"},
      {R"json({"n":1e21})json", "\"n\": 1e+21\n"},
      {R"json({"n":1e-7})json", "\"n\": 1e-07\n"},
      {R"json({"n":1000000})json", "\"n\": 1000000\n"},
      {R"json({"n":1000000.5})json", "\"n\": 1.0000005e+06\n"},
      {R"json({"n":123456.7})json", "\"n\": 123456.7\n"},
      {R"json({"n":12345678901234567890})json", "\"n\": 12345678901234567890\n"},
      {R"json({"n":123456789012345678901234})json", "\"n\": 1.2345678901234569e+23\n"},
      {R"json({"n":1e400})json", "\"n\": 1e400\n"},
      {R"json({"n":0.0001})json", "\"n\": 0.0001\n"},
      {R"json({"n":0.00001})json", "\"n\": 1e-05\n"},
      {R"json({"n":-9223372036854775809})json", "\"n\": -9.223372036854776e+18\n"},
      {R"json({"b":true,"c":false,"d":null})json", "b: true\nc: false\nd: null\n"},
      {R"json({})json", "{}\n"},
      {R"json([])json", "[]\n"},
      {R"json({"a":{}})json", "a: {}\n"},
      {R"json({"a":[]})json", "a: []\n"},
      {R"json([{}])json", "- {}\n"},
      {R"json([[]])json", "- []\n"},
      {R"json("x")json", "x\n"},
      {R"json(1)json", "1\n"},
      {R"json(null)json", "null\n"},
      {R"json([1,[2,3],{"a":1,"b":[4]}])json", "- 1\n- - 2\n  - 3\n- a: 1\n  b:\n  - 4\n"},
      {R"json({"a":[{"b":1,"c":[1,2]},{"d":{"e":"f"}}]})json",
       "a:\n- b: 1\n  c:\n  - 1\n  - 2\n- d:\n    e: f\n"},
      {R"json({"a":[[1,2],[3]]})json", "a:\n- - 1\n  - 2\n- - 3\n"},
      {R"json({"z":1,"a":2,"m":{"y":1,"b":2}})json", "a: 2\nm:\n  b: 2\n  \"y\": 1\nz: 1\n"},
      {R"json({"a10":1,"a9":2,"a_b":3,"ab":4,"B":5,"b":6,"a":7,"A":8,"0":9,"1":10,"10":11,"9":12,"x.y":13,"x-y":14,"x/y":15,"x1y":16,"x10y":17})json",
       "\"0\": 9\n\"1\": 10\n\"9\": 12\n\"10\": 11\nA: 8\nB: 5\na: 7\na_b: 3\na9: 2\na10: 1\nab: "
       "4\nb: 6\nx-y: 14\nx.y: 13\nx/y: 15\nx10y: 17\nx1y: 16\n"},
      {R"json({"a":1,"a":2})json", "a: 2\n"},
      {R"json({"k":"word word word word word word word word word word word word word word word word word word word word word word word word word word word word word word"})json",
       "k: word word word word word word word word word word word word word word word word\n  word "
       "word word word word word word word word word word word word word\n"},
      {R"json({"k":"word word word word word word word word word word word word word word word word word word word word word word word word word word word word word word "})json",
       "k: 'word word word word word word word word word word word word word word word word\n  "
       "word word word word word word word word word word word word word word '\n"},
      {R"json({"k":"wwwwwwwwwwwwwwwwwwwwwwwwwwwwwwwwwwwwwwwwwwwwwwwwwwwwwwwwwwwwwwwwwwwwwwwwwwwwwwwwwwwwwwwwww tail"})json",
       "k: "
       "wwwwwwwwwwwwwwwwwwwwwwwwwwwwwwwwwwwwwwwwwwwwwwwwwwwwwwwwwwwwwwwwwwwwwwwwwwwwwwwwwwwwwwwwww"
       "\n  tail\n"},
      {R"json({"k":"a  ba  ba  ba  ba  ba  ba  ba  ba  ba  ba  ba  ba  ba  ba  ba  ba  ba  ba  ba  ba  ba  ba  ba  ba  ba  ba  ba  ba  ba  b"})json",
       "k: a  ba  ba  ba  ba  ba  ba  ba  ba  ba  ba  ba  ba  ba  ba  ba  ba  ba  ba  ba  ba  ba  "
       "ba  ba  ba  ba  ba  ba  ba  ba  b\n"},
      {R"json({"k":"x x x x x x x x x x x x x x x x x x x x x x x x x x x x x x x x x x x x x x x x x x x x x x x x x x\ny y y y y y y y y y y y y y y y y y y y y y y y y y y y y y y y y y y y y y y y y y y y y y y y y y"})json",
       "k: |-\n  x x x x x x x x x x x x x x x x x x x x x x x x x x x x x x x x x x x x x x x x x "
       "x x x x x x x x x\n  y y y y y y y y y y y y y y y y y y y y y y y y y y y y y y y y y y y "
       "y y y y y y y y y y y y y y y\n"},
      {R"json({"k":"'q q q q q q q q q q q q q q q q q q q q q q q q q q q q q q q q q q q q q q q q q q q q q q q q q q q q q q q q q q q q"})json",
       "k: '''q q q q q q q q q q q q q q q q q q q q q q q q q q q q q q q q q q q q q q\n  q q q "
       "q q q q q q q q q q q q q q q q q q q'\n"},
      {R"json({"k":"\tt t t t t t t t t t t t t t t t t t t t t t t t t t t t t t t t t t t t t t t t t t t t t t t t t t t t t t t t t t t t"})json",
       "k: \"\\tt t t t t t t t t t t t t t t t t t t t t t t t t t t t t t t t t t t t t t\n  t t "
       "t t t t t t t t t t t t t t t t t t t t\"\n"},
      {R"json({"xxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxx":1})json",
       "? "
       "xxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxx"
       "xxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxx\n: 1\n"},
      {R"json({"xxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxx":1})json",
       "xxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxx"
       "xxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxx: 1\n"},
      {R"json({"a\nb":1})json", "? |-\n  a\n  b\n: 1\n"},
      {R"json({"":1})json", "\"\": 1\n"},
      {R"json({"true":1})json", "\"true\": 1\n"},
      {R"json({"metadata":{"name":"gpu-slice","labels":{"app":"x","tier":"1"}},"spec":{"driver":"gpu.example.com","pool":{"name":"pool","generation":1,"resourceSliceCount":1},"devices":[{"name":"gpu-0","attributes":{"model":{"string":"A100"},"index":{"int":0}},"capacity":{"memory":{"value":"80Gi"}}}],"nodeName":"node-1"}})json",
       "metadata:\n  labels:\n    app: x\n    tier: \"1\"\n  name: gpu-slice\nspec:\n  devices:\n  "
       "- attributes:\n      index:\n        int: 0\n      model:\n        string: A100\n    "
       "capacity:\n      memory:\n        value: 80Gi\n    name: gpu-0\n  driver: "
       "gpu.example.com\n  nodeName: node-1\n  pool:\n    generation: 1\n    name: pool\n    "
       "resourceSliceCount: 1\n"},
  };
  for (const Case& c : cases) EXPECT_EQ(ToYaml(Parse(c.json)), c.yaml) << c.json;
}

TEST(YamlWriterTest, InvalidUtf8IsBinary) {
  Value v = Value::Object();
  v.members.push_back({"k", Value::String("\xff\xfe"), {}});
  v.members.push_back({"long", Value::String(std::string(60, '\xff')), {}});
  EXPECT_EQ(ToYaml(v),
            "k: !!binary //4=\n"
            "long: !!binary |\n"
            "  " +
                std::string(70, '/') + "\n" + "  " + std::string(10, '/') + "\n");
}

TEST(YamlWriterTest, ScalarsBuiltInCode) {
  EXPECT_EQ(ToYaml(Value()), "null\n");
  EXPECT_EQ(ToYaml(Value::Bool(false)), "false\n");
  EXPECT_EQ(ToYaml(Value::Number("0x10")), "16\n");
  EXPECT_EQ(ToYaml(Value::Number("1.50")), "1.5\n");
  EXPECT_EQ(ToYaml(Value::String("a\nb\n")), "|\n  a\n  b\n");
}

// Whatever ToYaml writes reads back (through go-yaml's rules) as the same
// tree, with duplicates resolved last-wins and keys in sorted order.
TEST(YamlWriterTest, RoundTripsThroughParseYaml) {
  std::string text =
      R"({"metadata":{"name":"x","annotations":{"a":"true","b":"1.5","c":"- x","d":"a: b",)"
      R"("e":" lead","f":"line1\nline2\n","g":"tab\there","h":"","i":"null","j":"2001-01-01",)"
      R"("k":"it's","l":"'q'","m":"#c","n":"😀","o":"a #b","p":"multi\n\n\nblank","q":"~"}},)"
      R"("spec":{"count":3,"ratio":0.25,"big":12345678901234567890,"list":[[],{},[1,[2]],)"
      R"({"a":null}],"long":")" +
      std::string(200, 'x') + " " + std::string(50, 'y') + R"("}})";
  Value v = Parse(text);
  Result<std::vector<YamlDocument>> back = ParseYaml(ToYaml(v));
  ASSERT_TRUE(back.ok()) << back.error() << "\n" << ToYaml(v);
  // ParseYaml sorts keys by byte value, as json.Marshal of a Go map does.
  EXPECT_EQ(ToJson((*back)[0].root),
            R"({"metadata":{"annotations":{"a":"true","b":"1.5","c":"- x","d":"a: b","e":" lead",)"
            R"("f":"line1\nline2\n","g":"tab\there","h":"","i":"null","j":"2001-01-01","k":"it's",)"
            R"("l":"'q'","m":"#c","n":"😀","o":"a #b","p":"multi\n\n\nblank","q":"~"},"name":"x"},)"
            R"("spec":{"big":12345678901234567890,"count":3,"list":[[],{},[1,[2]],{"a":null}],)"
            R"("long":")" +
                std::string(200, 'x') + " " + std::string(50, 'y') + R"(","ratio":0.25}})");
}

}  // namespace
}  // namespace dra::json
