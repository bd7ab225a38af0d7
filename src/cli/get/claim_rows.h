// `dra get claims`: every ResourceClaim with its state, devices and pods.
#pragma once

#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "cli/get/cluster_index.h"
#include "cli/get/cluster_objects.h"

namespace dra::cli::get {

// pending: no allocation; allocated: allocated, reserved for nobody;
// reserved: reservedFor not empty; deleting: deletionTimestamp set (wins).
std::string_view ClaimState(const api::ResourceClaim& claim);

struct ClaimRow {
  // REQUIRES: the ClusterObjects the row came from outlive it.
  const api::ResourceClaim* claim = nullptr;
  std::string_view state;
  // The allocation's results in order; empty when pending.
  std::vector<const api::DeviceRequestAllocationResult*> devices;
  std::vector<std::string> pods;  // reservedFor pods, "namespace/name", sorted
  std::string node;               // NodeSelectorText of the allocation, "" when none

  const std::string& namespace_() const { return claim->metadata.namespace_; }
  const std::string& name() const { return claim->metadata.name; }
};

// Rows sorted by (namespace, name): those of --namespace unless
// --all-namespaces; --class keeps claims with a request or subrequest of that
// class; --driver those with a result of that driver; --node those with an
// allocation available on that node.
std::vector<ClaimRow> ClaimRows(const ClusterObjects& objects, const GetFilters& filters);

}  // namespace dra::cli::get
