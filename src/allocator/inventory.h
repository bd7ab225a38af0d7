// The snapshot indexed once for many Allocate calls: slices and their devices
// in flat arrays, pools interned to integers, slices indexed by node name,
// device IDs resolved to indices, and the CEL view of every device in one
// DeviceTable. Immutable after construction, so concurrent calls share it.
#pragma once

#include <cstdint>
#include <memory>
#include <string>
#include <string_view>
#include <unordered_map>
#include <vector>

#include "allocator/capacity.h"
#include "allocator/device_table.h"
#include "dra/allocator/allocator.h"
#include "dra/util/result.h"

namespace dra::allocator {

using Index = std::uint32_t;
inline constexpr Index kNoIndex = ~Index{0};

// Upstream ships three implementations and uses the first whose supported
// features include every enabled one (spec 15.2).
enum class Variant : std::uint8_t { kStable, kIncubating, kExperimental };
Variant ChooseVariant(const Features& features);

struct SliceRecord {
  const api::ResourceSlice* slice;
  Index pool;          // into Inventory::pools
  Index first_device;  // devices [first_device, first_device + device_count)
  Index device_count;
  bool has_counters;  // spec.sharedCounters non-empty
};

struct DeviceRecord {
  const api::Device* device;
  Index slice;
  bool has_binding_conditions;  // non-empty bindingConditions
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
  Variant variant() const { return variant_; }
  bool stable() const { return variant_ == Variant::kStable; }
  const std::vector<SliceRecord>& slices() const { return slices_; }
  const std::vector<DeviceRecord>& devices() const { return devices_; }
  const DeviceTable& table() const { return *table_; }
  const PoolName& pool_name(Index pool) const { return pool_names_[pool]; }
  std::size_t pool_count() const { return pool_names_.size(); }
  // Slices of a pool, all nodes, in input order.
  const std::vector<Index>& pool_slices(Index pool) const { return pool_slices_[pool]; }
  // Slices with this spec.nodeName, in input order.
  const std::vector<Index>& node_slices(const std::string& node) const;
  // Slices without spec.nodeName, in input order.
  const std::vector<Index>& shared_slices() const { return shared_slices_; }
  // Slices publishing shared counters, in input order.
  const std::vector<Index>& counter_slices() const { return counter_slices_; }
  const api::DeviceClass* FindClass(const std::string& name) const;
  // The first device with this ID (kNoIndex when none); duplicates (only in
  // invalid pools) follow through next_same_id().
  Index FindDevice(std::string_view driver, std::string_view pool, std::string_view device) const;
  Index next_same_id(Index device) const { return same_id_next_[device]; }
  // "driver/pool/device", as upstream prints device IDs.
  std::string DeviceIdString(Index device) const;
  // Approximate heap bytes of the index (excluding the snapshot's own objects).
  std::size_t bytes() const;

 private:
  void ApplyTaintRules();
  void IndexSlices();

  Snapshot snapshot_;
  Variant variant_;
  std::vector<SliceRecord> slices_;
  std::vector<DeviceRecord> devices_;
  std::unique_ptr<DeviceTable> table_;
  std::vector<PoolName> pool_names_;
  std::vector<std::vector<Index>> pool_slices_;
  std::unordered_map<std::string, std::vector<Index>> slices_by_node_;
  std::vector<Index> shared_slices_;
  std::vector<Index> counter_slices_;
  std::unordered_map<std::string, const api::DeviceClass*> classes_;
  std::unordered_map<std::string, Index> device_ids_;
  std::vector<Index> same_id_next_;
  std::vector<Index> empty_;
};

}  // namespace dra::allocator
