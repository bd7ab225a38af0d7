// The structured-parameters device allocator: given the cluster's
// ResourceSlices, DeviceClasses and existing allocations, finds devices on one
// node for a list of ResourceClaims with the search order and results of
// Kubernetes' k8s.io/dynamic-resource-allocation/structured allocator
// (spec allocator.md). All claims are allocated together or not at all.
#pragma once

#include <atomic>
#include <cstdint>
#include <memory>
#include <span>
#include <string>
#include <vector>

#include "dra/allocator/explanation.h"
#include "dra/api/core.h"
#include "dra/api/feature_gates.h"
#include "dra/api/resource.h"

namespace dra::allocator {

// The allocator's feature switches (spec 15.1), derived from feature gates.
struct Features {
  bool admin_access = false;
  bool prioritized_list = false;
  bool partitionable_devices = false;
  bool device_taints = false;
  bool device_binding_and_status =
      false;  // DRADeviceBindingConditions && DRAResourceClaimDeviceStatus
  bool consumable_capacity = false;
  bool list_type_attributes = false;

  static Features FromGates(const api::FeatureGates& gates);
};

// What the cluster holds. Claims in `allocated_claims` that have a
// status.allocation are "in use": their devices are unavailable (except for
// admin-access results) and their consumption counts against shared counters.
// DeviceTaintRules are applied to the slices' devices as the scheduler's slice
// tracker does (spec 12.3).
struct Snapshot {
  std::vector<api::ResourceSlice> slices;
  std::vector<api::DeviceClass> classes;
  std::vector<api::ResourceClaim> allocated_claims;
  std::vector<api::DeviceTaintRule> taint_rules;
  Features features;
};

struct AllocateOptions {
  // Upper bound on recursive search steps (spec 1.7 counts them); exceeding it
  // is an error, so a pathological input cannot make Allocate run unbounded.
  std::uint64_t max_steps = 1'000'000;
  // Compute an Explanation when the outcome is kUnschedulable.
  bool explain = false;
  // When set and true, Allocate stops with an error (upstream: context cancelled).
  const std::atomic<bool>* cancelled = nullptr;
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

class Allocator {
 public:
  // Indexes the snapshot once (devices in flat arrays, slices by node); the
  // allocator can then serve many nodes. Thread-safe for concurrent Allocate.
  explicit Allocator(Snapshot snapshot);
  ~Allocator();
  Allocator(const Allocator&) = delete;
  Allocator& operator=(const Allocator&) = delete;

  // Allocates `claims` (their status is ignored) on `node`.
  AllocateResult Allocate(const api::Node& node, std::span<const api::ResourceClaim> claims,
                          const AllocateOptions& options = {}) const;

 private:
  struct Impl;
  std::unique_ptr<Impl> impl_;
};

}  // namespace dra::allocator
