// NodeInventory (inventory.dra.local/v1alpha1): strict decoding, expansion
// into Nodes and the example driver's ResourceSlices, and how the manifest
// reader hands such documents back.
#include "dra/driver/node_inventory.h"

#include <gtest/gtest.h>

#include <cstdio>
#include <map>
#include <string>
#include <variant>

namespace dra::driver {
namespace {

api::ManifestSet Read(const std::string& text) {
  api::ManifestOptions options;
  options.extension_groups = {std::string(kNodeInventoryGroup)};
  api::ManifestSet set;
  api::ParseManifestText("inv.yaml", text, options, set);
  return set;
}

// Expands `text`; the error message, or "" with the objects in `out`.
std::string Expand(const std::string& text, std::vector<api::Object>* out = nullptr) {
  api::ManifestSet set = Read(text);
  if (!set.read_errors.empty()) return "read: " + set.read_errors.front().message;
  Result<std::vector<api::Object>> objects = ExpandNodeInventories(set, 0);
  if (!objects) return objects.error();
  if (out != nullptr) *out = std::move(*objects);
  return "";
}

template <class T>
std::vector<T> OfKind(const std::vector<api::Object>& objects) {
  std::vector<T> out;
  for (const api::Object& o : objects) {
    if (const T* t = std::get_if<T>(&o)) out.push_back(*t);
  }
  return out;
}

constexpr const char* kFleet = R"(apiVersion: inventory.dra.local/v1alpha1
kind: NodeInventory
metadata:
  name: h100
spec:
  namePrefix: h100-
  count: 3
  labels:
    node.kubernetes.io/instance-type: p5.48xlarge
  allocatable: {cpu: "192", memory: 2Ti, pods: 110}
  drivers:
  - name: gpu.example.com
    numDevices: 2
    migPartitions: true
  - name: shared.example.com
    numDevices: 1
    allowMultipleAllocations: true
)";

TEST(NodeInventory, ExpandsNodesAndSlices) {
  std::vector<api::Object> objects;
  ASSERT_EQ(Expand(kFleet, &objects), "");
  std::vector<api::Node> nodes = OfKind<api::Node>(objects);
  ASSERT_EQ(nodes.size(), 3u);
  EXPECT_EQ(nodes[0].metadata.name, "h100-0");
  EXPECT_EQ(nodes[2].metadata.name, "h100-2");
  EXPECT_EQ(nodes[1].metadata.labels.at("kubernetes.io/hostname"), "h100-1");
  EXPECT_EQ(nodes[1].metadata.labels.at("node.kubernetes.io/instance-type"), "p5.48xlarge");
  EXPECT_EQ(nodes[0].status.allocatable.at("cpu").String(), "192");
  EXPECT_EQ(nodes[0].status.allocatable.at("memory").String(), "2Ti");
  EXPECT_EQ(nodes[0].status.allocatable.at("pods").String(), "110");
  EXPECT_EQ(nodes[0].status.capacity, nodes[0].status.allocatable);

  std::vector<api::ResourceSlice> slices = OfKind<api::ResourceSlice>(objects);
  // Per node: MIG driver = 1 counter slice + 1 slice per GPU; shared driver = 1 slice.
  ASSERT_EQ(slices.size(), 3u * (3 + 1));
  std::map<std::string, std::map<std::string, int>> devices;  // node -> driver -> count
  std::map<std::string, int> counter_sets;
  for (const api::ResourceSlice& s : slices) {
    ASSERT_TRUE(s.spec.node_name.has_value());
    EXPECT_EQ(s.spec.pool.name, *s.spec.node_name);
    EXPECT_FALSE(s.metadata.name.empty());
    EXPECT_EQ(s.metadata.name + "-", s.metadata.generate_name);
    devices[*s.spec.node_name][s.spec.driver] += static_cast<int>(s.spec.devices.size());
    counter_sets[*s.spec.node_name] += static_cast<int>(s.spec.shared_counters.size());
    for (const api::Device& d : s.spec.devices) {
      if (s.spec.driver == "shared.example.com") {
        EXPECT_EQ(d.allow_multiple_allocations, std::optional<bool>(true)) << d.name;
      }
    }
  }
  EXPECT_EQ(slices[0].metadata.name, "00000-gpu.example.com-h100-0");
  for (const api::Node& n : nodes) {
    // A GPU with MIG partitions is 1 + 7 + 3 + 2 + 1 + 1 devices.
    EXPECT_EQ(devices[n.metadata.name]["gpu.example.com"], 2 * 15) << n.metadata.name;
    EXPECT_EQ(devices[n.metadata.name]["shared.example.com"], 1) << n.metadata.name;
    EXPECT_EQ(counter_sets[n.metadata.name], 2) << n.metadata.name;
  }
}

TEST(NodeInventory, ExplicitNamesAndDefaults) {
  std::vector<api::Object> objects;
  ASSERT_EQ(Expand(R"(apiVersion: inventory.dra.local/v1alpha1
kind: NodeInventory
metadata: {name: small}
spec:
  names: [alpha, beta]
  drivers: [{}]
)",
                   &objects),
            "");
  std::vector<api::Node> nodes = OfKind<api::Node>(objects);
  ASSERT_EQ(nodes.size(), 2u);
  EXPECT_EQ(nodes[0].metadata.name, "alpha");
  EXPECT_EQ(nodes[1].metadata.name, "beta");
  EXPECT_TRUE(nodes[0].status.allocatable.empty());
  std::vector<api::ResourceSlice> slices = OfKind<api::ResourceSlice>(objects);
  ASSERT_EQ(slices.size(), 2u);
  // The example driver's defaults: gpu.example.com, 8 exclusive GPUs.
  EXPECT_EQ(slices[0].spec.driver, "gpu.example.com");
  EXPECT_EQ(slices[0].spec.devices.size(), 8u);
  EXPECT_EQ(slices[0].spec.devices[0].capacity.at("memory").value.String(), "80Gi");
  EXPECT_FALSE(slices[0].spec.devices[0].allow_multiple_allocations.value_or(false));
}

