#include "allocator/search.h"

#include <algorithm>

#include "allocator/share_id.h"
#include "allocator/taints.h"

namespace dra::allocator {

Search::Search(const Inventory& inventory, const Scan& scan, const std::vector<ClaimPlan>& plans,
               Selection& selection, std::uint64_t max_steps, const std::atomic<bool>* cancelled)
    : inventory_(inventory),
      scan_(scan),
      plans_(plans),
      selection_(selection),
      counters_(inventory),
      max_steps_(max_steps),
      cancelled_(cancelled),
      picking_(scan.devices.size()),
      constraints_(plans.size()),
      picks_(plans.size()),
      selected_(plans.size()) {
  for (std::size_t c = 0; c < plans.size(); ++c) {
    for (const ConstraintPlan& cp : plans[c].constraints)
      constraints_[c].emplace_back(cp, inventory.features().list_type_attributes);
    selected_[c].assign(plans[c].requests.size(), 0);
  }
}

Search::Outcome Search::Run() { return Step(0, 0, 0, 0, false, 0); }

Search::Outcome Search::Fail(std::string message) {
  error_ = std::move(message);
  return Outcome::kError;
}

bool Search::Busy(Index slot) const {
  return inventory_.devices()[scan_.devices[slot]].allocated || !picking_[slot].empty();
}

bool Search::PickedFor(Index slot, std::size_t c) const {
  const auto& claims = picking_[slot];
  return std::find(claims.begin(), claims.end(), c) != claims.end();
}

bool Search::MultiAllocatable(Index slot) const {
  return inventory_.features().consumable_capacity &&
         inventory_.devices()[scan_.devices[slot]].device->allow_multiple_allocations.value_or(
             false);
}

bool Search::CapacityFitsNow(const Entry& entry, Index slot) const {
  const Index device = scan_.devices[slot];
  auto picked = picking_capacity_.find(slot);
  return CapacityFits(*inventory_.devices()[device].device, entry.capacity_requests,
                      inventory_.aggregated_capacity(device),
                      picked == picking_capacity_.end() ? nullptr : &picked->second);
}

Search::Outcome Search::Step(std::size_t c, std::size_t r, std::size_t s, std::int64_t k,
                             bool in_subrequest, std::size_t start) {
  if (++steps_ > max_steps_) {
    return Fail("allocation search exceeded its budget of " + std::to_string(max_steps_) +
                " steps");
  }
  if (cancelled_ != nullptr && cancelled_->load(std::memory_order_relaxed)) {
    return Fail("filter operation aborted: context canceled");
  }
  if (c == plans_.size()) return Outcome::kSuccess;
  const ClaimPlan& plan = plans_[c];
  if (r == plan.requests.size()) {
    Outcome x = Step(c + 1, 0, 0, 0, false, 0);
    // The size limit is per claim: it never reaches into an earlier claim.
    return x == Outcome::kTooMany ? Outcome::kFailure : x;
  }
  const RequestPlan& request = plan.requests[r];
  if (request.first_available && !in_subrequest) {
    bool all_too_many = true;
    for (std::size_t j = 0; j < request.entries.size(); ++j) {
      Outcome x = Step(c, r, j, k, true, 0);
      if (x == Outcome::kTooMany) continue;
      all_too_many = false;
      if (x == Outcome::kError) return x;
      if (x == Outcome::kSuccess) {
        selected_[c][r] = static_cast<int>(j);
        return x;
      }
    }
    return all_too_many ? Outcome::kTooMany : Outcome::kFailure;
  }
  const Entry& entry = request.entries[s];
  if (entry.all && entry.all_slots.empty()) return Outcome::kFailure;
  if (k >= entry.count) return Step(c, r + 1, 0, 0, false, 0);
  if (static_cast<std::int64_t>(picks_[c].size()) + entry.count - k > kMaxDevicesPerClaim) {
    return Outcome::kTooMany;
  }
  if (entry.all) {
    Index slot = entry.all_slots[static_cast<std::size_t>(k)];
    Admission a = Admit(c, entry, slot, true);
    if (a == Admission::kError) return Outcome::kError;
    if (a == Admission::kRejected) return Outcome::kFailure;
    Outcome x = Step(c, r, s, k + 1, in_subrequest, 0);
    if (x != Outcome::kSuccess) Undo(c, slot);
    return x;
  }
  for (std::size_t q = start; q < scan_.devices.size(); ++q) {
    const Index slot = static_cast<Index>(q);
    if (entry.admin_access ? PickedFor(slot, c) : Busy(slot)) continue;
    Result<bool> selectable = selection_.Selectable(entry, plan.display, slot);
    if (!selectable.ok()) return Fail(selectable.error());
    if (!*selectable) continue;
    if (inventory_.features().consumable_capacity && !CapacityFitsNow(entry, slot)) continue;
    Admission a = Admit(c, entry, slot, false);
    if (a == Admission::kError) return Outcome::kError;
    if (a == Admission::kRejected) continue;
    Outcome x = Step(c, r, s, k + 1, in_subrequest, q + 1);
    if (x == Outcome::kSuccess) return x;
    Undo(c, slot);
    if (x != Outcome::kFailure) return x;
  }
  return Outcome::kFailure;
}

// Spec 5.1, in order. Counters taken by a candidate that taints or
// constraints then reject stay taken, as upstream's do (spec 17.2).
Search::Admission Search::Admit(std::size_t c, const Entry& entry, Index slot, bool must) {
  const Index device = scan_.devices[slot];
  const Features& f = inventory_.features();
  const DeviceRecord& rec = inventory_.devices()[device];
  const api::Device& d = *rec.device;
  const api::ResourceSlice& slice = *inventory_.slices()[rec.slice].slice;
  const bool multi = MultiAllocatable(slot);
  if (!multi && entry.admin_access && PickedFor(slot, c)) return Admission::kRejected;
  if (!entry.admin_access && Busy(slot)) return Admission::kRejected;
  // A shared device pays its counters with its first share only (spec 10.4).
  const bool skip_counters = multi && (inventory_.aggregated_capacity(device) != nullptr ||
                                       picking_capacity_.count(slot) > 0);
  if (!d.consumes_counters.empty() && !f.partitionable_devices) return Admission::kRejected;
  if (!skip_counters && !d.consumes_counters.empty()) {
    if (!counters_.TryConsume(*scan_.pools[slot], d)) {
      return Admission::kRejected;
    }
  }
  if (f.device_taints && BlockedByTaints(d, *entry.tolerations)) return Admission::kRejected;
  auto& constraints = constraints_[c];
  for (std::size_t i = 0; i < constraints.size(); ++i) {
    if (constraints[i].Add(entry, d, slice.spec.driver)) continue;
    if (must) {
      Fail("claim " + plans_[c].display + ", request " + entry.name + ": cannot add device " +
           inventory_.DeviceIdString(device) +
           " because a claim constraint would not be satisfied");
      return Admission::kError;
    }
    for (std::size_t j = 0; j < i; ++j) constraints[j].Remove(entry, d, slice.spec.driver);
    return Admission::kRejected;
  }
  if (!multi) picking_[slot].push_back(static_cast<std::uint32_t>(c));
  Pick pick{&entry, device, slot, {}, {}};
  if (f.consumable_capacity) {
    // Only an All entry can fail here: its devices were listed before earlier
    // picks consumed capacity. Like upstream, nothing above is undone (spec 17.3).
    if (!CapacityFitsNow(entry, slot)) return Admission::kRejected;
    if (multi) {
      pick.consumed = ConsumedCapacity(d, entry.capacity_requests);
      pick.share_id = NewShareId();
      CapacityMap& used = picking_capacity_[slot];
      for (const auto& [name, q] : pick.consumed) used[name] = used[name].Add(q);
    }
  }
  picks_[c].push_back(std::move(pick));
  return Admission::kAdmitted;
}

void Search::Undo(std::size_t c, Index slot) {
  const Index device = scan_.devices[slot];
  const DeviceRecord& rec = inventory_.devices()[device];
  const api::Device& d = *rec.device;
  const api::ResourceSlice& slice = *inventory_.slices()[rec.slice].slice;
  const Entry& entry = *picks_[c].back().entry;
  for (Constraint& constraint : constraints_[c]) constraint.Remove(entry, d, slice.spec.driver);
  if (MultiAllocatable(slot)) {
    // Counters of a share stay charged, as upstream's do (spec 17.4).
    const CapacityMap& consumed = picks_[c].back().consumed;
    if (!consumed.empty()) {
      CapacityMap& used = picking_capacity_[slot];
      bool all_zero = true;
      for (const auto& [name, q] : consumed) {
        used[name] = used[name].Sub(q);
        all_zero = all_zero && used[name].IsZero();
      }
      for (const auto& [name, q] : used) all_zero = all_zero && q.IsZero();
      if (all_zero) picking_capacity_.erase(slot);
    }
  } else {
    auto& claims = picking_[slot];
    claims.erase(std::find(claims.begin(), claims.end(), c));
    if (inventory_.features().partitionable_devices && !d.consumes_counters.empty()) {
      counters_.Release(*scan_.pools[slot], d);
    }
  }
  picks_[c].pop_back();
}

}  // namespace dra::allocator
