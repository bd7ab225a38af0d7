#include "dra/cel/api_device_view.h"

namespace dra::cel {

struct ApiDeviceView::Attribute {
  QualifiedName name;
  AttributeValueView view;
  AttributeViewStorage storage;
};

AttributeValueView ViewAttribute(const api::DeviceAttribute& value, AttributeViewStorage& storage) {
  using Kind = AttributeValueView::Kind;
  AttributeValueView v;
  if (value.int_value) {
    v.kind = Kind::kInt;
    v.int_value = *value.int_value;
  } else if (value.bool_value) {
    v.kind = Kind::kBool;
    v.bool_value = *value.bool_value;
  } else if (value.string_value) {
    v.kind = Kind::kString;
    v.string_value = *value.string_value;
  } else if (value.version_value) {
    v.kind = Kind::kVersion;
    v.string_value = *value.version_value;
  } else if (!value.int_values.nil()) {
    v.kind = Kind::kInts;
    v.ints = std::span<const std::int64_t>(value.int_values.data(), value.int_values.size());
  } else if (!value.bool_values.nil()) {
    v.kind = Kind::kBools;
    storage.bools = std::make_unique<bool[]>(value.bool_values.size());
    for (std::size_t i = 0; i < value.bool_values.size(); ++i) {
      storage.bools[i] = value.bool_values[i];
    }
    v.bools = std::span<const bool>(storage.bools.get(), value.bool_values.size());
  } else if (!value.string_values.nil() || !value.version_values.nil()) {
    const bool strings = !value.string_values.nil();
    const auto& list = strings ? value.string_values : value.version_values;
    v.kind = strings ? Kind::kStrings : Kind::kVersions;
    storage.strings.assign(list.begin(), list.end());
    v.strings = std::span<const std::string_view>(storage.strings.data(), storage.strings.size());
  }
  return v;
}

ApiDeviceView::ApiDeviceView(const api::Device& device, std::string_view driver)
    : device_(device), driver_(driver) {
  attributes_.reserve(device.attributes.size());
  for (const auto& [name, value] : device.attributes) {
    auto a = std::make_unique<Attribute>();
    a->name = SplitQualifiedName(name, driver_);
    a->view = ViewAttribute(value, a->storage);
    attributes_.push_back(std::move(a));
  }
  capacities_.reserve(device.capacity.size());
  for (const auto& [name, capacity] : device.capacity) {
    capacities_.push_back({SplitQualifiedName(name, driver_), &capacity.value});
  }
}

ApiDeviceView::~ApiDeviceView() = default;

bool ApiDeviceView::allow_multiple_allocations() const {
  return device_.allow_multiple_allocations.value_or(false);
}

const AttributeValueView* ApiDeviceView::FindAttribute(std::string_view domain,
                                                       std::string_view id) const {
  for (const auto& a : attributes_) {
    if (a->name.id == id && a->name.domain == domain) return &a->view;
  }
  return nullptr;
}

const api::Quantity* ApiDeviceView::FindCapacity(std::string_view domain,
                                                 std::string_view id) const {
  for (const Capacity& c : capacities_) {
    if (c.name.id == id && c.name.domain == domain) return c.value;
  }
  return nullptr;
}

std::string_view ApiDeviceView::attribute_domain(std::size_t i) const {
  return attributes_[i]->name.domain;
}
std::string_view ApiDeviceView::attribute_id(std::size_t i) const {
  return attributes_[i]->name.id;
}
std::string_view ApiDeviceView::capacity_domain(std::size_t i) const {
  return capacities_[i].name.domain;
}
std::string_view ApiDeviceView::capacity_id(std::size_t i) const { return capacities_[i].name.id; }

}  // namespace dra::cel
