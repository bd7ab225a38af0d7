// The snapshot indexed once for many Allocate calls: slices and their devices
// in flat arrays, pools interned to integers, slices indexed by node name, the
// allocated-device set as a flag per device, and one CEL view per device.
#pragma once

#include <cstdint>
#include <memory>
#include <string>
#include <unordered_map>
#include <unordered_set>
#include <vector>

#include "allocator/capacity.h"
#include "dra/allocator/allocator.h"
#include "dra/cel/api_device_view.h"
#include "dra/util/result.h"

namespace dra::allocator {

using Index = std::uint32_t;

struct SliceRecord {
  const api::ResourceSlice* slice;
  Index pool;          // into Inventory::pools
  Index first_device;  // devices [first_device, first_device + device_count)
  Index device_count;
};

struct DeviceRecord {
  const api::Device* device;
  Index slice;
  bool allocated;  // exclusively allocated to a claim in use
  // Any use at all (exclusive, shared or with consumed capacity): such devices
  // reduce the available shared counters (spec 10.2).
  bool in_use;
  bool has_binding_conditions;  // non-empty bindingConditions
  std::unique_ptr<cel::ApiDeviceView> view;
  // Upstream converts all attributes before evaluating a selector; a failure
  // is the outcome of every selector evaluated on the device.
  Status attributes;
};

struct PoolName {
  std::string driver;
  std::string name;
};

class Inventory {
 public:
  explicit Inventory(Snapshot snapshot);

  const Snapshot& snapshot() const { return snapshot_; }
  const Features& features() const { return snapshot_.features; }
  const std::vector<SliceRecord>& slices() const { return slices_; }
  const std::vector<DeviceRecord>& devices() const { return devices_; }
  const PoolName& pool_name(Index pool) const { return pool_names_[pool]; }
  std::size_t pool_count() const { return pool_names_.size(); }
  // Slices of a pool, all nodes, in input order.
  const std::vector<Index>& pool_slices(Index pool) const { return pool_slices_[pool]; }
  // Slices with this spec.nodeName, in input order.
  const std::vector<Index>& node_slices(const std::string& node) const;
  // Slices without spec.nodeName, in input order.
  const std::vector<Index>& shared_slices() const { return shared_slices_; }
  const api::DeviceClass* FindClass(const std::string& name) const;
  // "driver/pool/device", as upstream prints device IDs.
  std::string DeviceIdString(Index device) const;
  // What shares of a multi-allocatable device recorded as consumed capacity
  // in claims in use; null when none (spec 1.1 "aggregated capacity").
  const CapacityMap* aggregated_capacity(Index device) const;

 private:
  void ApplyTaintRules();
  void IndexSlices();
  void MarkInUse();

  Snapshot snapshot_;
  std::vector<SliceRecord> slices_;
  std::vector<DeviceRecord> devices_;
  std::vector<PoolName> pool_names_;
  std::vector<std::vector<Index>> pool_slices_;
  std::unordered_map<std::string, std::vector<Index>> slices_by_node_;
  std::vector<Index> shared_slices_;
  std::unordered_map<std::string, const api::DeviceClass*> classes_;
  std::unordered_map<Index, CapacityMap> aggregated_;
  std::vector<Index> empty_;
};

}  // namespace dra::allocator
