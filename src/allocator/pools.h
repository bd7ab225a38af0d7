// The resource pools visible from one node (upstream's GatherPools): relevant slices
// grouped by pool, newest generation only, completeness and validity checked,
// and the pools in the order the search visits them (by driver, then pool name,
// pools with binding-condition devices last).
#pragma once

#include <map>
#include <string>
#include <vector>

#include "allocator/inventory.h"
#include "dra/api/quantity.h"

namespace dra::allocator {

// counter set name -> counter name -> value
using CounterSets = std::map<std::string, std::map<std::string, api::Quantity>>;

struct Pool {
  Index pool;  // Inventory pool index
  bool incomplete = false;
  bool invalid = false;
  std::string invalid_reason;
  bool has_binding_conditions = false;
  std::vector<Index> slices;        // device slices targeting the node, sorted by name
  std::vector<Index> other_slices;  // device slices of the pool not targeting the node
  CounterSets counters;             // from the pool's counter slices
};

struct GatheredPools {
  std::vector<Pool> pools;  // search order
  bool any_invalid = false;
};

// Errors: an unparsable slice node selector.
Result<GatheredPools> GatherPools(const Inventory& inventory, NodeRef node);

}  // namespace dra::allocator
