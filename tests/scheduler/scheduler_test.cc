// The scheduler's lifecycle steps: claims from templates, PreEnqueue and
// PreFilter rejections, Filter and node fit, scoring, Reserve/PreBind,
// deallocation, PostFilter, binding conditions and taint eviction.
#include "dra/scheduler/scheduler.h"

#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <algorithm>
#include <memory>
#include <string>
#include <vector>

namespace dra::scheduler {
namespace {

using ::testing::HasSubstr;
using ::testing::StartsWith;

allocator::Features AllFeatures() {
  allocator::Features f;
  f.prioritized_list = true;
  f.partitionable_devices = true;
  f.device_taints = true;
  f.device_binding_and_status = true;
  f.consumable_capacity = true;
  f.admin_access = true;
  return f;
}

Cluster Parse(const std::string& yaml) {
  api::ManifestSet set;
  api::ParseManifestText("test", yaml, api::ManifestOptions{}, set);
  Result<Cluster> c = ClusterFromManifests(set, "default");
  EXPECT_TRUE(c.ok()) << c.error();
  return c.ok() ? std::move(*c) : Cluster{};
}

SchedulerOptions Options(int threads = 2) {
  SchedulerOptions o;
  o.features = AllFeatures();
  o.parallelism = threads;
  o.now = 1'800'000'000;
  return o;
}

// A node with `devices` GPUs in one node-local slice.
std::string GpuNode(const std::string& node, int devices, const std::string& labels = "") {
  std::string y = "apiVersion: v1\nkind: Node\nmetadata:\n  name: " + node +
                  "\n  labels:\n    kubernetes.io/hostname: " + node + "\n" + labels +
                  "status:\n  allocatable:\n    cpu: \"4\"\n    memory: 32Gi\n    pods: \"110\"\n"
                  "---\napiVersion: resource.k8s.io/v1\nkind: ResourceSlice\nmetadata:\n  name: " +
                  node + "-gpus\nspec:\n  driver: gpu.example.com\n  pool:\n    name: " + node +
                  "\n    generation: 1\n    resourceSliceCount: 1\n  nodeName: " + node +
                  "\n  devices:\n";
  for (int i = 0; i < devices; ++i) {
    y += "  - name: gpu-" + std::to_string(i) +
         "\n    attributes:\n      model:\n        string: " + (node == "big" ? "H100" : "A100") +
         "\n";
  }
  return y + "---\n";
}

const char* kClassAndTemplate = R"(apiVersion: resource.k8s.io/v1
kind: DeviceClass
metadata:
  name: gpu
spec:
  selectors:
  - cel:
      expression: device.driver == "gpu.example.com"
---
apiVersion: resource.k8s.io/v1
kind: ResourceClaimTemplate
metadata:
  name: one-gpu
spec:
  spec:
    devices:
      requests:
      - name: gpu
        exactly:
          deviceClassName: gpu
---
)";

std::string TemplatePod(const std::string& name, const std::string& extra_spec = "") {
  return "apiVersion: v1\nkind: Pod\nmetadata:\n  name: " + name +
         "\nspec:\n  containers:\n  - name: c\n    image: x\n" + extra_spec +
         "  resourceClaims:\n  - name: gpu\n    resourceClaimTemplateName: one-gpu\n---\n";
}

std::string ClaimPod(const std::string& name, const std::string& claim) {
  return "apiVersion: v1\nkind: Pod\nmetadata:\n  name: " + name +
         "\nspec:\n  containers:\n  - name: c\n    image: x\n  resourceClaims:\n  - name: "
         "shared\n    resourceClaimName: " +
         claim + "\n---\n";
}

const char* kSharedClaim = R"(apiVersion: resource.k8s.io/v1
kind: ResourceClaim
metadata:
  name: shared
spec:
  devices:
    requests:
    - name: gpu
      exactly:
        deviceClassName: gpu
---
)";

TEST(SchedulerTest, GeneratesTemplateClaimsWithOwnerAndStatus) {
  Scheduler s(Parse(GpuNode("n1", 2) + kClassAndTemplate + TemplatePod("train")), Options());
  s.Run();
  const PodRecord* pod = s.FindPod("default", "train");
  ASSERT_NE(pod, nullptr);
  ASSERT_EQ(pod->state, PodState::kBound) << pod->reason;
  EXPECT_EQ(pod->node, "n1");
  ASSERT_EQ(pod->pod.status.resource_claim_statuses.size(), 1u);
  const std::string name = *pod->pod.status.resource_claim_statuses[0].resource_claim_name;
  EXPECT_THAT(name, StartsWith("train-gpu-"));
  EXPECT_EQ(name.size(), std::string("train-gpu-").size() + 5);
  const api::ResourceClaim* claim = s.FindClaim("default", name);
  ASSERT_NE(claim, nullptr);
  ASSERT_EQ(claim->metadata.owner_references.size(), 1u);
  EXPECT_EQ(claim->metadata.owner_references[0].kind, "Pod");
  EXPECT_EQ(claim->metadata.owner_references[0].uid, pod->pod.metadata.uid);
  EXPECT_TRUE(*claim->metadata.owner_references[0].controller);
  EXPECT_EQ(claim->metadata.annotations.at("resource.kubernetes.io/pod-claim-name"), "gpu");
  EXPECT_THAT(claim->metadata.finalizers,
              ::testing::ElementsAre("resource.kubernetes.io/delete-protection"));
  ASSERT_TRUE(claim->status.allocation.has_value());
  ASSERT_EQ(claim->status.reserved_for.size(), 1u);
  EXPECT_EQ(claim->status.reserved_for[0].name, "train");
  EXPECT_EQ(claim->status.reserved_for[0].resource, "pods");
}

TEST(SchedulerTest, NeverHandsOutADeviceTwice) {
  std::string y = GpuNode("n1", 2) + GpuNode("n2", 1) + kClassAndTemplate;
  for (int i = 0; i < 4; ++i) y += TemplatePod("p" + std::to_string(i));
  Scheduler s(Parse(y), Options());
  s.Run();
  std::set<std::string> devices;
  int bound = 0;
  for (const PodRecord& p : s.pods()) {
    if (p.state != PodState::kBound) {
      EXPECT_EQ(p.reason,
                "0/2 nodes are available: 2 cannot allocate all claims. preemption: 0/2 nodes are "
                "available: 2 Preemption is not helpful for scheduling.");
      ASSERT_TRUE(p.explanation.has_value());
      ASSERT_EQ(p.explanation->entries.size(), 1u);
      EXPECT_EQ(p.explanation->entries[0].request, "gpu");
      EXPECT_EQ(p.explanation->entries[0].blocking, allocator::Stage::kAllocated);
      continue;
    }
    ++bound;
    const api::ResourceClaim* c = s.FindClaim("default", p.claims.at(0).substr(8));
    ASSERT_NE(c, nullptr);
    for (const auto& r : c->status.allocation->devices.results) {
      EXPECT_TRUE(devices.insert(r.pool + "/" + r.device).second) << r.pool << "/" << r.device;
    }
  }
  EXPECT_EQ(bound, 3);
}

