// Checks shared by the JSON and YAML fuzz targets: tree equality, and the
// writer round trips every parsed tree must survive.
#pragma once

#include <cstddef>
#include <cstdint>
#include <map>
#include <string>
#include <string_view>

#include "dra/json/value.h"

namespace dra::fuzz {

using dra::json::Kind;
using dra::json::Member;
using dra::json::Value;

inline void Check(bool ok) {
  if (!ok) __builtin_trap();
}

inline bool Equal(const Value& a, const Value& b) {
  if (a.kind != b.kind) return false;
  switch (a.kind) {
    case Kind::kNull:
      return true;
    case Kind::kBool:
      return a.boolean == b.boolean;
    case Kind::kNumber:
    case Kind::kString:
      return a.text == b.text;
    case Kind::kArray:
      if (a.items.size() != b.items.size()) return false;
      for (std::size_t i = 0; i < a.items.size(); ++i) {
        if (!Equal(a.items[i], b.items[i])) return false;
      }
      return true;
    case Kind::kObject:
      if (a.members.size() != b.members.size()) return false;
      for (std::size_t i = 0; i < a.members.size(); ++i) {
        if (a.members[i].key != b.members[i].key) return false;
        if (!Equal(a.members[i].value, b.members[i].value)) return false;
      }
      return true;
  }
  return false;
}

// What go-yaml reads back from ToYaml's output: the last of duplicate keys,
// keys in byte order (as ParseYaml sorts them), and numbers as go-yaml
// resolves their text.
inline Value Normalized(const Value& v) {
  Value out;
  out.kind = v.kind;
  out.boolean = v.boolean;
  out.text = v.text;
  if (v.kind == Kind::kNumber) {
    // The scalar ToYaml writes, then what reading it back resolves to (a
    // float -0 is written as "-0", which reads back as the integer 0).
    std::string written = v.text;
    for (int pass = 0; pass < 2; ++pass) {
      auto r = dra::json::ResolveYamlScalar("", written);
      switch (r->type) {
        case dra::json::YamlScalarType::kInt:
          written = std::to_string(r->int_value);
          break;
        case dra::json::YamlScalarType::kUint:
          written = std::to_string(r->uint_value);
          break;
        case dra::json::YamlScalarType::kFloat: {
          if (pass == 0) {
            written = dra::json::FormatGoFloatG(r->float_value);
          } else {
            auto f = dra::json::FormatGoJsonFloat(r->float_value);
            Check(f.ok());
            written = *f;
          }
          break;
        }
        default:
          out.kind = Kind::kString;  // e.g. 1e400: go-yaml keeps it a string
      }
      if (out.kind == Kind::kString) break;
    }
    out.text = written;
  }
  for (const Value& item : v.items) out.items.push_back(Normalized(item));
  std::map<std::string, const Value*> last;
  for (const Member& m : v.members) last[m.key] = &m.value;
  for (const auto& [key, value] : last) out.members.push_back({key, Normalized(*value), {}});
  return out;
}

// YAML 1.1 line breaks inside strings (NEL, LS, PS) and keys named "<<" do
// not survive go-yaml's output read back by yaml-cpp; these are documented
// differences, so such trees skip the YAML round trip.
inline bool YamlRoundTrips(const Value& v) {
  auto ok = [](const std::string& s) {
    return s.find("\xc2\x85") == std::string::npos && s.find("\xe2\x80\xa8") == std::string::npos &&
           s.find("\xe2\x80\xa9") == std::string::npos;
  };
  if (v.kind == Kind::kString && !ok(v.text)) return false;
  for (const Value& item : v.items) {
    if (!YamlRoundTrips(item)) return false;
  }
  for (const Member& m : v.members) {
    if (m.key == "<<" || !ok(m.key) || !YamlRoundTrips(m.value)) return false;
  }
  return true;
}

inline bool IsPositionedError(const std::string& e) { return e.rfind("line ", 0) == 0; }

// The round trips every parsed tree must survive.
inline void CheckWriters(const Value& v) {
  dra::json::ParseLimits limits;
  limits.max_depth = 1000;
  auto compact = dra::json::ParseJson(dra::json::ToJson(v), limits);
  Check(compact.ok() && Equal(*compact, v));
  auto indented = dra::json::ParseJson(dra::json::ToIndentedJson(v), limits);
  Check(indented.ok() && Equal(*indented, v));
  std::string yaml = dra::json::ToYaml(v);
  if (!YamlRoundTrips(v)) return;
  auto docs = dra::json::ParseYaml(yaml);
  Check(docs.ok());
  Check(docs->size() == 1);
  Check(Equal((*docs)[0].root, Normalized(v)));
}

}  // namespace dra::fuzz
