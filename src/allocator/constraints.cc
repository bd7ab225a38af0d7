#include "allocator/constraints.h"

#include <algorithm>
#include <iterator>
#include <optional>

namespace dra::allocator {
namespace {

enum class ScalarType { kNone, kString, kInt, kBool, kVersion };

using Kind = cel::AttributeValueView::Kind;

// An attribute's scalar value fields; a NamedAttribute that keeps no
// published attribute has exactly the one of its view.
const std::int64_t* IntOf(const NamedAttribute& a) {
  if (const api::DeviceAttribute* p = a.published()) return p->int_value ? &*p->int_value : nullptr;
  return a.value.kind == Kind::kInt ? &a.value.int_value : nullptr;
}
const bool* BoolOf(const NamedAttribute& a) {
  if (const api::DeviceAttribute* p = a.published())
    return p->bool_value ? &*p->bool_value : nullptr;
  return a.value.kind == Kind::kBool ? &a.value.bool_value : nullptr;
}
std::optional<std::string_view> StringOf(const NamedAttribute& a) {
  if (const api::DeviceAttribute* p = a.published()) return p->string_value;
  if (a.value.kind == Kind::kString) return a.value.string_value;
  return std::nullopt;
}
std::optional<std::string_view> VersionOf(const NamedAttribute& a) {
  if (const api::DeviceAttribute* p = a.published()) return p->version_value;
  if (a.value.kind == Kind::kVersion) return a.value.string_value;
  return std::nullopt;
}

// The first scalar value present, in upstream's order: string, int, bool,
// version.
ScalarType FirstScalar(const NamedAttribute& a) {
  if (StringOf(a)) return ScalarType::kString;
  if (IntOf(a) != nullptr) return ScalarType::kInt;
  if (BoolOf(a) != nullptr) return ScalarType::kBool;
  if (VersionOf(a)) return ScalarType::kVersion;
  return ScalarType::kNone;
}

// Whether `b` has a value of type `t` equal to `a`'s.
bool SameScalar(ScalarType t, const NamedAttribute& a, const NamedAttribute& b) {
  switch (t) {
    case ScalarType::kString:
      return StringOf(b) && *StringOf(b) == *StringOf(a);
    case ScalarType::kInt:
      return IntOf(b) != nullptr && *IntOf(b) == *IntOf(a);
    case ScalarType::kBool:
      return BoolOf(b) != nullptr && *BoolOf(b) == *BoolOf(a);
    case ScalarType::kVersion:
      return VersionOf(b) && *VersionOf(b) == *VersionOf(a);
    case ScalarType::kNone:
      break;
  }
  return false;
}

// The first non-empty list among ints, bools, strings, versions, else the
// first scalar among int, bool, string, version.
AttributeSet ToSet(const NamedAttribute& named) {
  AttributeSet s;
  auto finish = [&](int type) {
    s.type = type;
    std::sort(s.elements.begin(), s.elements.end());
    s.elements.erase(std::unique(s.elements.begin(), s.elements.end()), s.elements.end());
    return s;
  };
  if (const api::DeviceAttribute* published = named.published()) {
    const api::DeviceAttribute& a = *published;
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
  }
  if (const std::int64_t* v = IntOf(named)) {
    s.elements.push_back(std::to_string(*v));
    return finish(1);
  }
  if (const bool* v = BoolOf(named)) {
    s.elements.emplace_back(*v ? "true" : "false");
    return finish(2);
  }
  if (std::optional<std::string_view> v = StringOf(named)) {
    s.elements.emplace_back(*v);
    return finish(3);
  }
  if (std::optional<std::string_view> v = VersionOf(named)) {
    s.elements.emplace_back(*v);
    return finish(4);
  }
  return s;
}

std::vector<std::string> Intersect(const std::vector<std::string>& a,
                                   const std::vector<std::string>& b) {
  std::vector<std::string> out;
  std::set_intersection(a.begin(), a.end(), b.begin(), b.end(), std::back_inserter(out));
  return out;
}

}  // namespace

const NamedAttribute* LookupAttribute(const DeviceTable::AttributeRefs& device,
                                      std::string_view driver, const std::string& name) {
  auto find = [&](std::string_view n) -> const NamedAttribute* {
    for (const NamedAttribute* a : device) {
      if (a->name() == n) return a;
    }
    return nullptr;
  };
  if (const NamedAttribute* a = find(name)) return a;
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

bool Constraint::AddMatch(const NamedAttribute& attr) {
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

bool Constraint::DistinctFromAccepted(const NamedAttribute& attr) const {
  if (!set_mode_) {
    ScalarType t = FirstScalar(attr);
    if (t == ScalarType::kNone) return accepted_.empty();
    for (const NamedAttribute* stored : accepted_) {
      if (SameScalar(t, attr, *stored)) return false;
    }
    return true;
  }
  AttributeSet set = ToSet(attr);
  if (set.type == 0) return false;
  for (const NamedAttribute* stored : accepted_) {
    AttributeSet other = ToSet(*stored);
    if (other.type == set.type && !Intersect(set.elements, other.elements).empty()) return false;
  }
  return true;
}

bool Constraint::Add(const Entry& entry, const Inventory& inventory, Index device) {
  if (!InScope(entry)) return true;
  const NamedAttribute* attr = LookupAttribute(inventory.table().attributes(device),
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
