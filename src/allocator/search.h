// The depth-first, first-fit search over claims, requests, subrequests and
// devices in upstream's exact order (spec 4 and 5): combinations within a
// request, backtracking across requests and claims, the TOO-MANY signal of
// the 32-device limit, and admission with in-use marks, shared counters,
// taints and constraints. Bounded by a step budget.
#pragma once

#include <atomic>
#include <cstdint>
#include <string>
#include <unordered_map>
#include <vector>

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
};

class Search {
 public:
  enum class Outcome : std::uint8_t { kSuccess, kFailure, kTooMany, kError };

  Search(const Inventory& inventory, const Scan& scan, const std::vector<ClaimPlan>& plans,
         Selection& selection, std::uint64_t max_steps, const std::atomic<bool>* cancelled);

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
  void Undo(std::size_t c, Index slot);
  bool Busy(Index slot) const;
  bool PickedFor(Index slot, std::size_t c) const;
  bool MultiAllocatable(Index slot) const;
  bool CapacityFitsNow(const Entry& entry, Index slot) const;
  Outcome Fail(std::string message);

  const Inventory& inventory_;
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