// Runs `dra driver example --print-slices` and decodes what it prints.
std::vector<api::ResourceSlice> PrintedSlices(const std::string& flags) {
  std::string command =
      "env -i " + std::string(DRA_PROGRAM) + " driver example --print-slices " + flags;
  FILE* pipe = popen(command.c_str(), "r");
  if (pipe == nullptr) {
    ADD_FAILURE() << "popen " << command;
    return {};
  }
  std::string text;
  char buf[4096];
  while (std::size_t n = std::fread(buf, 1, sizeof buf, pipe)) text.append(buf, n);
  EXPECT_EQ(pclose(pipe), 0) << command;
  api::ManifestSet set;
  api::ParseManifestText("printed", text, {}, set);
  EXPECT_TRUE(set.read_errors.empty());
  std::vector<api::ResourceSlice> out;
  for (const api::ManifestDocument& doc : set.documents) {
    EXPECT_TRUE(doc.decoded.errors.empty()) << doc.decoded.errors.front().message;
    for (const api::DecodedObject& o : doc.decoded.objects) {
      out.push_back(std::get<api::ResourceSlice>(o.object));
    }
  }
  return out;
}

TEST(NodeInventory, SlicesAreWhatTheExampleDriverPublishes) {
  struct Case {
    std::string driver_yaml;
    std::string flags;
  };
  const Case cases[] = {
      {"{numDevices: 3}", "--num-devices 3"},
      {"{name: gpu.acme.io, numDevices: 2, migPartitions: true}",
       "--driver-name gpu.acme.io --num-devices 2 --mig-partitions"},
      {"{numDevices: 4, allowMultipleAllocations: true}",
       "--num-devices 4 --gpu-allow-multiple-allocations"},
      {"{numDevices: 0}", "--num-devices 0"},
  };
  for (const Case& c : cases) {
    SCOPED_TRACE(c.flags);
    std::vector<api::Object> objects;
    ASSERT_EQ(Expand("apiVersion: inventory.dra.local/v1alpha1\nkind: NodeInventory\n"
                     "metadata: {name: x}\nspec:\n  names: [worker-7]\n  drivers: [" +
                         c.driver_yaml + "]\n",
                     &objects),
              "");
    std::vector<api::ResourceSlice> ours = OfKind<api::ResourceSlice>(objects);
    std::vector<api::ResourceSlice> printed = PrintedSlices(c.flags + " --node-name worker-7");
    ASSERT_EQ(ours.size(), printed.size());
    ASSERT_FALSE(ours.empty());
    for (std::size_t i = 0; i < ours.size(); ++i) {
      EXPECT_EQ(ours[i].spec, printed[i].spec) << i;
      EXPECT_EQ(ours[i].metadata.generate_name, printed[i].metadata.generate_name);
      EXPECT_EQ(printed[i].metadata.name.substr(0, ours[i].metadata.name.size()),
                ours[i].metadata.name);
    }
  }
}

