#include "allocator/search.h"

#include <algorithm>

#include "allocator/share_id.h"
#include "allocator/taints.h"

namespace dra::allocator {

Search::Search(const Inventory& inventory, const AllocatedState::Impl& in_use, const Scan& scan,
               const std::vector<ClaimPlan>& plans, Selection& selection, std::uint64_t max_steps,
               const std::atomic<bool>* cancelled)
    : inventory_(inventory),
      in_use_(in_use),
      scan_(scan),
      plans_(plans),
      selection_(selection),
      counters_(inventory, in_use),
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
  return in_use_.allocated(scan_.devices[slot]) || !picking_[slot].empty();
}

bool Search::PickedFor(Index slot, std::size_t c) const {
  const auto& claims = picking_[slot];
  return std::find(claims.begin(), claims.end(), c) != claims.end();
}

bool Search::MultiAllocatable(Index slot) const {
  return inventory_.features().consumable_capacity &&
         inventory_.devices()[scan_.devices[slot]].allow_multiple_allocations;
}

Result<bool> Search::CapacityFitsNow(const Entry& entry, Index slot) const {
  const Index device = scan_.devices[slot];
  auto picked = picking_capacity_.find(slot);
  return CapacityFits(inventory_.table().capacities(device), entry.capacity_requests,
                      in_use_.aggregated_capacity(device),
                      picked == picking_capacity_.end() ? nullptr : &picked->second,
                      inventory_.features().fractional_capacity_range);
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
  // Written so that a huge count cannot overflow.
  if (entry.count - k > kMaxDevicesPerClaim - static_cast<std::int64_t>(picks_[c].size())) {
    return Outcome::kTooMany;
  }
  if (entry.all) {
    Index slot = entry.all_slots[static_cast<std::size_t>(k)];
    Admission a = Admit(c, entry, slot, true);
    if (a == Admission::kError) return Outcome::kError;
    if (a == Admission::kRejected) return Outcome::kFailure;
    Outcome x = Step(c, r, s, k + 1, in_subrequest, 0);
    if (x != Outcome::kSuccess) Undo(c);
    return x;
  }
  for (std::size_t q = start; q < scan_.devices.size(); ++q) {
    const Index slot = static_cast<Index>(q);
    if (entry.admin_access ? PickedFor(slot, c) : Busy(slot)) continue;
    Result<bool> selectable = selection_.Selectable(entry, plan.display, slot);
    if (!selectable.ok()) return Fail(selectable.error());
    if (!*selectable) continue;
    if (inventory_.features().consumable_capacity) {
      Result<bool> fits = CapacityFitsNow(entry, slot);
      if (!fits.ok()) {
        return Fail("claim " + plan.display + ", request " + entry.own_name +
                    ": checking capacity for device " +
                    inventory_.DeviceIdString(scan_.devices[slot]) + ": " + fits.error());
      }
      if (!*fits) continue;
    }
    Admission a = Admit(c, entry, slot, false);
    if (a == Admission::kError) return Outcome::kError;
    if (a == Admission::kRejected) continue;
    // The stable variant searches permutations: every further device of the
    // request rescans from the first (picked ones are busy and skipped).
    Outcome x = Step(c, r, s, k + 1, in_subrequest, inventory_.stable() ? 0 : q + 1);
    if (x == Outcome::kSuccess) return x;
    Undo(c);
    if (x != Outcome::kFailure) return x;
  }
  return Outcome::kFailure;
}

