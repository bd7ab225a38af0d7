// The snapshot indexed once for many Allocate calls: slices and their devices
// in flat arrays, pools interned to integers, slices indexed by node name,
// device IDs resolved to indices, and the CEL view of every device in one
// DeviceTable. The index owns compact copies of what the allocator reads, so
// the snapshot's ResourceSlices are dropped once indexed. Immutable after
// construction, so concurrent calls share it.
#pragma once

#include <cstdint>
#include <memory>
#include <optional>
#include <span>
#include <string>
#include <string_view>
#include <unordered_map>
#include <unordered_set>
#include <vector>

#include "allocator/capacity.h"
#include "allocator/chunked.h"
#include "allocator/device_table.h"
#include "dra/allocator/allocator.h"
#include "dra/util/result.h"

namespace dra::allocator {

using Index = std::uint32_t;
inline constexpr Index kNoIndex = ~Index{0};

// Upstream ships three implementations (structured/internal/{stable,incubating,experimental})
// and uses the first, in that order, whose supported features include every enabled one.
enum class Variant : std::uint8_t { kStable, kIncubating, kExperimental };
Variant ChooseVariant(const Features& features);

// The parts of a ResourceSlice that most slices do not set.
struct SliceExtra {
  std::optional<api::NodeSelector> node_selector;
  api::List<api::CounterSet> shared_counters;
};

// What the allocator reads of a ResourceSlice; driver and pool name are the
// pool's (Inventory::pool_name), node selector and counter sets in
// Inventory::slice_extra.
struct SliceRecord {
  std::string_view name;  // metadata.name, in the inventory's texts
  Index pool;             // into Inventory::pools
  Index first_device;     // devices [first_device, first_device + device_count)
  Index device_count;
  bool has_counters;  // spec.sharedCounters non-empty
  std::optional<bool> per_device_node_selection;
  std::optional<bool> all_nodes;
  std::int64_t generation;
  std::int64_t resource_slice_count;
  std::optional<std::string_view> node_name;  // in the inventory's texts
  Index extra;                                // into the Inventory's slice extras; kNoIndex: none
};

// A device's fields that most devices do not set; devices without any share
// one empty instance, and equal ones are stored once.
struct DeviceExtra {
  api::List<api::DeviceCounterConsumption> consumes_counters;
  std::optional<std::string> node_name;
  std::optional<api::NodeSelector> node_selector;
  std::optional<bool> all_nodes;
  api::List<api::DeviceTaint> taints;
  api::List<std::string> binding_conditions;
  api::List<std::string> binding_failure_conditions;
};

struct DeviceRecord {
  Index name_id;  // its name: Inventory::device_name (names are few, devices many)
  Index slice;
  Index extra;                  // into the Inventory's extras; kNoIndex: none
  Index attribute_error;        // into the Inventory's errors; kNoIndex: none
  bool has_binding_conditions;  // non-empty bindingConditions
  bool allow_multiple_allocations;
  bool binds_to_node;
  bool consumes_counters;  // non-empty consumesCounters
};

struct PoolName {
  std::string_view driver;  // interned
  std::string name;
};

class Inventory {
 public:
  explicit Inventory(Snapshot snapshot);

  // The snapshot's classes, claims and taint rules (its slices are indexed
  // and dropped).
  const Snapshot& snapshot() const { return snapshot_; }
  const Features& features() const { return snapshot_.features; }
  Variant variant() const { return variant_; }
  bool stable() const { return variant_ == Variant::kStable; }
  const std::vector<SliceRecord>& slices() const { return slices_; }
  const std::vector<DeviceRecord>& devices() const { return devices_; }
  const DeviceExtra& extra(Index device) const {
    const Index e = devices_[device].extra;
    return e == kNoIndex ? kNoExtra : extras_[e];
  }
  // Upstream converts all attributes before evaluating a selector; a failure
  // is the outcome of every selector evaluated on the device. Null when none.
  const std::string* attribute_error(Index device) const {
    const Index e = devices_[device].attribute_error;
    return e == kNoIndex ? nullptr : &attribute_errors_[e];
  }
  const SliceExtra& slice_extra(Index slice) const {
    const Index e = slices_[slice].extra;
    return e == kNoIndex ? kNoSliceExtra : slice_extras_[e];
  }
  std::string_view device_name(Index device) const {
    return device_names_[devices_[device].name_id];
  }
  std::string_view driver(Index device) const {
    return pool_names_[slices_[devices_[device].slice].pool].driver;
  }
  const DeviceTable& table() const { return *table_; }
  const PoolName& pool_name(Index pool) const { return pool_names_[pool]; }
  std::size_t pool_count() const { return pool_names_.size(); }
  // Slices of a pool, all nodes, in input order.
  std::span<const Index> pool_slices(Index pool) const {
    return {pool_slices_.data() + pool_slice_begin_[pool],
            pool_slices_.data() + pool_slice_begin_[pool + 1]};
  }
  // Slices with this spec.nodeName, in input order.
  std::span<const Index> node_slices(std::string_view node) const;
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
  // Approximate heap bytes of the index.
  std::size_t bytes() const;

 private:
  static const DeviceExtra kNoExtra;
  static const SliceExtra kNoSliceExtra;

  // What only recording needs.
  struct Recording {
    std::unordered_map<std::string, Index> pool_ids;  // driver '\0' pool name
    std::unordered_multimap<std::size_t, Index> distinct_extras;
    std::unordered_map<std::string_view, Index> name_ids;  // into device_names_
  };
  void RecordSlice(api::ResourceSlice& slice, Recording& recording);
  // Indexes the recorded slices; its steps, in order:
  void IndexSlices();
  void RecordAttributeErrors();
  void GroupByPool();
  void SortByName();
  std::string_view Intern(const std::string& s);
  Index AddExtra(const api::Device& device, std::unordered_multimap<std::size_t, Index>& distinct);

  Snapshot snapshot_;
  Variant variant_;
  std::unordered_set<std::string> strings_;  // interned names; nodes never move
  // Texts each record has its own of (slice and node names), back to back
  // in blocks that never move: a std::string per slice took a block of
  // the heap for each name longer than 15 bytes.
  Chunked<char, 16384> texts_;
  std::vector<SliceRecord> slices_;
  std::vector<SliceExtra> slice_extras_;
  std::vector<DeviceRecord> devices_;
  std::vector<std::string_view> device_names_;  // distinct, interned
  std::vector<DeviceExtra> extras_;
  std::vector<std::string> attribute_errors_;
  std::unique_ptr<DeviceTable> table_;
  std::vector<PoolName> pool_names_;
  // Pools sorted by (driver, name), for FindDevice.
  std::vector<Index> pools_by_name_;
  // Pool p's slices are pool_slices_[pool_slice_begin_[p] .. pool_slice_begin_[p + 1]).
  std::vector<Index> pool_slice_begin_;
  std::vector<Index> pool_slices_;
  // Pool p's devices sorted by name, equal names in input order, at
  // pool_devices_[pool_device_begin_[p] .. pool_device_begin_[p + 1]).
  std::vector<Index> pool_device_begin_;
  std::vector<Index> pool_devices_;
  // Slices with a non-empty spec.nodeName, sorted by it, then input order.
  std::vector<Index> slices_by_node_;
  std::vector<Index> shared_slices_;
  std::vector<Index> counter_slices_;
  std::unordered_map<std::string, const api::DeviceClass*> classes_;
  std::vector<Index> same_id_next_;
};

}  // namespace dra::allocator
