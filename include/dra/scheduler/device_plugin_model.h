// The same workload under the device-plugin model, for comparison with DRA:
// each node advertises a count of whole devices per DeviceClass, a pod asks
// for a number of whole devices per class, and nothing else about the device
// matters. No sharing (every pod of a shared claim needs its own devices), no
// partitions (a partitionable device is one whole device), no request
// selectors or constraints (selection only by node labels), no network-attached
// devices.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "dra/scheduler/cluster.h"

namespace dra::scheduler {

struct DevicePluginPod {
  std::string namespace_;
  std::string name;
  std::string node;    // empty while Pending
  std::string reason;  // why Pending
  std::int64_t devices = 0;
};

struct DevicePluginNode {
  std::string name;
  std::int64_t devices = 0;  // whole devices matching any class
  std::int64_t used = 0;
  std::int64_t pods = 0;
};

struct DevicePluginResult {
  std::vector<DevicePluginPod> pods;  // creation order
  std::vector<DevicePluginNode> nodes;
  std::int64_t scheduled = 0;
  std::int64_t pending = 0;
  std::int64_t devices = 0;
  std::int64_t devices_used = 0;
};

// Schedules the cluster's pods (creation order, first node that fits from a
// rotating start) under the device-plugin model.
DevicePluginResult SimulateDevicePlugin(const Cluster& cluster);

}  // namespace dra::scheduler