TEST(SchedulerTest, SharedClaimIsAllocatedOnceAndReservedByEveryPod) {
  std::string y = GpuNode("n1", 1) + GpuNode("n2", 1) + kClassAndTemplate + kSharedClaim;
  for (int i = 0; i < 3; ++i) y += ClaimPod("s" + std::to_string(i), "shared");
  Scheduler s(Parse(y), Options());
  s.Run();
  std::string node;
  for (const PodRecord& p : s.pods()) {
    ASSERT_EQ(p.state, PodState::kBound) << p.reason;
    if (node.empty()) node = p.node;
    EXPECT_EQ(p.node, node);  // the allocation's node selector pins the node
  }
  const api::ResourceClaim* c = s.FindClaim("default", "shared");
  EXPECT_EQ(c->status.reserved_for.size(), 3u);
  ASSERT_TRUE(c->status.allocation->node_selector.has_value());
}

TEST(SchedulerTest, ReservedForIsCappedAt256) {
  // A bare node (no allocatable): only the claim limits the pods.
  std::string y = "apiVersion: v1\nkind: Node\nmetadata:\n  name: n1\n---\n" +
                  GpuNode("n1", 1).substr(GpuNode("n1", 1).find("---\n") + 4) + kClassAndTemplate +
                  kSharedClaim;
  for (int i = 0; i < 257; ++i) y += ClaimPod("s" + std::to_string(i), "shared");
  Scheduler s(Parse(y), Options(1));
  s.Run();
  const PodRecord* last = s.FindPod("default", "s256");
  EXPECT_EQ(last->state, PodState::kPending);
  EXPECT_EQ(last->reason,
            "0/1 nodes are available: resourceclaim in use. preemption: 0/1 nodes are available: 1 "
            "Preemption is not helpful for scheduling.");
  EXPECT_EQ(s.FindClaim("default", "shared")->status.reserved_for.size(), 256u);
}

TEST(SchedulerTest, BadInputIsReportedAgainstThePod) {
  std::string y = GpuNode("n1", 4) + kClassAndTemplate + kSharedClaim +
                  R"(apiVersion: resource.k8s.io/v1
kind: ResourceClaim
metadata:
  name: nope
spec:
  devices:
    requests:
    - name: gpu
      exactly:
        deviceClassName: no-such-class
---
apiVersion: resource.k8s.io/v1
kind: ResourceClaim
metadata:
  name: mine
  ownerReferences:
  - apiVersion: v1
    kind: Pod
    name: owner
    uid: owner-uid
    controller: true
spec:
  devices:
    requests:
    - name: gpu
      exactly:
        deviceClassName: gpu
---
apiVersion: resource.k8s.io/v1
kind: ResourceClaim
metadata:
  name: shared
spec:
  devices:
    requests: []
---
apiVersion: v1
kind: Pod
metadata:
  name: twice
spec:
  containers:
  - name: c
    image: x
  resourceClaims:
  - name: a
    resourceClaimName: mine2
  - name: b
    resourceClaimName: mine2
---
apiVersion: resource.k8s.io/v1
kind: ResourceClaim
metadata:
  name: mine2
spec:
  devices:
    requests: []
---
apiVersion: v1
kind: Pod
metadata:
  name: no-template
spec:
  containers:
  - name: c
    image: x
  resourceClaims:
  - name: gpu
    resourceClaimTemplateName: missing
---
)" + ClaimPod("no-claim", "missing") +
                  ClaimPod("bad-class", "nope") + ClaimPod("thief", "mine") +
                  ClaimPod("dup", "shared") + TemplatePod("fine");
  Scheduler s(Parse(y), Options());
  s.Run();
  auto reason = [&](const std::string& name) {
    const PodRecord* p = s.FindPod("default", name);
    EXPECT_NE(p, nullptr) << name;
    return p == nullptr ? std::string() : p->reason;
  };
  EXPECT_THAT(reason("no-template"),
              HasSubstr("resourceclaimtemplate.resource.k8s.io \"missing\" not found"));
  EXPECT_EQ(reason("no-claim"), "resourceclaim.resource.k8s.io \"missing\" not found");
  EXPECT_EQ(reason("bad-class"),
            "0/1 nodes are available: request gpu: device class no-such-class does not exist. "
            "preemption: 0/1 nodes are available: 1 Preemption is not helpful for scheduling.");
  EXPECT_EQ(reason("thief"),
            "ResourceClaim default/mine was not created for pod default/thief (pod is not owner)");
  EXPECT_EQ(reason("dup"), "ResourceClaim default/shared is defined more than once in the input");
  EXPECT_THAT(reason("twice"), HasSubstr("referenced twice"));
  EXPECT_EQ(s.FindPod("default", "fine")->state, PodState::kBound);
}

TEST(SchedulerTest, NodeFitBeforeDra) {
  std::string y =
      GpuNode("n1", 1) + GpuNode("n2", 1, "    zone: b\n") + GpuNode("n3", 1) + kClassAndTemplate +
      TemplatePod("by-selector", "  nodeSelector:\n    zone: b\n") +
      TemplatePod("by-name", "  nodeName: n3\n") +
      TemplatePod("too-big",
                  "  affinity:\n    nodeAffinity:\n      "
                  "requiredDuringSchedulingIgnoredDuringExecution:\n        "
                  "nodeSelectorTerms:\n        - matchFields:\n          - key: "
                  "metadata.name\n            operator: In\n            values: [n1]\n") +
      "apiVersion: v1\nkind: Pod\nmetadata:\n  name: cpu-hog\nspec:\n  containers:\n"
      "  - name: c\n    image: x\n    resources:\n      requests:\n        cpu: \"5\"\n";
  Scheduler s(Parse(y), Options());
  s.Run();
  EXPECT_EQ(s.FindPod("default", "by-selector")->node, "n2");
  EXPECT_EQ(s.FindPod("default", "by-name")->node, "n3");
  EXPECT_EQ(s.FindPod("default", "too-big")->node, "n1");
  EXPECT_EQ(s.FindPod("default", "cpu-hog")->reason,
            "0/3 nodes are available: 3 Insufficient cpu. preemption: 0/3 nodes are available: 3 "
            "Preemption is not helpful for scheduling.");
}

