// The depth-first, first-fit search over claims, requests, subrequests and
// devices in upstream's exact order (allocateOne and allocateDevice of
// structured/internal/*/allocator_*.go): combinations within a
// request (permutations for the stable variant), backtracking across requests
// and claims, the TOO-MANY signal of the 32-device limit, and admission with
// in-use marks, shared counters, taints, constraints and capacity. A rejected
// or abandoned candidate leaves no trace: every change its admission made is
// rolled back. Bounded by a step budget.
#pragma once

#include <atomic>
#include <cstdint>
#include <string>
#include <unordered_map>
#include <vector>

#include "allocator/allocated_state.h"
#include "allocator/claim_plan.h"
#include "allocator/constraints.h"
#include "allocator/counters.h"

namespace dra::allocator {

struct Pick {
  const Entry* entry;
  Index device;  // Inventory device
  Index slot;    // its scan slot
  // Shares of multi-allocatable devices (consumable capacity) only.
  std::string share_id;
  CapacityMap consumed;
  // What admission changed, for the rollback.
  bool counters_reserved = false;
  bool marked = false;                  // added to picking_
  bool capacity_recorded = false;       // added to picking_capacity_
  bool capacity_entry_existed = false;  // picking_capacity_ had an entry before
};

class Search {
 public:
  enum class Outcome : std::uint8_t { kSuccess, kFailure, kTooMany, kError };

  Search(const Inventory& inventory, const AllocatedState::Impl& in_use, const Scan& scan,
         const std::vector<ClaimPlan>& plans, Selection& selection, std::uint64_t max_steps,
         const std::atomic<bool>* cancelled);

  Outcome Run();

  const std::string& error() const { return error_; }
  std::uint64_t steps() const { return steps_; }
  // After success: the picks of each claim in result order, and the chosen
  // subrequest of each firstAvailable request.
  const std::vector<std::vector<Pick>>& picks() const { return picks_; }
  const std::vector<std::vector<int>>& selected() const { return selected_; }

 private:
  enum class Admission : std::uint8_t { kAdmitted, kRejected, kError };

  Outcome Step(std::size_t c, std::size_t r, std::size_t s, std::int64_t k, bool in_subrequest,
               std::size_t start);
  // All take scan slots.
  Admission Admit(std::size_t c, const Entry& entry, Index slot, bool must);
  // Reverts what admitting `pick` changed, in reverse order; `constraints`
  // is how many of the claim's constraints accepted it.
  void Rollback(std::size_t c, const Pick& pick, std::size_t constraints);
  void Undo(std::size_t c);
  bool Busy(Index slot) const;
  bool PickedFor(Index slot, std::size_t c) const;
  bool MultiAllocatable(Index slot) const;
  Result<bool> CapacityFitsNow(const Entry& entry, Index slot) const;
  Outcome Fail(std::string message);

  const Inventory& inventory_;
  const AllocatedState::Impl& in_use_;
  const Scan& scan_;
  const std::vector<ClaimPlan>& plans_;
  Selection& selection_;
  CounterLedger counters_;
  const std::uint64_t max_steps_;
  const std::atomic<bool>* cancelled_;

  std::vector<std::vector<std::uint32_t>> picking_;  // per slot: claims picking it
  // Capacity consumed by shares picked in this call, per slot of a multi-allocatable device.
  std::unordered_map<Index, CapacityMap> picking_capacity_;
  std::vector<std::vector<Constraint>> constraints_;  // per claim
  std::vector<std::vector<Pick>> picks_;
  std::vector<std::vector<int>> selected_;
  std::uint64_t steps_ = 0;
  std::string error_;
};

}  // namespace dra::allocator
