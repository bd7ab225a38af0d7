// Runtime values. A Value is a small tagged record; heap data (owned strings,
// lists, maps, parsed versions, errors) hangs off a shared owner, and data
// that outlives the evaluation anyway (the device view, program constants) is
// *borrowed* without an owner, so reading a device allocates nothing.
//
// Invariant: a borrowed value is only used while the evaluation that
// produced it runs (values never escape an evaluation except as a bool).
#pragma once

#include <cstdint>
#include <functional>
#include <memory>
#include <string>
#include <string_view>
#include <vector>

#include "dra/api/quantity.h"
#include "dra/cel/device_view.h"

namespace dra::cel {

struct Semver;

enum class ValueKind : std::uint8_t {
  kNull,
  kBool,
  kInt,
  kUint,
  kDouble,
  kString,
  kBytes,
  kList,
  kMap,
  kType,
  kTimestamp,
  kDuration,
  kOptional,
  kQuantity,
  kSemver,
  kIP,    // str(): the 4 or 16 address bytes
  kCIDR,  // str(): the address bytes, then one byte of prefix length
  kURL,   // str(): the URL text as parsed by url()
  kDevice,
  kError,
};

class Value;

// How a list or map value is represented.
enum class ValueRep : std::uint8_t {
  kPlain,
  kOwnedList,         // a_.ptr: const std::vector<Value>*
  kAttributeList,     // a_.ptr: const AttributeValueView* (kInts, kBools, kStrings, kVersions)
  kOwnedMap,          // a_.ptr: const MapData*
  kDeviceAttributes,  // a_.ptr: const DeviceView*; device.attributes
  kDeviceCapacity,    // a_.ptr: const DeviceView*; device.capacity
  kDomainAttributes,  // a_.ptr: const DeviceView*; b_/n_: domain; device.attributes[domain]
  kDomainCapacity,    // as above for capacity
};

struct MapData {
  std::vector<std::pair<Value, Value>> entries;  // keys unique under CEL equality
};

class Value {
 public:
  Value() = default;  // null

  static Value Null() { return Value(); }
  static Value Bool(bool b);
  static Value Int(std::int64_t i);
  static Value Uint(std::uint64_t u);
  static Value Double(double d);
  static Value String(std::string s);
  static Value BorrowedString(std::string_view s);
  static Value Bytes(std::string s);
  static Value List(std::vector<Value> elements);
  static Value AttributeList(const AttributeValueView* view);
  static Value Map(std::vector<std::pair<Value, Value>> entries);
  static Value DeviceMap(const DeviceView* device, bool capacity);
  static Value DomainMap(const DeviceView* device, bool capacity, std::string_view domain,
                         std::shared_ptr<const void> domain_owner);
  // `name` must be a static string (type names are literals).
  static Value Type(std::string_view name);
  static Value Timestamp(std::int64_t seconds, std::int32_t nanos);
  static Value Duration(std::int64_t nanos);
  static Value OptionalNone();
  static Value OptionalOf(Value v);
  // `form` records apimachinery's internal representation, which decides
  // asInteger()/isInteger(): see QuantityForm.
  static Value Quantity(api::Quantity q, std::uint8_t form);
  static Value BorrowedQuantity(const api::Quantity* q);
  static Value Semver(std::shared_ptr<const struct Semver> v);
  // kIP, kCIDR, kURL: an owned byte payload read back through str().
  static Value Opaque(ValueKind kind, std::string payload);
  static Value Device(const DeviceView* device);
  static Value Error(std::string message);

  ValueKind kind() const { return kind_; }
  ValueRep rep() const { return rep_; }
  bool is_error() const { return kind_ == ValueKind::kError; }

  bool bool_value() const { return a_.b; }
  std::int64_t int_value() const { return a_.i; }
  std::uint64_t uint_value() const { return a_.u; }
  double double_value() const { return a_.d; }
  // kString, kBytes, kType name, kError message.
  std::string_view str() const { return {static_cast<const char*>(b_), n_}; }
  std::int64_t seconds() const { return a_.i; }  // kTimestamp
  std::int32_t nanos() const { return static_cast<std::int32_t>(n_); }
  std::int64_t duration_nanos() const { return a_.i; }
  const std::vector<Value>& list() const { return *static_cast<const std::vector<Value>*>(a_.p); }
  const AttributeValueView& attribute_list() const {
    return *static_cast<const AttributeValueView*>(a_.p);
  }
  const MapData& map() const { return *static_cast<const MapData*>(a_.p); }
  const DeviceView& device() const { return *static_cast<const DeviceView*>(a_.p); }
  std::string_view domain() const { return str(); }
  bool has_value() const { return a_.p != nullptr; }  // kOptional
  const Value& optional_value() const { return *static_cast<const Value*>(a_.p); }
  const api::Quantity& quantity() const { return *static_cast<const api::Quantity*>(a_.p); }
  std::uint8_t quantity_form() const { return static_cast<std::uint8_t>(n_); }
  const struct Semver& semver() const { return *static_cast<const struct Semver*>(a_.p); }

  // The heap data this value keeps alive (null when borrowed).
  const std::shared_ptr<const void>& owner() const { return owner_; }

  // A copy that does not keep heap data alive. Only for values whose owner
  // outlives every use of the copy (program constants).
  Value Borrow() const {
    if (kind_ == ValueKind::kError) return *this;
    // Field by field: copying owner_ would cost two atomic operations.
    Value v;
    v.kind_ = kind_;
    v.rep_ = rep_;
    v.a_ = a_;
    v.b_ = b_;
    v.n_ = n_;
    return v;
  }

 private:
  ValueKind kind_ = ValueKind::kNull;
  ValueRep rep_ = ValueRep::kPlain;
  union {
    bool b;
    std::int64_t i;
    std::uint64_t u;
    double d;
    const void* p;
  } a_{.i = 0};
  const void* b_ = nullptr;
  std::size_t n_ = 0;
  std::shared_ptr<const void> owner_;
};

// The CEL type name of a value as type() reports it: "int", "list",
// "kubernetes.Quantity", ...
std::string_view TypeName(const Value& v);
// cel-go's Go type name, used in some upstream messages ("types.Int").
std::string_view GoTypeName(const Value& v);

// Value equality of CEL (heterogeneous: mismatched kinds are unequal, except
// numbers, which compare on one number line). Never fails.
bool Equal(const Value& a, const Value& b);

// Aggregate access. Lists: REQUIRES kind kList.
std::size_t ListSize(const Value& list);
// REQUIRES: i < ListSize(list). Strings borrow from the list.
Value ListAt(const Value& list, std::size_t i);

// Maps: REQUIRES kind kMap.
std::size_t MapSize(const Value& map);
// Sets *out and returns true when the key is present (for device maps,
// presence is the real key set).
bool MapFind(const Value& map, const Value& key, Value* out);
// Calls fn for each key in map order; stops early when fn returns false.
void MapForEachKey(const Value& map, const std::function<bool(const Value&)>& fn);

// The value of one device attribute (borrowing its strings and lists).
Value AttributeToValue(const AttributeValueView& attribute);

}  // namespace dra::cel