TEST(SchedulerTest, FinishedPodsFreeTheirDevicesForWaitingPods) {
  std::string y =
      GpuNode("n1", 1) + kClassAndTemplate + TemplatePod("first") + TemplatePod("second");
  Scheduler s(Parse(y), Options());
  s.Run();
  ASSERT_EQ(s.FindPod("default", "first")->state, PodState::kBound);
  ASSERT_EQ(s.FindPod("default", "second")->state, PodState::kPending);
  std::string first_claim = s.FindPod("default", "first")->claims.at(0);
  ASSERT_TRUE(s.FinishPod("default", "first").ok());
  // The generated claim of the finished pod is deleted.
  EXPECT_EQ(s.FindClaim("default", first_claim.substr(8)), nullptr);
  s.Run();
  EXPECT_EQ(s.FindPod("default", "second")->state, PodState::kBound);
  EXPECT_FALSE(s.FinishPod("default", "first").ok());
  EXPECT_FALSE(s.FinishPod("default", "nobody").ok());
}

TEST(SchedulerTest, SharedClaimIsDeallocatedWhenItsLastUserFinishes) {
  std::string y = GpuNode("n1", 1) + kClassAndTemplate + kSharedClaim + ClaimPod("a", "shared") +
                  ClaimPod("b", "shared");
  Scheduler s(Parse(y), Options());
  s.Run();
  ASSERT_TRUE(s.FinishPod("default", "a").ok());
  EXPECT_TRUE(s.FindClaim("default", "shared")->status.allocation.has_value());
  ASSERT_TRUE(s.DeletePod("default", "b").ok());
  const api::ResourceClaim* c = s.FindClaim("default", "shared");
  ASSERT_NE(c, nullptr);  // not generated: kept, but deallocated
  EXPECT_FALSE(c->status.allocation.has_value());
  EXPECT_TRUE(c->metadata.finalizers.empty());
  EXPECT_TRUE(s.AddPod(Parse(ClaimPod("b", "shared")).pods.at(0)).ok());
  s.Run();
  EXPECT_EQ(s.FindPod("default", "b")->state, PodState::kBound);
}

TEST(SchedulerTest, PostFilterDeallocatesAClaimPinnedToAFullNode) {
  // "stale" is allocated on n1 but reserved by nobody; n1 has no room for pods.
  std::string y = R"(apiVersion: v1
kind: Node
metadata:
  name: n1
status:
  allocatable:
    pods: "0"
---
)" + GpuNode("n2", 1) +
                  kClassAndTemplate +
                  R"(apiVersion: resource.k8s.io/v1
kind: ResourceSlice
metadata:
  name: n1-gpus
spec:
  driver: gpu.example.com
  pool:
    name: n1
    resourceSliceCount: 1
  nodeName: n1
  devices:
  - name: gpu-0
---
apiVersion: resource.k8s.io/v1
kind: ResourceClaim
metadata:
  name: stale
spec:
  devices:
    requests:
    - name: gpu
      exactly:
        deviceClassName: gpu
status:
  allocation:
    devices:
      results:
      - request: gpu
        driver: gpu.example.com
        pool: n1
        device: gpu-0
    nodeSelector:
      nodeSelectorTerms:
      - matchFields:
        - key: metadata.name
          operator: In
          values: [n1]
---
)" + ClaimPod("user", "stale");
  Scheduler s(Parse(y), Options());
  s.Run();
  const PodRecord* p = s.FindPod("default", "user");
  EXPECT_EQ(p->state, PodState::kBound) << p->reason;
  EXPECT_EQ(p->node, "n2");
  EXPECT_GE(p->attempts, 2);
}

TEST(SchedulerTest, PrioritizedListScorePrefersTheFirstSubrequest) {
  std::string y = GpuNode("small", 1) + GpuNode("big", 1) + kClassAndTemplate +
                  R"(apiVersion: resource.k8s.io/v1
kind: ResourceClaimTemplate
metadata:
  name: best-gpu
spec:
  spec:
    devices:
      requests:
      - name: gpu
        firstAvailable:
        - name: h100
          deviceClassName: gpu
          selectors:
          - cel:
              expression: device.attributes["gpu.example.com"].model == "H100"
        - name: any
          deviceClassName: gpu
---
apiVersion: v1
kind: Pod
metadata:
  name: p
spec:
  containers:
  - name: c
    image: x
  resourceClaims:
  - name: gpu
    resourceClaimTemplateName: best-gpu
)";
  for (std::uint64_t seed = 1; seed <= 8; ++seed) {
    SchedulerOptions o = Options();
    o.seed = seed;
    Scheduler s(Parse(y), o);
    s.Run();
    EXPECT_EQ(s.FindPod("default", "p")->node, "big") << "seed " << seed;
  }
}

const char* kBindingSlice = R"(apiVersion: resource.k8s.io/v1
kind: ResourceSlice
metadata:
  name: fabric
spec:
  driver: gpu.example.com
  pool:
    name: fabric
    resourceSliceCount: 1
  nodeName: n1
  devices:
  - name: attached
    bindingConditions: [Attached]
    bindingFailureConditions: [AttachFailed]
---
)";

