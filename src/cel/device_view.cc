#include "dra/cel/device_view.h"

#include "cel/semver.h"

namespace dra::cel {

QualifiedName SplitQualifiedName(std::string_view name, std::string_view driver) {
  std::size_t slash = name.find('/');
  if (slash == std::string_view::npos) return {driver, name};
  return {name.substr(0, slash), name.substr(slash + 1)};
}

Status ValidateDeviceAttributes(const DeviceView& device) {
  for (std::size_t i = 0; i < device.attribute_count(); ++i) {
    std::string_view domain = device.attribute_domain(i);
    std::string_view id = device.attribute_id(i);
    const AttributeValueView* a = device.FindAttribute(domain, id);
    std::string name =
        domain == device.driver() ? std::string(id) : std::string(domain) + "/" + std::string(id);
    if (a == nullptr || a->kind == AttributeValueView::Kind::kUnset) {
      return Error{"attribute " + name + ": unsupported attribute value"};
    }
    auto check = [&](std::string_view text) -> Status {
      auto parsed = ParseSemver(text);
      if (!parsed)
        return parsed.failure().WithPrefix("attribute " + name + ": parse semantic version: ");
      return Status::Ok();
    };
    if (a->kind == AttributeValueView::Kind::kVersion) {
      if (Status s = check(a->string_value); !s.ok()) return s;
    }
    if (a->kind == AttributeValueView::Kind::kVersions) {
      for (std::string_view v : a->strings) {
        if (Status s = check(v); !s.ok()) return s;
      }
    }
  }
  return Status::Ok();
}

struct SimpleDevice::Attribute {
  std::string domain;
  std::string id;
  AttributeValueView view;
  // Storage the view points into.
  std::string text;
  std::vector<std::int64_t> ints;
  std::unique_ptr<bool[]> bools;
  std::vector<std::string> strings;
  std::vector<std::string_view> string_views;
};

struct SimpleDevice::Capacity {
  std::string domain;
  std::string id;
  api::Quantity value;
};

SimpleDevice::SimpleDevice(std::string driver, bool allow_multiple_allocations)
    : driver_(std::move(driver)), allow_multiple_allocations_(allow_multiple_allocations) {}

SimpleDevice::~SimpleDevice() = default;

SimpleDevice::Attribute& SimpleDevice::Add(std::string_view name, AttributeValueView::Kind kind) {
  QualifiedName q = SplitQualifiedName(name, driver_);
  auto a = std::make_unique<Attribute>();
  a->domain = std::string(q.domain);
  a->id = std::string(q.id);
  a->view.kind = kind;
  attributes_.push_back(std::move(a));
  return *attributes_.back();
}

SimpleDevice& SimpleDevice::AddInt(std::string_view name, std::int64_t v) {
  Add(name, AttributeValueView::Kind::kInt).view.int_value = v;
  return *this;
}

SimpleDevice& SimpleDevice::AddBool(std::string_view name, bool v) {
  Add(name, AttributeValueView::Kind::kBool).view.bool_value = v;
  return *this;
}

SimpleDevice& SimpleDevice::AddString(std::string_view name, std::string v) {
  Attribute& a = Add(name, AttributeValueView::Kind::kString);
  a.text = std::move(v);
  a.view.string_value = a.text;
  return *this;
}

SimpleDevice& SimpleDevice::AddVersion(std::string_view name, std::string v) {
  Attribute& a = Add(name, AttributeValueView::Kind::kVersion);
  a.text = std::move(v);
  a.view.string_value = a.text;
  return *this;
}

SimpleDevice& SimpleDevice::AddInts(std::string_view name, std::vector<std::int64_t> v) {
  Attribute& a = Add(name, AttributeValueView::Kind::kInts);
  a.ints = std::move(v);
  a.view.ints = a.ints;
  return *this;
}

SimpleDevice& SimpleDevice::AddBools(std::string_view name, std::vector<bool> v) {
  Attribute& a = Add(name, AttributeValueView::Kind::kBools);
  a.bools = std::make_unique<bool[]>(v.size());
  for (std::size_t i = 0; i < v.size(); ++i) a.bools[i] = v[i];
  a.view.bools = std::span<const bool>(a.bools.get(), v.size());
  return *this;
}

namespace {

void SetStrings(std::vector<std::string> v, std::vector<std::string>* storage,
                std::vector<std::string_view>* views, AttributeValueView* view) {
  *storage = std::move(v);
  views->assign(storage->begin(), storage->end());
  view->strings = *views;
}

}  // namespace

SimpleDevice& SimpleDevice::AddStrings(std::string_view name, std::vector<std::string> v) {
  Attribute& a = Add(name, AttributeValueView::Kind::kStrings);
  SetStrings(std::move(v), &a.strings, &a.string_views, &a.view);
  return *this;
}

SimpleDevice& SimpleDevice::AddVersions(std::string_view name, std::vector<std::string> v) {
  Attribute& a = Add(name, AttributeValueView::Kind::kVersions);
  SetStrings(std::move(v), &a.strings, &a.string_views, &a.view);
  return *this;
}

SimpleDevice& SimpleDevice::AddUnset(std::string_view name) {
  Add(name, AttributeValueView::Kind::kUnset);
  return *this;
}

SimpleDevice& SimpleDevice::AddCapacity(std::string_view name, api::Quantity q) {
  QualifiedName n = SplitQualifiedName(name, driver_);
  auto c = std::make_unique<Capacity>();
  c->domain = std::string(n.domain);
  c->id = std::string(n.id);
  c->value = std::move(q);
  capacities_.push_back(std::move(c));
  return *this;
}

const AttributeValueView* SimpleDevice::FindAttribute(std::string_view domain,
                                                      std::string_view id) const {
  for (const auto& a : attributes_) {
    if (a->id == id && a->domain == domain) return &a->view;
  }
  return nullptr;
}

const api::Quantity* SimpleDevice::FindCapacity(std::string_view domain,
                                                std::string_view id) const {
  for (const auto& c : capacities_) {
    if (c->id == id && c->domain == domain) return &c->value;
  }
  return nullptr;
}

std::string_view SimpleDevice::attribute_domain(std::size_t i) const {
  return attributes_[i]->domain;
}
std::string_view SimpleDevice::attribute_id(std::size_t i) const { return attributes_[i]->id; }
std::string_view SimpleDevice::capacity_domain(std::size_t i) const {
  return capacities_[i]->domain;
}
std::string_view SimpleDevice::capacity_id(std::size_t i) const { return capacities_[i]->id; }

}  // namespace dra::cel
