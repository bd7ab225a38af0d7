// Snapshot::more_slices: slices produced one at a time index as the same
// slices given at once do, whichever way they are split between the two.
#include <gtest/gtest.h>

#include <memory>
#include <vector>

#include "allocator_test_util.h"

namespace dra::allocator::testing {
namespace {

// Two pools of two slices each (one pool shared by every node, with
// counters), a node-local pool, and a taint rule on one device: what
// indexing a slice depends on beyond the slice itself.
constexpr char kMixed[] = R"(
apiVersion: v1
kind: Node
metadata:
  name: node-2
  labels: {region: region-2}
---
apiVersion: resource.k8s.io/v1
kind: ResourceSlice
metadata: {name: shared-b}
spec:
  driver: driver-a
  allNodes: true
  pool: {name: shared, generation: 1, resourceSliceCount: 2}
  devices:
  - name: part-0
    consumesCounters:
    - counterSet: memory
      counters: {mem: {value: 40Gi}}
  - name: part-1
    consumesCounters:
    - counterSet: memory
      counters: {mem: {value: 40Gi}}
---
apiVersion: resource.k8s.io/v1
kind: ResourceSlice
metadata: {name: shared-a}
spec:
  driver: driver-a
  allNodes: true
  pool: {name: shared, generation: 1, resourceSliceCount: 2}
  sharedCounters:
  - name: memory
    counters: {mem: {value: 60Gi}}
---
apiVersion: resource.k8s.io/v1
kind: ResourceSlice
metadata: {name: local-1}
spec:
  driver: driver-b
  nodeName: node-1
  pool: {name: node-1, generation: 2, resourceSliceCount: 2}
  devices:
  - name: gpu-0
    attributes: {model: {string: H100}}
    capacity: {memory: {value: 80Gi}}
  - name: gpu-1
    attributes: {model: {string: H100}}
    capacity: {memory: {value: 80Gi}}
---
apiVersion: resource.k8s.io/v1
kind: ResourceSlice
metadata: {name: local-2}
spec:
  driver: driver-b
  nodeName: node-1
  pool: {name: node-1, generation: 2, resourceSliceCount: 2}
  devices:
  - name: gpu-2
    attributes: {model: {string: A100}}
    capacity: {memory: {value: 40Gi}}
---
apiVersion: resource.k8s.io/v1
kind: DeviceTaintRule
metadata: {name: broken}
spec:
  deviceSelector: {driver: driver-b, device: gpu-0}
  taint: {key: broken, effect: NoSchedule}
---
apiVersion: resource.k8s.io/v1
kind: ResourceClaim
metadata: {name: mixed, namespace: default}
spec:
  devices:
    requests:
    - name: gpus
      exactly: {deviceClassName: class-b}
    - name: part
      exactly: {deviceClassName: class-a}
---
apiVersion: resource.k8s.io/v1
kind: ResourceClaim
metadata: {name: a100, namespace: default}
spec:
  devices:
    requests:
    - name: gpu
      exactly:
        deviceClassName: class-b
        selectors:
        - cel: {expression: 'device.attributes["driver-b"].model == "A100"'}
---
)";

// Every node's outcome (its number), results and explanation, as one text
// per node.
std::vector<std::string> Outcomes(const Allocator& allocator, const Scenario& s) {
  std::vector<std::string> out;
  AllocateOptions explain;
  explain.explain = true;
  for (const api::Node& node : s.nodes) {
    AllocateResult r = allocator.Allocate(node, s.claims, explain);
    std::string text = node.metadata.name + ": " + std::to_string(static_cast<int>(r.outcome));
    for (const auto& a : r.allocations) text += " [" + DeviceList(a) + "]";
    text += " " + r.error + " " + ExplanationText(r.explanation);
    out.push_back(text);
  }
  return out;
}

// The scenario's slices, the first `given` in Snapshot::slices and the rest
// through more_slices.
std::vector<std::string> Split(const Scenario& scenario, std::size_t given, int* calls) {
  Scenario s = scenario;
  auto rest = std::make_shared<std::vector<api::ResourceSlice>>(
      s.snapshot.slices.begin() + static_cast<std::ptrdiff_t>(given), s.snapshot.slices.end());
  s.snapshot.slices.resize(given);
  s.snapshot.more_slices = [rest, next = std::size_t{0}, calls](api::ResourceSlice& out) mutable {
    ++*calls;
    // Each call receives an empty slice to fill.
    EXPECT_TRUE(out.metadata.name.empty() && out.spec.devices.empty());
    if (next == rest->size()) return false;
    out = std::move((*rest)[next++]);
    return true;
  };
  Allocator allocator(std::move(s.snapshot));
  return Outcomes(allocator, s);
}

TEST(SliceSource, StreamedSlicesIndexAsSlicesGivenAtOnce) {
  Result<Scenario> s = ParseScenario(Fixtures() + kMixed, AllFeatures());
  ASSERT_TRUE(s.ok()) << s.error();
  const std::size_t total = s->snapshot.slices.size();
  ASSERT_EQ(total, 4u);
  Allocator whole(s->snapshot);
  const std::vector<std::string> expected = Outcomes(whole, *s);
  // Not a trivial scenario: node-1 allocates around the tainted device,
  // node-2 sees no device of class-b.
  ASSERT_EQ(expected.size(), 2u);
  EXPECT_NE(expected[0].find("node-1: 0 [gpus:driver-b/node-1/gpu-1 part:driver-a/shared/part-0]"
                             " [gpu:driver-b/node-1/gpu-2]"),
            std::string::npos)
      << expected[0];
  EXPECT_NE(expected[1].find("node-2: 1"), std::string::npos) << expected[1];
  for (std::size_t given = 0; given <= total; ++given) {
    int calls = 0;
    EXPECT_EQ(Split(*s, given, &calls), expected) << given << " given at once";
    // One call per streamed slice, and the one that ends the stream.
    EXPECT_EQ(calls, static_cast<int>(total - given) + 1);
  }
}

TEST(SliceSource, ExampleScenariosStreamedAllocateAsGivenAtOnce) {
  for (const char* file :
       {"gpu-cluster.yaml", "partitionable.yaml", "prioritized-list.yaml", "unschedulable.yaml"}) {
    api::ManifestOptions options;
    api::ManifestSet set =
        api::ReadManifests({std::string(DRA_SOURCE_DIR) + "/tests/scenarios/" + file}, options);
    Result<Scenario> s = ScenarioFromManifests(set, AllFeatures());
    ASSERT_TRUE(s.ok()) << file << ": " << s.error();
    Allocator whole(s->snapshot);
    int calls = 0;
    EXPECT_EQ(Split(*s, 0, &calls), Outcomes(whole, *s)) << file;
  }
}

}  // namespace
}  // namespace dra::allocator::testing
