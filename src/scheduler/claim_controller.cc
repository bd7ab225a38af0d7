// The parts of kube-controller-manager's resource-claim controller the
// scheduler depends on (pkg/controller/resourceclaim/controller.go at the
// pinned release): claims generated from a pod's templates, reservedFor
// pruned and claims deallocated or deleted when the pod finishes.
#include <algorithm>
#include <string>
#include <vector>

#include "scheduler/scheduler_impl.h"

namespace dra::scheduler {

// Creates the claims of template entries that have none yet and records them
// in pod.status.resourceClaimStatuses. False with `reason` when a template
// is missing (upstream: event FailedResourceClaimCreation).
bool Scheduler::Impl::CreateTemplateClaims(PodRecord& rec, std::string& reason) {
  api::Pod& pod = rec.pod;
  const std::string& ns = pod.metadata.namespace_;
  for (std::size_t i = 0; i < pod.spec.resource_claims.size(); ++i) {
    const api::PodResourceClaim& entry = pod.spec.resource_claims[i];
    if (entry.resource_claim_name.has_value() == entry.resource_claim_template_name.has_value()) {
      reason = "spec.resourceClaims[" + std::to_string(i) +
               "]: must specify one of: `resourceClaimName`, `resourceClaimTemplateName`";
      return false;
    }
    if (!entry.resource_claim_template_name) continue;
    api::PodResourceClaimStatus* status = nullptr;
    for (api::PodResourceClaimStatus& s : pod.status.resource_claim_statuses) {
      if (s.name == entry.name) status = &s;
    }
    if (status != nullptr) {
      // An empty name means "intentionally not created".
      if (!status->resource_claim_name || status->resource_claim_name->empty()) continue;
      auto it = claims.find(Key(ns, *status->resource_claim_name));
      if (it != claims.end() && OwnedByPod(it->second, pod)) continue;
    }
    const std::string& tname = *entry.resource_claim_template_name;
    std::string tkey = Key(ns, tname);
    if (cluster.duplicate_templates.contains(tkey)) {
      reason = "FailedResourceClaimCreation: ResourceClaimTemplate " + tkey +
               " is defined more than once in the input";
      return false;
    }
    auto t = templates.find(tkey);
    if (t == templates.end()) {
      reason = "FailedResourceClaimCreation: PodResourceClaim " + entry.name;
      reason += ": resource claim template \"" + tname;
      reason += "\": resourceclaimtemplate.resource.k8s.io \"" + tname + "\" not found";
      return false;
    }
    std::string name = CreateClaimFromTemplate(pod, entry.name, *t->second);
    if (status == nullptr) {
      pod.status.resource_claim_statuses.push_back({entry.name, name});
    } else {
      status->resource_claim_name = name;
    }
  }
  return true;
}

std::string Scheduler::Impl::CreateClaimFromTemplate(const api::Pod& pod, const std::string& entry,
                                                     const api::ResourceClaimTemplate& tmpl) {
  api::ResourceClaim claim;
  claim.type = {"ResourceClaim", "resource.k8s.io/v1"};
  std::string prefix = ClaimNamePrefix(pod.metadata.name, entry);
  std::string name;
  do {
    name = util::GenerateName(prefix, rng);
  } while (claims.contains(Key(pod.metadata.namespace_, name)));
  claim.metadata.name = name;
  claim.metadata.generate_name = prefix;
  claim.metadata.namespace_ = pod.metadata.namespace_;
  claim.metadata.uid = util::UuidV4(rng);
  claim.metadata.creation_timestamp = api::Time::FromUnix(options.now);
  claim.metadata.labels = tmpl.spec.metadata.labels;
  claim.metadata.annotations = tmpl.spec.metadata.annotations;
  claim.metadata.annotations[kPodClaimNameAnnotation] = entry;
  claim.metadata.owner_references.push_back(PodOwnerReference(pod));
  claim.spec = tmpl.spec.spec;
  claims.emplace(Key(pod.metadata.namespace_, name), std::move(claim));
  return name;
}

void Scheduler::Impl::Deallocate(api::ResourceClaim& claim) {
  if (claim.status.allocation) in_use->Remove(*claim.status.allocation);
  claim.status.allocation.reset();
  claim.status.reserved_for.clear();
  claim.status.devices.clear();
  auto& f = claim.metadata.finalizers;
  f.erase(std::remove(f.begin(), f.end(), kDeleteProtectionFinalizer), f.end());
}

void Scheduler::Impl::Release(std::size_t index, PodState phase, std::string reason) {
  PodRecord& rec = pods[index];
  const api::Pod& pod = rec.pod;
  if (rec.state == PodState::kBound) {
    auto node = node_index.find(rec.node);
    if (node != node_index.end()) node_info[node->second].AddPod(pod, RequestsOf(pod), -1);
  }
  active.erase(index);
  unschedulable.erase(index);
  parked.erase(index);
  rec.state = phase;
  rec.reason = std::move(reason);
  rec.pod.status.phase = phase == PodState::kSucceeded ? "Succeeded" : "Failed";

  ReleaseClaims(pod);
  RequeueUnschedulable();
}

// The resource-claim controller for a pod that finished: prunes reservedFor,
// deallocates what the scheduler allocated and nobody uses, deletes the pod's
// generated claims.
void Scheduler::Impl::ReleaseClaims(const api::Pod& pod) {
  std::vector<std::string> keys;
  for (const api::PodResourceClaim& entry : pod.spec.resource_claims) {
    std::string name;
    if (entry.resource_claim_name) {
      name = *entry.resource_claim_name;
    } else {
      for (const api::PodResourceClaimStatus& s : pod.status.resource_claim_statuses) {
        if (s.name == entry.name && s.resource_claim_name) name = *s.resource_claim_name;
      }
    }
    if (!name.empty()) keys.push_back(Key(pod.metadata.namespace_, name));
  }
  if (pod.status.extended_resource_claim_status) {
    keys.push_back(Key(pod.metadata.namespace_,
                       pod.status.extended_resource_claim_status->resource_claim_name));
  }
  for (const std::string& key : keys) {
    auto it = claims.find(key);
    if (it == claims.end()) continue;
    api::ResourceClaim& claim = it->second;
    auto& rf = claim.status.reserved_for;
    std::size_t before = rf.size();
    rf.erase(std::remove_if(rf.begin(), rf.end(),
                            [&](const api::ResourceClaimConsumerReference& r) {
                              return r.resource == "pods" && r.uid == pod.metadata.uid;
                            }),
             rf.end());
    bool ours = std::find(claim.metadata.finalizers.begin(), claim.metadata.finalizers.end(),
                          kDeleteProtectionFinalizer) != claim.metadata.finalizers.end();
    if (rf.empty() && before > 0 && ours) Deallocate(claim);
    if (rf.empty() && OwnedByPod(claim, pod)) {
      if (claim.status.allocation) Deallocate(claim);
      claims.erase(it);
    }
  }
}

}  // namespace dra::scheduler
