// The kubelet's part on simulated nodes (dra/driver/node_agent_simulation.h):
// example drivers over real sockets, CDI IDs per container, failures.
#include "driver/node_agent_simulation.h"

#include <gtest/gtest.h>

#include <filesystem>

#include "dra/driver/cdi.h"
#include "driver_test_harness.h"
#include "manifest_test_util.h"

namespace dra::driver::testing {
namespace {

std::string Slice(const std::string& name, const std::string& driver, const std::string& node,
                  const std::vector<std::string>& devices) {
  std::string out =
      "apiVersion: resource.k8s.io/v1\nkind: ResourceSlice\nmetadata: {name: " + name +
      "}\nspec:\n  driver: " + driver + "\n  nodeName: " + node + "\n  pool: {name: " + node +
      ", generation: 1, resourceSliceCount: 1}\n" + "  devices:\n";
  for (const auto& d : devices) out += "  - name: " + d + "\n";
  return out + "---\n";
}

struct Alloc {
  std::string request, driver, pool, device;
};

std::string Claim(const std::string& name, const std::vector<Alloc>& results,
                  const std::vector<std::string>& reserved_for) {
  std::string out =
      "apiVersion: resource.k8s.io/v1\nkind: ResourceClaim\nmetadata: {name: " + name +
      ", namespace: default, uid: uid-" + name + "}\nspec:\n  devices:\n    requests:\n";
  std::vector<std::string> seen;
  for (const auto& r : results) {
    if (std::find(seen.begin(), seen.end(), r.request) != seen.end()) continue;
    seen.push_back(r.request);
    out += "    - name: " + r.request + "\n      exactly: {deviceClassName: c}\n";
  }
  out += "status:\n  allocation:\n    devices:\n      results:\n";
  for (const auto& r : results) {
    out += "      - {request: " + r.request + ", driver: " + r.driver + ", pool: " + r.pool +
           ", device: " + r.device + "}\n";
  }
  out += "  reservedFor:\n";
  for (const auto& p : reserved_for) {
    out += "  - {resource: pods, name: " + p + ", uid: uid-" + p + "}\n";
  }
  return out + "---\n";
}

// containers: name -> (pod claim name, request) entries.
std::string Pod(
    const std::string& name,
    const std::vector<std::pair<std::string, std::vector<std::pair<std::string, std::string>>>>&
        containers,
    const std::vector<std::string>& pod_claims) {
  std::string out = "apiVersion: v1\nkind: Pod\nmetadata: {name: " + name +
                    ", namespace: default, uid: uid-" + name + "}\nspec:\n  containers:\n";
  for (const auto& [c, refs] : containers) {
    out += "  - name: " + c + "\n";
    if (refs.empty()) continue;
    out += "    resources:\n      claims:\n";
    for (const auto& [claim, request] : refs) {
      out += "      - name: " + claim + (request.empty() ? "" : "\n        request: " + request) +
             "\n";
    }
  }
  out += "  resourceClaims:\n";
  for (const auto& c : pod_claims) out += "  - {name: " + c + ", resourceClaimName: " + c + "}\n";
  return out + "---\n";
}

class NodeAgentSimulation : public ::testing::Test {
 protected:
  void Load(const std::string& yaml) {
    auto objects = ParseObjects(yaml);
    slices_ = ObjectsOf<api::ResourceSlice>(objects);
    claims_ = ObjectsOf<api::ResourceClaim>(objects);
    pods_ = ObjectsOf<api::Pod>(objects);
  }
  const api::ResourceClaim* FindClaim(const std::string& name) {
    for (const auto& c : claims_) {
      if (c.metadata.name == name) return &c;
    }
    return nullptr;
  }
  NodeAgentInput Input(const std::string& node, const std::vector<std::string>& pods) {
    NodeAgentInput in;
    in.node_name = node;
    in.slices = &slices_;
    for (const auto& name : pods) {
      for (const auto& p : pods_) {
        if (p.metadata.name != name) continue;
        NodeAgentPod np;
        np.pod = &p;
        for (const auto& pc : p.spec.resource_claims) np.claims[pc.name] = FindClaim(pc.name);
        in.pods.push_back(std::move(np));
      }
    }
    return in;
  }
  NodeAgentResult Run(const NodeAgentInput& in) {
    NodeAgentOptions options;
    options.temp_directory = dirs_.root();
    NodeAgentResult r = SimulateNodeAgent(in, options);
    // Every driver's temporary directory is gone.
    for (const auto& e : std::filesystem::directory_iterator(dirs_.root())) {
      EXPECT_EQ(e.path().filename().string().find("dra-sim-"), std::string::npos) << e.path();
    }
    return r;
  }
  static std::map<std::string, std::vector<std::string>> ByContainer(const NodeAgentPodResult& p) {
    std::map<std::string, std::vector<std::string>> out;
    for (const auto& c : p.containers) out[c.name] = c.cdi_device_ids;
    return out;
  }

