#include "cel/value.h"

#include <cmath>

#include "cel/runtime.h"
#include "cel/semver.h"

namespace dra::cel {

Value Value::Bool(bool b) {
  Value v;
  v.kind_ = ValueKind::kBool;
  v.a_.b = b;
  return v;
}

Value Value::Int(std::int64_t i) {
  Value v;
  v.kind_ = ValueKind::kInt;
  v.a_.i = i;
  return v;
}

Value Value::Uint(std::uint64_t u) {
  Value v;
  v.kind_ = ValueKind::kUint;
  v.a_.u = u;
  return v;
}

Value Value::Double(double d) {
  Value v;
  v.kind_ = ValueKind::kDouble;
  v.a_.d = d;
  return v;
}

Value Value::String(std::string s) {
  auto owned = std::make_shared<const std::string>(std::move(s));
  Value v = BorrowedString(*owned);
  v.owner_ = std::move(owned);
  return v;
}

Value Value::BorrowedString(std::string_view s) {
  Value v;
  v.kind_ = ValueKind::kString;
  v.b_ = s.data();
  v.n_ = s.size();
  return v;
}

Value Value::Bytes(std::string s) {
  Value v = String(std::move(s));
  v.kind_ = ValueKind::kBytes;
  return v;
}

Value Value::List(std::vector<Value> elements) {
  auto owned = std::make_shared<const std::vector<Value>>(std::move(elements));
  Value v;
  v.kind_ = ValueKind::kList;
  v.rep_ = ValueRep::kOwnedList;
  v.a_.p = owned.get();
  v.owner_ = std::move(owned);
  return v;
}

Value Value::AttributeList(const AttributeValueView* view) {
  Value v;
  v.kind_ = ValueKind::kList;
  v.rep_ = ValueRep::kAttributeList;
  v.a_.p = view;
  return v;
}

Value Value::Map(std::vector<std::pair<Value, Value>> entries) {
  auto owned = std::make_shared<MapData>();
  owned->entries = std::move(entries);
  Value v;
  v.kind_ = ValueKind::kMap;
  v.rep_ = ValueRep::kOwnedMap;
  v.a_.p = owned.get();
  v.owner_ = std::move(owned);
  return v;
}

Value Value::DeviceMap(const DeviceView* device, bool capacity) {
  Value v;
  v.kind_ = ValueKind::kMap;
  v.rep_ = capacity ? ValueRep::kDeviceCapacity : ValueRep::kDeviceAttributes;
  v.a_.p = device;
  return v;
}

Value Value::DomainMap(const DeviceView* device, bool capacity, std::string_view domain,
                       std::shared_ptr<const void> domain_owner) {
  Value v;
  v.kind_ = ValueKind::kMap;
  v.rep_ = capacity ? ValueRep::kDomainCapacity : ValueRep::kDomainAttributes;
  v.a_.p = device;
  v.b_ = domain.data();
  v.n_ = domain.size();
  v.owner_ = std::move(domain_owner);
  return v;
}

Value Value::Type(std::string_view name) {
  Value v;
  v.kind_ = ValueKind::kType;
  v.b_ = name.data();
  v.n_ = name.size();
  return v;
}

Value Value::Timestamp(std::int64_t seconds, std::int32_t nanos) {
  Value v;
  v.kind_ = ValueKind::kTimestamp;
  v.a_.i = seconds;
  v.n_ = static_cast<std::size_t>(nanos);
  return v;
}

Value Value::Duration(std::int64_t nanos) {
  Value v;
  v.kind_ = ValueKind::kDuration;
  v.a_.i = nanos;
  return v;
}

Value Value::OptionalNone() {
  Value v;
  v.kind_ = ValueKind::kOptional;
  v.a_.p = nullptr;
  return v;
}

Value Value::OptionalOf(Value inner) {
  auto owned = std::make_shared<const Value>(std::move(inner));
  Value v;
  v.kind_ = ValueKind::kOptional;
  v.a_.p = owned.get();
  v.owner_ = std::move(owned);
  return v;
}

Value Value::Quantity(api::Quantity q, std::uint8_t form) {
  auto owned = std::make_shared<const api::Quantity>(std::move(q));
  Value v = BorrowedQuantity(owned.get());
  v.n_ = form;
  v.owner_ = std::move(owned);
  return v;
}

Value Value::BorrowedQuantity(const api::Quantity* q) {
  Value v;
  v.kind_ = ValueKind::kQuantity;
  v.a_.p = q;
  return v;
}

Value Value::Semver(std::shared_ptr<const struct Semver> s) {
  Value v;
  v.kind_ = ValueKind::kSemver;
  v.a_.p = s.get();
  v.owner_ = std::move(s);
  return v;
}

Value Value::Opaque(ValueKind kind, std::string payload) {
  Value v = String(std::move(payload));
  v.kind_ = kind;
  return v;
}

Value Value::Device(const DeviceView* device) {
  Value v;
  v.kind_ = ValueKind::kDevice;
  v.a_.p = device;
  return v;
}

Value Value::Error(std::string message) {
  Value v = String(std::move(message));
  v.kind_ = ValueKind::kError;
  return v;
}

std::string_view TypeName(const Value& v) {
  switch (v.kind()) {
    case ValueKind::kNull:
      return "null_type";
    case ValueKind::kBool:
      return "bool";
    case ValueKind::kInt:
      return "int";
    case ValueKind::kUint:
      return "uint";
    case ValueKind::kDouble:
      return "double";
    case ValueKind::kString:
      return "string";
    case ValueKind::kBytes:
      return "bytes";
    case ValueKind::kList:
      return "list";
    case ValueKind::kMap:
      return "map";
    case ValueKind::kType:
      return "type";
    case ValueKind::kTimestamp:
      return "google.protobuf.Timestamp";
    case ValueKind::kDuration:
      return "google.protobuf.Duration";
    case ValueKind::kOptional:
      return "optional_type";
    case ValueKind::kQuantity:
      return "kubernetes.Quantity";
    case ValueKind::kSemver:
      return "kubernetes.Semver";
    case ValueKind::kIP:
      return "net.IP";
    case ValueKind::kCIDR:
      return "net.CIDR";
    case ValueKind::kURL:
      return "kubernetes.URL";
    case ValueKind::kDevice:
      return "kubernetes.DRADevice";
    case ValueKind::kError:
      return "error";
  }
  return "error";
}

std::string_view GoTypeName(const Value& v) {
  switch (v.kind()) {
    case ValueKind::kNull:
      return "types.Null";
    case ValueKind::kBool:
      return "types.Bool";
    case ValueKind::kInt:
      return "types.Int";
    case ValueKind::kUint:
      return "types.Uint";
    case ValueKind::kDouble:
      return "types.Double";
    case ValueKind::kString:
      return "types.String";
    case ValueKind::kBytes:
      return "types.Bytes";
    case ValueKind::kTimestamp:
      return "types.Timestamp";
    case ValueKind::kDuration:
      return "types.Duration";
    case ValueKind::kType:
      return "*types.Type";
    case ValueKind::kOptional:
      return "*types.Optional";
    case ValueKind::kQuantity:
      return "cel.Quantity";
    case ValueKind::kSemver:
      return "cel.Semver";
    default:
      return TypeName(v);
  }
}

namespace {

bool IsNumber(ValueKind k) {
  return k == ValueKind::kInt || k == ValueKind::kUint || k == ValueKind::kDouble;
}

// Numbers compare on one number line (runtime.cc's CompareValues).
bool NumbersEqual(const Value& a, const Value& b) {
  int c;
  return CompareValues(a, b, &c) && c == 0;
}

}  // namespace

bool Equal(const Value& a, const Value& b) {
  if (IsNumber(a.kind()) && IsNumber(b.kind())) return NumbersEqual(a, b);
  if (a.kind() != b.kind()) return false;
  switch (a.kind()) {
    case ValueKind::kNull:
      return true;
    case ValueKind::kBool:
      return a.bool_value() == b.bool_value();
    case ValueKind::kString:
    case ValueKind::kBytes:
    case ValueKind::kType:
    case ValueKind::kIP:
    case ValueKind::kCIDR:
    case ValueKind::kURL:
      return a.str() == b.str();
    case ValueKind::kTimestamp:
      return a.seconds() == b.seconds() && a.nanos() == b.nanos();
    case ValueKind::kDuration:
      return a.duration_nanos() == b.duration_nanos();
    case ValueKind::kOptional:
      if (a.has_value() != b.has_value()) return false;
      return !a.has_value() || Equal(a.optional_value(), b.optional_value());
    case ValueKind::kQuantity:
      return a.quantity().Compare(b.quantity()) == 0;
    case ValueKind::kSemver:
      return CompareSemver(a.semver(), b.semver()) == 0;
    case ValueKind::kDevice:
      return &a.device() == &b.device();
    case ValueKind::kList: {
      std::size_t n = ListSize(a);
      if (n != ListSize(b)) return false;
      for (std::size_t i = 0; i < n; ++i) {
        if (!Equal(ListAt(a, i), ListAt(b, i))) return false;
      }
      return true;
    }
    case ValueKind::kMap: {
      if (MapSize(a) != MapSize(b)) return false;
      bool equal = true;
      MapForEachKey(a, [&](const Value& key) {
        Value va, vb;
        MapFind(a, key, &va);
        equal = MapFind(b, key, &vb) && Equal(va, vb);
        return equal;
      });
      return equal;
    }
    default:
      return false;
  }
}

std::size_t ListSize(const Value& list) {
  if (list.rep() == ValueRep::kOwnedList) return list.list().size();
  const AttributeValueView& a = list.attribute_list();
  switch (a.kind) {
    case AttributeValueView::Kind::kInts:
      return a.ints.size();
    case AttributeValueView::Kind::kBools:
      return a.bools.size();
    default:
      return a.strings.size();
  }
}

Value ListAt(const Value& list, std::size_t i) {
  if (list.rep() == ValueRep::kOwnedList) return list.list()[i];
  const AttributeValueView& a = list.attribute_list();
  switch (a.kind) {
    case AttributeValueView::Kind::kInts:
      return Value::Int(a.ints[i]);
    case AttributeValueView::Kind::kBools:
      return Value::Bool(a.bools[i]);
    case AttributeValueView::Kind::kStrings:
      return Value::BorrowedString(a.strings[i]);
    default: {
      auto parsed = ParseSemver(a.strings[i]);
      if (!parsed) return Value::Error("parse semantic version: " + parsed.error());
      return Value::Semver(std::make_shared<const Semver>(std::move(*parsed)));
    }
  }
}

namespace {

// Distinct domains of a device's attributes or capacities, in first-seen order.
template <typename Fn>
void ForEachDomain(const DeviceView& d, bool capacity, Fn fn) {
  std::size_t n = capacity ? d.capacity_count() : d.attribute_count();
  auto domain_at = [&](std::size_t i) {
    return capacity ? d.capacity_domain(i) : d.attribute_domain(i);
  };
  for (std::size_t i = 0; i < n; ++i) {
    std::string_view domain = domain_at(i);
    bool seen = false;
    for (std::size_t j = 0; j < i && !seen; ++j) seen = domain_at(j) == domain;
    if (!seen && !fn(domain)) return;
  }
}

template <typename Fn>
void ForEachId(const DeviceView& d, bool capacity, std::string_view domain, Fn fn) {
  std::size_t n = capacity ? d.capacity_count() : d.attribute_count();
  for (std::size_t i = 0; i < n; ++i) {
    if ((capacity ? d.capacity_domain(i) : d.attribute_domain(i)) != domain) continue;
    if (!fn(capacity ? d.capacity_id(i) : d.attribute_id(i))) return;
  }
}

bool IsCapacity(const Value& map) {
  return map.rep() == ValueRep::kDeviceCapacity || map.rep() == ValueRep::kDomainCapacity;
}

}  // namespace

std::size_t MapSize(const Value& map) {
  std::size_t n = 0;
  switch (map.rep()) {
    case ValueRep::kOwnedMap:
      return map.map().entries.size();
    case ValueRep::kDeviceAttributes:
    case ValueRep::kDeviceCapacity:
      ForEachDomain(map.device(), IsCapacity(map), [&](std::string_view) { return ++n, true; });
      return n;
    default:
      ForEachId(map.device(), IsCapacity(map), map.domain(),
                [&](std::string_view) { return ++n, true; });
      return n;
  }
}

bool MapFind(const Value& map, const Value& key, Value* out) {
  switch (map.rep()) {
    case ValueRep::kOwnedMap:
      for (const auto& [k, v] : map.map().entries) {
        if (Equal(k, key)) {
          *out = v;
          return true;
        }
      }
      return false;
    case ValueRep::kDeviceAttributes:
    case ValueRep::kDeviceCapacity: {
      if (key.kind() != ValueKind::kString) return false;
      bool found = false;
      ForEachDomain(map.device(), IsCapacity(map), [&](std::string_view d) {
        found = d == key.str();
        return !found;
      });
      if (found) *out = Value::DomainMap(&map.device(), IsCapacity(map), key.str(), key.owner());
      return found;
    }
    default: {
      if (key.kind() != ValueKind::kString) return false;
      const DeviceView& d = map.device();
      if (IsCapacity(map)) {
        const api::Quantity* q = d.FindCapacity(map.domain(), key.str());
        if (q) *out = Value::BorrowedQuantity(q);
        return q != nullptr;
      }
      const AttributeValueView* a = d.FindAttribute(map.domain(), key.str());
      if (a) *out = AttributeToValue(*a);
      return a != nullptr;
    }
  }
}

void MapForEachKey(const Value& map, const std::function<bool(const Value&)>& fn) {
  switch (map.rep()) {
    case ValueRep::kOwnedMap:
      for (const auto& entry : map.map().entries) {
        if (!fn(entry.first)) return;
      }
      return;
    case ValueRep::kDeviceAttributes:
    case ValueRep::kDeviceCapacity:
      ForEachDomain(map.device(), IsCapacity(map),
                    [&](std::string_view d) { return fn(Value::BorrowedString(d)); });
      return;
    default:
      ForEachId(map.device(), IsCapacity(map), map.domain(),
                [&](std::string_view id) { return fn(Value::BorrowedString(id)); });
      return;
  }
}

Value AttributeToValue(const AttributeValueView& a) {
  using K = AttributeValueView::Kind;
  switch (a.kind) {
    case K::kInt:
      return Value::Int(a.int_value);
    case K::kBool:
      return Value::Bool(a.bool_value);
    case K::kString:
      return Value::BorrowedString(a.string_value);
    case K::kVersion: {
      auto parsed = ParseSemver(a.string_value);
      if (!parsed) return Value::Error("parse semantic version: " + parsed.error());
      return Value::Semver(std::make_shared<const Semver>(std::move(*parsed)));
    }
    case K::kInts:
    case K::kBools:
    case K::kStrings:
    case K::kVersions:
      return Value::AttributeList(&a);
    case K::kUnset:
      break;
  }
  return Value::Error("unsupported attribute value");
}

}  // namespace dra::cel
