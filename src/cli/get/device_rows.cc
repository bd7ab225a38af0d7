#include "cli/get/device_rows.h"

#include <algorithm>
#include <utility>

namespace dra::cli::get {
namespace {

void SortUnique(std::vector<std::string>& v) {
  std::sort(v.begin(), v.end());
  v.erase(std::unique(v.begin(), v.end()), v.end());
}

}  // namespace

void FillHolders(const std::vector<AllocationRef>& allocations, DeviceRow& row) {
  row.shared = row.device->allow_multiple_allocations.value_or(false);
  if (row.shared) {
    for (const auto& [name, capacity] : row.device->capacity) {
      row.capacity_left.emplace(name, capacity.value);
    }
  }
  std::vector<std::string> holding;  // claims with a result without admin access
  for (const AllocationRef& a : allocations) {
    std::string claim = QualifiedName(a.claim->metadata);
    row.claims.push_back(claim);
    for (const api::ResourceClaimConsumerReference& ref : a.claim->status.reserved_for) {
      if (ref.resource == "pods" && ref.api_group.empty()) {
        row.pods.push_back(a.claim->metadata.namespace_ + "/" + ref.name);
      }
    }
    if (a.admin_access()) {
      row.admin_access_claims.push_back(std::move(claim));
      continue;
    }
    holding.push_back(std::move(claim));
    row.allocated = true;
    if (!row.shared) continue;
    for (const auto& [name, consumed] : a.result->consumed_capacity) {
      auto it = row.capacity_left.find(name);
      if (it != row.capacity_left.end()) it->second = it->second.Sub(consumed);
    }
  }
  SortUnique(row.claims);
  SortUnique(row.pods);
  SortUnique(holding);
  SortUnique(row.admin_access_claims);
  // A claim with both kinds of results for the device holds it.
  std::erase_if(row.admin_access_claims, [&](const std::string& c) {
    return std::binary_search(holding.begin(), holding.end(), c);
  });
}

Result<std::vector<DeviceRow>> DeviceRows(const ClusterObjects& objects,
                                          const GetFilters& filters) {
  Result<DeviceFilter> filter = DeviceFilter::Make(objects, filters);
  if (!filter.ok()) return filter.failure();
  AllocationIndex allocations(objects.claims);
  TaintIndex taints(objects.taint_rules);
  std::vector<DeviceRow> rows;
  std::vector<std::pair<const api::ResourceSlice*, const api::Device*>> kept;
  for (const PoolSlices& pool : GroupPools(objects.slices)) {  // sorted by (driver, pool)
    if (!filters.driver.empty() && pool.driver != filters.driver) continue;
    kept.clear();
    for (const api::ResourceSlice* slice : pool.slices) {
      for (const api::Device& device : slice->spec.devices) {
        if (filter->Matches(*slice, device)) kept.emplace_back(slice, &device);
      }
    }
    std::stable_sort(kept.begin(), kept.end(),
                     [](const auto& a, const auto& b) { return a.second->name < b.second->name; });
    for (const auto& [slice, device] : kept) {
      DeviceRow& row = rows.emplace_back();
      row.slice = slice;
      row.device = device;
      row.node = NodeColumn(*slice, device);
      row.taints = taints.TaintsOf(*slice, *device);
      FillHolders(allocations.Find(pool.driver, pool.pool, device->name), row);
    }
  }
  return rows;
}

}  // namespace dra::cli::get
