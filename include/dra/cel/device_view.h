// The device a selector sees, as a read-only view that the caller implements
// over its own storage. The engine reads attributes and capacities in place
// through this interface; it never copies the device into CEL maps.
#pragma once

#include <cstdint>
#include <memory>
#include <span>
#include <string>
#include <string_view>
#include <vector>

#include "dra/api/quantity.h"
#include "dra/util/result.h"

namespace dra::cel {

// One attribute value: exactly one of the value fields of the API's DeviceAttribute.
// Views borrow: every span and string_view must stay valid while an
// evaluation that can see it runs.
struct AttributeValueView {
  enum class Kind : std::uint8_t {
    kUnset,  // no value field set: evaluation of the device fails
    kInt,
    kBool,
    kString,
    kVersion,  // semver text, parsed strictly when the selector reads it
    kInts,
    kBools,
    kStrings,
    kVersions,
  };
  AttributeValueView() : int_value(0) {}

  Kind kind = Kind::kUnset;
  // The one field that `kind` names; reading another is undefined. One
  // union: every distinct attribute of an allocator's device table holds a
  // view, 24 bytes where the fields side by side took 88.
  union {
    std::int64_t int_value;
    bool bool_value;
    std::string_view string_value;  // kString and kVersion
    std::span<const std::int64_t> ints;
    std::span<const bool> bools;
    std::span<const std::string_view> strings;  // kStrings and kVersions
  };
};
static_assert(sizeof(AttributeValueView) == 24);

// A device as CEL sees it (variable `device`). Names are split into
// (domain, id) at the first '/'; a name without '/' belongs to the domain
// named after driver(), as k8s.io/dynamic-resource-allocation cel/compile.go
// splits names. Implementations must answer with that split already applied.
//
// Invariants an implementation keeps for the duration of an evaluation:
// results are stable (same question, same answer) and returned pointers stay
// valid. The engine never writes through the view and calls it from the
// evaluating thread only.
class DeviceView {
 public:
  virtual ~DeviceView() = default;

  virtual std::string_view driver() const = 0;
  virtual bool allow_multiple_allocations() const = 0;

  // nullptr when the device has no such attribute / capacity.
  virtual const AttributeValueView* FindAttribute(std::string_view domain,
                                                  std::string_view id) const = 0;
  virtual const api::Quantity* FindCapacity(std::string_view domain, std::string_view id) const = 0;

  // Enumeration, for iteration macros, size() and `in` (entry order is the
  // caller's; CEL leaves map order unspecified). REQUIRES: i < count.
  virtual std::size_t attribute_count() const = 0;
  virtual std::string_view attribute_domain(std::size_t i) const = 0;
  virtual std::string_view attribute_id(std::size_t i) const = 0;
  virtual std::size_t capacity_count() const = 0;
  virtual std::string_view capacity_domain(std::size_t i) const = 0;
  virtual std::string_view capacity_id(std::size_t i) const = 0;
};

// Splits a qualified attribute or capacity name at the first '/'; a bare
// identifier belongs to `driver`'s domain.
struct QualifiedName {
  std::string_view domain;
  std::string_view id;
};
QualifiedName SplitQualifiedName(std::string_view name, std::string_view driver);

// Upstream converts every attribute of a device before evaluating any
// selector, so a device with an attribute that has no value, or a version
// that is not strict semver, fails every selector ("attribute <name>:
// unsupported attribute value", "attribute <name>: parse semantic version:
// ..."), whether or not the selector reads that attribute. Evaluate() only
// reports such problems for attributes it reads; an allocator that wants
// upstream's exact outcomes calls this once per device and treats an error
// as the outcome of every selector on that device.
Status ValidateDeviceAttributes(const DeviceView& device);

// A self-contained DeviceView that owns its data: for tests, tools and callers
// without flat storage of their own. Lookups are linear (devices hold at most
// 32 attributes and capacities).
class SimpleDevice final : public DeviceView {
 public:
  explicit SimpleDevice(std::string driver = "", bool allow_multiple_allocations = false);
  ~SimpleDevice() override;
  SimpleDevice(const SimpleDevice&) = delete;
  SimpleDevice& operator=(const SimpleDevice&) = delete;

  // `name` is a qualified name, split against the driver given at construction.
  SimpleDevice& AddInt(std::string_view name, std::int64_t v);
  SimpleDevice& AddBool(std::string_view name, bool v);
  SimpleDevice& AddString(std::string_view name, std::string v);
  SimpleDevice& AddVersion(std::string_view name, std::string v);
  SimpleDevice& AddInts(std::string_view name, std::vector<std::int64_t> v);
  SimpleDevice& AddBools(std::string_view name, std::vector<bool> v);
  SimpleDevice& AddStrings(std::string_view name, std::vector<std::string> v);
  SimpleDevice& AddVersions(std::string_view name, std::vector<std::string> v);
  SimpleDevice& AddUnset(std::string_view name);
  SimpleDevice& AddCapacity(std::string_view name, api::Quantity q);

  std::string_view driver() const override { return driver_; }
  bool allow_multiple_allocations() const override { return allow_multiple_allocations_; }
  const AttributeValueView* FindAttribute(std::string_view domain,
                                          std::string_view id) const override;
  const api::Quantity* FindCapacity(std::string_view domain, std::string_view id) const override;
  std::size_t attribute_count() const override { return attributes_.size(); }
  std::string_view attribute_domain(std::size_t i) const override;
  std::string_view attribute_id(std::size_t i) const override;
  std::size_t capacity_count() const override { return capacities_.size(); }
  std::string_view capacity_domain(std::size_t i) const override;
  std::string_view capacity_id(std::size_t i) const override;

 private:
  struct Attribute;
  struct Capacity;
  Attribute& Add(std::string_view name, AttributeValueView::Kind kind);

  std::string driver_;
  bool allow_multiple_allocations_;
  // Owned through pointers so that views handed out stay put while adding.
  std::vector<std::unique_ptr<Attribute>> attributes_;
  std::vector<std::unique_ptr<Capacity>> capacities_;
};

}  // namespace dra::cel
