// What `dra serve` shows: every device with its state and holders, totals
// per node, pool and DeviceClass, shared counters and consumable capacity,
// claims by state, and the pods that wait with dra's explanation. Computed
// from one SourceSnapshot, then immutable: readers share it.
#pragma once

#include <atomic>
#include <cstdint>
#include <map>
#include <span>
#include <string>
#include <vector>

#include "cli/get/cluster_index.h"
#include "cli/serve/cluster_source.h"
#include "cli/serve/text_table.h"
#include "dra/api/feature_gates.h"
#include "dra/api/quantity.h"
#include "dra/json/value.h"
#include "dra/scheduler/cluster.h"

namespace dra::cli::serve {

// A device counts in exactly one state. Allocated wins over tainted: a
// tainted device that a claim holds is in use (the eviction controller
// decides its pods' fate), so it is not capacity that is taken away.
enum class DeviceState : std::uint8_t { kFree, kAllocated, kTainted };
const char* DeviceStateName(DeviceState state);  // "free", "allocated", "tainted"

// A total and what allocations take of it, exact (shared with dra get).
using Use = get::Use;

// One device. Texts are ids in the state's table (DashboardState::Text);
// claims, pods, taints and capacity are ranges of the state's shared vectors
// (DashboardState::Claims and the like), so a cell is 52 bytes.
struct DeviceCell {
  using Id = TextTable::Id;
  Id driver = 0, pool = 0, name = 0;
  // The node that offers it; "" when it is not node-local (a node selector,
  // all nodes): then `reach` says where it is available.
  Id node = 0;
  Id reach = 0;
  // The counter set it draws from first ("" for none): the physical device
  // its partitions share, drawn as their parent.
  Id counter_set = 0;
  Id uuid = 0;     // its "uuid" attribute (any domain), if any
  Id product = 0;  // "productName" or "model" attribute, if any
  // Start of its claims ("namespace/name", sorted), then its pods (the
  // reservedFor of those claims, sorted), then its taints
  // ("key=value:Effect", own then rules') in DashboardState::refs.
  std::uint32_t refs = 0;
  std::uint16_t claims = 0, pods = 0, taints = 0;
  // Shared devices: its capacity by name, [capacity, capacity + capacities)
  // in DashboardState::capacities.
  std::uint16_t capacities = 0;
  std::uint32_t capacity = 0;
  DeviceState state = DeviceState::kFree;
  // Free, but a shared counter it draws from is partly consumed by allocated
  // devices (a whole GPU with one of its partitions in use): it may no
  // longer fit.
  bool partially_consumed = false;
  // Free, and the allocated devices leave too little of a counter it needs.
  bool blocked_by_counters = false;
  bool shared = false;  // allowMultipleAllocations
};

struct Tally {
  std::int64_t free = 0, allocated = 0, tainted = 0;
  std::int64_t partially_consumed = 0;   // of the free ones
  std::int64_t blocked_by_counters = 0;  // of the free ones
  std::int64_t total() const { return free + allocated + tainted; }
  void Count(DeviceState state, bool partially_consumed, bool blocked_by_counters);
  void Count(const DeviceCell& cell) {
    Count(cell.state, cell.partially_consumed, cell.blocked_by_counters);
  }
};

// A pool; texts are ids in the state's table (node "" when not node-local).
struct PoolSummary {
  TextTable::Id driver = 0, pool = 0, node = 0;
  bool complete = true;  // every slice of the newest generation present
  Tally devices;
  // Its shared counters summed over its counter sets, by counter name, then
  // the consumable capacity of its shared devices, by capacity name:
  // DashboardState::Counters and Capacity.
  std::uint32_t uses = 0;  // start in DashboardState::pool_uses
  std::uint16_t counters = 0, capacities = 0;
};

struct NodeSummary {
  TextTable::Id name = 0;  // in the state's table
  Tally devices;
};

struct ClaimCounts {
  std::int64_t pending = 0, allocated = 0, reserved = 0, deallocating = 0;
};

struct PendingPod {
  std::string namespace_, name;
  // The allocator stage that blocks it (allocator::StageName: "count",
  // "classSelector", ...); "claim" when it waits for a claim that does not
  // exist yet; "schedulable" when a node fits it now; "other" when what
  // keeps it is not DRA (kube-scheduler's message says what); "unexplained"
  // until ExplainWaiting has seen it.
  std::string stage;
  std::string message;      // kube-scheduler's PodScheduled message, else dra's reason
  std::string explanation;  // dra's explanation text for the closest node, if any
  // The same as allocator::ExplanationValue, as compact JSON text ("" when
  // none): one block that every state shares the shape of, instead of a
  // tree of small allocations copied into each state.
  std::string explanation_json;
  std::string node;                 // the node explained, or the node that fits
  std::vector<std::string> claims;  // "namespace/name"
};

// One row of the pod to device join; texts are ids in the state's table.
struct PodDevice {
  TextTable::Id namespace_, pod, claim, request, driver, pool, device, node, uuid;
};

// A shared device's capacity: its name (an id in the state's table) and use.
struct NamedUse {
  TextTable::Id name;
  Use use;
};

struct DashboardState {
  std::uint64_t generation = 0;  // grows with each computed state
  std::int64_t computed_at = 0;  // unix seconds
  double compute_seconds = 0;
  // Of which devices, classes and pools, and claims; and how long the
  // explanations of the waiting pods took (ExplainWaiting, run beside).
  double devices_seconds = 0, claims_seconds = 0, pending_seconds = 0;
  std::string origin;
  std::int64_t stale_since = 0;  // from the source
  std::string stale_reason;
  std::vector<ResourceHealth> health;