  KubeletDirs dirs_;
  std::vector<api::ResourceSlice> slices_;
  std::vector<api::ResourceClaim> claims_;
  std::vector<api::Pod> pods_;
};

const char* kGpu = "gpu.example.com";
const char* kNic = "nic.example.com";

TEST_F(NodeAgentSimulation, ContainersGetTheCdiIdsOfTheirRequests) {
  Load(
      Slice("a-gpu", kGpu, "node-a", {"gpu-0", "gpu-1"}) +
      Slice("a-nic", kNic, "node-a", {"nic-0"}) +
      Claim("multi", {{"gpu", kGpu, "node-a", "gpu-0"}, {"nic", kNic, "node-a", "nic-0"}}, {"p1"}) +
      Claim("shared", {{"gpu", kGpu, "node-a", "gpu-1"}}, {"p2", "p3"}) +
      Pod("p1", {{"main", {{"multi", "gpu"}}}, {"sidecar", {{"multi", ""}}}, {"plain", {}}},
          {"multi"}) +
      Pod("p2", {{"c", {{"shared", ""}}}}, {"shared"}) +
      Pod("p3", {{"c", {{"shared", ""}}}}, {"shared"}));
  NodeAgentResult r = Run(Input("node-a", {"p1", "p2", "p3"}));
  EXPECT_TRUE(r.errors.empty()) << r.errors.front();
  EXPECT_EQ(r.failures, 0);
  EXPECT_EQ(r.drivers, (std::vector<std::string>{kGpu, kNic}));
  // "shared" is prepared once, for p2; p3 finds it prepared.
  EXPECT_EQ(r.claims_prepared, 2);
  EXPECT_EQ(r.cdi_device_ids, 3);
  ASSERT_EQ(r.pods.size(), 3u);

  auto p1 = ByContainer(r.pods[0]);
  EXPECT_TRUE(r.pods[0].errors.empty());
  EXPECT_EQ(p1["main"], std::vector<std::string>{"k8s.gpu.example.com/claim=uid-multi-gpu-0"});
  EXPECT_EQ(p1["sidecar"], (std::vector<std::string>{"k8s.gpu.example.com/claim=uid-multi-gpu-0",
                                                     "k8s.nic.example.com/claim=uid-multi-nic-0"}));
  EXPECT_TRUE(p1["plain"].empty());
  for (const auto& id : p1["sidecar"]) EXPECT_TRUE(cdi::ValidateQualifiedName(id).ok()) << id;

  auto p2 = ByContainer(r.pods[1]);
  auto p3 = ByContainer(r.pods[2]);
  EXPECT_EQ(p2["c"], std::vector<std::string>{"k8s.gpu.example.com/claim=uid-shared-gpu-1"});
  EXPECT_EQ(p3["c"], p2["c"]);
}

TEST_F(NodeAgentSimulation, FailuresAreReportedPerPodAndTheRunContinues) {
  Load(Slice("b-gpu", kGpu, "node-b", {"gpu-0"}) +
       Claim("good", {{"gpu", kGpu, "node-b", "gpu-0"}}, {"ok"}) +
       Claim("ghost", {{"gpu", kGpu, "node-b", "gpu-9"}}, {"bad"}) +
       Claim("foreign", {{"gpu", kGpu, "node-b", "gpu-0"}}, {"someone-else"}) +
       Pod("bad", {{"c", {{"ghost", ""}}}}, {"ghost"}) +
       Pod("ok", {{"c", {{"good", ""}}}}, {"good"}) +
       Pod("intruder", {{"c", {{"foreign", ""}}}}, {"foreign"}));
  NodeAgentResult r = Run(Input("node-b", {"bad", "ok", "intruder"}));
  EXPECT_TRUE(r.errors.empty()) << r.errors.front();
  ASSERT_EQ(r.pods.size(), 3u);
  ASSERT_EQ(r.pods[0].errors.size(), 1u);
  EXPECT_NE(r.pods[0].errors[0].find("ResourceClaim default/ghost: DRA driver gpu.example.com: "),
            std::string::npos)
      << r.pods[0].errors[0];
  EXPECT_NE(r.pods[0].errors[0].find("device node-b/gpu-9 of request gpu is not a device of this "
                                     "driver on node node-b"),
            std::string::npos)
      << r.pods[0].errors[0];
  EXPECT_TRUE(r.pods[0].containers.empty());
  EXPECT_TRUE(r.pods[1].errors.empty());
  EXPECT_EQ(ByContainer(r.pods[1])["c"],
            std::vector<std::string>{"k8s.gpu.example.com/claim=uid-good-gpu-0"});
  ASSERT_EQ(r.pods[2].errors.size(), 1u);
  EXPECT_EQ(r.pods[2].errors[0],
            "pod default/intruder is not allowed to use ResourceClaim default/foreign");
  EXPECT_EQ(r.claims_prepared, 1);
  EXPECT_EQ(r.failures, 2);
}

TEST_F(NodeAgentSimulation, NodesAreIndependent) {
  Load(Slice("a-gpu", kGpu, "node-a", {"gpu-0"}) + Slice("b-gpu", kGpu, "node-b", {"gpu-0"}) +
       Claim("on-a", {{"gpu", kGpu, "node-a", "gpu-0"}}, {"pa"}) +
       Claim("on-b", {{"gpu", kGpu, "node-b", "gpu-0"}}, {"pb"}) +
       Pod("pa", {{"c", {{"on-a", ""}}}}, {"on-a"}) + Pod("pb", {{"c", {{"on-b", ""}}}}, {"on-b"}));
  NodeAgentResult a = Run(Input("node-a", {"pa"}));
  NodeAgentResult b = Run(Input("node-b", {"pb"}));
  EXPECT_EQ(a.node, "node-a");
  EXPECT_EQ(ByContainer(a.pods.at(0))["c"],
            std::vector<std::string>{"k8s.gpu.example.com/claim=uid-on-a-gpu-0"});
  EXPECT_EQ(ByContainer(b.pods.at(0))["c"],
            std::vector<std::string>{"k8s.gpu.example.com/claim=uid-on-b-gpu-0"});
  EXPECT_EQ(a.failures + b.failures, 0);
  // A pod of node-b given to node-a's agent: its device is not node-a's.
  NodeAgentResult wrong = Run(Input("node-a", {"pb"}));
  ASSERT_EQ(wrong.pods.at(0).errors.size(), 1u);
  EXPECT_NE(wrong.pods[0].errors[0].find("not a device of this driver on node node-a"),
            std::string::npos)
      << wrong.pods[0].errors[0];
}

}  // namespace
}  // namespace dra::driver::testing
