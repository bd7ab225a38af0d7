#include "allocator/device_table.h"

namespace dra::allocator {

DeviceTable::DeviceTable(const std::vector<Source>& devices, bool hide_multiple_allocations) {
  using Kind = cel::AttributeValueView::Kind;
  std::size_t attribute_total = 0, capacity_total = 0, string_total = 0;
  for (const Source& s : devices) {
    attribute_total += s.device->attributes.size();
    capacity_total += s.device->capacity.size();
    for (const auto& [_, a] : s.device->attributes) {
      string_total += a.string_values.size() + a.version_values.size();
      bool_count_ += a.bool_values.size();
    }
  }
  drivers_.reserve(devices.size());
  multiple_.reserve(devices.size());
  attribute_begin_.reserve(devices.size() + 1);
  capacity_begin_.reserve(devices.size() + 1);
  attributes_.reserve(attribute_total);
  capacities_.reserve(capacity_total);
  strings_.reserve(string_total);
  bools_ = std::make_unique<bool[]>(bool_count_ == 0 ? 1 : bool_count_);
  std::size_t next_bool = 0;

  for (const Source& s : devices) {
    const api::Device& d = *s.device;
    drivers_.push_back(s.driver);
    multiple_.push_back(!hide_multiple_allocations && d.allow_multiple_allocations.value_or(false));
    attribute_begin_.push_back(static_cast<Index>(attributes_.size()));
    capacity_begin_.push_back(static_cast<Index>(capacities_.size()));
    for (const auto& [name, a] : d.attributes) {
      cel::QualifiedName q = cel::SplitQualifiedName(name, s.driver);
      Attribute out{q.domain, q.id, {}};
      cel::AttributeValueView& v = out.value;
      // The first member that is set wins, in the API's declaration order.
      if (a.int_value) {
        v.kind = Kind::kInt;
        v.int_value = *a.int_value;
      } else if (a.bool_value) {
        v.kind = Kind::kBool;
        v.bool_value = *a.bool_value;
      } else if (a.string_value) {
        v.kind = Kind::kString;
        v.string_value = *a.string_value;
      } else if (a.version_value) {
        v.kind = Kind::kVersion;
        v.string_value = *a.version_value;
      } else if (!a.int_values.nil()) {
        v.kind = Kind::kInts;
        v.ints = std::span<const std::int64_t>(a.int_values.data(), a.int_values.size());
      } else if (!a.bool_values.nil()) {
        v.kind = Kind::kBools;
        bool* first = bools_.get() + next_bool;
        for (bool b : a.bool_values) bools_[next_bool++] = b;
        v.bools = std::span<const bool>(first, a.bool_values.size());
      } else if (!a.string_values.nil() || !a.version_values.nil()) {
        const bool strings = !a.string_values.nil();
        const auto& list = strings ? a.string_values : a.version_values;
        v.kind = strings ? Kind::kStrings : Kind::kVersions;
        const std::size_t first = strings_.size();
        strings_.insert(strings_.end(), list.begin(), list.end());
        v.strings = std::span<const std::string_view>(strings_.data() + first, list.size());
      }
      attributes_.push_back(out);
    }
    for (const auto& [name, capacity] : d.capacity) {
      cel::QualifiedName q = cel::SplitQualifiedName(name, s.driver);
      capacities_.push_back({q.domain, q.id, &capacity.value});
    }
  }
  attribute_begin_.push_back(static_cast<Index>(attributes_.size()));
  capacity_begin_.push_back(static_cast<Index>(capacities_.size()));
}

std::size_t DeviceTable::bytes() const {
  return drivers_.capacity() * sizeof(std::string_view) + multiple_.capacity() +
         (attribute_begin_.capacity() + capacity_begin_.capacity()) * sizeof(Index) +
         attributes_.capacity() * sizeof(Attribute) + capacities_.capacity() * sizeof(Capacity) +
         strings_.capacity() * sizeof(std::string_view) + bool_count_;
}

const cel::AttributeValueView* DeviceTable::View::FindAttribute(std::string_view domain,
                                                                std::string_view id) const {
  const auto& t = *table_;
  for (Index i = t.attribute_begin_[device_]; i < t.attribute_begin_[device_ + 1]; ++i) {
    const Attribute& a = t.attributes_[i];
    if (a.id == id && a.domain == domain) return &a.value;
  }
  return nullptr;
}

const api::Quantity* DeviceTable::View::FindCapacity(std::string_view domain,
                                                     std::string_view id) const {
  const auto& t = *table_;
  for (Index i = t.capacity_begin_[device_]; i < t.capacity_begin_[device_ + 1]; ++i) {
    const Capacity& c = t.capacities_[i];
    if (c.id == id && c.domain == domain) return c.value;
  }
  return nullptr;
}

std::size_t DeviceTable::View::attribute_count() const {
  return table_->attribute_begin_[device_ + 1] - table_->attribute_begin_[device_];
}
std::string_view DeviceTable::View::attribute_domain(std::size_t i) const {
  return table_->attributes_[table_->attribute_begin_[device_] + i].domain;
}
std::string_view DeviceTable::View::attribute_id(std::size_t i) const {
  return table_->attributes_[table_->attribute_begin_[device_] + i].id;
}
std::size_t DeviceTable::View::capacity_count() const {
  return table_->capacity_begin_[device_ + 1] - table_->capacity_begin_[device_];
}
std::string_view DeviceTable::View::capacity_domain(std::size_t i) const {
  return table_->capacities_[table_->capacity_begin_[device_] + i].domain;
}
std::string_view DeviceTable::View::capacity_id(std::size_t i) const {
  return table_->capacities_[table_->capacity_begin_[device_] + i].id;
}

}  // namespace dra::allocator
