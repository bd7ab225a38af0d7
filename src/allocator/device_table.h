// Every device of a snapshot as CEL sees it, in flat arrays: one entry per
// attribute and per capacity across all devices, list values in shared
// pools, names split into (domain, id) once. A view of one device is two
// words and costs nothing to make, so selectors are evaluated without a heap
// object per device.
#pragma once

#include <cstdint>
#include <memory>
#include <string_view>
#include <vector>

#include "dra/api/resource.h"
#include "dra/cel/device_view.h"

namespace dra::allocator {

class DeviceTable {
 public:
  using Index = std::uint32_t;

  // REQUIRES: the devices and driver names outlive the table and do not move.
  struct Source {
    const api::Device* device;
    std::string_view driver;
  };
  // `hide_multiple_allocations`: CEL sees allowMultipleAllocations as false
  // (the stable allocator variant passes no such field to CEL).
  DeviceTable(const std::vector<Source>& devices, bool hide_multiple_allocations);

  class View final : public cel::DeviceView {
   public:
    View(const DeviceTable& table, Index device) : table_(&table), device_(device) {}
    std::string_view driver() const override { return table_->drivers_[device_]; }
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
  // Heap bytes held by the table, for the per-device memory figures.
  std::size_t bytes() const;

 private:
  struct Attribute {
    std::string_view domain;
    std::string_view id;
    cel::AttributeValueView value;
  };
  struct Capacity {
    std::string_view domain;
    std::string_view id;
    const api::Quantity* value;
  };

  std::vector<std::string_view> drivers_;
  std::vector<std::uint8_t> multiple_;
  // Device i owns attributes_[attribute_begin_[i] .. attribute_begin_[i+1]).
  std::vector<Index> attribute_begin_;
  std::vector<Attribute> attributes_;
  std::vector<Index> capacity_begin_;
  std::vector<Capacity> capacities_;
  // Backing storage of list values; sized once, so spans into them stay valid.
  std::vector<std::string_view> strings_;
  std::unique_ptr<bool[]> bools_;
  std::size_t bool_count_ = 0;
};

}  // namespace dra::allocator
