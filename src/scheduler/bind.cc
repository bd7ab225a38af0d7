// Reserve, PreBind and Bind of a pod whose node is chosen: its devices are
// taken at once (in flight), then allocation and reservation are written
// together and, where devices carry binding conditions, the pod waits for the
// drivers (DRADeviceBindingConditions, KEP-5007), as DynamicResources' Reserve
// and PreBind do (pkg/scheduler/framework/plugins/dynamicresources at the
// pinned release).
#include <algorithm>
#include <string>
#include <utility>
#include <vector>

#include "scheduler/scheduler_impl.h"

namespace dra::scheduler {

void Scheduler::Impl::Bind(std::size_t index, std::size_t node, Cycle& cycle, NodeResult& result) {
  PodRecord& rec = pods[index];
  const api::Pod& pod = rec.pod;
  if (result.extended) CreateExtendedClaim(rec, cycle, result);
  // Reserve: the devices count as taken from here on.
  for (std::size_t j = 0; j < cycle.to_allocate.size(); ++j) {
    const api::ResourceClaim& claim = *cycle.resolved[cycle.to_allocate[j]].claim;
    in_use->Add(result.allocations[j]);
    in_flight[claim.metadata.uid] = result.allocations[j];
  }
  // PreBind: allocation and reservation written together, in-flight entry dropped.
  bool binding_conditions = false;
  for (std::size_t i = 0; i < cycle.resolved.size(); ++i) {
    api::ResourceClaim& claim = *cycle.resolved[i].claim;
    auto flight = in_flight.find(claim.metadata.uid);
    if (flight != in_flight.end()) {
      auto& f = claim.metadata.finalizers;
      if (std::find(f.begin(), f.end(), kDeleteProtectionFinalizer) == f.end()) {
        f.push_back(kDeleteProtectionFinalizer);
      }
      claim.status.allocation = std::move(flight->second);
      if (HasBindingConditions(*claim.status.allocation) &&
          claim.status.allocation->allocation_timestamp.IsZero()) {
        claim.status.allocation->allocation_timestamp = api::Time::FromUnix(options.now);
      }
      in_flight.erase(flight);
    }
    if (!ReservedFor(claim, pod.metadata.uid)) {
      claim.status.reserved_for.push_back({"", "pods", pod.metadata.name, pod.metadata.uid});
    }
    binding_conditions |= HasBindingConditions(*claim.status.allocation);
  }
  rec.claims.clear();
  for (const ResolvedClaim& rc : cycle.resolved) rec.claims.push_back(rc.key);

  if (binding_conditions && !AwaitBindingConditions(index, cycle)) return;
  // Bind.
  rec.state = PodState::kBound;
  rec.node = nodes[node].name;
  rec.reason.clear();
  rec.pod.spec.node_name = rec.node;
  rec.pod.status.phase = "Running";
  node_info[node].AddPod(rec.pod, RequestsOf(rec.pod), 1);
  ++stats.bound;
}

// PreBind's wait for the devices' binding conditions. Either the drivers
// never report them met (SchedulerOptions::binding_conditions_met false) and
// the pod runs into the binding timeout, or they report all of them met.
bool Scheduler::Impl::AwaitBindingConditions(std::size_t index, Cycle& cycle) {
  PodRecord& rec = pods[index];
  const api::Pod& pod = rec.pod;
  if (!options.binding_conditions_met) {
    // Binding timeout: Unreserve, and the next cycle's PostFilter frees the
    // allocations nobody else reserves.
    for (ResolvedClaim& rc : cycle.resolved) {
      auto& rf = rc.claim->status.reserved_for;
      rf.erase(std::remove_if(rf.begin(), rf.end(),
                              [&](const api::ResourceClaimConsumerReference& r) {
                                return r.uid == pod.metadata.uid;
                              }),
               rf.end());
      if (rf.empty() && rc.claim->status.allocation) Deallocate(*rc.claim);
    }
    rec.claims.clear();
    rec.state = PodState::kPending;
    rec.reason = "device binding timeout";
    parked.insert(index);
    return false;
  }
  // The drivers report every binding condition as met.
  rec.waited_for_binding_conditions = true;
  for (ResolvedClaim& rc : cycle.resolved) {
    api::ResourceClaim& claim = *rc.claim;
    for (const api::DeviceRequestAllocationResult& r : claim.status.allocation->devices.results) {
      if (r.binding_conditions.empty()) continue;
      api::AllocatedDeviceStatus ds;
      ds.driver = r.driver;
      ds.pool = r.pool;
      ds.device = r.device;
      ds.share_id = r.share_id;
      for (const std::string& cond : r.binding_conditions) {
        api::Condition c;
        c.type = cond;
        c.status = "True";
        c.reason = "Simulated";
        c.last_transition_time = api::Time::FromUnix(options.now);
        ds.conditions.push_back(std::move(c));
      }
      claim.status.devices.push_back(std::move(ds));
    }
  }
  return true;
}

}  // namespace dra::scheduler