std::string Spec(const std::string& spec_body) {
  return "apiVersion: inventory.dra.local/v1alpha1\nkind: NodeInventory\nmetadata:\n  name: "
         "inv\nspec:\n" +
         spec_body;
}

TEST(NodeInventory, ErrorsNameSourceDocumentAndField) {
  const std::pair<std::string, std::string> cases[] = {
      {Spec("  count: 2\n"), "spec: give either namePrefix and count, or names"},
      {Spec("  namePrefix: n-\n  count: 0\n"), "spec.count: 0 is out of range (1 to 10000)"},
      {Spec("  namePrefix: n-\n  count: 10001\n"), "spec.count: 10001 is out of range"},
      {Spec("  namePrefix: n-\n  count: \"2\"\n"), "spec.count: must be an integer, not string"},
      {Spec("  namePrefix: n-\n  count: 1.5\n"), "spec.count: must be an integer, not 1.5"},
      {Spec("  namePrefix: N_\n  count: 1\n"), "spec.namePrefix: node name \"N_0\" is not a DNS"},
      {Spec("  names: [a, a]\n"), "spec.names[1]: duplicate node name \"a\""},
      {Spec("  names: [a]\n  count: 1\n"), "spec.names: cannot be combined"},
      {Spec("  names: [a]\n  nodeCount: 1\n"), "spec.nodeCount: unknown field"},
      {Spec("  names: [a]\n  labels: {\"bad key!\": x}\n"), "spec.labels[bad key!]: not a valid"},
      {Spec("  names: [a]\n  labels: {kubernetes.io/hostname: x}\n"),
       "spec.labels[kubernetes.io/hostname]: set per node"},
      {Spec("  names: [a]\n  allocatable: {cpu: lots}\n"), "spec.allocatable[cpu]: "},
      {Spec("  names: [a]\n  drivers: [{numDevices: 1025}]\n"),
       "spec.drivers[0].numDevices: 1025 is out of range (0 to 1024)"},
      {Spec("  names: [a]\n  drivers: [{migPartitions: yes-please}]\n"),
       "spec.drivers[0].migPartitions: must be true or false, not string"},
      {Spec("  names: [a]\n  drivers: [{migPartitions: true, allowMultipleAllocations: true}]\n"),
       "spec.drivers[0]: migPartitions and allowMultipleAllocations cannot both be true"},
      {Spec("  names: [a]\n  drivers: [{}, {}]\n"),
       "spec.drivers[1].name: driver \"gpu.example.com\" is listed twice"},
      {Spec("  names: [a]\n  drivers: [{gpus: 2}]\n"), "spec.drivers[0].gpus: unknown field"},
      {Spec("  namePrefix: n-\n  count: 10000\n  drivers: [{numDevices: 8, migPartitions: "
            "true}]\n"),
       "spec: 10000 nodes with 120 devices each are 1200000 devices, more than the limit"},
      {"apiVersion: inventory.dra.local/v1alpha1\nkind: NodeInventory\nspec: {names: [a]}\n",
       "inv.yaml: document 1: NodeInventory: metadata.name: required"},
      {"apiVersion: inventory.dra.local/v1alpha1\nkind: NodeInventory\nmetadata: {name: x}\n"
       "spec: {names: [a]}\nstatus: {}\n",
       "inv.yaml: document 1: NodeInventory x: status: unknown field"},
      {"apiVersion: inventory.dra.local/v1alpha1\nkind: NodeInventry\nmetadata: {name: x}\n",
       "inv.yaml: document 1: no kind \"NodeInventry\" in version "
       "\"inventory.dra.local/v1alpha1\""},
      {"apiVersion: inventory.dra.local/v1\nkind: NodeInventory\nmetadata: {name: x}\n",
       "no kind \"NodeInventory\" in version \"inventory.dra.local/v1\""},
  };
  for (const auto& [text, want] : cases) {
    std::string got = Expand(text);
    EXPECT_NE(got.find(want), std::string::npos) << "want: " << want << "\ngot: " << got;
    if (text.starts_with(Spec(""))) {
      EXPECT_EQ(got.rfind("inv.yaml: document 1: NodeInventory inv: ", 0), 0u) << got;
    }
  }
}

