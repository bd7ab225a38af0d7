#include "driver/example/slice_inventory.h"

#include <map>
#include <set>

namespace dra::driver::example {
namespace {

Error WrongDriver(const api::ResourceSlice& s, const std::string& driver_name) {
  return Error{"ResourceSlice " + s.metadata.name + ": driver is " + s.spec.driver + ", not " +
               driver_name};
}

}  // namespace

Result<Inventory> InventoryFromSlices(const std::vector<api::ResourceSlice>& slices,
                                      const std::string& driver_name) {
  // A pool's current slices are those of its highest generation; older ones
  // are left over from an update in progress.
  std::map<std::string, std::int64_t> generation;
  for (const api::ResourceSlice& s : slices) {
    const std::string where = "ResourceSlice " + s.metadata.name;
    if (s.spec.driver != driver_name) {
      return WrongDriver(s, driver_name);
    }
    if (s.spec.pool.name.empty()) return Error{where + ": spec.pool.name is empty"};
    auto [it, inserted] = generation.emplace(s.spec.pool.name, s.spec.pool.generation);
    if (!inserted && s.spec.pool.generation > it->second) it->second = s.spec.pool.generation;
  }
  Inventory inventory;
  std::map<std::string, std::size_t> index;
  std::map<std::string, std::set<std::string>> devices, counter_sets;
  for (const api::ResourceSlice& s : slices) {
    const std::string& name = s.spec.pool.name;
    if (s.spec.pool.generation != generation[name]) continue;
    auto [it, inserted] = index.emplace(name, inventory.pools.size());
    if (inserted) {
      inventory.pools.emplace_back();
      inventory.pools.back().name = name;
    }
    Pool& pool = inventory.pools[it->second];
    // Where the devices are reachable, for a controller publishing
    // network-attached pools (a node-local plugin rejects these).
    if (s.spec.node_selector) pool.node_selector = s.spec.node_selector;
    if (s.spec.all_nodes.value_or(false)) pool.all_nodes = true;
    if (s.spec.per_device_node_selection.value_or(false)) pool.per_device_node_selection = true;
    for (const api::CounterSet& c : s.spec.shared_counters) {
      if (!counter_sets[name].insert(c.name).second) {
        return Error{"pool " + name + ": counter set " + c.name + " is defined twice"};
      }
      pool.shared_counters.push_back(c);
    }
    for (const api::Device& d : s.spec.devices) {
      if (!devices[name].insert(d.name).second) {
        return Error{"pool " + name + ": device " + d.name + " is defined twice"};
      }
      pool.devices.push_back(d);
    }
  }
  return inventory;
}

}  // namespace dra::driver::example
