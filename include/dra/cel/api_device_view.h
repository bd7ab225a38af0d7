// A DeviceView over a resource.k8s.io Device as decoded from a ResourceSlice,
// for tools and validation (the allocator keeps its own flat storage), and
// ViewAttribute, the one conversion of an API attribute to CEL's view, which
// both use.
#pragma once

#include <memory>
#include <string_view>
#include <vector>

#include "dra/api/resource.h"
#include "dra/cel/device_view.h"

namespace dra::cel {

// Storage that the list views of an AttributeValueView made by
// ViewAttribute point into, besides the API attribute itself.
struct AttributeViewStorage {
  std::unique_ptr<bool[]> bools;  // std::vector<bool> has no data()
  std::vector<std::string_view> strings;
};

// CEL's view of an API attribute: the first member that is set wins, in the
// API's declaration order (as k8s.io/dynamic-resource-allocation cel/compile.go
// converts attributes); none set is Kind::kUnset.
// REQUIRES: `attribute` and `storage` outlive the view.
AttributeValueView ViewAttribute(const api::DeviceAttribute& attribute,
                                 AttributeViewStorage& storage);

class ApiDeviceView final : public DeviceView {
 public:
  // REQUIRES: `device` and `driver` outlive the view.
  ApiDeviceView(const api::Device& device, std::string_view driver);
  ~ApiDeviceView() override;
  ApiDeviceView(const ApiDeviceView&) = delete;
  ApiDeviceView& operator=(const ApiDeviceView&) = delete;

  std::string_view driver() const override { return driver_; }
  bool allow_multiple_allocations() const override;
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
  struct Capacity {
    QualifiedName name;
    const api::Quantity* value;
  };

  const api::Device& device_;
  std::string_view driver_;
  std::vector<std::unique_ptr<Attribute>> attributes_;
  std::vector<Capacity> capacities_;
};

}  // namespace dra::cel
