// What `dra simulate` prints (docs/SIMULATE.md): placements, utilization per
// node, device and partition (counter set), every Pending pod with its reason
// and the allocator's explanation, timing, and optionally the same workload
// under the device-plugin model.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "dra/api/quantity.h"
#include "dra/json/value.h"
#include "dra/scheduler/device_plugin_model.h"
#include "dra/scheduler/scheduler.h"

namespace dra::scheduler {

// Device use after the simulation, from the claims' allocations.
struct NodeUtilization {
  std::string name;
  std::int64_t pods = 0;
  // Whole devices: devices that consume no counters, plus one per counter
  // set (a partitionable device, however many partitions it offers).
  std::int64_t devices = 0;
  std::int64_t devices_used = 0;
};

// How much of one counter or capacity is consumed, exactly.
struct QuantityUse {
  std::string name;
  api::Quantity consumed;  // zero until something consumes it
  api::Quantity total;
};

struct DeviceUse {
  std::string driver, pool, device, node;  // node empty for network-attached devices
  std::vector<std::string> claims;         // namespace/name
  // Consumed / total per capacity, for devices with allowMultipleAllocations.
  std::vector<QuantityUse> capacity;
  std::string counter_set;  // the counter set it consumes from, if any (a partition)
};

struct PartitionUse {
  std::string driver, pool, counter_set, node;
  std::vector<QuantityUse> counters;  // consumed / total per counter
};

struct Utilization {
  std::vector<NodeUtilization> nodes;
  std::vector<DeviceUse> in_use;  // devices in use only
  std::vector<PartitionUse> partitions;
  std::int64_t devices = 0;
  std::int64_t devices_used = 0;
};

// `slices` are the ones the scheduler was given.
Utilization ComputeUtilization(const Scheduler& scheduler,
                               const std::vector<api::ResourceSlice>& slices);

// `--prepare`: the kubelet's part on every node (docs/SIMULATE.md), filled in
// by the driver layer's node agent simulation.
struct PreparedContainer {
  std::string name;
  bool init = false;
  std::vector<std::string> cdi_devices;
};

struct PreparedPod {
  std::string namespace_, name, node;
  std::vector<PreparedContainer> containers;  // empty when the pod could not start
  std::vector<std::string> errors;            // why its claims were not prepared
};

struct PrepareReport {
  std::vector<PreparedPod> pods;    // bound pods with claims
  std::vector<std::string> errors;  // "<node>: <message>", not tied to one pod
  std::int64_t nodes = 0;           // nodes with pods that have claims
  std::int64_t claims_prepared = 0;
  std::int64_t cdi_devices = 0;
  std::int64_t failures = 0;
  double seconds = 0;
};

struct PodCounts {
  std::int64_t scheduled = 0, pending = 0, finished = 0;
};

// Pods not deleted, by state: bound, Pending, and Succeeded or Failed.
PodCounts CountPods(const Scheduler& scheduler);

struct SimulationReport {
  const Scheduler* scheduler = nullptr;
  Utilization utilization;
  double load_seconds = 0;
  double schedule_seconds = 0;
  const DevicePluginResult* device_plugin = nullptr;  // --compare device-plugin
  const PrepareReport* prepare = nullptr;             // --prepare
};

json::Value SimulationJson(const SimulationReport& report);
// The text report; `-o html` is the CLI's (src/cli/simulate_html.h).
std::string SimulationText(const SimulationReport& report);
// "Prepared N claims on N nodes: ..., in N ms", the line under PREPARED.
std::string PrepareSummaryText(const PrepareReport& report);

}  // namespace dra::scheduler
