#include "cli/get/pool_rows.h"

#include <set>
#include <utility>

namespace dra::cli::get {

Result<std::vector<PoolRow>> PoolRows(const ClusterObjects& objects, const GetFilters& filters) {
  Result<DeviceFilter> filter = DeviceFilter::Make(objects, filters);
  if (!filter.ok()) return filter.failure();
  AllocationIndex allocations(objects.claims);
  TaintIndex taints(objects.taint_rules);
  std::vector<PoolRow> rows;
  for (const PoolSlices& pool : GroupPools(objects.slices)) {
    if (!filters.driver.empty() && pool.driver != filters.driver) continue;
    PoolRow row;
    row.driver = pool.driver;
    row.pool = pool.pool;
    row.generation = pool.generation;
    row.slices = static_cast<std::int64_t>(pool.slices.size());
    row.resource_slice_count = pool.resource_slice_count;
    row.complete = pool.complete();
    std::set<std::string> nodes;
    for (const api::ResourceSlice* slice : pool.slices) nodes.insert(NodeColumn(*slice, nullptr));
    for (const std::string& n : nodes) row.node += (row.node.empty() ? "" : ",") + n;

    // Every device's holders first: counters are used by all allocated
    // devices of the pool, whether the filters keep them or not.
    struct Entry {
      const api::ResourceSlice* slice;
      const api::Device* device;
      bool allocated;
    };
    std::vector<Entry> entries;
    CounterLedger ledger = PoolCounters(pool);
    for (const api::ResourceSlice* slice : pool.slices) {
      for (const api::Device& device : slice->spec.devices) {
        bool allocated = false;
        for (const AllocationRef& a : allocations.Find(pool.driver, pool.pool, device.name)) {
          allocated = allocated || !a.admin_access();
        }
        if (allocated) Consume(ledger, device);
        entries.push_back({slice, &device, allocated});
      }
    }
    for (const Entry& e : entries) {
      if (!filter->Matches(*e.slice, *e.device)) continue;
      ++row.devices;
      if (e.allocated) {
        ++row.allocated;
      } else if (FitsCounters(ledger, *e.device)) {
        ++row.free;
      }
      if (!taints.TaintsOf(*e.slice, *e.device).empty()) ++row.tainted;
    }
    if (filter->filters_devices() && row.devices == 0) continue;
    rows.push_back(std::move(row));
  }
  return rows;
}

}  // namespace dra::cli::get
