// Claims checked and prepared before the search: one Entry per
// request, or per subrequest of a firstAvailable request, with its class,
// device count and, for allocationMode All, the devices enumerated up front.
#pragma once

#include <cstdint>
#include <span>
#include <string>
#include <vector>

#include "allocator/inventory.h"
#include "allocator/pools.h"
#include "allocator/selection.h"

namespace dra::allocator {

struct Entry {
  std::string name;      // "req" or "req/sub"
  std::string request;   // the parent request's name
  std::string own_name;  // "req" or "sub", as upstream's messages name it
  const api::DeviceClass* device_class = nullptr;
  const api::List<api::DeviceSelector>* selectors = nullptr;
  const api::List<api::DeviceToleration>* tolerations = nullptr;
  const CapacityMap* capacity_requests = nullptr;  // null: no capacity requests
  bool admin_access = false;
  bool all = false;
  std::int64_t count = 0;              // devices needed; for All the number enumerated
  std::vector<Index> all_slots;        // All: the scan slots of the enumerated devices
  std::vector<int> class_selectors;    // Selection ids
  std::vector<int> request_selectors;  // Selection ids
};

struct RequestPlan {
  bool first_available = false;
  std::vector<Entry> entries;  // one, or one per subrequest in order
};

struct ConstraintPlan {
  const api::List<std::string>* requests;
  std::string attribute;
  bool distinct = false;
};

struct ClaimPlan {
  const api::ResourceClaim* claim = nullptr;
  std::string display;  // "namespace/name" or "name", as klog.KObj prints it
  std::vector<RequestPlan> requests;
  std::vector<ConstraintPlan> constraints;
};

// The devices of usable pools in the order the search scans them: pools in GatheredPools
// order, each pool's targeting slices in order, each slice's devices as listed.
// Per-call search state is indexed by "slot", the position in this order, so
// that its size follows the node's devices, not the cluster's.
struct Scan {
  std::vector<Index> devices;      // slot -> Inventory device
  std::vector<const Pool*> pools;  // slot -> the device's pool
};
Scan ScanOrder(const Inventory& inventory, const GatheredPools& pools);

// Errors use upstream's wording; as upstream, the first problem found wins (claims in input
// order, each claim's requests before its claim-level checks).
Result<std::vector<ClaimPlan>> PlanClaims(const Inventory& inventory, const GatheredPools& pools,
                                          const Scan& scan,
                                          std::span<const api::ResourceClaim> claims,
                                          Selection& selection);

std::string ClaimDisplayName(const api::ResourceClaim& claim);

}  // namespace dra::allocator
