// Value's small helpers and LooksLikeJson.
#include "dra/json/value.h"

#include <utility>

namespace dra::json {

const Value* Value::Find(std::string_view key) const {
  // Go's decoders keep the last of duplicate keys.
  for (auto it = members.rbegin(); it != members.rend(); ++it) {
    if (it->key == key) return &it->value;
  }
  return nullptr;
}

Value Value::String(std::string s) {
  Value v;
  v.kind = Kind::kString;
  v.text = std::move(s);
  return v;
}

Value Value::Number(std::string literal) {
  Value v;
  v.kind = Kind::kNumber;
  v.text = std::move(literal);
  return v;
}

Value Value::Bool(bool b) {
  Value v;
  v.kind = Kind::kBool;
  v.boolean = b;
  return v;
}

Value Value::Object() {
  Value v;
  v.kind = Kind::kObject;
  return v;
}

Value Value::Array() {
  Value v;
  v.kind = Kind::kArray;
  return v;
}

bool LooksLikeJson(std::string_view text) {
  for (char c : text) {
    if (c == ' ' || c == '\t' || c == '\r' || c == '\n') continue;
    return c == '{' || c == '[';
  }
  return false;
}

}  // namespace dra::json
