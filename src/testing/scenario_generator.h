// The seeded scenario generator shared by tests, benchmarks and the
// differential tests against upstream Kubernetes (issue #4/#5): one function
// turns (seed, sizes, knobs) into a cluster of ResourceSlices, DeviceClasses,
// DeviceTaintRules, in-use claims and claims to allocate, plus the feature
// gates to run it with. The same parameters always give the same scenario,
// bit for bit, on every platform (the generator uses its own PRNG, never
// std::*_distribution, whose output is implementation-defined).
//
// Every generated object is valid for kube-apiserver with every DRA feature
// gate on (`dra validate` with those gates accepts the manifest). A scenario's
// own gates may be narrower: then it holds objects written while a gate was
// on, which exercises the allocator's feature-off paths as upstream's do.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "allocator/scenario.h"
#include "dra/api/codec.h"
#include "dra/api/feature_gates.h"
#include "dra/util/result.h"

namespace dra::testing {

// Probabilities are in [0, 1]; a knob at 0 never produces its feature.
struct GeneratorParams {
  std::uint64_t seed = 1;
  int nodes = 4;             // nodes node-0 .. node-<n-1>; allocation is for node-0
  int devices_per_node = 8;  // devices per node-local slice
  int drivers = 1;           // drivers publishing pools (gpu-0.example.com, ...)
  int slices_per_pool = 1;   // a pool's devices are spread over this many slices
  int claims = 2;            // claims to allocate (all for the same pod)
  int max_requests = 2;      // requests per claim: 1 .. max_requests
  int max_count = 2;         // ExactCount count: 1 .. max_count
  int classes = 2;           // DeviceClasses (class-0 .. ), one per driver at least

  // Selectors (CEL over attributes and capacity).
  double p_class_selector = 0.5;    // a class has a CEL selector
  double p_request_selector = 0.5;  // a request has a CEL selector
  double p_class_config = 0.3;      // a class / claim carries opaque config
  // Pools.
  double p_network_pool = 0.15;     // a non-node-local pool (nodeSelector / allNodes)
  double p_incomplete_pool = 0.05;  // a pool missing one of its slices
  double p_partitionable = 0.0;     // a pool with shared counters (partitions)
  double p_per_device_nodes = 0.0;  // a partitionable pool uses per-device node selection
  // Taints.
  double p_taint = 0.0;       // a device has a taint
  double p_taint_rule = 0.0;  // a DeviceTaintRule exists (per driver)
  double p_toleration = 0.0;  // a request tolerates taints
  // Consumable capacity.
  double p_multi_alloc = 0.0;       // a device allows multiple allocations
  double p_request_policy = 0.0;    // a shared device's capacity has a requestPolicy
  double p_capacity_request = 0.0;  // a request asks for capacity
  // Claim shape.
  double p_match_attribute = 0.0;     // a claim has a matchAttribute constraint
  double p_distinct_attribute = 0.0;  // a claim has a distinctAttribute constraint
  double p_list_attributes = 0.0;     // a device attribute is list-typed
  double p_first_available = 0.0;     // a request is a prioritized list
  double p_all_mode = 0.0;            // a request uses allocationMode All
  double p_admin_access = 0.0;        // a request asks for admin access
  double p_binding_conditions = 0.0;  // a device has binding conditions
  double p_allocated = 0.0;           // a device is already in use by a claim
  // Gates: when true, every toggleable DRA gate (DRADeviceTaints,
  // DRAConsumableCapacity, DRADeviceBindingConditions,
  // DRAPartitionableDevices, DRAListTypeAttributes,
  // DRAFractionalCapacityRange) is drawn at random;
  // otherwise the Kubernetes 1.37 defaults apply, with DRAListTypeAttributes
  // switched on when p_list_attributes > 0.
  bool random_gates = false;
};

// Named parameter sets: "small" (a few devices, basic features), "all"
// (every feature at moderate probability, random gates), "bench" (many
// nodes, selectors, no exotic features), and one per feature family:
// "partitionable", "taints", "capacity", "constraints", "prioritized",
// "admin", "binding". Unknown names are an error naming the valid ones.
Result<GeneratorParams> ProfileParams(const std::string& profile);
std::vector<std::string> ProfileNames();

struct GeneratedScenario {
  GeneratorParams params;
  std::string node;           // the node to allocate on ("node-0")
  api::FeatureGates gates;    // the gates to run with
  std::string feature_gates;  // the same as --feature-gates text ("" = defaults)
  // In manifest order: Nodes, DeviceClasses, ResourceSlices, DeviceTaintRules,
  // in-use claims (with status.allocation), claims to allocate.
  std::vector<api::Object> objects;
};

GeneratedScenario GenerateScenario(const GeneratorParams& params);

// The generated objects sorted into the allocator's input, features from the
// scenario's gates (no YAML round trip).
allocator::Scenario ToAllocatorScenario(const GeneratedScenario& scenario);

// Objects as a multi-document YAML manifest in resource.k8s.io/v1 (core
// kinds in core/v1).
Result<std::string> ObjectsYaml(const std::vector<api::Object>& objects);

// A multi-document YAML manifest of the objects in resource.k8s.io/v1 (Nodes
// in core/v1), preceded by comment lines "# dra-gen: <key>=<value>" for seed,
// node and feature-gates that the differential test reads back.
Result<std::string> ManifestYaml(const GeneratedScenario& scenario);

}  // namespace dra::testing
