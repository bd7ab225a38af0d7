// DRAExtendedResource (KEP-5004): container requests for an extended
// resource that a DeviceClass maps are served by DRA on nodes that do not
// advertise the resource, through a claim the scheduler creates for the pod.
#include <algorithm>
#include <string>
#include <vector>

#include "scheduler/scheduler_impl.h"

namespace dra::scheduler {

// Several classes naming one resource: the newest wins, then the smaller
// name. Every class also serves its implicit name.
void Scheduler::Impl::MapExtendedResources() {
  std::map<std::string, const api::DeviceClass*> explicit_names;
  for (const api::DeviceClass& dc : cluster.classes) {
    extended_classes["deviceclass.resource.kubernetes.io/" + dc.metadata.name] = dc.metadata.name;
    if (!dc.spec.extended_resource_name) continue;
    const api::DeviceClass*& best = explicit_names[*dc.spec.extended_resource_name];
    if (best == nullptr ||
        dc.metadata.creation_timestamp.seconds > best->metadata.creation_timestamp.seconds ||
        (dc.metadata.creation_timestamp.seconds == best->metadata.creation_timestamp.seconds &&
         dc.metadata.name < best->metadata.name)) {
      best = &dc;
    }
  }
  for (const auto& [name, dc] : explicit_names) extended_classes[name] = dc->metadata.name;
  for (const auto& [name, cls] : extended_classes) dra_extended_names.insert(name);
}

std::vector<Scheduler::Impl::ExtendedDemand> Scheduler::Impl::ExtendedDemands(
    const api::Pod& pod) const {
  std::vector<ExtendedDemand> out;
  if (extended_classes.empty()) return out;
  for (std::size_t i = 0; i < pod.spec.containers.size(); ++i) {
    const api::Container& c = pod.spec.containers[i];
    api::ResourceList merged = c.resources.requests;
    for (const auto& [name, q] : c.resources.limits) merged.emplace(name, q);
    std::size_t j = 0;
    for (const auto& [name, q] : merged) {
      auto cls = extended_classes.find(name);
      if (cls != extended_classes.end() && q.Value() > 0) {
        out.push_back({c.name, name, cls->second,
                       "container-" + std::to_string(i) + "-request-" + std::to_string(j),
                       q.Value()});
      }
      ++j;
    }
  }
  std::sort(out.begin(), out.end(),
            [](const ExtendedDemand& a, const ExtendedDemand& b) { return a.request < b.request; });
  return out;
}

// True when the node advertises none of the demanded resources.
bool Scheduler::Impl::ServesNone(const std::vector<ExtendedDemand>& demands,
                                 const NodeCapacity& capacity) {
  for (const ExtendedDemand& d : demands) {
    auto have = capacity.scalar.find(d.resource);
    if (have != capacity.scalar.end() && have->second > 0) return false;
  }
  return true;
}

// The node's variant of the special claim: requests for the demands the
// node's allocatable does not cover (those DRA must serve there).
std::optional<api::ResourceClaim> Scheduler::Impl::ExtendedClaimFor(
    const api::Pod& pod, const std::vector<ExtendedDemand>& demands,
    const NodeCapacity& capacity) const {
  std::optional<api::ResourceClaim> claim;
  for (const ExtendedDemand& d : demands) {
    auto have = capacity.scalar.find(d.resource);
    if (have != capacity.scalar.end() && have->second > 0) continue;  // device plugin
    if (!claim) {
      claim.emplace();
      claim->metadata.name = "<extended-resources>";
      claim->metadata.namespace_ = pod.metadata.namespace_;
      claim->metadata.uid = "extended-resources/" + pod.metadata.uid;
    }
    api::DeviceRequest req;
    req.name = d.request;
    req.exactly.emplace();
    req.exactly->device_class_name = d.class_name;
    req.exactly->allocation_mode = "ExactCount";
    req.exactly->count = d.count;
    claim->spec.devices.requests.push_back(std::move(req));
  }
  return claim;
}

// The extended-resource claim becomes a real object now, owned by the pod;
// from here on it is handled like the pod's other claims.
void Scheduler::Impl::CreateExtendedClaim(PodRecord& rec, Cycle& cycle, const NodeResult& result) {
  const api::Pod& pod = rec.pod;
  api::ResourceClaim claim;
  claim.type = {"ResourceClaim", "resource.k8s.io/v1"};
  std::string prefix = pod.metadata.name + "-extended-resources-";
  do {
    claim.metadata.name = util::GenerateName(prefix, rng);
  } while (claims.contains(Key(pod.metadata.namespace_, claim.metadata.name)));
  claim.metadata.generate_name = prefix;
  claim.metadata.namespace_ = pod.metadata.namespace_;
  claim.metadata.uid = util::UuidV4(rng);
  claim.metadata.creation_timestamp = api::Time::FromUnix(options.now);
  claim.metadata.annotations[kExtendedResourceClaimAnnotation] = "true";
  claim.metadata.owner_references.push_back(PodOwnerReference(pod));
  claim.spec = result.extended->spec;
  std::string key = Key(claim.metadata);
  api::PodExtendedResourceClaimStatus status;
  status.resource_claim_name = claim.metadata.name;
  for (const ExtendedDemand& d : ExtendedDemands(pod)) {
    for (const api::DeviceRequest& req : claim.spec.devices.requests) {
      if (req.name == d.request)
        status.request_mappings.push_back({d.container, d.resource, d.request});
    }
  }
  auto [it, inserted] = claims.emplace(key, std::move(claim));
  cycle.to_allocate.push_back(cycle.resolved.size());
  cycle.resolved.push_back({key, &it->second});
  rec.pod.status.extended_resource_claim_status = std::move(status);
}

}  // namespace dra::scheduler