// Admission in upstream's order (allocateDevice): busy checks, counter support, shared
// counters, taints, constraints, the in-use mark, capacity. Every rejection after the counter
// check rolls back what admission had changed so far.
Search::Admission Search::Admit(std::size_t c, const Entry& entry, Index slot, bool must) {
  const Index device = scan_.devices[slot];
  const Features& f = inventory_.features();
  const DeviceRecord& rec = inventory_.devices()[device];
  const DeviceExtra& d = inventory_.extra(device);
  const bool multi = MultiAllocatable(slot);
  if (!multi && entry.admin_access && PickedFor(slot, c)) return Admission::kRejected;
  if (!entry.admin_access && Busy(slot)) return Admission::kRejected;
  if (rec.consumes_counters && !f.partitionable_devices) return Admission::kRejected;
  Pick pick{&entry, device, slot, {}, {}};
  // A shared device pays its counters with its first share only; later shares of it, in this
  // call or already allocated, consume nothing more (KEP-5075).
  const bool skip_counters =
      multi && (in_use_.capacity_in_use(device) || picking_capacity_.count(slot) > 0);
  if (!skip_counters && rec.consumes_counters) {
    if (!counters_.TryConsume(*scan_.pools[slot], d.consumes_counters)) {
      return Admission::kRejected;
    }
    pick.counters_reserved = true;
  }
  if (f.device_taints && BlockedByTaints(d.taints, *entry.tolerations)) {
    Rollback(c, pick, 0);
    return Admission::kRejected;
  }
  auto& constraints = constraints_[c];
  for (std::size_t i = 0; i < constraints.size(); ++i) {
    if (constraints[i].Add(entry, inventory_, device)) continue;
    Rollback(c, pick, i);
    if (must) {
      Fail("claim " + plans_[c].display + ", request " + entry.own_name + ": cannot add device " +
           inventory_.DeviceIdString(device) +
           " because a claim constraint would not be satisfied");
      return Admission::kError;
    }
    return Admission::kRejected;
  }
  if (!multi) {
    picking_[slot].push_back(static_cast<std::uint32_t>(c));
    pick.marked = true;
  }
  if (f.consumable_capacity) {
    // Only an All entry can fail here: its devices were listed before
    // earlier picks and claims in use were taken into account.
    const std::string failing = "claim " + plans_[c].display + ", request " + entry.own_name;
    Result<bool> fits = CapacityFitsNow(entry, slot);
    if (!fits.ok() || !*fits) {
      Rollback(c, pick, constraints.size());
      if (fits.ok()) return Admission::kRejected;
      Fail(failing + ": rechecking capacity for device " + inventory_.DeviceIdString(device) +
           ": " + fits.error());
      return Admission::kError;
    }
    if (multi) {
      Result<CapacityMap> consumed =
          ConsumedCapacity(inventory_.table().capacities(device), entry.capacity_requests,
                           f.fractional_capacity_range);
      if (!consumed.ok()) {
        Rollback(c, pick, constraints.size());
        Fail(failing + ": computing consumed capacity for device " +
             inventory_.DeviceIdString(device) + ": " + consumed.error());
        return Admission::kError;
      }
      pick.consumed = std::move(*consumed);
      pick.share_id = NewShareId();
      auto [it, inserted] = picking_capacity_.try_emplace(slot);
      pick.capacity_entry_existed = !inserted;
      pick.capacity_recorded = true;
      for (const auto& [name, q] : pick.consumed) it->second[name] = it->second[name].Add(q);
    }
  }
  picks_[c].push_back(std::move(pick));
  return Admission::kAdmitted;
}

void Search::Rollback(std::size_t c, const Pick& pick, std::size_t constraints) {
  if (pick.capacity_recorded) {
    CapacityMap& used = picking_capacity_[pick.slot];
    for (const auto& [name, q] : pick.consumed) used[name] = used[name].Sub(q);
    bool all_zero = true;
    for (const auto& [name, q] : used) all_zero = all_zero && q.IsZero();
    // An entry that an earlier share created stays, even when empty: it
    // marks the device as shared in this call (no second counter charge).
    if (all_zero) {
      if (pick.capacity_entry_existed) {
        used.clear();
      } else {
        picking_capacity_.erase(pick.slot);
      }
    }
  }
  if (pick.marked) {
    auto& claims = picking_[pick.slot];
    claims.erase(std::find(claims.begin(), claims.end(), c));
  }
  auto& list = constraints_[c];
  for (std::size_t i = constraints; i-- > 0;) list[i].Remove(*pick.entry);
  if (pick.counters_reserved) {
    counters_.Release(*scan_.pools[pick.slot], inventory_.extra(pick.device).consumes_counters);
  }
}

void Search::Undo(std::size_t c) {
  Pick pick = std::move(picks_[c].back());
  picks_[c].pop_back();
  Rollback(c, pick, constraints_[c].size());
}

}  // namespace dra::allocator