TEST(SchedulerTest, BindingConditionsMetOrTimedOut) {
  std::string y = GpuNode("n1", 0) + kBindingSlice + kClassAndTemplate + TemplatePod("p");
  {
    Scheduler s(Parse(y), Options());
    s.Run();
    const PodRecord* p = s.FindPod("default", "p");
    ASSERT_EQ(p->state, PodState::kBound) << p->reason;
    EXPECT_TRUE(p->waited_for_binding_conditions);
    const api::ResourceClaim* c = s.FindClaim("default", p->claims[0].substr(8));
    EXPECT_EQ(c->status.allocation->allocation_timestamp.seconds, 1'800'000'000);
    ASSERT_EQ(c->status.devices.size(), 1u);
    EXPECT_EQ(c->status.devices[0].conditions.at(0).type, "Attached");
  }
  {
    SchedulerOptions o = Options();
    o.binding_conditions_met = false;
    Scheduler s(Parse(y), o);
    s.Run();
    const PodRecord* p = s.FindPod("default", "p");
    EXPECT_EQ(p->state, PodState::kPending);
    EXPECT_EQ(p->reason, "device binding timeout");
    for (const api::ResourceClaim* c : s.Claims()) EXPECT_FALSE(c->status.allocation);
  }
}

TEST(SchedulerTest, NoExecuteTaintRuleEvictsUntoleratingPods) {
  std::string y = GpuNode("n1", 2) + kClassAndTemplate + TemplatePod("a") + TemplatePod("b");
  Cluster c = Parse(y);
  Scheduler s(std::move(c), Options());
  s.Run();
  ASSERT_EQ(s.FindPod("default", "a")->state, PodState::kBound);
  // No taints yet: nothing to evict.
  EXPECT_TRUE(s.EvictTaintedPods(1'800'000'100).empty());

  std::string tainted = GpuNode("n1", 2) + kClassAndTemplate + R"(apiVersion: resource.k8s.io/v1
kind: DeviceTaintRule
metadata:
  name: broken
spec:
  deviceSelector:
    device: gpu-0
  taint:
    key: broken
    effect: NoExecute
    timeAdded: "2027-01-15T08:00:00Z"
---
)" + R"(apiVersion: resource.k8s.io/v1
kind: ResourceClaim
metadata:
  name: held
spec:
  devices:
    requests:
    - name: gpu
      exactly:
        deviceClassName: gpu
status:
  allocation:
    devices:
      results:
      - request: gpu
        driver: gpu.example.com
        pool: n1
        device: gpu-0
---
)" + ClaimPod("victim", "held") +
                        TemplatePod("bystander");
  Scheduler t(Parse(tainted), Options());
  t.Run();
  ASSERT_EQ(t.FindPod("default", "victim")->state, PodState::kBound);
  ASSERT_EQ(t.FindPod("default", "bystander")->state, PodState::kBound);
  // Before the taint was added nothing happens; afterwards the victim goes.
  EXPECT_TRUE(t.EvictTaintedPods(1'700'000'000).empty());
  std::vector<std::string> evicted = t.EvictTaintedPods(1'900'000'000);
  EXPECT_THAT(evicted, ::testing::ElementsAre("default/victim"));
  EXPECT_EQ(t.FindPod("default", "victim")->state, PodState::kFailed);
  EXPECT_EQ(t.FindPod("default", "victim")->reason, "DeletionByDeviceTaintManager");
  EXPECT_EQ(t.FindPod("default", "bystander")->state, PodState::kBound);
}

TEST(SchedulerTest, ExtendedResourceBridge) {
  std::string y = GpuNode("dra-node", 2) + R"(apiVersion: v1
kind: Node
metadata:
  name: plugin-node
status:
  allocatable:
    cpu: "4"
    memory: 32Gi
    pods: "110"
    example.com/gpu: "2"
---
apiVersion: resource.k8s.io/v1
kind: DeviceClass
metadata:
  name: gpu
spec:
  extendedResourceName: example.com/gpu
  selectors:
  - cel:
      expression: device.driver == "gpu.example.com"
---
)";
  auto pod = [](const std::string& name, const std::string& node, int gpus) {
    return "apiVersion: v1\nkind: Pod\nmetadata:\n  name: " + name +
           "\nspec:\n  affinity:\n    nodeAffinity:\n      "
           "requiredDuringSchedulingIgnoredDuringExecution:\n        nodeSelectorTerms:\n"
           "        - matchFields:\n          - {key: metadata.name, operator: In, values: [" +
           node +
           "]}\n  containers:\n  - name: main\n    image: x\n    resources:\n      requests:\n"
           "        example.com/gpu: \"" +
           std::to_string(gpus) + "\"\n      limits:\n        example.com/gpu: \"" +
           std::to_string(gpus) + "\"\n---\n";
  };
  y += pod("via-dra", "dra-node", 2) + pod("via-plugin", "plugin-node", 2) +
       pod("too-many", "plugin-node", 1) + pod("no-devices-left", "dra-node", 1);
  Scheduler s(Parse(y), Options());
  s.Run();
  const PodRecord* dra = s.FindPod("default", "via-dra");
  ASSERT_EQ(dra->state, PodState::kBound) << dra->reason;
  ASSERT_TRUE(dra->pod.status.extended_resource_claim_status.has_value());
  const auto& status = *dra->pod.status.extended_resource_claim_status;
  EXPECT_THAT(status.resource_claim_name, StartsWith("via-dra-extended-resources-"));
  ASSERT_EQ(status.request_mappings.size(), 1u);
  EXPECT_EQ(status.request_mappings[0].container_name, "main");
  EXPECT_EQ(status.request_mappings[0].resource_name, "example.com/gpu");
  EXPECT_EQ(status.request_mappings[0].request_name, "container-0-request-0");
  const api::ResourceClaim* claim = s.FindClaim("default", status.resource_claim_name);
  ASSERT_NE(claim, nullptr);
  EXPECT_EQ(claim->status.allocation->devices.results.size(), 2u);
  EXPECT_EQ(claim->metadata.annotations.at("resource.kubernetes.io/extended-resource-claim"),
            "true");

  const PodRecord* plugin = s.FindPod("default", "via-plugin");
  ASSERT_EQ(plugin->state, PodState::kBound) << plugin->reason;
  EXPECT_FALSE(plugin->pod.status.extended_resource_claim_status.has_value());
  EXPECT_EQ(s.FindPod("default", "too-many")->reason,
            "0/2 nodes are available: 1 Insufficient example.com/gpu, 1 node(s) didn't match Pod's "
            "node affinity/selector. preemption: 0/2 nodes are available: 1 No preemption victims "
            "found for incoming pod, 1 Preemption is not helpful for scheduling.");
  EXPECT_EQ(s.FindPod("default", "no-devices-left")->state, PodState::kPending);

  // Finishing the pod deletes its extended-resource claim and frees the devices.
  ASSERT_TRUE(s.FinishPod("default", "via-dra").ok());
  EXPECT_EQ(s.FindClaim("default", status.resource_claim_name), nullptr);
  s.Run();
  EXPECT_EQ(s.FindPod("default", "no-devices-left")->state, PodState::kBound);
}

TEST(SchedulerTest, SameResultsWithOneOrManyThreads) {
  std::string y = kClassAndTemplate;
  for (int n = 0; n < 120; ++n) y += GpuNode("node-" + std::to_string(n), 2);
  for (int p = 0; p < 300; ++p) y += TemplatePod("p" + std::to_string(p));
  Scheduler one(Parse(y), Options(1));
  Scheduler four(Parse(y), Options(4));
  one.Run();
  four.Run();
  ASSERT_EQ(one.pods().size(), four.pods().size());
  int bound = 0;
  for (std::size_t i = 0; i < one.pods().size(); ++i) {
    EXPECT_EQ(one.pods()[i].node, four.pods()[i].node) << i;
    bound += one.pods()[i].state == PodState::kBound;
  }
  EXPECT_EQ(bound, 240);
}

// TaintToleration: NoSchedule node taints keep pods off unless tolerated;
// PreferNoSchedule does not filter.
TEST(SchedulerTest, NodeTaintsKeepUntoleratingPodsOff) {
  std::string tainted = GpuNode("n1", 2);
  tainted.replace(
      tainted.find("status:"), 0,
      "spec:\n  taints:\n  - {key: nvidia.com/gpu, value: present, effect: NoSchedule}\n"
      "  - {key: soft, effect: PreferNoSchedule}\n");
  std::string y =
      tainted + kClassAndTemplate + TemplatePod("plain") +
      TemplatePod("tolerant", "  tolerations:\n  - {key: nvidia.com/gpu, operator: Exists}\n") +
      TemplatePod("wrong-value",
                  "  tolerations:\n  - {key: nvidia.com/gpu, value: absent, effect: "
                  "NoSchedule}\n");
  Scheduler s(Parse(y), Options());
  s.Run();
  EXPECT_EQ(s.FindPod("default", "tolerant")->state, PodState::kBound);
  const std::string want =
      "0/1 nodes are available: 1 node(s) had untolerated taint(s). preemption: 0/1 nodes are "
      "available: 1 Preemption is not helpful for scheduling.";
  EXPECT_EQ(s.FindPod("default", "plain")->reason, want);
  EXPECT_EQ(s.FindPod("default", "wrong-value")->reason, want);
}

// A pod that names its node is there already: it holds its claim's devices
// and its share of the node without being scheduled.
const char* kHolder = R"(apiVersion: resource.k8s.io/v1
kind: ResourceClaim
metadata: {name: held, namespace: default, uid: claim-uid}
spec:
  devices:
    requests: [{name: gpu, exactly: {deviceClassName: gpu}}]
status:
  allocation:
    devices:
      results: [{request: gpu, driver: gpu.example.com, pool: n1, device: gpu-0}]
  reservedFor: [{resource: pods, name: holder, uid: holder-uid}]
---
apiVersion: v1
kind: Pod
metadata: {name: holder, namespace: default, uid: holder-uid}
spec:
  nodeName: n1
  containers: [{name: c, image: x, resources: {requests: {cpu: "3"}}}]
  resourceClaims: [{name: g, resourceClaimName: held}]
---
)";

TEST(SchedulerTest, BoundPodsAreTheCurrentState) {
  std::string y = GpuNode("n1", 1) + kClassAndTemplate + kHolder + TemplatePod("waiting") +
                  "apiVersion: v1\nkind: Pod\nmetadata: {name: cpu}\nspec:\n  containers: "
                  "[{name: c, image: x, resources: {requests: {cpu: \"2\"}}}]\n";
  Scheduler s(Parse(y), Options());
  s.Run();
  const PodRecord* holder = s.FindPod("default", "holder");
  EXPECT_EQ(holder->state, PodState::kBound);
  EXPECT_EQ(holder->node, "n1");
  EXPECT_EQ(holder->attempts, 0);
  EXPECT_EQ(holder->claims, std::vector<std::string>{"default/held"});
  EXPECT_THAT(s.FindPod("default", "waiting")->reason,
              StartsWith("0/1 nodes are available: 1 cannot allocate all claims."));
  // 3 of 4 cpus are the holder's; 2 more fit in 4, so preemption could help
  // if the holder had a lower priority: it has not.
  EXPECT_EQ(s.FindPod("default", "cpu")->reason,
            "0/1 nodes are available: 1 Insufficient cpu. preemption: 0/1 nodes are available: 1 "
            "No preemption victims found for incoming pod.");
}

TEST(SchedulerTest, ExplainPodNodeByNode) {
  std::string y = GpuNode("n1", 1) + GpuNode("n2", 2, "    zone: b\n") + kClassAndTemplate +
                  kHolder +
                  TemplatePod("waiting", "  nodeSelector:\n    kubernetes.io/hostname: n1\n") +
                  TemplatePod("fits");
  Scheduler s(Parse(y), Options());

  Result<PodVerdict> held = s.ExplainPod("default", "holder");
  ASSERT_TRUE(held.ok()) << held.error();
  EXPECT_EQ(held->verdict, Verdict::kScheduled);
  EXPECT_EQ(held->node, "n1");
  ASSERT_EQ(held->allocations.size(), 1u);
  EXPECT_EQ(held->allocations[0].first, "default/held");
  // Tried again without itself, the holder fits its own node (and n2), and
  // the state is as before.
  ASSERT_EQ(held->nodes.size(), 2u);
  EXPECT_TRUE(held->nodes[0].feasible);
  EXPECT_TRUE(held->nodes[1].feasible);
  EXPECT_EQ(s.FindPod("default", "holder")->state, PodState::kBound);
  EXPECT_TRUE(s.FindClaim("default", "held")->status.allocation.has_value());
  EXPECT_EQ(s.FindClaim("default", "held")->status.reserved_for.size(), 1u);

  Result<PodVerdict> waiting = s.ExplainPod("default", "waiting");
  ASSERT_TRUE(waiting.ok()) << waiting.error();
  EXPECT_EQ(waiting->verdict, Verdict::kUnschedulable);
  EXPECT_FALSE(waiting->rejected_before_filter);
  EXPECT_EQ(waiting->message,
            "0/2 nodes are available: 1 cannot allocate all claims, 1 node(s) didn't match Pod's "
            "node affinity/selector. preemption: 0/2 nodes are available: 2 Preemption is not "
            "helpful for scheduling.");
  ASSERT_EQ(waiting->nodes.size(), 2u);
  const NodeVerdict& n1 = waiting->nodes[0].node == "n1" ? waiting->nodes[0] : waiting->nodes[1];
  const NodeVerdict& n2 = waiting->nodes[0].node == "n1" ? waiting->nodes[1] : waiting->nodes[0];
  EXPECT_EQ(n1.reasons, std::vector<std::string>{"cannot allocate all claims"});
  ASSERT_TRUE(n1.explanation.has_value());
  ASSERT_EQ(n1.explanation->entries.size(), 1u);
  EXPECT_EQ(n1.explanation->entries[0].blocking, allocator::Stage::kAllocated);
  EXPECT_FALSE(n2.explanation.has_value());
  EXPECT_TRUE(n2.unresolvable);

  // A pod that fits is Schedulable, with the devices it would get, and is
  // neither bound nor taken out of the queue.
  Result<PodVerdict> fits = s.ExplainPod("default", "fits");
  ASSERT_TRUE(fits.ok()) << fits.error();
  EXPECT_EQ(fits->verdict, Verdict::kSchedulable);
  EXPECT_FALSE(fits->node.empty());
  ASSERT_EQ(fits->allocations.size(), 1u);
  EXPECT_EQ(s.FindPod("default", "fits")->state, PodState::kPending);
  s.Run();
  EXPECT_EQ(s.FindPod("default", "fits")->state, PodState::kBound);

  Result<PodVerdict> missing = s.ExplainPod("default", "nosuch");
  ASSERT_FALSE(missing.ok());
  EXPECT_EQ(missing.error(), "pods \"nosuch\" not found");
}

// A slice of one device on node "ghost", which no Node defines; `device`
// adds to the device's fields.
std::string GhostSlice(const std::string& device = "") {
  return "apiVersion: resource.k8s.io/v1\nkind: ResourceSlice\nmetadata:\n  name: ghost-gpus\n"
         "spec:\n  driver: gpu.example.com\n"
         "  pool: {name: ghost, generation: 1, resourceSliceCount: 1}\n  nodeName: ghost\n"
         "  devices:\n  - name: gpu-0\n" +
         device + "---\n";
}

// Runs the scheduler; then every pod's outcome (state, node, reason and
// explanation), the nodes and the warnings.
std::vector<std::string> RunOutcome(Scheduler& s) {
  s.Run();
  std::vector<std::string> out;
  for (const PodRecord& r : s.pods()) {
    out.push_back(r.pod.metadata.name + " " + PodStateName(r.state) + " " + r.node + " " +
                  r.reason + " " +
                  (r.explanation ? allocator::ExplanationText(*r.explanation) : ""));
  }
  for (const NodeRecord& n : s.nodes()) out.push_back("node " + n.name);
  for (const std::string& w : s.cluster().warnings) out.push_back("warning " + w);
  return out;
}

// Cluster::more_slices: slices decoded one at a time schedule, explain,
// evict and add missing nodes as the same slices given at once do.
TEST(SchedulerTest, StreamedSlicesScheduleAsSlicesGivenAtOnce) {
  std::string y = GpuNode("n1", 2) + GpuNode("n2", 1) + kClassAndTemplate;
  // A node that only a slice names, with a device tainted NoExecute.
  y += GhostSlice(
      "    taints:\n"
      "    - {key: hot, effect: NoExecute, timeAdded: \"2027-01-15T08:00:00Z\"}\n");
  y += R"(apiVersion: resource.k8s.io/v1
kind: ResourceClaim
metadata:
  name: held
spec:
  devices:
    requests:
    - name: gpu
      exactly:
        deviceClassName: gpu
        tolerations: [{key: hot, operator: Exists, effect: NoExecute, tolerationSeconds: 60}]
status:
  allocation:
    devices:
      results:
      - {request: gpu, driver: gpu.example.com, pool: ghost, device: gpu-0,
         tolerations: [{key: hot, operator: Exists, effect: NoExecute, tolerationSeconds: 60}]}
---
)" + ClaimPod("holder", "held");
  for (int p = 0; p < 5; ++p) y += TemplatePod("p" + std::to_string(p));
  // Every pod's outcome, then the nodes, the warnings and the evictions.
  auto outcome = [](Scheduler& s) {
    std::vector<std::string> out = RunOutcome(s);
    for (const std::string& e : s.EvictTaintedPods(1'900'000'000)) out.push_back("evicted " + e);
    return out;
  };
  Scheduler whole(Parse(y), Options());
  const std::vector<std::string> expected = outcome(whole);
  // Not a trivial cluster: the missing node is added, the holder evicted, and
  // of 5 pods for 3 free devices 2 wait.
  EXPECT_THAT(expected, ::testing::Contains("node ghost"));
  EXPECT_THAT(expected, ::testing::Contains("evicted default/holder"));
  EXPECT_EQ(std::count_if(expected.begin(), expected.end(),
                          [](const std::string& o) { return o.find(" Pending ") != o.npos; }),
            2);

  Cluster c = Parse(y);
  auto slices = std::make_shared<std::vector<api::ResourceSlice>>(std::move(c.slices));
  c.slices.clear();
  int calls = 0;
  c.more_slices = [slices, &calls, next = std::size_t{0}](api::ResourceSlice& out) mutable {
    ++calls;
    if (next == slices->size()) return false;
    out = std::move((*slices)[next++]);
    return true;
  };
  Scheduler streamed(std::move(c), Options());
  EXPECT_EQ(calls, 4);  // three slices and the end
  EXPECT_EQ(outcome(streamed), expected);
}

// Cluster::more_nodes: nodes decoded one at a time, after any given at once,
// filter, allocate and explain as the same nodes given at once do: their
// labels (a pod's node selector, a slice's node selector), taints,
// unschedulable and allocatable all still decide, and a node that only a
// slice names is still added after them.
TEST(SchedulerTest, StreamedNodesScheduleAsNodesGivenAtOnce) {
  std::string y = GpuNode("n1", 1, "    zone: a\n") + GpuNode("n2", 2, "    zone: b\n") +
                  GpuNode("n3", 1, "    zone: b\n") + GpuNode("n4", 2, "    zone: b\n") +
                  kClassAndTemplate;
  // n2 is tainted, n3 cordoned, n4 too small for the cpu the pods ask.
  auto edit = [&y](const std::string& after, const std::string& insert) {
    const std::size_t at = y.find(after);
    ASSERT_NE(at, std::string::npos) << after;
    y.insert(at + after.size(), insert);
  };
  edit("name: n2\n  labels:\n    kubernetes.io/hostname: n2\n    zone: b\n",
       "spec:\n  taints:\n  - {key: dedicated, value: infer, effect: NoSchedule}\n");
  edit("name: n3\n  labels:\n    kubernetes.io/hostname: n3\n    zone: b\n",
       "spec:\n  unschedulable: true\n");
  const std::size_t n4 = y.find("name: n4\n");
  ASSERT_NE(n4, std::string::npos);
  y.replace(y.find("cpu: \"4\"", n4), 8, "cpu: \"1\"");
  // Devices that only zone b reaches, published without a node.
  y += R"(apiVersion: resource.k8s.io/v1
kind: ResourceSlice
metadata:
  name: zone-b-gpus
spec:
  driver: gpu.example.com
  pool: {name: zone-b, generation: 1, resourceSliceCount: 1}
  nodeSelector:
    nodeSelectorTerms:
    - matchExpressions:
      - {key: zone, operator: In, values: [b]}
  devices:
  - name: gpu-0
---
)" + GhostSlice();
  const std::string wants_cpu = "    resources:\n      requests:\n        cpu: \"2\"\n";
  const std::string in_zone_b = "  nodeSelector:\n    zone: b\n";
  for (int p = 0; p < 4; ++p) {
    y += "apiVersion: v1\nkind: Pod\nmetadata:\n  name: b" + std::to_string(p) + "\nspec:\n" +
         in_zone_b + "  containers:\n  - name: c\n    image: x\n" + wants_cpu +
         "  resourceClaims:\n  - name: gpu\n    resourceClaimTemplateName: one-gpu\n---\n";
  }
  y += TemplatePod("anywhere");
  Scheduler whole(Parse(y), Options());
  const std::vector<std::string> expected = RunOutcome(whole);
  // Not a trivial cluster: of the zone-b pods, n2 (tainted), n3 (cordoned)
  // and n4 (cpu) turn every node away, and the missing node comes last.
  ASSERT_EQ(expected.size(), 5u + 5u + 1u);
  EXPECT_THAT(expected[0], ::testing::StartsWith("b0 Pending  0/5 nodes are available: "));
  EXPECT_THAT(expected[0], ::testing::HasSubstr("1 Insufficient cpu"));
  EXPECT_THAT(expected[0], ::testing::HasSubstr("1 node(s) had untolerated taint(s)"));
  EXPECT_THAT(expected[0], ::testing::HasSubstr("1 node(s) were unschedulable"));
  EXPECT_THAT(expected[4], ::testing::StartsWith("anywhere Bound "));
  EXPECT_EQ(expected[9], "node ghost");

  const std::size_t node_count = Parse(y).nodes.size();
  ASSERT_EQ(node_count, 4u);
  for (std::size_t given = 0; given <= node_count; ++given) {
    SCOPED_TRACE("nodes given at once: " + std::to_string(given));
    Cluster c = Parse(y);
    auto nodes = std::make_shared<std::vector<api::Node>>(
        std::make_move_iterator(c.nodes.begin() + static_cast<std::ptrdiff_t>(given)),
        std::make_move_iterator(c.nodes.end()));
    c.nodes.resize(given);
    int calls = 0;
    c.more_nodes.count = nodes->size();
    c.more_nodes.next = [nodes, &calls, next = std::size_t{0}](api::Node& out) mutable {
      ++calls;
      if (next == nodes->size()) return false;
      out = std::move((*nodes)[next++]);
      return true;
    };
    Scheduler streamed(std::move(c), Options());
    EXPECT_EQ(calls, static_cast<int>(node_count - given) + 1);
    EXPECT_EQ(RunOutcome(streamed), expected);
  }
}

// Cluster::more_claims and more_pods: claims and pods decoded one at a time,
// after any given at once, schedule as the same objects given at once do:
// pods still go in creation order (ties in input order), and uids are drawn
// in the same order.
TEST(SchedulerTest, StreamedClaimsAndPodsScheduleAsGivenAtOnce) {
  std::string y = GpuNode("n1", 2) + GpuNode("n2", 1) + kClassAndTemplate + kSharedClaim;
  // Created later than they are listed: p0 last, p1 and p2 at the same time.
  const char* created[] = {"2027-01-15T08:00:09Z", "2027-01-15T08:00:05Z", "2027-01-15T08:00:05Z",
                           "2027-01-15T08:00:01Z"};
  for (int p = 0; p < 4; ++p) {
    y += "apiVersion: v1\nkind: Pod\nmetadata:\n  name: p" + std::to_string(p) +
         "\n  creationTimestamp: \"" + created[p] +
         "\"\nspec:\n  containers:\n  - name: c\n    image: x\n  resourceClaims:\n"
         "  - name: gpu\n    resourceClaimTemplateName: one-gpu\n---\n";
  }
  // A pod bound to n2 already, holding n2's device through a claim.
  y += R"(apiVersion: resource.k8s.io/v1
kind: ResourceClaim
metadata:
  name: held
spec:
  devices:
    requests:
    - name: gpu
      exactly:
        deviceClassName: gpu
status:
  allocation:
    devices:
      results:
      - {request: gpu, driver: gpu.example.com, pool: n2, device: gpu-0}
  reservedFor:
  - {resource: pods, name: holder, uid: holder-uid}
---
apiVersion: v1
kind: Pod
metadata:
  name: holder
  uid: holder-uid
  creationTimestamp: "2027-01-15T08:00:00Z"
spec:
  nodeName: n2
  containers:
  - name: c
    image: x
  resourceClaims:
  - name: gpu
    resourceClaimName: held
---
)" + ClaimPod("sharer", "shared");
  auto outcome = [](Scheduler& s) {
    s.Run();
    std::vector<std::string> out;
    for (const PodRecord& r : s.pods()) {
      out.push_back(r.pod.metadata.name + " " + r.pod.metadata.uid + " " + PodStateName(r.state) +
                    " " + r.node + " " + r.reason);
    }
    for (const api::ResourceClaim* c : s.Claims()) {
      out.push_back("claim " + c->metadata.name + " " + c->metadata.uid + " " +
                    (c->status.allocation ? c->status.allocation->devices.results[0].pool : ""));
    }
    return out;
  };
  Scheduler whole(Parse(y), Options());
  const std::vector<std::string> expected = outcome(whole);
  // Creation order decides: the sharer (no timestamp) and the holder first,
  // then p3, which takes n1's last device, then p1 and p2 in input order.
  ASSERT_EQ(expected.size(), 6u + 6u);
  EXPECT_THAT(expected[0], ::testing::StartsWith("sharer "));
  EXPECT_THAT(expected[1], ::testing::StartsWith("holder holder-uid Bound n2 "));
  EXPECT_THAT(expected[2], ::testing::StartsWith("p3 "));
  EXPECT_THAT(expected[2], ::testing::HasSubstr(" Bound n1"));
  EXPECT_THAT(expected[3], ::testing::StartsWith("p1 "));
  EXPECT_THAT(expected[4], ::testing::StartsWith("p2 "));
  EXPECT_THAT(expected[5], ::testing::StartsWith("p0 "));
  EXPECT_THAT(expected[4], ::testing::HasSubstr(" Pending "));
  EXPECT_THAT(expected[5], ::testing::HasSubstr(" Pending "));

  const std::size_t pod_count = Parse(y).pods.size();
  const std::size_t claim_count = Parse(y).claims.size();
  for (std::size_t given_pods = 0; given_pods <= pod_count; ++given_pods) {
    for (std::size_t given_claims = 0; given_claims <= claim_count; ++given_claims) {
      SCOPED_TRACE("pods given at once: " + std::to_string(given_pods) +
                   ", claims: " + std::to_string(given_claims));
      Cluster c = Parse(y);
      auto pods = std::make_shared<std::vector<api::Pod>>(
          std::make_move_iterator(c.pods.begin() + static_cast<std::ptrdiff_t>(given_pods)),
          std::make_move_iterator(c.pods.end()));
      c.pods.resize(given_pods);
      auto claims = std::make_shared<std::vector<api::ResourceClaim>>(
          std::make_move_iterator(c.claims.begin() + static_cast<std::ptrdiff_t>(given_claims)),
          std::make_move_iterator(c.claims.end()));
      c.claims.resize(given_claims);
      int pod_calls = 0;
      int claim_calls = 0;
      // The counts are a hint only: one stream says none.
      c.more_pods.count = pods->size();
      c.more_pods.next = [pods, &pod_calls, next = std::size_t{0}](api::Pod& out) mutable {
        ++pod_calls;
        if (next == pods->size()) return false;
        out = std::move((*pods)[next++]);
        return true;
      };
      c.more_claims.next = [claims, &claim_calls,
                            next = std::size_t{0}](api::ResourceClaim& out) mutable {
        ++claim_calls;
        if (next == claims->size()) return false;
        out = std::move((*claims)[next++]);
        return true;
      };
      Scheduler streamed(std::move(c), Options());
      EXPECT_EQ(pod_calls, static_cast<int>(pod_count - given_pods) + 1);
      EXPECT_EQ(claim_calls, static_cast<int>(claim_count - given_claims) + 1);
      EXPECT_EQ(outcome(streamed), expected);
    }
  }
}

// Cluster::settled_pods and held_allocations: the bound pods given only for
// what they take of their nodes, and the claims no unbound pod refers to
// only for their allocations, leave every unbound pod as the whole cluster
// does. No random draw differs here: every object has its uid, and every
// bound pod's claims exist (the whole cluster would generate a missing one,
// drawing its name and uid, where a settled pod draws nothing).
TEST(SchedulerTest, SettledPodsAndHeldAllocationsLeaveUnboundPodsAsTheWholeCluster) {
  auto pod = [](const std::string& name, const std::string& node, const std::string& cpu,
                const std::string& claims, const std::string& extra = "") {
    std::string y = "apiVersion: v1\nkind: Pod\nmetadata:\n  name: " + name + "\n  uid: uid-" +
                    name + "\nspec:\n" + extra;
    if (!node.empty()) y += "  nodeName: " + node + "\n";
    y += "  containers:\n  - name: c\n    image: x\n    resources:\n      requests: {cpu: \"" +
         cpu + "\"}\n";
    if (!claims.empty()) y += "  resourceClaims:\n" + claims;
    return y + "---\n";
  };
  auto claim = [](const std::string& name, const std::string& device, const std::string& users) {
    std::string y =
        "apiVersion: resource.k8s.io/v1\nkind: ResourceClaim\nmetadata:\n  name: " + name +
        "\n  uid: uid-" + name +
        "\nspec:\n  devices:\n    requests:\n    - name: gpu\n      exactly: "
        "{deviceClassName: gpu}\n";
    if (!device.empty()) {
      y += "status:\n  allocation:\n    devices:\n      results:\n      - {request: gpu, driver: "
           "gpu.example.com, pool: " +
           device.substr(0, device.find('/')) + ", device: " + device.substr(device.find('/') + 1) +
           "}\n    nodeSelector:\n      nodeSelectorTerms:\n      - matchFields: [{key: "
           "metadata.name, operator: In, values: [" +
           device.substr(0, device.find('/')) + "]}]\n";
      if (!users.empty()) y += "  reservedFor:\n" + users;
    }
    return y + "---\n";
  };
  const std::string named = "  - {name: gpu, resourceClaimName: ";
  const std::string from_template = "  - {name: gpu, resourceClaimTemplateName: one-gpu}\n";
  std::string y = GpuNode("n1", 2) + GpuNode("n2", 1) + GpuNode("n3", 2) + kClassAndTemplate;
  // Bound: n1 busy with cpu, n3's devices held by a pod's claim and by a
  // claim nobody uses, n1's gpu-0 shared with a waiting pod.
  y += pod("busy", "n1", "3", "", "  priority: 0\n");
  y += pod("holder", "n3", "1", named + "held}\n");
  y += claim("held", "n3/gpu-0", "  - {resource: pods, name: holder, uid: uid-holder}\n");
  y += claim("orphan", "n3/gpu-1", "");
  y += pod("user", "n1", "0", named + "shared}\n");
  y += claim("shared", "n1/gpu-0", "  - {resource: pods, name: user, uid: uid-user}\n");
  y += pod("done", "n2", "4", "", "") + "";
  // Not bound: DRA pods and one without claims.
  y += pod("p0", "", "2", from_template);
  y += pod("p1", "", "2", from_template, "  priority: 100\n");
  y += pod("sharer", "", "1", named + "shared}\n");
  y += pod("plain", "", "1", "");
  y += pod("p2", "", "0", from_template);
  // "done" finished: it takes nothing of n2.
  std::size_t at = y.find("name: done");
  ASSERT_NE(at, std::string::npos);
  y.insert(y.find("---", at), "status: {phase: Succeeded}\n");

  const std::vector<std::string> unbound = {"p0", "p1", "sharer", "plain", "p2"};
  auto outcome = [&unbound](Scheduler& s) {
    s.Run();
    std::vector<std::string> out;
    for (const std::string& name : unbound) {
      const PodRecord* r = s.FindPod("default", name);
      if (r == nullptr) {
        out.push_back(name + " missing");
        continue;
      }
      std::string line = name + " " + PodStateName(r->state) + " " + r->node + " " + r->reason +
                         " " + (r->explanation ? allocator::ExplanationText(*r->explanation) : "");
      for (const std::string& key : r->claims) {
        const api::ResourceClaim* c = s.FindClaim("default", key.substr(key.find('/') + 1));
        line += " " + key + "@" +
                (c != nullptr && c->status.allocation
                     ? c->status.allocation->devices.results.at(0).pool + "/" +
                           c->status.allocation->devices.results.at(0).device
                     : "-");
      }
      out.push_back(line);
    }
    for (const std::string& name : unbound) {
      Result<PodVerdict> v = s.ExplainPod("default", name);
      std::string line = name + (v.ok() ? std::string(VerdictName(v->verdict)) : v.error());
      if (v.ok()) {
        for (const NodeVerdict& n : v->nodes) {
          line += " " + n.node + (n.feasible ? "+" : "-");
          for (const std::string& reason : n.reasons) line += "," + reason;
        }
      }
      out.push_back(line);
    }
    return out;
  };
  Scheduler whole(Parse(y), Options());
  const std::vector<std::string> expected = outcome(whole);
  // Not a trivial cluster: p0 fits only n2 (n1 lacks cpu, n3 devices),
  // p1 then fits nowhere, the sharer joins its claim on n1, and p2, which
  // needs no cpu, takes n1's last device.
  ASSERT_EQ(expected.size(), 10u);
  EXPECT_THAT(expected[0], ::testing::StartsWith("p0 Bound n2 "));
  EXPECT_THAT(expected[1], ::testing::StartsWith("p1 Pending "));
  EXPECT_THAT(expected[2], ::testing::StartsWith("sharer Bound n1 "));
  EXPECT_THAT(expected[4], ::testing::StartsWith("p2 Bound n1 "));

  Cluster c = Parse(y);
  auto settled = std::make_shared<std::vector<api::Pod>>();
  std::vector<api::Pod> kept;
  for (api::Pod& p : c.pods) {
    (p.spec.node_name.empty() ? kept : *settled).push_back(std::move(p));
  }
  c.pods = std::move(kept);
  auto held = std::make_shared<std::vector<api::AllocationResult>>();
  std::vector<api::ResourceClaim> claims;
  for (api::ResourceClaim& claim : c.claims) {
    if (claim.metadata.name == "shared") {
      claims.push_back(std::move(claim));
    } else if (claim.status.allocation) {
      held->push_back(std::move(*claim.status.allocation));
    }
  }
  c.claims = std::move(claims);
  ASSERT_EQ(settled->size(), 4u);
  ASSERT_EQ(held->size(), 2u);
  c.settled_pods.next = [settled, next = std::size_t{0}](api::Pod& out) mutable {
    if (next == settled->size()) return false;
    out = std::move((*settled)[next++]);
    return true;
  };
  c.held_allocations.next = [held, next = std::size_t{0}](api::AllocationResult& out) mutable {
    if (next == held->size()) return false;
    out = std::move((*held)[next++]);
    return true;
  };
  Scheduler split(std::move(c), Options());
  EXPECT_EQ(split.pods().size(), unbound.size());
  EXPECT_EQ(split.FindPod("default", "busy"), nullptr);
  EXPECT_EQ(outcome(split), expected);
}

}  // namespace
}  // namespace dra::scheduler
