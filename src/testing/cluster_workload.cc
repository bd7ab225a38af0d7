#include "testing/cluster_workload.h"

#include <algorithm>
#include <string>
#include <utility>
#include <variant>

#include "testing/rng.h"
#include "testing/scenario_generator.h"

namespace dra::testing {
namespace {

constexpr const char* kExtendedResource = "example.com/gpu";
const std::vector<std::string> kTeams = {"ml", "batch"};
const std::vector<std::string> kZones = {"zone-a", "zone-b"};

api::Quantity Q(const std::string& text) { return api::Quantity::MustParse(text); }

api::Pod NewPod(int index) {
  api::Pod pod;
  pod.type = {"Pod", "v1"};
  pod.metadata.name = "pod-" + std::to_string(index);
  pod.metadata.namespace_ = "default";
  api::Container c;
  c.name = "c";
  c.image = "registry.k8s.io/pause:3.10";
  c.resources.requests["cpu"] = Q("100m");
  pod.spec.containers.push_back(std::move(c));
  return pod;
}

// Capacity, taints and cordoning for a generated node.
void DressNode(api::Node& node, const ClusterWorkloadParams& params, Rng& rng) {
  api::ResourceList& a = node.status.allocatable;
  a["cpu"] = Q("4");
  a["memory"] = Q("16Gi");
  a["pods"] = Q("110");
  if (rng.Chance(params.p_device_plugin)) a[kExtendedResource] = Q("2");
  node.status.capacity = a;
  if (rng.Chance(params.p_node_taint)) {
    node.spec.taints.push_back({"dedicated", rng.Pick(kTeams), "NoSchedule", {}});
  }
  node.spec.unschedulable = rng.Chance(params.p_cordoned);
}

api::ResourceClaimTemplate TemplateOf(const api::ResourceClaim& claim, std::size_t index) {
  api::ResourceClaimTemplate t;
  t.type = {"ResourceClaimTemplate", "resource.k8s.io/v1"};
  t.metadata.name = "tmpl-" + std::to_string(index);
  t.metadata.namespace_ = "default";
  t.spec.spec = claim.spec;
  return t;
}

// The extended resource: DRA serves it where a node does not advertise it.
api::DeviceClass ExtendedResourceClass() {
  api::DeviceClass ext;
  ext.type = {"DeviceClass", "resource.k8s.io/v1"};
  ext.metadata.name = "extended-gpu";
  ext.spec.extended_resource_name = kExtendedResource;
  api::DeviceSelector sel;
  sel.cel = api::CELDeviceSelector{"device.driver == \"gpu-0.example.com\""};
  ext.spec.selectors.push_back(std::move(sel));
  return ext;
}

// What the pod asks for: too much CPU, the extended resource, claims from the
// templates, or nothing beyond its CPU.
void AddRequests(api::Pod& pod, const ClusterWorkloadParams& params,
                 const std::vector<std::string>& templates, Rng& rng) {
  api::Container& c = pod.spec.containers.front();
  double r = static_cast<double>(rng.Below(1000)) / 1000.0;
  if (r < params.p_too_big) {
    c.resources.requests["cpu"] = Q("64");
  } else if (r < params.p_too_big + params.p_extended) {
    std::string n = std::to_string(rng.Between(1, 2));
    c.resources.requests[kExtendedResource] = Q(n);
    c.resources.limits[kExtendedResource] = Q(n);
  } else if (r < params.p_too_big + params.p_extended + params.p_claims && !templates.empty()) {
    int uses = rng.Between(1, std::min<int>(2, static_cast<int>(templates.size())));
    for (int k = 0; k < uses; ++k) {
      api::PodResourceClaim entry;
      entry.name = "claim-" + std::to_string(k);
      entry.resource_claim_template_name = rng.Pick(templates);
      c.resources.claims.push_back({entry.name, ""});
      pod.spec.resource_claims.push_back(std::move(entry));
    }
  }
}

// A toleration of the node taint and a zone selector, each by chance.
void AddPlacement(api::Pod& pod, const ClusterWorkloadParams& params, Rng& rng) {
  if (rng.Chance(params.p_toleration)) {
    api::Toleration t;
    t.key = "dedicated";
    t.effect = "NoSchedule";
    if (rng.Chance(0.5)) {
      t.operator_ = "Exists";
    } else {
      t.operator_ = "Equal";
      t.value = rng.Pick(kTeams);
    }
    pod.spec.tolerations.push_back(std::move(t));
  }
  if (rng.Chance(params.p_node_selector)) {
    pod.spec.node_selector["topology.example.com/zone"] = rng.Pick(kZones);
  }
}

}  // namespace

ClusterWorkload GenerateClusterWorkload(const ClusterWorkloadParams& params) {
  ClusterWorkload out;
  out.params = params;
  Rng rng(params.seed ^ 0xC1A5'7E50ULL);

  // Devices, classes and claim shapes from the shared generator, with the
  // gates at Kubernetes 1.37's defaults (the cluster runs with those).
  GeneratorParams g = ProfileParams("small").value();
  g.seed = params.seed;
  g.nodes = params.nodes;
  g.claims = params.templates;
  g.p_allocated = 0;
  g.p_admin_access = 0;
  g.random_gates = false;
  GeneratedScenario scenario = GenerateScenario(g);

  std::vector<std::string> templates;
  std::vector<api::Object> tail;  // templates after the cluster objects
  for (api::Object& o : scenario.objects) {
    if (auto* node = std::get_if<api::Node>(&o)) {
      DressNode(*node, params, rng);
      out.objects.push_back(std::move(o));
    } else if (auto* claim = std::get_if<api::ResourceClaim>(&o)) {
      api::ResourceClaimTemplate t = TemplateOf(*claim, templates.size());
      templates.push_back(t.metadata.name);
      tail.emplace_back(std::move(t));
    } else if (std::holds_alternative<api::Namespace>(o)) {
      continue;  // "default" exists in every cluster
    } else {
      out.objects.push_back(std::move(o));
    }
  }
  out.objects.emplace_back(ExtendedResourceClass());
  for (api::Object& t : tail) out.objects.push_back(std::move(t));

  const int pods = std::min(params.pods, 10 * std::max(1, params.nodes));
  for (int i = 0; i < pods; ++i) {
    api::Pod pod = NewPod(i);
    AddRequests(pod, params, templates, rng);
    AddPlacement(pod, params, rng);
    out.objects.emplace_back(std::move(pod));
  }
  return out;
}

Result<std::string> ClusterWorkloadYaml(const ClusterWorkload& workload) {
  Result<std::string> objects = ObjectsYaml(workload.objects);
  if (!objects.ok()) return objects;
  return "# dra-gen: cluster workload seed=" + std::to_string(workload.params.seed) +
         " nodes=" + std::to_string(workload.params.nodes) +
         " pods=" + std::to_string(workload.params.pods) + "\n" + *objects;
}

}  // namespace dra::testing