TEST(NodeInventory, NodesMustNotBeDefinedTwice) {
  std::string inv = Spec("  namePrefix: gpu-node-\n  count: 2\n  drivers: [{}]\n");
  EXPECT_EQ(Expand(inv + "---\n" + inv),
            "inv.yaml: document 2: NodeInventory inv: node gpu-node-0 is also generated by "
            "NodeInventory inv (inv.yaml: document 1)");
  EXPECT_EQ(Expand("apiVersion: v1\nkind: Node\nmetadata: {name: gpu-node-1}\n---\n" + inv),
            "inv.yaml: document 2: NodeInventory inv: node gpu-node-1 is also defined as a Node "
            "(inv.yaml: document 1)");
  EXPECT_EQ(Expand("apiVersion: resource.k8s.io/v1\nkind: ResourceSlice\nmetadata: {name: s}\n"
                   "spec: {driver: gpu.example.com, pool: {name: gpu-node-0, generation: 1, "
                   "resourceSliceCount: 1}, nodeName: gpu-node-0, devices: []}\n---\n" +
                   inv),
            "inv.yaml: document 2: NodeInventory inv: driver gpu.example.com on node gpu-node-0 "
            "would publish pool gpu-node-0, which a ResourceSlice already defines (inv.yaml: "
            "document 1)");
}

TEST(NodeInventory, DevicesOfAllInventoriesAreBounded) {
  // 1000 nodes with 128 GPUs are 128000 devices; two such inventories are
  // refused before either is expanded.
  std::string a = Spec("  namePrefix: a-\n  count: 1000\n  drivers: [{numDevices: 128}]\n");
  std::string b = Spec("  namePrefix: b-\n  count: 1000\n  drivers: [{numDevices: 128}]\n");
  EXPECT_EQ(Expand(a + "---\n" + b),
            "inv.yaml: document 2: NodeInventory inv: the NodeInventories up to this one expand "
            "to 256000 devices, more than the limit of 250000");
}

TEST(ManifestExtensions, OnlyTheNamedGroupsAreHandedBack) {
  const std::string text =
      "apiVersion: inventory.dra.local/v1alpha1\nkind: Anything\nmetadata: {name: x}\n---\n"
      "apiVersion: resource.k8s.io/v1\nkind: ResourceClame\nmetadata: {name: y}\n---\n"
      "apiVersion: other.example.com/v1\nkind: Thing\nmetadata: {name: z}\n";
  api::ManifestSet with = Read(text);
  ASSERT_EQ(with.extensions.size(), 1u);
  EXPECT_EQ(with.extensions[0].kind, "Anything");
  EXPECT_EQ(with.extensions[0].api_version, "inventory.dra.local/v1alpha1");
  EXPECT_EQ(with.extensions[0].index, 1);
  ASSERT_EQ(with.documents.size(), 2u);
  // Typos of real kinds and foreign groups keep their errors.
  EXPECT_EQ(with.documents[0].decoded.errors.at(0).message,
            "no matches for kind \"ResourceClame\" in version \"resource.k8s.io/v1\"");
  EXPECT_EQ(with.documents[1].decoded.errors.at(0).failure, api::DecodeFailure::kUnknownKind);

  api::ManifestSet without;
  api::ParseManifestText("inv.yaml", text, {}, without);
  EXPECT_TRUE(without.extensions.empty());
  ASSERT_EQ(without.documents.size(), 3u);
  EXPECT_EQ(without.documents[0].decoded.errors.at(0).message,
            "no matches for kind \"Anything\" in version \"inventory.dra.local/v1alpha1\"");
}

}  // namespace
}  // namespace dra::driver
