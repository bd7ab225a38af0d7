// The structured-parameters device allocator: given the cluster's
// ResourceSlices, DeviceClasses and existing allocations, finds devices on one
// node for a list of ResourceClaims with the search order and results of
// Kubernetes' k8s.io/dynamic-resource-allocation/structured allocator
// (release v0.37.2). All claims are allocated together or not at all.
#pragma once

#include <atomic>
#include <cstdint>
#include <functional>
#include <memory>
#include <span>
#include <string>
#include <vector>

#include "dra/allocator/explanation.h"
#include "dra/allocator/node_ref.h"
#include "dra/api/core.h"
#include "dra/api/feature_gates.h"
#include "dra/api/resource.h"

namespace dra::allocator {

// The allocator's feature switches, derived from feature gates (FromGates).
struct Features {
  bool admin_access = false;
  bool prioritized_list = false;
  bool partitionable_devices = false;
  bool device_taints = false;
  bool device_binding_and_status =
      false;  // DRADeviceBindingConditions && DRAResourceClaimDeviceStatus
  bool consumable_capacity = false;
  bool list_type_attributes = false;
  // Step arithmetic of capacity request policies in thousandths.
  bool fractional_capacity_range = false;
  // Not implemented (alpha); enabling it only selects upstream's experimental variant.
  bool optional_node_operations = false;

  static Features FromGates(const api::FeatureGates& gates);
};

// Writes the next slice into `slice` (which it receives empty) and returns
// true, or returns false once there are no more. Lets a caller decode slices
// one at a time: the allocator indexes each and drops it before asking for
// the next, so the decoded slices never all exist at once.
using SliceSource = std::function<bool(api::ResourceSlice& slice)>;

// What the cluster holds. Claims in `allocated_claims` that have a
// status.allocation are "in use": their devices are unavailable (except for
// admin-access results) and their consumption counts against shared counters.
// DeviceTaintRules are applied to the slices' devices as the scheduler's slice
// tracker does: each rule's taint is appended to every device that its driver,
// pool and device selector fields match (an unset field matches any).
struct Snapshot {
  std::vector<api::ResourceSlice> slices;
  // More slices, indexed after `slices` in the order produced; may be empty.
  // Called only during the Allocator's construction.
  SliceSource more_slices;
  std::vector<api::DeviceClass> classes;
  std::vector<api::ResourceClaim> allocated_claims;
  std::vector<api::DeviceTaintRule> taint_rules;
  Features features;
  // Keep the pools each node sees, and their scan order, for later calls
  // for that node (some hundreds of bytes a node, for the allocator's life).
  // False works them out on every call: for a one-shot use where memory
  // counts more (dra serve's explanations of 5,000 nodes: 3 MiB less, 6%
  // slower).
  bool keep_node_pools = true;
};

struct AllocateOptions {
  // Upper bound on recursive search steps (upstream's allocateOne calls); exceeding it
  // is an error, so a pathological input cannot make Allocate run unbounded.
  std::uint64_t max_steps = 1'000'000;
  // Compute an Explanation when the outcome is kUnschedulable.
  bool explain = false;
  // When set and true, Allocate stops with an error (upstream: context cancelled).
  const std::atomic<bool>* cancelled = nullptr;
  // False: a successful call reports kAllocated without building the
  // AllocationResults (for feasibility checks of many nodes; errors that only
  // result building finds, such as a multi-term slice node selector, are then
  // not reported).
  bool build_results = true;
};

enum class Outcome : std::uint8_t {
  kAllocated,      // allocations holds one result per claim, in input order
  kUnschedulable,  // no solution on this node; see explanation
  kError,          // error holds upstream's message
};

struct AllocateResult {
  Outcome outcome = Outcome::kUnschedulable;
  std::vector<api::AllocationResult> allocations;
  std::string error;
  // The error is upstream's node-local "invalid resource pools were
  // encountered": only this node is unusable, the pod may fit elsewhere.
  bool node_local_error = false;
  // Filled for kUnschedulable when AllocateOptions::explain is set.
  Explanation explanation;
  // Recursive search steps taken (upstream's allocateOne counter).
  std::uint64_t steps = 0;
};

// Upstream's claim limit on devices per allocation result.
inline constexpr std::int64_t kMaxDevicesPerClaim = 32;

class Allocator;

// Which devices of an allocator's snapshot claims in use hold, kept up to
// date incrementally by a scheduler as it reserves and releases allocations
// (upstream's "allocated state": allocated devices, allocated shares and
// consumed capacity). Results naming devices the snapshot does not publish
// are remembered but block nothing. Bound to the Allocator that made it;
// not thread-safe for writes, any number of concurrent Allocate calls may
// read it while nobody writes.
class AllocatedState {
 public:
  ~AllocatedState();
  AllocatedState(AllocatedState&&) noexcept;
  AllocatedState& operator=(AllocatedState&&) noexcept;
  AllocatedState(const AllocatedState&);
  AllocatedState& operator=(const AllocatedState&);

  // Adds or removes one claim's allocation (admin-access results never block).
  void Add(const api::AllocationResult& allocation);
  void Remove(const api::AllocationResult& allocation);

  // A number that changes whenever an allocation is added to or removed from
  // one of `pools` (Allocator::VisiblePools of a node): for one state object
  // and node, equal numbers mean equal Allocate outcomes for equal claims.
  // For memoizing Filter verdicts.
  std::uint64_t Version(std::span<const std::uint32_t> pools) const;

 private:
  friend class Allocator;

 public:
  struct Impl;  // internal (src/allocator/allocated_state.h)

 private:
  explicit AllocatedState(std::unique_ptr<Impl> impl);
  std::unique_ptr<Impl> impl_;
};

class Allocator {
 public:
  // Indexes the snapshot once (devices in flat arrays, slices by node, names
  // interned, equal attributes and capacities stored once) and drops its
  // ResourceSlices; the allocator can then serve many nodes and pods, and
  // reuses each selector's result per device across calls. Thread-safe for
  // concurrent Allocate calls.
  explicit Allocator(Snapshot snapshot);
  ~Allocator();
  Allocator(const Allocator&) = delete;
  Allocator& operator=(const Allocator&) = delete;

  // Allocates `claims` (their status is ignored) on `node`, with the devices
  // of the snapshot's allocated_claims in use.
  AllocateResult Allocate(NodeRef node, std::span<const api::ResourceClaim> claims,
                          const AllocateOptions& options = {}) const;

  // The same with an explicit in-use state; the snapshot's allocated_claims
  // are then ignored.
  AllocateResult Allocate(NodeRef node, std::span<const api::ResourceClaim> claims,
                          const AllocatedState& in_use, const AllocateOptions& options = {}) const;

  // An empty in-use state, and one holding `claims`' allocations (claims
  // without status.allocation are skipped).
  AllocatedState NewAllocatedState() const;
  AllocatedState NewAllocatedState(std::span<const api::ResourceClaim> claims) const;

  const Features& features() const;

  // The pools `node` sees, as opaque ids for AllocatedState::Version (empty
  // when the node's slices cannot be gathered).
  std::vector<std::uint32_t> VisiblePools(NodeRef node) const;

  // Approximate heap bytes of the allocator's index and caches (without
  // per-slice names and selectors), for memory-per-device figures.
  std::size_t MemoryBytes() const;

 private:
  struct Impl;
  AllocateResult Run(NodeRef node, std::span<const api::ResourceClaim> claims,
                     const AllocatedState::Impl& in_use, const AllocateOptions& options) const;
  std::unique_ptr<Impl> impl_;
};

}  // namespace dra::allocator
