#include "allocator/pools.h"

#include <algorithm>
#include <set>
#include <unordered_map>

#include "allocator/node_match.h"

namespace dra::allocator {
namespace {

struct Group {
  Index pool;
  std::int64_t generation;
  std::vector<Index> slices;
};

bool IsCounterSlice(const SliceRecord& s, const Features& f) {
  return f.partitionable_devices && s.has_counters;
}

Result<bool> SliceRelevant(const Inventory& inv, Index slice, NodeRef node) {
  const SliceRecord& s = inv.slices()[slice];
  const auto& selector = inv.slice_extra(slice).node_selector;
  if ((s.node_name && !s.node_name->empty()) || s.all_nodes.value_or(false) || selector) {
    return NodeMatches(s.node_name, s.all_nodes, selector, node);
  }
  if (s.per_device_node_selection.value_or(false)) {
    for (Index d = s.first_device; d < s.first_device + s.device_count; ++d) {
      const DeviceExtra& x = inv.extra(d);
      Result<bool> m = NodeMatches(x.node_name, x.all_nodes, x.node_selector, node);
      if (!m.ok() || *m) return m;
    }
  }
  return false;
}

// Validation of a complete pool: device names unique across the slices that target the node
// and, with partitionable devices, unique counter-set names and every consumesCounters entry
// naming an existing counter set and counters of the pool.
Status Validate(const Inventory& inv, Pool& pool, const std::vector<Index>& counter_slices) {
  std::set<std::string_view> names;
  for (Index s : pool.slices) {
    const SliceRecord& r = inv.slices()[s];
    for (Index d = r.first_device; d < r.first_device + r.device_count; ++d) {
      const std::string_view name = inv.device_name(d);
      if (!names.insert(name).second) return Error{"duplicate device name " + std::string(name)};
    }
  }
  if (!inv.features().partitionable_devices) return {};
  for (Index s : counter_slices) {
    for (const api::CounterSet& cs : inv.slice_extra(s).shared_counters) {
      auto [it, inserted] = pool.counters.try_emplace(cs.name);
      if (!inserted) return Error{"duplicate counter set name " + cs.name};
      for (const auto& [name, counter] : cs.counters) it->second.emplace(name, counter.value);
    }
  }
  for (const auto* list : {&pool.slices, &pool.other_slices}) {
    for (Index s : *list) {
      const SliceRecord& r = inv.slices()[s];
      for (Index d = r.first_device; d < r.first_device + r.device_count; ++d) {
        if (!inv.devices()[d].consumes_counters) continue;
        for (const api::DeviceCounterConsumption& c : inv.extra(d).consumes_counters) {
          auto set = pool.counters.find(c.counter_set);
          if (set == pool.counters.end()) {
            return Error{"counter set " + c.counter_set + " not found"};
          }
          for (const auto& [name, _] : c.counters) {
            if (!set->second.count(name)) {
              return Error{"counter " + name + " not found in counter set " + c.counter_set};
            }
          }
        }
      }
    }
  }
  return {};
}

Pool BuildPool(const Inventory& inv, Index pool_index, const std::vector<Index>& relevant,
               const std::vector<Index>& extra) {
  const Features& f = inv.features();
  Pool pool;
  pool.pool = pool_index;
  std::vector<Index> counter_slices;
  for (Index s : relevant) {
    (IsCounterSlice(inv.slices()[s], f) ? counter_slices : pool.slices).push_back(s);
  }
  // Slice names are unique in a real cluster; stable_sort keeps hand-made
  // duplicates in input order. The stable variant keeps input order.
  if (!inv.stable())
    std::stable_sort(pool.slices.begin(), pool.slices.end(),
                     [&](Index a, Index b) { return inv.slices()[a].name < inv.slices()[b].name; });
  for (Index s : extra) {
    (IsCounterSlice(inv.slices()[s], f) ? counter_slices : pool.other_slices).push_back(s);
  }
  for (Index s : pool.slices) {
    const SliceRecord& r = inv.slices()[s];
    for (Index d = r.first_device; d < r.first_device + r.device_count; ++d) {
      if (!inv.extra(d).binding_conditions.nil()) pool.has_binding_conditions = true;
    }
  }
  if (Status valid = Validate(inv, pool, counter_slices); !valid.ok()) {
    pool.invalid = true;
    pool.invalid_reason = valid.error();
  }
  // Invalid pools sort with the pools without binding conditions, whatever their devices.
  if (pool.invalid) pool.has_binding_conditions = false;
  return pool;
}

// Groups the slices relevant for the node by pool, keeping each pool's newest
// generation; groups in order of first appearance.
Status GroupRelevantSlices(const Inventory& inv, NodeRef node, std::vector<Group>& groups) {
  const Features& f = inv.features();
  std::unordered_map<Index, std::size_t> group_of;
  // Adds a slice that is relevant for the node to its pool's newest generation.
  auto consider_relevant = [&](Index s) -> Status {
    const Index p = inv.slices()[s].pool;
    const std::int64_t gen = inv.slices()[s].generation;
    auto [it, inserted] = group_of.try_emplace(p, groups.size());
    if (inserted) {
      groups.push_back({p, gen, {s}});
      return {};
    }
    Group& g = groups[it->second];
    if (gen < g.generation) return {};
    if (gen > g.generation) {
      g.generation = gen;
      g.slices.clear();
    }
    g.slices.push_back(s);
    return {};
  };
  auto consider = [&](Index s) -> Status {
    const SliceRecord& slice = inv.slices()[s];
    if (!f.partitionable_devices && (slice.per_device_node_selection || slice.has_counters)) {
      return {};
    }
    Result<bool> relevant = SliceRelevant(inv, s, node);
    if (!relevant.ok()) {
      return relevant.failure().WithPrefix(
          "gather pool information: failed to perform node selection "
          "for slice " +
          std::string(slice.name) + ": ");
    }
    if (!*relevant) return {};
    return consider_relevant(s);
  };
  if (inv.stable()) {
    // Every slice in input order; counter slices belong to their pool
    // whatever their node selection.
    for (Index s = 0; s < inv.slices().size(); ++s) {
      if (f.partitionable_devices && inv.slices()[s].has_counters) {
        Status st = consider_relevant(s);
        if (!st.ok()) return st;
        continue;
      }
      if (Status st = consider(s); !st.ok()) return st;
    }
  } else {
    if (!node.name().empty()) {
      for (Index s : inv.node_slices(node.name())) {
        if (Status st = consider(s); !st.ok()) return st;
      }
    }
    for (Index s : inv.shared_slices()) {
      if (Status st = consider(s); !st.ok()) return st;
    }
  }
  return {};
}

// Adds the pool of one group: complete, incomplete, or none when the pool has
// a newer generation elsewhere.
void AddPool(const Inventory& inv, const Group& g, std::vector<Pool>& pools) {
  std::int64_t count = inv.slices()[g.slices.front()].resource_slice_count;
  if (static_cast<std::int64_t>(g.slices.size()) == count) {
    pools.push_back(BuildPool(inv, g.pool, g.slices, {}));
    return;
  }
  // Looks incomplete from here: the pool's other slices (other nodes) decide.
  bool obsolete = false;
  std::vector<Index> same_generation;
  for (Index s : inv.pool_slices(g.pool)) {
    std::int64_t gen = inv.slices()[s].generation;
    if (gen > g.generation) obsolete = true;
    if (gen == g.generation) same_generation.push_back(s);
  }
  if (obsolete) return;
  if (static_cast<std::int64_t>(same_generation.size()) == count) {
    std::set<std::string_view> relevant_names;
    for (Index s : g.slices) relevant_names.insert(inv.slices()[s].name);
    std::vector<Index> extra;
    for (Index s : same_generation) {
      if (!relevant_names.count(inv.slices()[s].name)) extra.push_back(s);
    }
    pools.push_back(BuildPool(inv, g.pool, g.slices, extra));
    return;
  }
  Pool incomplete;
  incomplete.pool = g.pool;
  incomplete.incomplete = true;
  pools.push_back(std::move(incomplete));
}

}  // namespace

Result<GatheredPools> GatherPools(const Inventory& inv, NodeRef node) {
  std::vector<Group> groups;
  if (Status st = GroupRelevantSlices(inv, node, groups); !st.ok()) return st.failure();

  GatheredPools out;
  for (const Group& g : groups) AddPool(inv, g, out.pools);
  for (const Pool& p : out.pools) out.any_invalid |= p.invalid;
  std::stable_sort(out.pools.begin(), out.pools.end(), [&](const Pool& a, const Pool& b) {
    if (a.has_binding_conditions != b.has_binding_conditions) return b.has_binding_conditions;
    const PoolName& x = inv.pool_name(a.pool);
    const PoolName& y = inv.pool_name(b.pool);
    return x.driver != y.driver ? x.driver < y.driver : x.name < y.name;
  });
  return out;
}

}  // namespace dra::allocator
