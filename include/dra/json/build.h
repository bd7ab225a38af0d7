// Building JSON trees in code (reports, explanations, summaries): small
// helpers over Value's public fields, so that the code reads like the
// document it produces. Print the result with ToJson or ToIndentedJson.
#pragma once

#include <cstdint>
#include <string>
#include <utility>
#include <vector>

#include "dra/json/value.h"

namespace dra::json {

inline Value Str(std::string s) { return Value::String(std::move(s)); }
inline Value Int(std::int64_t v) { return Value::Number(std::to_string(v)); }
inline Value Uint(std::uint64_t v) { return Value::Number(std::to_string(v)); }

inline Value StringArray(const std::vector<std::string>& items) {
  Value out = Value::Array();
  for (const std::string& item : items) out.items.push_back(Value::String(item));
  return out;
}

// Appends member `key` (no check for an existing one) and returns its value.
// REQUIRES: object.is_object().
inline Value& Put(Value& object, std::string key, Value value) {
  object.members.push_back(Member{std::move(key), std::move(value), {}});
  return object.members.back().value;
}

// Appends an item and returns it. REQUIRES: array.is_array().
inline Value& Push(Value& array, Value value) {
  array.items.push_back(std::move(value));
  return array.items.back();
}

}  // namespace dra::json
