// Every device of a snapshot as CEL and the search see it, owned by the
// table so that the API objects can be dropped after indexing. Attributes
// and capacities are stored once per distinct (driver, name, value) and each
// device keeps pointers to its entries, so a fleet of identical devices costs
// a few words per attribute. A view of one device is two words and costs
// nothing to make, so selectors are evaluated without a heap object per
// device.
#pragma once

#include <cstdint>
#include <deque>
#include <memory>
#include <span>
#include <string>
#include <string_view>
#include <vector>

#include "allocator/capacity.h"
#include "allocator/chunked.h"
#include "dra/api/resource.h"
#include "dra/cel/api_device_view.h"
#include "dra/cel/device_view.h"

namespace dra::allocator {

// An attribute's name as published and CEL's split of it, one per distinct
// (name, domain) in a table: the many entries of an attribute that differs
// on every device (a UUID) share it.
struct AttributeName {
  std::string_view name;  // as published, e.g. "model" or "example.com/model"
  // CEL's split of the name (views into `name` or the driver's name).
  std::string_view domain;
  std::string_view id;
};

// An attribute that is not one scalar, as published, with the backing
// storage of the list views made of it.
struct PublishedAttribute {
  api::DeviceAttribute attribute;
  cel::AttributeViewStorage storage;
};

// One attribute of a device as published, with CEL's typed view of it.
// Never moves once made: the views point into it. Almost every attribute
// holds exactly one scalar value field and no list: `value` is then all of
// it. Any other (a list, or more than one value field set, which validation
// rejects but files may hold) keeps the attribute as published (published()),
// for the constraints' precedence among its fields. 40 bytes: a fleet's
// per-device attributes (UUIDs, serial numbers) are one entry each.
struct NamedAttribute {
  const AttributeName* names;
  cel::AttributeValueView value;
  std::unique_ptr<const PublishedAttribute> kept;  // null for one scalar

  std::string_view name() const { return names->name; }
  std::string_view domain() const { return names->domain; }
  std::string_view id() const { return names->id; }
  const api::DeviceAttribute* published() const {
    return kept != nullptr ? &kept->attribute : nullptr;
  }
};

class DeviceTable {
 public:
  using Index = std::uint32_t;

  // A device's distinct attributes, held as 4-byte entry numbers (a pointer
  // per attribute of each of 40,000 devices was twice that); iterates as
  // pointers. Valid as long as the table.
  class AttributeRefs {
   public:
    class Iterator {
     public:
      using value_type = const NamedAttribute*;
      using difference_type = std::ptrdiff_t;
      Iterator() = default;
      Iterator(const DeviceTable* table, const Index* at) : table_(table), at_(at) {}
      const NamedAttribute* operator*() const { return table_->Attribute(*at_); }
      Iterator& operator++() {
        ++at_;
        return *this;
      }
      Iterator operator++(int) {
        Iterator old = *this;
        ++at_;
        return old;
      }
      bool operator==(const Iterator& other) const { return at_ == other.at_; }

     private:
      const DeviceTable* table_ = nullptr;
      const Index* at_ = nullptr;
    };
    AttributeRefs(const DeviceTable* table, const Index* begin, const Index* end)
        : table_(table), begin_(begin), end_(end) {}
    Iterator begin() const { return {table_, begin_}; }
    Iterator end() const { return {table_, end_}; }
    std::size_t size() const { return static_cast<std::size_t>(end_ - begin_); }
    const NamedAttribute* operator[](std::size_t i) const { return table_->Attribute(begin_[i]); }

   private:
    const DeviceTable* table_;
    const Index* begin_;
    const Index* end_;
  };

  // An empty table, filled by Add and closed by Seal.
  // `hide_multiple_allocations`: CEL sees allowMultipleAllocations as false
  // (the stable allocator variant passes no such field to CEL).
  explicit DeviceTable(bool hide_multiple_allocations);
  ~DeviceTable();
  DeviceTable(const DeviceTable&) = delete;
  DeviceTable& operator=(const DeviceTable&) = delete;

  // Appends `device` as index size(). REQUIRES: not sealed; `driver` outlives
  // the table and does not move. The device needs to live only during the
  // call, so a caller may decode devices one at a time and drop each.
  void Add(const api::Device& device, std::string_view driver);
  // Ends the Adds: drops what only they need (the index of distinct
  // entries) and spare capacity. The table is read only after Seal.
  void Seal();

  class View final : public cel::DeviceView {
   public:
    View(const DeviceTable& table, Index device) : table_(&table), device_(device) {}
    std::string_view driver() const override {
      return table_->driver_names_[table_->drivers_[device_]];
    }
    bool allow_multiple_allocations() const override { return table_->multiple_[device_] != 0; }
    const cel::AttributeValueView* FindAttribute(std::string_view domain,
                                                 std::string_view id) const override;
    const api::Quantity* FindCapacity(std::string_view domain, std::string_view id) const override;
    std::size_t attribute_count() const override;
    std::string_view attribute_domain(std::size_t i) const override;
    std::string_view attribute_id(std::size_t i) const override;
    std::size_t capacity_count() const override;
    std::string_view capacity_domain(std::size_t i) const override;
    std::string_view capacity_id(std::size_t i) const override;

   private:
    const DeviceTable* table_;
    Index device_;
  };

  View view(Index device) const { return View(*this, device); }
  std::size_t size() const { return drivers_.size(); }

  // A device's attributes and capacities, in name order.
  AttributeRefs attributes(Index device) const {
    return {this, attribute_refs_.data() + attribute_begin_[device],
            attribute_refs_.data() + attribute_begin_[device + 1]};
  }
  DeviceCapacities capacities(Index device) const {
    return {capacity_refs_.data() + capacity_begin_[device],
            capacity_refs_.data() + capacity_begin_[device + 1]};
  }

  // Heap bytes held by the table, for the per-device memory figures.
  std::size_t bytes() const;

 private:
  std::vector<std::string_view> driver_names_;
  std::vector<std::uint32_t> drivers_;  // per device, into driver_names_
  std::vector<std::uint8_t> multiple_;
  // Device i owns attribute_refs_[attribute_begin_[i] ..
  // attribute_begin_[i+1]).
  std::vector<Index> attribute_begin_;
  std::vector<Index> attribute_refs_;  // numbers of entries in attributes_
  std::vector<Index> capacity_begin_;
  std::vector<const NamedCapacity*> capacity_refs_;
  // The distinct entries and names, and the text of names and string values.
  // Appended one at a time, so that an entry's number finds it.
  Chunked<NamedAttribute, 256> attributes_;
  const NamedAttribute* Attribute(Index number) const { return attributes_.Entry(number); }
  std::deque<AttributeName> names_;
  std::deque<NamedCapacity> capacities_;
  Chunked<char, 16384> text_;
  std::size_t published_ = 0;  // entries that keep their published attribute
  // The record of attribute `name` of `driver`'s device (`has_domain`: the
  // name has a '/'), made on first use. REQUIRES: not sealed.
  const AttributeName* NameRecord(std::string_view name, bool has_domain, std::string_view driver);
  const bool hide_multiple_allocations_;
  // Distinct entries by hash, while devices are added; null once sealed.
  struct Distinct;
  std::unique_ptr<Distinct> distinct_;
};

}  // namespace dra::allocator
