#include "scheduler/workloads.h"

#include <algorithm>

namespace dra::scheduler {
namespace {

constexpr const char* kDriver = "test-driver.cdi.k8s.io";

enum class Inventory {
  kBasic,        // N devices with attributes and 1Gi memory
  kPartitioned,  // 4 GPUs per node as counter sets, each offered whole, as halves and quarters
  kShared,       // 4 multi-allocatable devices with 40Gi memory each
};

struct Shape {
  Inventory inventory = Inventory::kBasic;
  int devices_per_node = 10;
  std::string template_yaml;  // the ResourceClaimTemplate "test-claim-template"
  std::string extra;          // extra cluster objects (classes, rules)
  int init_fill_percent = 0;  // init pods as a share of the cluster's capacity
  int init_slack = 0;         // ... minus this many
  bool shared_claims = false;
};

std::string Node(const std::string& name) {
  return "apiVersion: v1\nkind: Node\nmetadata:\n  name: " + name +
         "\n  labels:\n    kubernetes.io/hostname: " + name +
         "\nstatus:\n  capacity:\n    cpu: \"4\"\n    memory: 32Gi\n    pods: \"110\"\n"
         "  allocatable:\n    cpu: \"4\"\n    memory: 32Gi\n    pods: \"110\"\n---\n";
}

std::string SliceHeader(const std::string& node, const std::string& name, int slices = 1) {
  return "apiVersion: resource.k8s.io/v1\nkind: ResourceSlice\nmetadata:\n  name: " + name +
         "\nspec:\n  driver: " + kDriver + "\n  pool:\n    name: " + node +
         "\n    generation: 1\n    resourceSliceCount: " + std::to_string(slices) +
         "\n  nodeName: " + node + "\n";
}

std::string BasicSlice(const std::string& node, int devices) {
  std::string y = SliceHeader(node, node + "-slice") + "  devices:\n";
  for (int i = 0; i < devices; ++i) {
    y += "  - name: device-" + std::to_string(i) +
         "\n    attributes:\n      model:\n        string: A100\n      family:\n        string: "
         "GPU\n      driverVersion:\n        version: 1.2.3\n      pcieRoot:\n        string: "
         "pci-" +
         std::to_string(i % 2) + "\n    capacity:\n      memory:\n        value: 1Gi\n";
  }
  return y + "---\n";
}

std::string PartitionedSlice(const std::string& node) {
  // Counter sets and the devices drawing on them are published in separate
  // slices of one pool, as the v1 API requires.
  std::string y = SliceHeader(node, node + "-counters", 2) + "  sharedCounters:\n";
  for (int g = 0; g < 4; ++g) {
    y += "  - name: gpu-" + std::to_string(g) +
         "-counters\n    counters:\n      memory:\n        value: 40Gi\n      "
         "multiprocessors:\n        value: \"4\"\n";
  }
  y += "---\n" + SliceHeader(node, node + "-partitions", 2) + "  devices:\n";
  auto device = [&](int g, const std::string& name, const std::string& kind,
                    const std::string& memory, int mp) {
    std::string gs = std::to_string(g);
    y += "  - name: " + name +
         "\n    attributes:\n      model:\n        string: A100\n      "
         "partition:\n        string: " +
         kind + "\n      parent:\n        string: gpu-" + gs +
         "\n    capacity:\n      memory:\n        value: " + memory +
         "\n    consumesCounters:\n    - counterSet: gpu-" + gs +
         "-counters\n      counters:\n        memory:\n          value: " + memory +
         "\n        multiprocessors:\n          value: \"" + std::to_string(mp) + "\"\n";
  };
  for (int g = 0; g < 4; ++g) {
    std::string gs = std::to_string(g);
    // Smallest partitions first: first-fit then packs two pods per GPU.
    for (int q = 0; q < 4; ++q) {
      device(g, "gpu-" + gs + "-quarter-" + std::to_string(q), "quarter", "10Gi", 1);
    }
    for (int h = 0; h < 2; ++h) {
      device(g, "gpu-" + gs + "-half-" + std::to_string(h), "half", "20Gi", 2);
    }
    device(g, "gpu-" + gs, "whole", "40Gi", 4);
  }
  return y + "---\n";
}

std::string SharedSlice(const std::string& node) {
  std::string y = SliceHeader(node, node + "-slice") + "  devices:\n";
  for (int i = 0; i < 4; ++i) {
    y += "  - name: device-" + std::to_string(i) +
         "\n    allowMultipleAllocations: true\n    attributes:\n      model:\n        string: "
         "A100\n    capacity:\n      memory:\n        value: 40Gi\n        requestPolicy:\n"
         "          default: 1Gi\n          validRange:\n            min: 1Gi\n";
  }
  return y + "---\n";
}

std::string Class(const std::string& name, const std::string& expression) {
  return "apiVersion: resource.k8s.io/v1\nkind: DeviceClass\nmetadata:\n  name: " + name +
         "\nspec:\n  selectors:\n  - cel:\n      expression: '" + expression + "'\n---\n";
}

std::string Template(const std::string& requests, const std::string& constraints = "") {
  return "apiVersion: resource.k8s.io/v1\nkind: ResourceClaimTemplate\nmetadata:\n  name: "
         "test-claim-template\nspec:\n  spec:\n    devices:\n      requests:\n" +
         requests + constraints + "---\n";
}

std::string ExactRequest(const std::string& name, const std::string& extra = "") {
  return "      - name: " + name + "\n        exactly:\n          deviceClassName: test-class\n" +
         extra;
}

std::string TemplatePod(const std::string& name) {
  return "apiVersion: v1\nkind: Pod\nmetadata:\n  name: " + name +
         "\nspec:\n  containers:\n  - name: pause\n    image: registry.k8s.io/pause:3.10\n"
         "    resources:\n      claims:\n      - name: resource\n  resourceClaims:\n"
         "  - name: resource\n    resourceClaimTemplateName: test-claim-template\n---\n";
}

// A pod asking for one device through the extended-resource bridge.
std::string ExtendedResourcePod(const std::string& name, int index) {
  std::string q = "example.com/gpu-" + std::to_string(index % 25) + ": \"1\"";
  return "apiVersion: v1\nkind: Pod\nmetadata:\n  name: " + name +
         "\nspec:\n  containers:\n  - name: pause\n    image: registry.k8s.io/pause:3.10\n"
         "    resources:\n      requests:\n        " +
         q + "\n      limits:\n        " + q + "\n---\n";
}

std::string SharedClaim(const std::string& name) {
  return "apiVersion: resource.k8s.io/v1\nkind: ResourceClaim\nmetadata:\n  name: " + name +
         "\nspec:\n  devices:\n    requests:\n    - name: req-0\n      exactly:\n"
         "        deviceClassName: test-class\n---\n";
}

std::string SharedClaimPod(const std::string& name, const std::string& claim) {
  return "apiVersion: v1\nkind: Pod\nmetadata:\n  name: " + name +
         "\nspec:\n  containers:\n  - name: pause\n    image: registry.k8s.io/pause:3.10\n"
         "    resources:\n      claims:\n      - name: resource\n  resourceClaims:\n"
         "  - name: resource\n    resourceClaimName: " +
         claim + "\n---\n";
}

const std::string kDriverClass =
    Class("test-class", std::string("device.driver == \"") + kDriver + "\"");

Shape ShapeOf(const std::string& name) {
  Shape s;
  s.template_yaml = Template(ExactRequest("req-0"));
  s.extra = kDriverClass;
  if (name == "template") {
    s.init_fill_percent = 50;
  } else if (name == "steady-half") {
    s.init_fill_percent = 50;
  } else if (name == "steady-full") {
    s.init_fill_percent = 100;
    s.init_slack = 10;
  } else if (name == "selector") {
    s.template_yaml = Template(ExactRequest(
        "req-0",
        "          selectors:\n          - cel:\n              expression: 'device.attributes[\"" +
            std::string(kDriver) + "\"].driverVersion.major() >= 1 && device.capacity[\"" +
            kDriver + "\"].memory.compareTo(quantity(\"1Mi\")) > 0'\n"));
  } else if (name == "match") {
    std::string requests;
    for (int i = 0; i < 5; ++i) requests += ExactRequest("req-" + std::to_string(i));
    s.template_yaml =
        Template(requests, "      constraints:\n      - matchAttribute: " + std::string(kDriver) +
                               "/pcieRoot\n");
  } else if (name == "shared-claims") {
    s.devices_per_node = 2;
    s.shared_claims = true;
  } else if (name == "first-available") {
    s.extra += Class("no-match-class",
                     "device.attributes[\"" + std::string(kDriver) + "\"].model == \"H200\"");
    s.template_yaml = Template(
        "      - name: req-0\n        firstAvailable:\n        - name: h200\n"
        "          deviceClassName: no-match-class\n        - name: any\n"
        "          deviceClassName: test-class\n");
  } else if (name == "toleration") {
    s.extra +=
        "apiVersion: resource.k8s.io/v1\nkind: DeviceTaintRule\nmetadata:\n  name: "
        "maintenance\nspec:\n  deviceSelector:\n    driver: " +
        std::string(kDriver) +
        "\n  taint:\n    key: example.com/maintenance\n    value: planned\n    effect: "
        "NoSchedule\n---\n";
    s.template_yaml =
        Template(ExactRequest("req-0",
                              "          tolerations:\n          - key: example.com/maintenance\n"
                              "            operator: Exists\n            effect: NoSchedule\n"));
  } else if (name == "extended-resource") {
    s.extra.clear();
    for (int i = 0; i < 25; ++i) {
      s.extra +=
          "apiVersion: resource.k8s.io/v1\nkind: DeviceClass\nmetadata:\n  name: test-class-" +
          std::to_string(i) + "\nspec:\n  extendedResourceName: example.com/gpu-" +
          std::to_string(i) + "\n  selectors:\n  - cel:\n      expression: 'device.driver == \"" +
          kDriver + "\"'\n---\n";
    }
    s.template_yaml.clear();
    s.init_fill_percent = 50;
  } else if (name == "partitionable") {
    s.inventory = Inventory::kPartitioned;
    s.extra = Class("test-class", std::string("device.driver == \"") + kDriver +
                                      "\" && device.attributes[\"" + kDriver +
                                      "\"].partition != \"whole\"");
    s.template_yaml = Template(
        "      - name: req-0\n        exactly:\n          deviceClassName: test-class\n"
        "          count: 2\n",
        "      constraints:\n      - matchAttribute: " + std::string(kDriver) + "/parent\n");
  } else if (name == "consumable-capacity") {
    s.inventory = Inventory::kShared;
    std::string cap = "          capacity:\n            requests:\n              memory: 10Gi\n";
    s.template_yaml = Template(ExactRequest("req-0", cap) + ExactRequest("req-1", cap));
  }
  return s;
}

// Pods one node holds for the workload's claim shape (for pre-filling).
int PodsPerNode(const std::string& name, const Shape& s) {
  if (name == "match") return 2;
  if (name == "partitionable") return 8;        // 4 GPUs x 4 quarters, 2 per pod
  if (name == "consumable-capacity") return 8;  // 4 x 40Gi, 20Gi per pod
  if (s.shared_claims) return s.devices_per_node * 5;
  return s.devices_per_node;
}

}  // namespace

const std::vector<WorkloadInfo>& Workloads() {
  static const std::vector<WorkloadInfo> kWorkloads = {
      {"template", "SchedulingWithResourceClaimTemplate/5000pods_500nodes",
       "one claim per pod from a template, 1 of 10 devices per node; half the cluster "
       "pre-filled, the rest scheduled in a burst",
       500, 2500, false},
      {"steady-empty", "SteadyStateClusterResourceClaimTemplate/empty_500nodes",
       "template claims on an empty cluster, 10 pods pending at a time", 500, 10, true},
      {"steady-half", "SteadyStateClusterResourceClaimTemplate/half_500nodes",
       "as steady-empty with half the devices allocated", 500, 10, true},
      {"steady-full", "SteadyStateClusterResourceClaimTemplate/full_500nodes",
       "as steady-empty with all but 10 devices allocated", 500, 10, true},
      {"selector", "SchedulingWithResourceClaimTemplate/selector_empty_500nodes",
       "template claims with a CEL selector (driverVersion major and memory)", 500, 10, true},
      {"match", "SchedulingWithResourceClaimTemplate/match_empty_500nodes",
       "5 requests per claim with matchAttribute on the PCIe root (half a node each)", 500, 10,
       true},
      {"shared-claims", "SchedulingWithResourceClaim/5000pods_500nodes",
       "named claims shared by 5 pods each, 2 devices per node; half pre-placed", 500, 2500, false},
      {"first-available", "SteadyStateClusterResourceClaimTemplateFirstAvailable",
       "firstAvailable whose first subrequest never matches", 500, 10, true},
      {"toleration", "SchedulingWithResourceClaimTemplateToleration",
       "a NoSchedule DeviceTaintRule on every device, tolerated by the template", 500, 2500, false},
      {"extended-resource", "ExtendedResource_25Classes/5000pods_500nodes",
       "container requests for example.com/gpu-<i> served by DRA through 25 DeviceClasses "
       "(extended-resource bridge); half the cluster pre-filled",
       500, 2500, false},
      {"partitionable", "SteadyStateClusterResourceClaimTemplatePartitionable",
       "4 partitionable GPUs per node (whole, halves, quarters over shared counters); 2 "
       "partitions of one GPU per pod",
       500, 10, true},
      {"consumable-capacity", "SteadyStateClusterResourceClaimTemplateConsumableCapacity",
       "4 multi-allocatable devices of 40Gi per node; 2 requests of 10Gi per pod", 500, 10, true},
  };
  return kWorkloads;
}

Result<WorkloadManifests> MakeWorkload(const std::string& name, int nodes, int pods) {
  const WorkloadInfo* info = nullptr;
  std::string known;
  for (const WorkloadInfo& w : Workloads()) {
    if (w.name == name) info = &w;
    known += (known.empty() ? "" : ", ") + w.name;
  }
  if (info == nullptr) return Error{"unknown workload \"" + name + "\" (known: " + known + ")"};
  if (nodes <= 0) nodes = info->default_nodes;
  if (pods <= 0) pods = info->default_pods;
  Shape shape = ShapeOf(name);

  WorkloadManifests out;
  std::string& y = out.cluster;
  y += shape.extra + shape.template_yaml;
  for (int n = 0; n < nodes; ++n) {
    std::string node = "scheduler-perf-dra-" + std::to_string(n);
    y += Node(node);
    switch (shape.inventory) {
      case Inventory::kBasic:
        y += BasicSlice(node, shape.devices_per_node);
        break;
      case Inventory::kPartitioned:
        y += PartitionedSlice(node);
        break;
      case Inventory::kShared:
        y += SharedSlice(node);
        break;
    }
  }
  int capacity = nodes * PodsPerNode(name, shape);
  int init = std::max(0, capacity * shape.init_fill_percent / 100 - shape.init_slack);
  if (!info->steady_state) init = std::min(init, pods);
  out.init_pods = init;
  out.measured_pods = pods;
  if (shape.shared_claims) {
    for (int i = 0; i < init; ++i) {
      if (i % 5 == 0) y += SharedClaim("init-claim-" + std::to_string(i / 5));
      y += SharedClaimPod("init-pod-" + std::to_string(i), "init-claim-" + std::to_string(i / 5));
    }
    for (int i = 0; i < pods; ++i) {
      if (i % 5 == 0) out.pods += SharedClaim("claim-" + std::to_string(i / 5));
      out.pods += SharedClaimPod("pod-" + std::to_string(i), "claim-" + std::to_string(i / 5));
    }
    return out;
  }
  if (name == "extended-resource") {
    for (int i = 0; i < init; ++i) y += ExtendedResourcePod("init-pod-" + std::to_string(i), i);
    for (int i = 0; i < pods; ++i) out.pods += ExtendedResourcePod("pod-" + std::to_string(i), i);
    return out;
  }
  for (int i = 0; i < init; ++i) y += TemplatePod("init-pod-" + std::to_string(i));
  for (int i = 0; i < pods; ++i) out.pods += TemplatePod("pod-" + std::to_string(i));
  return out;
}

std::string WorkloadPod(const std::string& workload, const std::string& name, int index) {
  if (workload == "shared-claims") {
    return SharedClaimPod(name, "claim-" + std::to_string(index / 5));
  }
  if (workload == "extended-resource") return ExtendedResourcePod(name, index);
  return TemplatePod(name);
}

}  // namespace dra::scheduler
