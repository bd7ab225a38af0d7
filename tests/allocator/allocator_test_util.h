// Helpers for allocator tests: the fixtures of upstream's shared allocator suite
// (k8s.io/dynamic-resource-allocation structured/internal/allocatortesting:
// node-1 with region/planet labels, class-a and class-b selecting driver-a and
// driver-b) and compact views of results.
#pragma once

#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "allocator/scenario.h"
#include "dra/allocator/allocator.h"

namespace dra::allocator::testing {

inline constexpr char kFixtures[] = R"(
apiVersion: v1
kind: Node
metadata:
  name: node-1
  labels: {region: region-1, planet: earth}
---
apiVersion: resource.k8s.io/v1
kind: DeviceClass
metadata: {name: class-a}
spec:
  selectors:
  - cel: {expression: 'device.driver == "driver-a"'}
---
apiVersion: resource.k8s.io/v1
kind: DeviceClass
metadata: {name: class-b}
spec:
  selectors:
  - cel: {expression: 'device.driver == "driver-b"'}
---
)";

struct Outcome {
  AllocateResult result;
  // One line per claim: "req:driver/pool/device req:driver/pool/device".
  std::vector<std::string> devices;
};

inline std::string DeviceList(const api::AllocationResult& a) {
  std::string out;
  for (const auto& r : a.devices.results) {
    if (!out.empty()) out += ' ';
    out += r.request + ":" + r.driver + "/" + r.pool + "/" + r.device;
  }
  return out;
}

// No feature gate on, but upstream's incubating variant (selected by
// DRAFractionalCapacityRange, which changes nothing else here): the tests
// below pin down that variant unless they say otherwise.
inline Features Base() {
  Features f;
  f.fractional_capacity_range = true;
  return f;
}

// The stable variant: only gates of its supported set.
inline Features Stable() { return Features{}; }

// Allocates the scenario's unallocated claims on `node` with the fixtures.
inline Outcome Allocate(const std::string& yaml, const Features& features = Base(),
                        const std::string& node = "node-1", AllocateOptions options = {}) {
  Result<Scenario> s = ParseScenario(std::string(kFixtures) + yaml, features);
  EXPECT_TRUE(s.ok()) << (s.ok() ? "" : s.error());
  if (!s.ok()) return {};
  Allocator allocator(s->snapshot);
  Outcome out;
  out.result = allocator.Allocate(FindNode(*s, node), s->claims, options);
  for (const auto& a : out.result.allocations) out.devices.push_back(DeviceList(a));
  return out;
}

inline Features AllFeatures() {
  Features f = Base();
  f.admin_access = f.prioritized_list = f.partitionable_devices = f.device_taints = true;
  f.device_binding_and_status = true;
  return f;
}

// A slice for node-1 in its own pool (generation 1, one slice) with devices
// given as a YAML flow list body, e.g. "{name: device-1}".
inline std::string Slice(const std::string& name, const std::string& pool,
                         const std::string& devices, const std::string& driver = "driver-a",
                         const std::string& node = "node-1") {
  return "apiVersion: resource.k8s.io/v1\nkind: ResourceSlice\nmetadata: {name: " + name +
         "}\nspec:\n  driver: " + driver + "\n  nodeName: " + node + "\n  pool: {name: " + pool +
         ", generation: 1, resourceSliceCount: 1}\n  devices: [" + devices + "]\n---\n";
}

// A claim with requests given as a YAML block (indented by 6 spaces).
inline std::string Claim(const std::string& name, const std::string& devices_block) {
  return "apiVersion: resource.k8s.io/v1\nkind: ResourceClaim\nmetadata: {name: " + name +
         ", namespace: default}\nspec:\n  devices:\n" + devices_block + "---\n";
}

inline std::string OneRequest(const std::string& request = "req-0",
                              const std::string& cls = "class-a", int count = 1) {
  return "    requests:\n    - name: " + request + "\n      exactly: {deviceClassName: " + cls +
         ", allocationMode: ExactCount, count: " + std::to_string(count) + "}\n";
}

}  // namespace dra::allocator::testing