  // Sorted by (node, driver, pool, name); devices that are not node-local last.
  std::vector<DeviceCell> devices;
  TextTable texts;                            // the texts of devices, pools, nodes, pod_devices
  std::vector<TextTable::Id> refs;            // the cells' claims, pods and taints
  std::vector<NamedUse> capacities;           // the shared cells' capacity
  std::vector<NamedUse> pool_uses;            // the pools' counters and capacity
  std::vector<PoolSummary> pools;             // by (driver, pool)
  std::vector<NodeSummary> nodes;             // every Node and every node a device names, by name
  std::map<std::string, Tally> classes;       // by DeviceClass name
  std::map<std::string, ClaimCounts> claims;  // by namespace
  std::vector<PendingPod> pending;            // by namespace/name
  std::vector<PodDevice> pod_devices;         // by namespace/pod, claim, request
  Tally total;
  std::vector<std::string> warnings;  // e.g. a DeviceClass selector that does not compile

  std::string_view Text(TextTable::Id id) const { return texts[id]; }
  std::span<const TextTable::Id> Claims(const DeviceCell& d) const {
    return {refs.data() + d.refs, d.claims};
  }
  std::span<const TextTable::Id> Pods(const DeviceCell& d) const {
    return {refs.data() + d.refs + d.claims, d.pods};
  }
  std::span<const TextTable::Id> Taints(const DeviceCell& d) const {
    return {refs.data() + d.refs + d.claims + d.pods, d.taints};
  }
  std::span<const NamedUse> Capacity(const DeviceCell& d) const {
    return {capacities.data() + d.capacity, d.capacities};
  }
  std::span<const NamedUse> Counters(const PoolSummary& p) const {
    return {pool_uses.data() + p.uses, p.counters};
  }
  std::span<const NamedUse> Capacity(const PoolSummary& p) const {
    return {pool_uses.data() + p.uses + p.counters, p.capacities};
  }
  // "driver/pool/name"
  std::string DeviceName(const DeviceCell& d) const;
};

// The fast part of a state: everything from the objects of `snapshot`, the
// waiting pods included, with the explanations of `explained` (an earlier
// ExplainWaiting) for the pods it has; a pod it lacks has stage
// "unexplained" until the next ExplainWaiting. Messages are the pods' own.
// `expected` (the previous state's sizes) is reserved at once: parts that
// grow by doubling and are then shrunk held up to 2.6 times their size at
// the state's peak (the cells alone 5 MiB on 40,000 devices).
struct StateSizes {
  std::size_t devices = 0, refs = 0, pod_devices = 0, texts = 0, text_bytes = 0;
};
StateSizes SizesOf(const DashboardState& state);
DashboardState ComputeState(const SourceSnapshot& snapshot,
                            const std::vector<PendingPod>& explained,
                            const StateSizes& expected = {});

// The slow part: the waiting pods of `cluster` tried as kube-scheduler would
// try them now (dra's scheduler over the same objects), each with the stage
// that blocks it and the explanation of its closest node. On a large cluster
// this takes seconds, so dra serve runs it beside the fast part.
//
// Once `hurry` is set (by any thread), the search for closest nodes stops
// within one node's work: the pods not yet searched keep the explanation of
// the first node DRA rejected, as kube-scheduler's attempt met it, and the
// function returns. Trying the pods themselves is never cut short.
// `*hurried` (if given) says whether any search was skipped.
std::vector<PendingPod> ExplainWaiting(scheduler::Cluster cluster, const api::FeatureGates& gates,
                                       const std::atomic<bool>* hurry = nullptr,
                                       bool* hurried = nullptr);

}  // namespace dra::cli::serve
