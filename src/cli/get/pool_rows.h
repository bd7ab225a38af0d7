// `dra get pools`: one row per (driver, pool), counted over the slices of
// the pool's newest generation.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "cli/get/cluster_index.h"
#include "cli/get/cluster_objects.h"
#include "dra/util/result.h"

namespace dra::cli::get {

struct PoolRow {
  std::string driver;
  std::string pool;
  std::string node;  // NodeColumn of its slices; distinct values joined by ","
  std::int64_t generation = 0;
  std::int64_t slices = 0;                // slices of the newest generation
  std::int64_t resource_slice_count = 0;  // spec.pool.resourceSliceCount
  bool complete = false;                  // slices == resource_slice_count
  // Over the devices the filters keep:
  std::int64_t devices = 0;
  std::int64_t allocated = 0;  // held by an allocation without admin access
  // Neither allocated nor starved of a shared counter by the allocated
  // devices of the pool: what the allocator could still hand out.
  std::int64_t free = 0;
  std::int64_t tainted = 0;  // with a taint of its own or of a DeviceTaintRule
};

// Rows sorted by (driver, pool). With --node or --class, pools without a
// matching device are left out. Fails when --class names no class.
Result<std::vector<PoolRow>> PoolRows(const ClusterObjects& objects, const GetFilters& filters);

}  // namespace dra::cli::get
