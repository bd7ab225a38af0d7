#include "allocator/inventory.h"

#include <utility>

namespace dra::allocator {
namespace {

std::string Key(std::string_view driver, std::string_view pool, std::string_view device) {
  std::string k;
  k.reserve(driver.size() + pool.size() + device.size() + 2);
  k.append(driver).append(1, '/').append(pool).append(1, '/').append(device);
  return k;
}

}  // namespace

Variant ChooseVariant(const Features& f) {
  if (f.list_type_attributes || f.optional_node_operations) return Variant::kExperimental;
  if (f.device_binding_and_status || f.consumable_capacity || f.fractional_capacity_range) {
    return Variant::kIncubating;
  }
  return Variant::kStable;
}

Inventory::Inventory(Snapshot snapshot)
    : snapshot_(std::move(snapshot)), variant_(ChooseVariant(snapshot_.features)) {
  ApplyTaintRules();
  IndexSlices();
}

// The scheduler's slice tracker appends each rule's taint to the devices it
// selects; unset selector fields are wildcards (spec 12.3).
void Inventory::ApplyTaintRules() {
  for (const api::DeviceTaintRule& rule : snapshot_.taint_rules) {
    const auto& sel = rule.spec.device_selector;
    for (api::ResourceSlice& slice : snapshot_.slices) {
      if (sel && sel->driver && *sel->driver != slice.spec.driver) continue;
      if (sel && sel->pool && *sel->pool != slice.spec.pool.name) continue;
      for (api::Device& device : slice.spec.devices) {
        if (sel && sel->device && *sel->device != device.name) continue;
        device.taints.push_back(rule.spec.taint);
      }
    }
  }
}

void Inventory::IndexSlices() {
  std::unordered_map<std::string, Index> pool_ids;
  std::size_t total = 0;
  for (const api::ResourceSlice& s : snapshot_.slices) total += s.spec.devices.size();
  devices_.reserve(total);
  slices_.reserve(snapshot_.slices.size());
  device_ids_.reserve(total);
  same_id_next_.assign(total, kNoIndex);
  std::vector<DeviceTable::Source> sources;
  sources.reserve(total);
  // Tail of each duplicate-ID chain, keyed by its first device.
  std::unordered_map<Index, Index> chain_tail;
  for (const api::ResourceSlice& s : snapshot_.slices) {
    auto [it, inserted] = pool_ids.try_emplace(s.spec.driver + '\0' + s.spec.pool.name,
                                               static_cast<Index>(pool_names_.size()));
    if (inserted) {
      pool_names_.push_back({s.spec.driver, s.spec.pool.name});
      pool_slices_.emplace_back();
    }
    const Index slice_index = static_cast<Index>(slices_.size());
    pool_slices_[it->second].push_back(slice_index);
    const bool has_counters = !s.spec.shared_counters.empty();
    slices_.push_back({&s, it->second, static_cast<Index>(devices_.size()),
                       static_cast<Index>(s.spec.devices.size()), has_counters});
    if (s.spec.node_name && !s.spec.node_name->empty()) {
      slices_by_node_[*s.spec.node_name].push_back(slice_index);
    } else {
      shared_slices_.push_back(slice_index);
    }
    if (has_counters) counter_slices_.push_back(slice_index);
    for (const api::Device& d : s.spec.devices) {
      const Index index = static_cast<Index>(devices_.size());
      devices_.push_back({&d, slice_index, !d.binding_conditions.empty(), Status()});
      sources.push_back({&d, s.spec.driver});
      auto [id, fresh] =
          device_ids_.try_emplace(Key(s.spec.driver, s.spec.pool.name, d.name), index);
      if (!fresh) {
        auto tail = chain_tail.try_emplace(id->second, id->second).first;
        same_id_next_[tail->second] = index;
        tail->second = index;
      }
    }
  }
  table_ = std::make_unique<DeviceTable>(sources, variant_ == Variant::kStable);
  for (Index d = 0; d < devices_.size(); ++d) {
    devices_[d].attributes = cel::ValidateDeviceAttributes(table_->view(d));
  }
  for (const api::DeviceClass& c : snapshot_.classes) classes_.emplace(c.metadata.name, &c);
}

const std::vector<Index>& Inventory::node_slices(const std::string& node) const {
  auto it = slices_by_node_.find(node);
  return it == slices_by_node_.end() ? empty_ : it->second;
}

const api::DeviceClass* Inventory::FindClass(const std::string& name) const {
  auto it = classes_.find(name);
  return it == classes_.end() ? nullptr : it->second;
}

Index Inventory::FindDevice(std::string_view driver, std::string_view pool,
                            std::string_view device) const {
  auto it = device_ids_.find(Key(driver, pool, device));
  return it == device_ids_.end() ? kNoIndex : it->second;
}

std::string Inventory::DeviceIdString(Index device) const {
  const api::ResourceSlice& s = *slices_[devices_[device].slice].slice;
  return Key(s.spec.driver, s.spec.pool.name, devices_[device].device->name);
}

std::size_t Inventory::bytes() const {
  std::size_t ids = 0;
  for (const auto& [k, _] : device_ids_)
    ids += k.capacity() + 1 + 2 * sizeof(void*) + sizeof(Index);
  return slices_.capacity() * sizeof(SliceRecord) + devices_.capacity() * sizeof(DeviceRecord) +
         same_id_next_.capacity() * sizeof(Index) + ids + table_->bytes();
}

}  // namespace dra::allocator
