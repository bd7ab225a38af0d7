// Inventory -> ResourceSlices (the contract of k8s.io/dynamic-resource-allocation
// resourceslice/resourceslicecontroller.go).
#include <algorithm>
#include <cstdio>
#include <map>
#include <set>

#include "dra/driver/slice_publisher.h"

namespace dra::driver {
namespace {

constexpr std::size_t kMaxDevices = 128;
constexpr std::size_t kMaxDevicesHeavy = 64;  // taints, counters or list attributes
constexpr std::size_t kMaxCounterSets = 8;

bool IsHeavy(const api::Device& d) {
  if (!d.taints.empty() || !d.consumes_counters.empty()) return true;
  for (const auto& [name, a] : d.attributes) {
    if (!a.int_values.nil() || !a.bool_values.nil() || !a.string_values.nil() ||
        !a.version_values.nil()) {
      return true;
    }
  }
  return false;
}

std::vector<std::vector<std::size_t>> AutoSplit(const std::vector<api::Device>& devices) {
  std::vector<std::vector<std::size_t>> out;
  std::vector<std::size_t> current;
  bool heavy = false;
  for (std::size_t i = 0; i < devices.size(); ++i) {
    bool h = IsHeavy(devices[i]);
    std::size_t limit = (heavy || h) ? kMaxDevicesHeavy : kMaxDevices;
    if (current.size() >= limit) {
      out.push_back(std::move(current));
      current.clear();
      heavy = false;
    }
    current.push_back(i);
    heavy = heavy || h;
  }
  if (!current.empty()) out.push_back(std::move(current));
  return out;
}

std::string Hex(std::size_t index, std::size_t width) {
  char buf[32];
  std::snprintf(buf, sizeof buf, "%0*zx", static_cast<int>(width), index);
  return buf;
}

std::size_t HexDigits(std::size_t v) {
  std::size_t n = 1;
  while (v >= 16) {
    v /= 16;
    ++n;
  }
  return n;
}

// The index encoded in an existing slice's name, or -1.
long ParseIndex(const std::string& name, std::size_t width) {
  auto dash = name.find('-');
  if (dash != width) return -1;
  long v = 0;
  for (std::size_t i = 0; i < dash; ++i) {
    char c = name[i];
    int d = (c >= '0' && c <= '9') ? c - '0' : (c >= 'a' && c <= 'f') ? c - 'a' + 10 : -1;
    if (d < 0) return -1;
    v = v * 16 + d;
  }
  return v;
}

Status CheckPool(const std::string& pool_name, const Pool& pool) {
  std::set<std::string> devices, sets;
  std::map<std::string, std::set<std::string>> counters;
  for (const auto& s : pool.shared_counters) {
    if (!sets.insert(s.name).second) {
      return Error{"pool " + pool_name + ": duplicate counter set " + s.name};
    }
    for (const auto& [c, v] : s.counters) counters[s.name].insert(c);
  }
  for (const auto& d : pool.devices) {
    if (!devices.insert(d.name).second)
      return Error{"pool " + pool_name + ": duplicate device " + d.name};
    for (const auto& use : d.consumes_counters) {
      auto it = counters.find(use.counter_set);
      if (it == counters.end()) {
        return Error{"pool " + pool_name + ": device " + d.name + " consumes unknown counter set " +
                     use.counter_set};
      }
      for (const auto& [c, v] : use.counters) {
        if (it->second.count(c) == 0) {
          std::string message = "pool " + pool_name;
          message += ": device " + d.name;
          message += " consumes unknown counter ";
          message += use.counter_set;
          message += "/";
          return Error{message + c};
        }
      }
    }
  }
  for (const auto& slice : pool.slices) {
    for (auto i : slice) {
      if (i >= pool.devices.size())
        return Error{"pool " + pool_name + ": slice index out of range"};
    }
  }
  return {};
}

void KeepTaintTimes(api::ResourceSliceSpec& desired, const api::ResourceSliceSpec& published) {
  std::map<std::string_view, const api::Device*> by_name;
  for (const auto& d : published.devices) by_name.emplace(d.name, &d);
  for (auto& d : desired.devices) {
    auto it = by_name.find(d.name);
    if (it == by_name.end()) continue;
    for (auto& taint : d.taints) {
      if (taint.time_added.set) continue;
      for (const auto& old : it->second->taints) {
        if (old.key == taint.key && old.value == taint.value && old.effect == taint.effect) {
          taint.time_added = old.time_added;
        }
      }
    }
  }
}

// Desired slice specs, counters first (they may not share a slice with devices).
std::vector<api::ResourceSliceSpec> DesiredSpecs(const Pool& pool) {
  std::vector<api::ResourceSliceSpec> desired;
  for (std::size_t i = 0; i < pool.shared_counters.size(); i += kMaxCounterSets) {
    api::ResourceSliceSpec spec;
    spec.shared_counters.set_present();
    for (std::size_t j = i; j < std::min(i + kMaxCounterSets, pool.shared_counters.size()); ++j) {
      spec.shared_counters.push_back(pool.shared_counters[j]);
    }
    desired.push_back(std::move(spec));
  }
  auto split = pool.slices.empty() ? AutoSplit(pool.devices) : pool.slices;
  for (const auto& indexes : split) {
    api::ResourceSliceSpec spec;
    spec.devices.set_present();
    for (auto i : indexes) spec.devices.push_back(pool.devices[i]);
    desired.push_back(std::move(spec));
  }
  if (desired.empty()) desired.emplace_back();  // an empty pool still shows the driver runs
  return desired;
}

Status CheckPlacement(const std::string& pool_name, const Pool& pool, const SliceOwner& owner) {
  int placements = (pool.node_selector ? 1 : 0) + (pool.all_nodes ? 1 : 0) +
                   (pool.per_device_node_selection ? 1 : 0);
  if (owner.node_name.empty() && placements != 1) {
    return Error{"pool " + pool_name +
                 ": a network-attached pool needs exactly one of nodeSelector, allNodes and "
                 "perDeviceNodeSelection"};
  }
  return {};
}

void SetPoolFields(std::vector<api::ResourceSliceSpec>& desired, const std::string& driver_name,
                   const std::string& pool_name, const SliceOwner& owner, const Pool& pool) {
  for (auto& spec : desired) {
    spec.driver = driver_name;
    spec.pool.name = pool_name;
    spec.pool.resource_slice_count = static_cast<std::int64_t>(desired.size());
    if (!owner.node_name.empty()) spec.node_name = owner.node_name;
    spec.node_selector = pool.node_selector;
    if (pool.all_nodes) spec.all_nodes = true;
    if (pool.per_device_node_selection) spec.per_device_node_selection = true;
  }
}

// The published slices of a pool's current generation, by the index in their names.
struct Published {
  std::int64_t generation = 0;
  std::vector<const api::ResourceSlice*> by_index;  // null where none is published
};

Published MatchPublished(const std::vector<api::ResourceSlice>& existing,
                         const std::string& driver_name, const std::string& pool_name,
                         std::size_t count, std::size_t width) {
  std::int64_t current = 0;
  for (const auto& s : existing) {
    if (s.spec.driver == driver_name && s.spec.pool.name == pool_name) {
      current = std::max(current, s.spec.pool.generation);
    }
  }
  std::vector<const api::ResourceSlice*> matched(count, nullptr);
  for (const auto& s : existing) {
    if (s.spec.driver != driver_name || s.spec.pool.name != pool_name ||
        s.spec.pool.generation < current) {
      continue;
    }
    long index = ParseIndex(s.metadata.name, width);
    if (index < 0 || static_cast<std::size_t>(index) >= count || matched[index]) continue;
    matched[index] = &s;
  }
  return {current, std::move(matched)};
}

// The pool's next generation: the driver's own, else a new one when slices
// are created or more than one changes.
std::int64_t NextGeneration(const Pool& pool, const std::vector<api::ResourceSliceSpec>& desired,
                            const Published& published) {
  std::int64_t current = published.generation;
  const auto& matched = published.by_index;
  std::size_t creates = 0, changes = 0;
  for (std::size_t i = 0; i < desired.size(); ++i) {
    if (!matched[i]) {
      ++creates;
      continue;
    }
    api::ResourceSliceSpec candidate = desired[i];
    candidate.pool.generation = current;
    if (!(candidate == matched[i]->spec)) ++changes;
  }
  std::int64_t generation = current;
  if (pool.generation > current) {
    generation = pool.generation;
  } else if (creates > 0 || changes > 1) {
    generation = current + 1;
  }
  return generation;
}

// Slice metadata: the published slice's, or a generateName from the index.
api::ObjectMeta SliceMetadata(const api::ResourceSlice* published, std::size_t index,
                              std::size_t width, const std::string& driver_name,
                              const SliceOwner& owner) {
  api::ObjectMeta metadata;
  if (published) {
    metadata = published->metadata;
  } else {
    metadata.generate_name = Hex(index, width) + "-" + driver_name + "-";
    if (!owner.node_name.empty()) metadata.generate_name += owner.node_name + "-";
  }
  if (!owner.node_uid.empty()) {
    api::OwnerReference ref;
    ref.api_version = "v1";
    ref.kind = "Node";
    ref.name = owner.node_name;
    ref.uid = owner.node_uid;
    ref.controller = true;
    metadata.owner_references.clear();
    metadata.owner_references.push_back(ref);
  }
  return metadata;
}

}  // namespace

Result<std::vector<api::ResourceSlice>> BuildResourceSlices(
    const std::string& driver_name, const SliceOwner& owner, const Inventory& inventory,
    const std::vector<api::ResourceSlice>& existing) {
  std::vector<api::ResourceSlice> out;
  std::set<std::string> pool_names;
  for (const Pool& pool : inventory.pools) {
    // A kubelet plugin serves the network-attached pools it can prepare, but
    // their slices are the controller's to publish (controller.h).
    if (!owner.node_name.empty() &&
        (pool.node_selector || pool.all_nodes || pool.per_device_node_selection)) {
      continue;
    }
    std::string pool_name = pool.name.empty() ? owner.node_name : pool.name;
    if (pool_name.empty()) return Error{"a pool has no name and no node name is set"};
    if (!pool_names.insert(pool_name).second) return Error{"duplicate pool " + pool_name};
    if (auto s = CheckPool(pool_name, pool); !s.ok()) return s.failure();

    std::vector<api::ResourceSliceSpec> desired = DesiredSpecs(pool);
    if (auto s = CheckPlacement(pool_name, pool, owner); !s.ok()) return s.failure();
    SetPoolFields(desired, driver_name, pool_name, owner, pool);

    // Match existing slices of the pool's current generation by index.
    std::size_t width = std::max<std::size_t>(5, HexDigits(desired.size() - 1));
    Published published = MatchPublished(existing, driver_name, pool_name, desired.size(), width);
    // A taint the driver gives without timeAdded keeps the time it already
    // has in the published slice (set by the driver or stamped by the API
    // server), so republishing neither moves it nor counts as a change.
    for (std::size_t i = 0; i < desired.size(); ++i) {
      if (published.by_index[i]) KeepTaintTimes(desired[i], published.by_index[i]->spec);
    }
    std::int64_t generation = NextGeneration(pool, desired, published);

    for (std::size_t i = 0; i < desired.size(); ++i) {
      api::ResourceSlice slice;
      slice.type.kind = "ResourceSlice";
      slice.type.api_version = "resource.k8s.io/v1";
      slice.metadata = SliceMetadata(published.by_index[i], i, width, driver_name, owner);
      slice.spec = std::move(desired[i]);
      slice.spec.pool.generation = generation;
      out.push_back(std::move(slice));
    }
  }
  return out;
}

}  // namespace dra::driver
