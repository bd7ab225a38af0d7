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

Inventory::Inventory(Snapshot snapshot) : snapshot_(std::move(snapshot)) {
  ApplyTaintRules();
  IndexSlices();
  MarkInUse();
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
  for (const api::ResourceSlice& s : snapshot_.slices) {
    auto [it, inserted] = pool_ids.try_emplace(s.spec.driver + '\0' + s.spec.pool.name,
                                               static_cast<Index>(pool_names_.size()));
    if (inserted) {
      pool_names_.push_back({s.spec.driver, s.spec.pool.name});
      pool_slices_.emplace_back();
    }
    Index slice_index = static_cast<Index>(slices_.size());
    pool_slices_[it->second].push_back(slice_index);
    slices_.push_back({&s, it->second, static_cast<Index>(devices_.size()),
                       static_cast<Index>(s.spec.devices.size())});
    if (s.spec.node_name && !s.spec.node_name->empty()) {
      slices_by_node_[*s.spec.node_name].push_back(slice_index);
    } else {
      shared_slices_.push_back(slice_index);
    }
    for (const api::Device& d : s.spec.devices) {
      DeviceRecord r{&d,
                     slice_index,
                     false,
                     false,
                     !d.binding_conditions.empty(),
                     std::make_unique<cel::ApiDeviceView>(d, s.spec.driver),
                     Status()};
      r.attributes = cel::ValidateDeviceAttributes(*r.view);
      devices_.push_back(std::move(r));
    }
  }
  for (const api::DeviceClass& c : snapshot_.classes) classes_.emplace(c.metadata.name, &c);
}

// How the scheduler turns allocated claims into the allocator's state (spec
// 1.1): admin-access results never block; shares of multi-allocatable devices
// (shareID) only count as "in use".
void Inventory::MarkInUse() {
  std::unordered_set<std::string> exclusive, used;
  std::unordered_map<std::string, CapacityMap> aggregated;
  for (const api::ResourceClaim& claim : snapshot_.allocated_claims) {
    if (!claim.status.allocation) continue;
    for (const auto& r : claim.status.allocation->devices.results) {
      if (r.admin_access.value_or(false)) continue;
      std::string key = Key(r.driver, r.pool, r.device);
      if (snapshot_.features.consumable_capacity && r.share_id) {
        if (!r.consumed_capacity.empty()) {
          CapacityMap& sum = aggregated[key];
          for (const auto& [name, q] : r.consumed_capacity) sum[name] = sum[name].Add(q);
        }
      } else {
        exclusive.insert(key);
      }
      used.insert(std::move(key));
    }
  }
  if (used.empty()) return;
  for (Index i = 0; i < devices_.size(); ++i) {
    DeviceRecord& d = devices_[i];
    const api::ResourceSlice& s = *slices_[d.slice].slice;
    std::string key = Key(s.spec.driver, s.spec.pool.name, d.device->name);
    d.allocated = exclusive.count(key) > 0;
    d.in_use = used.count(key) > 0;
    if (auto it = aggregated.find(key); it != aggregated.end()) aggregated_[i] = it->second;
  }
}

const CapacityMap* Inventory::aggregated_capacity(Index device) const {
  auto it = aggregated_.find(device);
  return it == aggregated_.end() ? nullptr : &it->second;
}

const std::vector<Index>& Inventory::node_slices(const std::string& node) const {
  auto it = slices_by_node_.find(node);
  return it == slices_by_node_.end() ? empty_ : it->second;
}

const api::DeviceClass* Inventory::FindClass(const std::string& name) const {
  auto it = classes_.find(name);
  return it == classes_.end() ? nullptr : it->second;
}

std::string Inventory::DeviceIdString(Index device) const {
  const api::ResourceSlice& s = *slices_[devices_[device].slice].slice;
  return Key(s.spec.driver, s.spec.pool.name, devices_[device].device->name);
}

}  // namespace dra::allocator
