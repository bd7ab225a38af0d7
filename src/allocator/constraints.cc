#include "allocator/constraints.h"

#include <algorithm>
#include <iterator>

namespace dra::allocator {
namespace {

enum class ScalarType { kNone, kString, kInt, kBool, kVersion };

// The first scalar value present, in upstream's order: string, int, bool,
// version.
ScalarType FirstScalar(const api::DeviceAttribute& a) {
  if (a.string_value) return ScalarType::kString;
  if (a.int_value) return ScalarType::kInt;
  if (a.bool_value) return ScalarType::kBool;
  if (a.version_value) return ScalarType::kVersion;
  return ScalarType::kNone;
}

// Whether `b` has a value of type `t` equal to `a`'s.
bool SameScalar(ScalarType t, const api::DeviceAttribute& a, const api::DeviceAttribute& b) {
  switch (t) {
    case ScalarType::kString:
      return b.string_value && *b.string_value == *a.string_value;
    case ScalarType::kInt:
      return b.int_value && *b.int_value == *a.int_value;
    case ScalarType::kBool:
      return b.bool_value && *b.bool_value == *a.bool_value;
    case ScalarType::kVersion:
      return b.version_value && *b.version_value == *a.version_value;
    case ScalarType::kNone:
      break;
  }
  return false;
}

// The first non-empty list among ints, bools, strings, versions, else the
// first scalar among int, bool, string, version.
AttributeSet ToSet(const api::DeviceAttribute& a) {
  AttributeSet s;
  auto finish = [&](int type) {
    s.type = type;
    std::sort(s.elements.begin(), s.elements.end());
    s.elements.erase(std::unique(s.elements.begin(), s.elements.end()), s.elements.end());
    return s;
  };
  if (!a.int_values.empty()) {
    for (std::int64_t v : a.int_values) s.elements.push_back(std::to_string(v));
    return finish(1);
  }
  if (!a.bool_values.empty()) {
    for (bool v : a.bool_values) s.elements.push_back(v ? "true" : "false");
    return finish(2);
  }
  if (!a.string_values.empty()) {
    s.elements.assign(a.string_values.begin(), a.string_values.end());
    return finish(3);
  }
  if (!a.version_values.empty()) {
    s.elements.assign(a.version_values.begin(), a.version_values.end());
    return finish(4);
  }
  if (a.int_value) s.elements.push_back(std::to_string(*a.int_value));
  if (a.int_value) return finish(1);
  if (a.bool_value) s.elements.push_back(*a.bool_value ? "true" : "false");
  if (a.bool_value) return finish(2);
  if (a.string_value) s.elements.push_back(*a.string_value);
  if (a.string_value) return finish(3);
  if (a.version_value) s.elements.push_back(*a.version_value);
  if (a.version_value) return finish(4);
  return s;
}

std::vector<std::string> Intersect(const std::vector<std::string>& a,
                                   const std::vector<std::string>& b) {
  std::vector<std::string> out;
  std::set_intersection(a.begin(), a.end(), b.begin(), b.end(), std::back_inserter(out));
  return out;
}

}  // namespace

const api::DeviceAttribute* LookupAttribute(std::span<const NamedAttribute* const> device,
                                            std::string_view driver, const std::string& name) {
  auto find = [&](std::string_view n) -> const api::DeviceAttribute* {
    for (const NamedAttribute* a : device) {
      if (a->name == n) return &a->attribute;
    }
    return nullptr;
  };
  if (const api::DeviceAttribute* a = find(name)) return a;
  std::size_t slash = name.find('/');
  if (slash == std::string::npos || std::string_view(name).substr(0, slash) != driver) {
    return nullptr;
  }
  return find(std::string_view(name).substr(slash + 1));
}

bool Constraint::InScope(const Entry& entry) const {
  const auto& requests = *plan_.requests;
  if (requests.empty()) return true;
  auto listed = [&](const std::string& n) {
    return std::find(requests.begin(), requests.end(), n) != requests.end();
  };
  return listed(entry.request) || (entry.name != entry.request && listed(entry.name));
}

bool Constraint::AddMatch(const api::DeviceAttribute& attr) {
  if (!set_mode_) {
    if (accepted_.empty()) return true;
    ScalarType t = FirstScalar(attr);
    return t != ScalarType::kNone && SameScalar(t, attr, *accepted_.front());
  }
  AttributeSet set = ToSet(attr);
  if (set.type == 0) return false;
  if (!common_.empty()) {
    const auto& current = common_.back();
    if (set.type != current.type) return false;
    set.elements = Intersect(current.elements, set.elements);
    if (set.elements.empty()) return false;
  }
  common_.push_back({set.type, std::move(set.elements)});
  return true;
}

bool Constraint::DistinctFromAccepted(const api::DeviceAttribute& attr) const {
  if (!set_mode_) {
    ScalarType t = FirstScalar(attr);
    if (t == ScalarType::kNone) return accepted_.empty();
    for (const api::DeviceAttribute* stored : accepted_) {
      if (SameScalar(t, attr, *stored)) return false;
    }
    return true;
  }
  AttributeSet set = ToSet(attr);
  if (set.type == 0) return false;
  for (const api::DeviceAttribute* stored : accepted_) {
    AttributeSet other = ToSet(*stored);
    if (other.type == set.type && !Intersect(set.elements, other.elements).empty()) return false;
  }
  return true;
}

bool Constraint::Add(const Entry& entry, const Inventory& inventory, Index device) {
  if (!InScope(entry)) return true;
  const api::DeviceAttribute* attr = LookupAttribute(inventory.table().attributes(device),
                                                     inventory.driver(device), plan_.attribute);
  if (attr == nullptr) return false;
  if (plan_.distinct ? !DistinctFromAccepted(*attr) : !AddMatch(*attr)) return false;
  accepted_.push_back(attr);
  return true;
}

// Called only for the most recently accepted device in scope.
void Constraint::Remove(const Entry& entry) {
  if (!InScope(entry)) return;
  accepted_.pop_back();
  if (!common_.empty()) common_.pop_back();
}

}  // namespace dra::allocator
