// Allocator throughput on a 500-node cluster with 10 GPUs per node: indexing
// the snapshot, allocating on one node, and filtering every node for one pod
// (what the scheduler does per pod).
#include <benchmark/benchmark.h>

#include <string>
#include <vector>

#include "dra/allocator/allocator.h"
#include "dra/allocator/scenario.h"

namespace {

constexpr int kNodes = 500;
constexpr int kDevicesPerNode = 10;

std::string ClusterYaml() {
  std::string y = R"(apiVersion: resource.k8s.io/v1
kind: DeviceClass
metadata: {name: gpu.example.com}
spec:
  selectors:
  - cel: {expression: 'device.driver == "gpu.example.com"'}
---
)";
  for (int n = 0; n < kNodes; ++n) {
    std::string node = "node-" + std::to_string(n);
    y += "apiVersion: v1\nkind: Node\nmetadata: {name: " + node + ", labels: {zone: z" +
         std::to_string(n % 4) + "}}\n---\n";
    y += "apiVersion: resource.k8s.io/v1\nkind: ResourceSlice\nmetadata: "
         "{name: " +
         node + "-gpus}\nspec:\n  driver: gpu.example.com\n  nodeName: " + node +
         "\n  pool: {name: " + node + ", generation: 1, resourceSliceCount: 1}\n  devices:\n";
    for (int d = 0; d < kDevicesPerNode; ++d) {
      y += "  - name: gpu-" + std::to_string(d) +
           "\n    attributes: {numa: {int: " + std::to_string(d / 5) + "}, model: {string: m" +
           std::to_string(d % 3) +
           "}}\n    capacity: {memory: {value: " + std::to_string(d % 2 ? 80 : 40) + "Gi}}\n";
    }
    y += "---\n";
    // Two devices of every node are in use.
    y += "apiVersion: resource.k8s.io/v1\nkind: ResourceClaim\nmetadata: "
         "{name: used-" +
         node +
         ", namespace: default}\nspec:\n  devices:\n    requests:\n    - name: "
         "gpu\n      "
         "exactly: {deviceClassName: gpu.example.com, count: 2}\nstatus:\n  "
         "allocation:\n    "
         "devices:\n      results:\n      - {request: gpu, driver: "
         "gpu.example.com, pool: " +
         node +
         ", device: gpu-0}\n      - {request: gpu, driver: gpu.example.com, "
         "pool: " +
         node + ", device: gpu-5}\n---\n";
  }
  // The pod's claim: two large GPUs on one NUMA node.
  y += R"(apiVersion: resource.k8s.io/v1
kind: ResourceClaim
metadata: {name: pod-claim, namespace: default}
spec:
  devices:
    requests:
    - name: gpus
      exactly:
        deviceClassName: gpu.example.com
        count: 2
        selectors:
        - cel: {expression: 'device.capacity["gpu.example.com"].memory.compareTo(quantity("64Gi")) >= 0'}
    constraints:
    - {matchAttribute: gpu.example.com/numa}
)";
  return y;
}

const dra::allocator::Scenario& Cluster() {
  static const dra::allocator::Scenario scenario = [] {
    dra::allocator::Features f;
    f.prioritized_list = f.admin_access = f.device_taints = f.partitionable_devices = true;
    auto s = dra::allocator::ParseScenario(ClusterYaml(), f);
    if (!s.ok()) std::abort();
    return std::move(s).value();
  }();
  return scenario;
}

void BM_IndexSnapshot(benchmark::State& state) {
  const auto& s = Cluster();
  for (auto _ : state) {
    dra::allocator::Allocator a(s.snapshot);
    benchmark::DoNotOptimize(a);
  }
  state.SetItemsProcessed(state.iterations() * kNodes * kDevicesPerNode);
}
BENCHMARK(BM_IndexSnapshot)->Unit(benchmark::kMillisecond);

void BM_AllocateOneNode(benchmark::State& state) {
  const auto& s = Cluster();
  dra::allocator::Allocator a(s.snapshot);
  dra::api::Node node = dra::allocator::FindNode(s, "node-250");
  for (auto _ : state) {
    auto r = a.Allocate(node, s.claims);
    if (r.outcome != dra::allocator::Outcome::kAllocated) state.SkipWithError("not allocated");
    benchmark::DoNotOptimize(r);
  }
  state.SetItemsProcessed(state.iterations());
}
BENCHMARK(BM_AllocateOneNode)->Unit(benchmark::kMicrosecond);

void BM_AllocateEveryNode(benchmark::State& state) {
  const auto& s = Cluster();
  dra::allocator::Allocator a(s.snapshot);
  std::vector<dra::api::Node> nodes;
  for (int n = 0; n < kNodes; ++n)
    nodes.push_back(dra::allocator::FindNode(s, "node-" + std::to_string(n)));
  for (auto _ : state) {
    int fits = 0;
    for (const auto& node : nodes) {
      fits += a.Allocate(node, s.claims).outcome == dra::allocator::Outcome::kAllocated;
    }
    if (fits != kNodes) state.SkipWithError("some node did not fit");
  }
  state.SetItemsProcessed(state.iterations() * kNodes);
}
BENCHMARK(BM_AllocateEveryNode)->Unit(benchmark::kMillisecond);

}  // namespace

BENCHMARK_MAIN();
