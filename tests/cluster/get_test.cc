// `dra get` on a live cluster whose pods the real kube-scheduler placed and
// whose claims the real resourceclaim controller generated: the devices it
// shows as held are exactly those in the claims' status, as the real kubectl
// reads them.
#include <gtest/gtest.h>

#include <algorithm>
#include <chrono>
#include <map>
#include <set>
#include <string>
#include <thread>
#include <vector>

#include "dra/json/value.h"
#include "kube/test_cluster.h"

namespace dra {
namespace {

using testing_cluster::ClusterOptions;
using testing_cluster::RunCommand;
using testing_cluster::TestCluster;

constexpr std::string_view kManifests = R"(
apiVersion: resource.k8s.io/v1
kind: DeviceClass
metadata: {name: gpu.example.com}
spec:
  selectors:
  - cel: {expression: 'device.driver == "gpu.example.com"'}
---
apiVersion: v1
kind: Namespace
metadata: {name: team-a}
---
apiVersion: resource.k8s.io/v1
kind: ResourceClaimTemplate
metadata: {name: one-gpu, namespace: team-a}
spec:
  spec:
    devices:
      requests:
      - name: gpu
        exactly: {deviceClassName: gpu.example.com}
---
apiVersion: resource.k8s.io/v1
kind: ResourceClaim
metadata: {name: shared, namespace: team-a}
spec:
  devices:
    requests:
    - name: gpu
      exactly:
        deviceClassName: gpu.example.com
        selectors:
        - cel: {expression: 'device.attributes["gpu.example.com"].model == "A100"'}
)";

std::string SliceYaml(const std::string& node, const std::string& model) {
  return "apiVersion: resource.k8s.io/v1\nkind: ResourceSlice\nmetadata: {name: " + node +
         "-gpus}\nspec:\n  driver: gpu.example.com\n  nodeName: " + node +
         "\n  pool: {name: " + node +
         ", generation: 1, resourceSliceCount: 1}\n  devices:\n  - name: gpu-0\n    attributes:\n "
         "     model: {string: " +
         model + "}\n  - name: gpu-1\n    attributes:\n      model: {string: " + model + "}\n";
}

std::string PodYaml(const std::string& name, bool shared) {
  std::string claim =
      shared ? "    resourceClaimName: shared\n" : "    resourceClaimTemplateName: one-gpu\n";
  return "apiVersion: v1\nkind: Pod\nmetadata: {name: " + name +
         ", namespace: team-a}\nspec:\n  containers:\n  - name: c\n    image: "
         "registry.k8s.io/pause:3.10\n    resources:\n      claims:\n      - name: gpu\n  "
         "resourceClaims:\n  - name: gpu\n" +
         claim;
}

const json::Value* At(const json::Value& v, std::string_view key) {
  return v.is_object() ? v.Find(key) : nullptr;
}

std::string Text(const json::Value* v) { return v != nullptr && v->is_string() ? v->text : ""; }

TEST(ClusterGet, DevicesMatchClaimStatusAfterRealScheduling) {
  if (std::string why = TestCluster::SkipReason(); !why.empty()) GTEST_SKIP() << why;
  ClusterOptions options;
  options.components = {"scheduler", "controller-manager"};
  options.kubelets = {"node-a", "node-b"};
  std::string error;
  auto cluster = TestCluster::Start(options, &error);
  ASSERT_TRUE(cluster) << error;
  auto applied = cluster->Kubectl({"apply", "-f", "-"}, std::string(kManifests));
  ASSERT_TRUE(applied.ok()) << applied.output;
  std::string slices = SliceYaml("node-a", "H100") + "---\n" + SliceYaml("node-b", "A100");
  applied = cluster->Kubectl({"apply", "-f", "-"}, slices);
  ASSERT_TRUE(applied.ok()) << applied.output;
  std::string pods = PodYaml("p1", false) + "---\n" + PodYaml("p2", false) + "---\n" +
                     PodYaml("p3", true) + "---\n" + PodYaml("p4", true);
  applied = cluster->Kubectl({"apply", "-f", "-"}, pods);
  ASSERT_TRUE(applied.ok()) << applied.output;

  // Wait until the scheduler has bound all four pods.
  auto deadline = std::chrono::steady_clock::now() + std::chrono::seconds(60);
  std::string bound;
  while (std::chrono::steady_clock::now() < deadline) {
    auto r = cluster->Kubectl(
        {"get", "pods", "-n", "team-a", "-o", "jsonpath={range .items[*]}{.spec.nodeName},{end}"});
    bound = r.output;
    if (r.ok() && bound.find(",,") == std::string::npos && !bound.empty() && bound.front() != ',' &&
        std::count(bound.begin(), bound.end(), ',') == 4) {
      break;
    }
    std::this_thread::sleep_for(std::chrono::milliseconds(200));
  }
  ASSERT_EQ(std::count(bound.begin(), bound.end(), ','), 4) << bound;

  // The oracle: every claim's allocation and reservations as kubectl reads them.
  auto claims_out = cluster->Kubectl({"get", "resourceclaims", "-A", "-o", "json"});
  ASSERT_TRUE(claims_out.ok()) << claims_out.output;
  auto claims = json::ParseJson(claims_out.output);
  ASSERT_TRUE(claims.ok()) << claims.error();
  std::map<std::string, std::set<std::string>> want_claims;  // "pool/device" -> claims
  std::map<std::string, std::set<std::string>> want_pods;
  for (const json::Value& c : At(*claims, "items")->items) {
    std::string ns = Text(At(*At(c, "metadata"), "namespace"));
    std::string name = ns + "/" + Text(At(*At(c, "metadata"), "name"));
    const json::Value* status = At(c, "status");
    ASSERT_NE(status, nullptr) << name;
    const json::Value* alloc = At(*status, "allocation");
    ASSERT_NE(alloc, nullptr) << name << " is not allocated";
    for (const json::Value& r : At(*At(*alloc, "devices"), "results")->items) {
      std::string key = Text(At(r, "pool")) + "/" + Text(At(r, "device"));
      want_claims[key].insert(name);
      if (const json::Value* rf = At(*status, "reservedFor"); rf != nullptr) {
        for (const json::Value& ref : rf->items) {
          want_pods[key].insert(ns + "/" + Text(At(ref, "name")));
        }
      }
    }
  }
  ASSERT_EQ(want_claims.size(), 3u);  // two template claims and the shared one

  auto got = RunCommand(
      {DRA_PROGRAM, "get", "devices", "--kubeconfig", cluster->admin_kubeconfig(), "-o", "json"});
  ASSERT_TRUE(got.ok()) << got.output;
  auto list = json::ParseJson(got.output);
  ASSERT_TRUE(list.ok()) << list.error() << "\n" << got.output;
  EXPECT_EQ(Text(At(*list, "kind")), "DeviceList");
  std::map<std::string, std::set<std::string>> have_claims;
  std::map<std::string, std::set<std::string>> have_pods;
  int devices = 0;
  for (const json::Value& d : At(*list, "items")->items) {
    ++devices;
    std::string key = Text(At(d, "pool")) + "/" + Text(At(d, "device"));
    EXPECT_EQ(Text(At(d, "node")), Text(At(d, "pool")));
    for (const json::Value& c : At(d, "claims")->items) have_claims[key].insert(c.text);
    for (const json::Value& p : At(d, "pods")->items) have_pods[key].insert(p.text);
  }
  EXPECT_EQ(devices, 4);
  EXPECT_EQ(have_claims, want_claims);
  EXPECT_EQ(have_pods, want_pods);

  // The pools add up: 4 devices, 3 allocated.
  auto pools = RunCommand(
      {DRA_PROGRAM, "get", "pools", "--kubeconfig", cluster->admin_kubeconfig(), "-o", "json"});
  ASSERT_TRUE(pools.ok()) << pools.output;
  auto pool_list = json::ParseJson(pools.output);
  ASSERT_TRUE(pool_list.ok());
  int allocated = 0;
  int total = 0;
  for (const json::Value& p : At(*pool_list, "items")->items) {
    allocated += std::stoi(At(p, "allocated")->text);
    total += std::stoi(At(p, "devices")->text);
    EXPECT_EQ(At(p, "complete")->boolean, true);
  }
  EXPECT_EQ(total, 4);
  EXPECT_EQ(allocated, 3);

  // A user without rights gets kubectl's Forbidden text and exit status 1.
  auto denied =
      RunCommand({DRA_PROGRAM, "get", "pools", "--kubeconfig", cluster->restricted_kubeconfig()});
  EXPECT_NE(denied.status, 0);
  auto kubectl_denied =
      cluster->Kubectl({"get", "resourceslices"}, {}, cluster->restricted_kubeconfig());
  EXPECT_NE(denied.output.find(kubectl_denied.output.substr(0, kubectl_denied.output.find('\n'))),
            std::string::npos)
      << denied.output << "\nkubectl: " << kubectl_denied.output;
}

}  // namespace
}  // namespace dra
