// Compact JSON written straight into a string, without a Value tree: for
// large documents that are written once and sent (the dashboard's summary
// holds one object per pool and node; its tree would take ten times the
// text's size). The output is what ToJson would print for the tree the same
// calls describe: Go's string escaping, numbers as given.
//
//   std::string out;
//   json::Writer w(out);
//   w.BeginObject().Key("name").String("gpu-0").Key("count").Int(2).EndObject();
//
// Not thread-safe; `out` must outlive the writer. The caller nests the calls
// as JSON does (a Key before each value in an object, none in an array); the
// writer does not check it.
#pragma once

#include <cstdint>
#include <string>
#include <string_view>

namespace dra::json {

class Writer {
 public:
  explicit Writer(std::string& out) : out_(out) {}

  Writer& BeginObject();
  Writer& EndObject();
  Writer& BeginArray();
  Writer& EndArray();
  // The next member's key. REQUIRES: inside an object, before its value.
  Writer& Key(std::string_view key);

  Writer& String(std::string_view s);
  Writer& Int(std::int64_t v);
  Writer& Uint(std::uint64_t v);
  // A number's literal JSON text ("1.5", "1e+06").
  Writer& Number(std::string_view literal);
  Writer& Bool(bool b);
  Writer& Null();
  // A whole value already written as compact JSON (e.g. by ToJson), copied
  // as it is. REQUIRES: `json` is one valid JSON value.
  Writer& Raw(std::string_view json);

 private:
  // Before a value or key: a comma when one came before it in the same
  // array or object.
  void Separate();
  // An object's or array's bracket.
  Writer& Open(char bracket);
  Writer& Close(char bracket);

  std::string& out_;
  bool after_value_ = false;  // the last thing written ends a value
};

}  // namespace dra::json
