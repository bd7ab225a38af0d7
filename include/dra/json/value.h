// A JSON document tree that keeps what Kubernetes' decoders can observe and a
// plain DOM would lose: member order, duplicate keys, the literal text of
// numbers, the exact source bytes of every value (for RawExtension), and source
// positions for error messages. YAML documents are converted into the same tree
// the way sigs.k8s.io/yaml converts YAML to JSON.
#pragma once

#include <cstddef>
#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

#include "dra/util/result.h"

namespace dra::json {

enum class Kind : std::uint8_t { kNull, kBool, kNumber, kString, kArray, kObject };

// 1-based line and column (in bytes); line 0 means unknown.
struct Position {
  std::uint32_t line = 0;
  std::uint32_t column = 0;
};

struct Member;

class Value {
 public:
  Kind kind = Kind::kNull;
  bool boolean = false;
  // kNumber: the number's JSON text (as written in JSON input; as Go's
  // encoding/json would print the converted YAML scalar for YAML input).
  // kString: the decoded UTF-8 string.
  std::string text;
  std::vector<Value> items;     // kArray
  std::vector<Member> members;  // kObject: source order, duplicates kept
  Position pos;
  // Exact source bytes [raw_begin, raw_end) of this value inside the parsed
  // JSON text; raw_end == raw_begin when the value did not come from JSON text
  // (YAML input, or built in code).
  std::size_t raw_begin = 0;
  std::size_t raw_end = 0;

  bool is_null() const { return kind == Kind::kNull; }
  bool is_object() const { return kind == Kind::kObject; }
  bool is_array() const { return kind == Kind::kArray; }
  bool is_string() const { return kind == Kind::kString; }
  bool has_raw() const { return raw_end > raw_begin; }

  // The last member named `key` (the one Go keeps), or nullptr. REQUIRES: is_object().
  const Value* Find(std::string_view key) const;

  static Value String(std::string s);
  static Value Number(std::string literal);
  static Value Bool(bool b);
  static Value Object();
  static Value Array();
};

struct Member {
  std::string key;
  Value value;
  Position key_pos;
};

struct ParseLimits {
  // Nesting deeper than this is an error, never a stack overflow.
  std::uint32_t max_depth = 1000;
  // Total number of values in one document (bounds YAML alias expansion too).
  std::size_t max_values = 50'000'000;
};

// Parses exactly one JSON value (surrounding whitespace allowed). Strict
// RFC 8259 syntax; invalid UTF-8 is an error. Error messages start with
// "line L, column C: ".
Result<Value> ParseJson(std::string_view text, const ParseLimits& limits = {});

struct YamlDocument {
  Value root;          // kNull for an empty document
  Position start;      // where the document begins
  bool empty = false;  // no content at all (e.g. between two "---")
};

// Parses a YAML stream of one or more documents and converts each to the JSON
// tree that sigs.k8s.io/yaml would produce (YAML 1.1 scalar resolution of
// go-yaml v2, merge keys, aliases expanded). Object members are sorted by key
// (byte order, as in the JSON YAMLToJSON emits); duplicate keys, including
// those a merge key brings in, are kept in the order go-yaml applies them, so
// the last one is the value Go keeps. A stream with no document gives one
// empty document. Nesting is limited to min(limits.max_depth, 498) (yaml-cpp's
// recursion guard). Error messages start with "line L, column C: ".
Result<std::vector<YamlDocument>> ParseYaml(std::string_view text, const ParseLimits& limits = {});

// True when the text's first non-whitespace byte is '{' or '[' (treated as JSON).
bool LooksLikeJson(std::string_view text);

// Appends `s` as a JSON string literal the way Go's encoding/json writes it:
// <, >, & as \u003c \u003e \u0026; U+2028/U+2029 escaped; each invalid UTF-8
// byte as \ufffd; control characters as \b \f \n \r \t (Go >= 1.22) or \u00XX.
void AppendGoJsonString(std::string& out, std::string_view s);

// Compact JSON of `v` with Go's string escaping; numbers printed from `text`.
// Object members in tree order (callers sort when Go would have sorted).
void WriteJson(const Value& v, std::string& out);
std::string ToJson(const Value& v);

// Indented JSON as kubectl -o json prints it: json.MarshalIndent with 4-space
// indentation, without the newline kubectl writes after it.
std::string ToIndentedJson(const Value& v, int indent = 4);

// YAML as kubectl -o yaml prints it (sigs.k8s.io/yaml over go-yaml v2): keys
// in go-yaml's order (digit runs compare as numbers), the last of duplicate
// keys, 2-space indentation, sequences not indented under their key, strings
// quoted only when a plain scalar would read back differently, long scalars
// folded at 80 columns, numbers re-printed as go-yaml does (1.0 as 1,
// 1000000.5 as 1.0000005e+06).
std::string ToYaml(const Value& v);

// ---------------------------------------------------------------------------
// Go scalar semantics shared by the parsers and writers above, exposed for
// callers and tests that need the same rules.

// One UTF-8 sequence decoded as Go's utf8.DecodeRuneInString does: an invalid,
// overlong, surrogate or truncated sequence decodes as {U+FFFD, 1}.
// REQUIRES: !s.empty().
struct DecodedRune {
  char32_t rune;
  std::uint32_t size;
};
DecodedRune DecodeUtf8Rune(std::string_view s);

// Go's strconv.FormatFloat(f, 'g', -1, bits) for bits 32 or 64 (with 32, f is
// first rounded to float32), e.g. "1e+06", "0.1", "+Inf".
std::string FormatGoFloatG(double f, int bits = 64);

// How Go's encoding/json writes a float64 ("1e+21", "1e-7", "0.000001");
// NaN and infinities are an error ("json: unsupported value: +Inf").
Result<std::string> FormatGoJsonFloat(double f);

// What go-yaml v2 resolves a scalar to.
enum class YamlScalarType : std::uint8_t {
  kNull,
  kBool,
  kInt,        // int_value
  kUint,       // uint_value: above int64's range
  kFloat,      // float_value
  kTimestamp,  // kept as the original string, as go-yaml v2 does for interface{}
  kString,
};
struct YamlScalar {
  YamlScalarType type = YamlScalarType::kString;
  bool boolean = false;
  std::int64_t int_value = 0;
  std::uint64_t uint_value = 0;
  double float_value = 0;
};

// go-yaml v2's resolve(tag, text). `tag` is "" for a plain scalar, or a long
// tag ("tag:yaml.org,2002:int"); a tag go-yaml cannot resolve (custom tags,
// !!binary, !!map) gives a string. A tag that does not fit the text is an
// error worded as go-yaml's ("cannot decode !!str `abc` as a !!int").
Result<YamlScalar> ResolveYamlScalar(std::string_view tag, std::string_view text);

}  // namespace dra::json
