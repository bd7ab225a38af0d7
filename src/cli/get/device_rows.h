// `dra get devices`: one row per device of the newest generation of every
// pool, with who holds it.
#pragma once

#include <map>
#include <string>
#include <vector>

#include "cli/get/cluster_index.h"
#include "cli/get/cluster_objects.h"
#include "dra/api/quantity.h"
#include "dra/util/result.h"

namespace dra::cli::get {

struct DeviceRow {
  // REQUIRES: the ClusterObjects the row came from outlive it.
  const api::ResourceSlice* slice = nullptr;
  const api::Device* device = nullptr;
  std::string node;  // NodeColumn
  std::vector<RowTaint> taints;
  // Every claim with an allocation result for the device ("namespace/name",
  // sorted, unique), and those of them whose results all have admin access.
  std::vector<std::string> claims;
  std::vector<std::string> admin_access_claims;
  // Pods in the reservedFor of those claims ("namespace/name", sorted, unique).
  std::vector<std::string> pods;
  // Held by at least one allocation without admin access.
  bool allocated = false;
  // allowMultipleAllocations: each capacity minus the consumedCapacity of
  // every allocation result without admin access for the device.
  bool shared = false;
  std::map<std::string, api::Quantity> capacity_left;

  const std::string& driver() const { return slice->spec.driver; }
  const std::string& pool() const { return slice->spec.pool.name; }
  const std::string& name() const { return device->name; }
};

// Claims holding a device, from its allocation results: fills claims,
// admin_access_claims, pods, allocated, shared and capacity_left.
void FillHolders(const std::vector<AllocationRef>& allocations, DeviceRow& row);

// Rows sorted by (driver, pool, device). Fails when --class names no class.
Result<std::vector<DeviceRow>> DeviceRows(const ClusterObjects& objects, const GetFilters& filters);

}  // namespace dra::cli::get
