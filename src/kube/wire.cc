#include "kube/wire.h"

#include <cctype>
#include <string>

namespace dra::kube::wire {

const std::string* StringField(const json::Value& object, std::string_view key) {
  const json::Value* v = object.is_object() ? object.Find(key) : nullptr;
  return v != nullptr && v->is_string() ? &v->text : nullptr;
}

std::string StringAt(const json::Value& object, std::string_view key) {
  const std::string* s = StringField(object, key);
  return s != nullptr ? *s : std::string();
}

int IntAt(const json::Value& object, std::string_view key) {
  const json::Value* v = object.is_object() ? object.Find(key) : nullptr;
  if (v == nullptr || v->kind != json::Kind::kNumber) return 0;
  try {
    return std::stoi(v->text);
  } catch (...) {
    return 0;  // not an int (a float, or out of range)
  }
}

std::string MetaString(const json::Value& object, std::string_view field) {
  const json::Value* meta = object.is_object() ? object.Find("metadata") : nullptr;
  return meta != nullptr ? StringAt(*meta, field) : std::string();
}

std::string PercentEscape(std::string_view s, std::string_view kept, bool space_as_plus) {
  static constexpr char kHex[] = "0123456789ABCDEF";
  std::string out;
  out.reserve(s.size());
  for (unsigned char c : s) {
    if (std::isalnum(c) != 0 || kept.find(static_cast<char>(c)) != std::string_view::npos) {
      out += static_cast<char>(c);
    } else if (c == ' ' && space_as_plus) {
      out += '+';
    } else {
      out += '%';
      out += kHex[c >> 4];
      out += kHex[c & 15];
    }
  }
  return out;
}

void AddWriteOptions(std::vector<std::pair<std::string, std::string>>& query,
                     const WriteOptions& o) {
  if (o.dry_run) query.emplace_back("dryRun", "All");
  if (!o.field_manager.empty()) query.emplace_back("fieldManager", o.field_manager);
  if (!o.field_validation.empty()) query.emplace_back("fieldValidation", o.field_validation);
}

}  // namespace dra::kube::wire
