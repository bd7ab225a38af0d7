#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "dra/json/value.h"

namespace dra::json {
namespace {

std::vector<YamlDocument> Parse(std::string_view text, const ParseLimits& limits = {}) {
  Result<std::vector<YamlDocument>> r = ParseYaml(text, limits);
  EXPECT_TRUE(r.ok()) << text << "\n" << (r.ok() ? "" : r.error());
  return r.ok() ? std::move(r).value() : std::vector<YamlDocument>{};
}

// The first document as compact JSON (members in tree order).
std::string Json(std::string_view text) {
  std::vector<YamlDocument> docs = Parse(text);
  return docs.empty() ? "<none>" : ToJson(docs[0].root);
}

std::string Error(std::string_view text, const ParseLimits& limits = {}) {
  Result<std::vector<YamlDocument>> r = ParseYaml(text, limits);
  EXPECT_FALSE(r.ok()) << text;
  return r.ok() ? "" : r.error();
}

TEST(YamlParserTest, Documents) {
  std::vector<YamlDocument> docs = Parse("a: 1\n---\n# only a comment\n---\nb: 2\n--- ~\n---\n");
  ASSERT_EQ(docs.size(), 5u);
  EXPECT_EQ(ToJson(docs[0].root), R"({"a":1})");
  EXPECT_FALSE(docs[0].empty);
  EXPECT_EQ(docs[0].start.line, 1u);
  EXPECT_TRUE(docs[1].empty);
  EXPECT_TRUE(docs[1].root.is_null());
  EXPECT_EQ(docs[2].start.line, 4u);
  EXPECT_EQ(ToJson(docs[2].root), R"({"b":2})");
  EXPECT_FALSE(docs[3].empty);  // an explicit null is content
  EXPECT_TRUE(docs[3].root.is_null());
  EXPECT_TRUE(docs[4].empty);
}

TEST(YamlParserTest, EmptyStreamIsOneEmptyDocument) {
  for (std::string_view text : {"", "# nothing\n", "\n\n"}) {
    std::vector<YamlDocument> docs = Parse(text);
    ASSERT_EQ(docs.size(), 1u);
    EXPECT_TRUE(docs[0].empty);
    EXPECT_TRUE(docs[0].root.is_null());
  }
}

TEST(YamlParserTest, DocumentsNeedSeparators) {
  // yaml-cpp would read these as two documents; libyaml requires "---".
  EXPECT_EQ(Error("- a\nb: c\n"), "line 2, column 1: did not find expected <document start>");
  EXPECT_EQ(Error("[1]\n[2]\n"), "line 2, column 1: did not find expected <document start>");
  EXPECT_EQ(Error("a: 1\n...\nb: 2\n"), "line 3, column 1: did not find expected <document start>");
  EXPECT_EQ(Parse("a: 1\n...\n---\nb: 2\n").size(), 2u);
  EXPECT_EQ(Parse("%YAML 1.1\n---\na: 1\n...\n%YAML 1.1\n---\nb: 2\n").size(), 2u);
}

TEST(YamlParserTest, PositionsAndNoRaw) {
  std::vector<YamlDocument> docs = Parse("---\nmetadata:\n  name: x\nlist:\n- 1\n-   two\n");
  const Value& root = docs[0].root;
  EXPECT_EQ(docs[0].start.line, 1u);
  EXPECT_EQ(root.pos.line, 2u);
  const Member& list = root.members[0];
  EXPECT_EQ(list.key, "list");
  EXPECT_EQ(list.key_pos.line, 4u);
  EXPECT_EQ(list.key_pos.column, 1u);
  EXPECT_EQ(list.value.items[1].pos.line, 6u);
  EXPECT_EQ(list.value.items[1].pos.column, 5u);
  const Member& name = root.members[1].value.members[0];
  EXPECT_EQ(name.key_pos.line, 3u);
  EXPECT_EQ(name.key_pos.column, 3u);
  EXPECT_EQ(name.value.pos.column, 9u);
  EXPECT_FALSE(root.has_raw());
  EXPECT_EQ(root.raw_begin, root.raw_end);
  EXPECT_EQ(name.value.raw_begin, name.value.raw_end);
}

TEST(YamlParserTest, MembersSortedDuplicatesKept) {
  std::vector<YamlDocument> docs = Parse("b: 1\na: 2\nb: 3\nc: {z: 1, m: 2}\n");
  const Value& root = docs[0].root;
  ASSERT_EQ(root.members.size(), 4u);
  EXPECT_EQ(root.members[0].key, "a");
  EXPECT_EQ(root.members[1].key, "b");
  EXPECT_EQ(root.members[1].value.text, "1");
  EXPECT_EQ(root.members[1].key_pos.line, 1u);
  EXPECT_EQ(root.members[2].key, "b");
  EXPECT_EQ(root.members[2].value.text, "3");
  EXPECT_EQ(root.members[2].key_pos.line, 3u);
  EXPECT_EQ(ToJson(root.members[3].value), R"({"m":2,"z":1})");
  // YAML 1.1: y and n are booleans, also as keys.
  EXPECT_EQ(Json("y: 1\nn: 2\n"), R"({"false":2,"true":1})");
}

TEST(YamlParserTest, ScalarStyles) {
  EXPECT_EQ(Json("a: 'yes'\nb: \"1\"\nc: !!str true\nd: ! 12\ne: plain text\n"),
            R"({"a":"yes","b":"1","c":"true","d":"12","e":"plain text"})");
  EXPECT_EQ(Json("lit: |\n  line1\n  line2\nfold: >\n  a\n  b\n\n  c\nkeep: |+\n  x\n\n"
                 "strip: |-\n  y\nind: |2\n    two\n"),
            R"({"fold":"a b\nc\n","ind":"  two\n","keep":"x\n\n","lit":"line1\nline2\n",)"
            R"("strip":"y"})");
  EXPECT_EQ(Json("a: multi\n  line plain\nb: 'it''s'\nc: \"tab\\there \\u263A \\U0001F600\"\n"),
            R"({"a":"multi line plain","b":"it's","c":"tab\there ☺ 😀"})");
  // yaml-cpp decodes \N and \_ to bare bytes; they must come out as U+0085 / U+00A0.
  EXPECT_EQ(Json("a: \"\\N\\_\\L\\P\"\n"), "{\"a\":\"\u0085\u00a0\\u2028\\u2029\"}");
}

TEST(YamlParserTest, Tags) {
  EXPECT_EQ(Json("a: !!int \"12\"\nb: !!float 1\nc: !!bool yes\nd: !!null \"\"\ne: !custom 5\n"
                 "f: !!timestamp 2001-01-01\ng: !custom\n  k: v\n"),
            R"({"a":12,"b":1,"c":true,"d":null,"e":"5","f":"2001-01-01","g":{"k":"v"}})");
  EXPECT_EQ(Json("a: !!binary aGVsbG8=\nb: !!binary |\n  aGVs\n  bG8=\n"),
            R"({"a":"hello","b":"hello"})");
  // Not UTF-8: json.Marshal replaces each invalid byte with U+FFFD.
  EXPECT_EQ(Json("a: !!binary aGVsbG6gd29ybGQ=\n"), "{\"a\":\"helln\uFFFDworld\"}");
  EXPECT_EQ(Error("a: !!binary aGVsbG8\n"),
            "line 1, column 4: !!binary value contains invalid base64 data");
  EXPECT_EQ(Error("a: !!int abc\n"), "line 1, column 4: cannot decode !!str `abc` as a !!int");
  // yaml-cpp drops the tag of an empty node at the end of the stream.
  EXPECT_EQ(Json("a: !!str\n"), R"({"a":""})");
  EXPECT_EQ(Json("a: !!str\nb: 1\n"), R"({"a":"","b":1})");
  EXPECT_EQ(Error("a: !!int\n"), "line 1, column 4: cannot decode !!null `` as a !!int");
}

TEST(YamlParserTest, AnchorsAndAliases) {
  EXPECT_EQ(Json("x: &x hello\nw: *x\n*x : 3\n"), R"({"hello":3,"w":"hello","x":"hello"})");
  EXPECT_EQ(Json("a: &a {b: &b [1, 2]}\nc: *b\nd: *a\n"),
            R"({"a":{"b":[1,2]},"c":[1,2],"d":{"b":[1,2]}})");
  EXPECT_EQ(Json("list:\n- &i {name: a}\n- *i\n"), R"({"list":[{"name":"a"},{"name":"a"}]})");
  EXPECT_EQ(Json("num: &n 1\nk: {*n : x}\n"), R"({"k":{"1":"x"},"num":1})");
  EXPECT_EQ(Error("a: &a [*a]\n"), "line 1, column 8: anchor 'a' value contains itself");
  EXPECT_EQ(Error("a: *unknown\n"), "line 1, column 4: the referenced anchor is not defined");
  EXPECT_EQ(Error("a: &x' 1\n"),
            "line 1, column 4: did not find expected alphabetic or numeric character");
  EXPECT_EQ(Error("x: &x [1]\n*x : 3\n"), "line 2, column 1: invalid map key: a sequence");
}

// go-yaml v2 applies `<<` in place: later keys (explicit or merged) win, and
// a sequence of maps is applied last to first. Duplicates stay observable.
TEST(YamlParserTest, MergeKeys) {
  std::vector<YamlDocument> docs =
      Parse("base: &b {x: 1, w: 2}\nd1:\n  <<: *b\n  w: 3\nd2:\n  w: 3\n  <<: *b\n");
  const Value& d1 = *docs[0].root.Find("d1");
  EXPECT_EQ(ToJson(d1), R"({"w":2,"w":3,"x":1})");
  const Value& d2 = *docs[0].root.Find("d2");
  EXPECT_EQ(ToJson(d2), R"({"w":3,"w":2,"x":1})");  // the merged 2 is applied last
  EXPECT_EQ(Json("a: &a {x: 1}\nb: &b {x: 2, z: 3}\nc:\n  <<: [*a, *b]\n"),
            R"({"a":{"x":1},"b":{"x":2,"z":3},"c":{"x":2,"x":1,"z":3}})");
  EXPECT_EQ(Json("c:\n  <<: {q: 1}\n  r: 2\n"), R"({"c":{"q":1,"r":2}})");
  EXPECT_EQ(Json("c:\n  \"<<\": {q: 1}\n"), R"({"c":{"\u003c\u003c":{"q":1}}})");
  EXPECT_EQ(Json("c:\n  !!merge <<: {q: 1}\n"), R"({"c":{"q":1}})");
  EXPECT_EQ(Json("c: <<\n"), R"({"c":"\u003c\u003c"})");
  EXPECT_EQ(Error("a:\n  <<: 5\n"),
            "line 2, column 7: map merge requires map or sequence of maps as the value");
  EXPECT_EQ(Error("l: &l [1]\na:\n  <<: *l\n"),
            "line 3, column 7: map merge requires map or sequence of maps as the value");
  EXPECT_EQ(Error("a:\n  <<: [{a: 1}, 2]\n"),
            "line 2, column 16: map merge requires map or sequence of maps as the value");
}

TEST(YamlParserTest, KeyConversionErrors) {
  EXPECT_EQ(Error("~: 1\n"), "line 1, column 1: unsupported map key of type: <nil>, key: <nil>");
  EXPECT_EQ(Error("18446744073709551615: x\n"),
            "line 1, column 1: unsupported map key of type: uint64, key: 0xffffffffffffffff");
  EXPECT_EQ(Error("? [1, 2]\n: x\n"), "line 1, column 3: invalid map key: a sequence");
  EXPECT_EQ(Error("{a: 1}: x\n"), "line 1, column 1: invalid map key: a mapping");
  EXPECT_EQ(Error("a: .inf\n"), "line 1, column 4: json: unsupported value: +Inf");
}

TEST(YamlParserTest, SyntaxErrorsWinOverConversionErrors) {
  // go-yaml parses a whole document before converting it.
  EXPECT_EQ(Error("~: 1\nb: [1\n"), "line 3, column 1: end of sequence flow not found");
  EXPECT_EQ(Error("[[[["), "line 1, column 1: end of sequence flow not found");
}

TEST(YamlParserTest, SyntaxErrors) {
  EXPECT_EQ(Error("a: b: c\n"), "line 1, column 5: illegal map value");
  EXPECT_EQ(Error("a: 1\nb\n"), "line 2, column 1: could not find expected ':'");
  EXPECT_EQ(Error("a: \"x\n"), "line 1, column 4: found unexpected end of stream");
  EXPECT_EQ(Error("a: 'x\n"), "line 1, column 4: found unexpected end of stream");
  EXPECT_EQ(Error("a: \"\\/\"\n"), "line 1, column 4: found unknown escape character");
  EXPECT_EQ(Error("- \ta\n"), "line 1, column 4: found character that cannot start any token");
  EXPECT_EQ(Error("a:\n\tb: 1\n"), "line 2, column 3: illegal map value");
  EXPECT_EQ(Error("a: b\n\tc\n"), "line 2, column 1: illegal tab when looking for indentation");
  // Valid forms of the same shapes.
  EXPECT_EQ(Json("? b\nc: 1\n"), R"({"b":null,"c":1})");
  EXPECT_EQ(Json("a:\tb\n"), R"({"a":"b"})");
  EXPECT_EQ(Json("{a, b: 1}\n"), R"({"a":null,"b":1})");
  EXPECT_EQ(Json("a: \"x\\\n  y\"\n"), R"({"a":"xy"})");
}

TEST(YamlParserTest, CharacterChecks) {
  EXPECT_EQ(Error("a: \x01\n"), "line 1, column 4: control characters are not allowed");
  EXPECT_EQ(Error("a: b\nc: \x7f\n"), "line 2, column 4: control characters are not allowed");
  EXPECT_EQ(Error("a: \xc2\x80\n"), "line 1, column 4: control characters are not allowed");
  EXPECT_EQ(Error("a: \xff\n"), "line 1, column 4: invalid leading UTF-8 octet");
  EXPECT_EQ(Error("a: \xe2\x82"), "line 1, column 4: incomplete UTF-8 octet sequence");
  EXPECT_EQ(Error("a: \xe2\x82x\n"), "line 1, column 4: invalid trailing UTF-8 octet");
  EXPECT_EQ(Error("a: \xc0\x80\n"), "line 1, column 4: invalid length of a UTF-8 sequence");
  EXPECT_EQ(Error("a: \xed\xa0\x80\n"), "line 1, column 4: invalid Unicode character");
  EXPECT_EQ(Json("\xef\xbb\xbf"
                 "a: \t\xc2\x85\xe2\x80\xa8\n"),
            "{\"a\":\"\u0085\\u2028\"}");
}

TEST(YamlParserTest, JsonTextIsYaml) {
  std::string_view text =
      R"({"kind": "ResourceClaim", "spec": {"devices": {"requests": [{"name": "gpu",)"
      R"( "count": 2, "ratio": 1.50, "ok": true, "none": null, "s": "<\u00e9>"}]}}})";
  Result<Value> json = ParseJson(text);
  ASSERT_TRUE(json.ok());
  EXPECT_EQ(Json(text),
            R"({"kind":"ResourceClaim","spec":{"devices":{"requests":[{"count":2,"name":"gpu",)"
            R"("none":null,"ok":true,"ratio":1.5,"s":"\u003cé\u003e"}]}}})");
  EXPECT_TRUE(LooksLikeJson(text));
  EXPECT_TRUE(LooksLikeJson(" \n\t[1]"));
  EXPECT_FALSE(LooksLikeJson("kind: x"));
  EXPECT_FALSE(LooksLikeJson("  "));
}

TEST(YamlParserTest, NestedCollections) {
  EXPECT_EQ(Json("- - - x\n  - w\n- z\n"), R"([[["x"],"w"],"z"])");
  EXPECT_EQ(Json("a:\n- b:\n    c: 1\n  d: 2\n-\n- []\n"),
            R"({"a":[{"b":{"c":1},"d":2},null,[]]})");
  EXPECT_EQ(Json("a:\nb:\n"), R"({"a":null,"b":null})");
}

}  // namespace
}  // namespace dra::json
