#include "allocator/explain.h"

#include <algorithm>

#include "allocator/capacity.h"
#include "allocator/counters.h"
#include "allocator/node_match.h"
#include "allocator/taints.h"

namespace dra::allocator {
namespace {

class Funnel {
 public:
  Funnel(const Inventory& inv, const AllocatedState::Impl& in_use, const Scan& scan,
         Selection& selection, NodeRef node)
      : inv_(inv),
        in_use_(in_use),
        scan_(scan),
        selection_(selection),
        node_(node),
        counters_(inv, in_use) {}

  EntryExplanation Run(const ClaimPlan& plan, const Entry& entry) {
    EntryExplanation x;
    x.claim = plan.display;
    x.request = entry.name;
    x.all_mode = entry.all;
    x.candidates = inv_.devices().size();
    x.removed[static_cast<int>(Stage::kNode)] = x.candidates - scan_.devices.size();
    std::uint64_t of_class = 0;  // visible from the node and matching the class
    for (Index slot = 0; slot < scan_.devices.size(); ++slot) {
      Stage stage;
      if (Rejects(entry, slot, &stage, &x.note)) {
        ++x.removed[static_cast<int>(stage)];
        if (stage != Stage::kBindingConditions && stage != Stage::kClassSelector &&
            stage != Stage::kNode) {
          ++of_class;
        }
      } else {
        ++x.remaining;
        ++of_class;
      }
    }
    if (of_class == 0) {
      x.class_absent_here = true;
      x.drivers_elsewhere = DriversOfClass(entry);
    }
    x.requested = entry.all ? entry.all_slots.size() : static_cast<std::uint64_t>(entry.count);
    std::uint64_t left = x.candidates;
    x.blocking = Stage::kConstraints;
    for (int s = 0; s <= static_cast<int>(Stage::kTaints); ++s) {
      if (x.removed[s] > 0 && left > 0 && left - x.removed[s] == 0) {
        x.blocking = static_cast<Stage>(s);
        return x;
      }
      left -= x.removed[s];
    }
    if (entry.all) {
      // "All" needs every matching device usable: blocked by the first stage
      // that removed a device the selectors matched.
      if (entry.all_slots.empty()) {
        x.blocking = Stage::kCount;
        return x;
      }
      for (Stage s : {Stage::kAllocated, Stage::kCounters, Stage::kTaints}) {
        if (x.removed[static_cast<int>(s)] > 0) {
          x.blocking = s;
          return x;
        }
      }
    } else if (x.remaining < x.requested) {
      x.blocking = Stage::kCount;
    }
    return x;
  }

 private:
  // The drivers with at least one device in the inventory that the entry's
  // DeviceClass selects (a device whose selector fails to evaluate does not
  // count). One match per driver is enough, so a driver is skipped once found.
  std::vector<std::string> DriversOfClass(const Entry& entry) {
    std::vector<std::string> found;
    bool compile_error = false;
    const std::size_t n = inv_.devices().size();
    for (Index d = 0; d < n; ++d) {
      std::string_view driver = inv_.driver(d);
      if (std::find(found.begin(), found.end(), driver) != found.end()) continue;
      bool selected = true;
      for (int id : entry.class_selectors) {
        Result<bool> r = selection_.EvaluateDevice(id, d, &compile_error);
        if (!r.ok() || !*r) {
          selected = false;
          break;
        }
      }
      if (selected) found.emplace_back(driver);
    }
    std::sort(found.begin(), found.end());
    return found;
  }

  bool Rejects(const Entry& entry, Index slot, Stage* stage, std::string* note) {
    const Index d = scan_.devices[slot];
    const Features& f = inv_.features();
    const DeviceRecord& rec = inv_.devices()[d];
    if (!f.device_binding_and_status && rec.has_binding_conditions) {
      *stage = Stage::kBindingConditions;
      return true;
    }
    bool compile_error = false;
    for (int id : entry.class_selectors) {
      Result<bool> r = selection_.Evaluate(id, slot, &compile_error);
      if (!r.ok() && note->empty()) *note = "class selector error: " + r.error();
      if (!r.ok() || !*r) {
        *stage = Stage::kClassSelector;
        return true;
      }
    }
    for (int id : entry.request_selectors) {
      Result<bool> r = selection_.Evaluate(id, slot, &compile_error);
      if (!r.ok() && note->empty()) *note = "request selector error: " + r.error();
      if (!r.ok() || !*r) {
        *stage = Stage::kRequestSelectors;
        return true;
      }
    }
    const DeviceExtra& dev = inv_.extra(d);
    if (inv_.slices()[rec.slice].per_device_node_selection.value_or(false)) {
      Result<bool> m = NodeMatches(dev.node_name, dev.all_nodes, dev.node_selector, node_);
      if (!m.ok() || !*m) {
        *stage = Stage::kNode;
        return true;
      }
    }
    if (in_use_.allocated(d) && !entry.admin_access) {
      *stage = Stage::kAllocated;
      return true;
    }
    if (!dev.consumes_counters.empty() &&
        (!f.partitionable_devices ||
         !counters_.FitsAlone(*scan_.pools[slot], dev.consumes_counters))) {
      *stage = Stage::kCounters;
      return true;
    }
    if (f.consumable_capacity) {
      Result<bool> fits =
          CapacityFits(inv_.table().capacities(d), entry.capacity_requests,
                       in_use_.aggregated_capacity(d), nullptr, f.fractional_capacity_range);
      if (!fits.ok() || !*fits) {
        *stage = Stage::kCapacity;
        return true;
      }
    }
    if (f.device_taints && BlockedByTaints(dev.taints, *entry.tolerations)) {
      *stage = Stage::kTaints;
      return true;
    }
    return false;
  }

  const Inventory& inv_;
  const AllocatedState::Impl& in_use_;
  const Scan& scan_;
  Selection& selection_;
  const NodeRef node_;
  CounterLedger counters_;
};

}  // namespace

Explanation Explain(const Inventory& inventory, const AllocatedState::Impl& in_use,
                    const GatheredPools& pools, const Scan& scan,
                    const std::vector<ClaimPlan>& plans, Selection& selection, NodeRef node) {
  Explanation out;
  out.node = node.name();
  Funnel funnel(inventory, in_use, scan, selection, node);
  const EntryExplanation* first_blocked = nullptr;
  for (const ClaimPlan& plan : plans) {
    for (const RequestPlan& request : plan.requests) {
      for (const Entry& entry : request.entries) out.entries.push_back(funnel.Run(plan, entry));
    }
  }
  for (const EntryExplanation& e : out.entries) {
    if (e.blocking != Stage::kConstraints) {
      first_blocked = &e;
      break;
    }
  }
  // Only the entries that cannot be served are said to block; when each has
  // enough devices alone, the claims' constraints are to blame if there are
  // any, else the requests compete for the same devices.
  bool any_constraints = false;
  for (const ClaimPlan& plan : plans) any_constraints |= !plan.constraints.empty();
  {
    std::size_t i = 0;
    for (const ClaimPlan& plan : plans) {
      for (const RequestPlan& request : plan.requests) {
        for (std::size_t k = 0; k < request.entries.size(); ++k, ++i) {
          EntryExplanation& e = out.entries[i];
          if (first_blocked != nullptr) {
            e.blocks = e.blocking != Stage::kConstraints;
          } else if (any_constraints) {
            e.blocks = !plan.constraints.empty();
          } else {
            e.blocking = Stage::kCount;
          }
        }
      }
    }
  }
  std::size_t unusable = 0;
  for (const Pool& p : pools.pools) unusable += (p.incomplete || p.invalid) ? 1 : 0;
  if (first_blocked != nullptr && first_blocked->class_absent_here) {
    out.summary = "claim " + first_blocked->claim + ", request " + first_blocked->request + ": ";
    if (first_blocked->drivers_elsewhere.empty()) {
      out.summary += "no device in the cluster matches its device class";
    } else {
      out.summary += "no devices of driver ";
      for (std::size_t i = 0; i < first_blocked->drivers_elsewhere.size(); ++i) {
        out.summary += (i == 0 ? "" : " or ") + first_blocked->drivers_elsewhere[i];
      }
      out.summary += " on this node";
    }
  } else if (first_blocked != nullptr) {
    out.summary = "claim " + first_blocked->claim + ", request " + first_blocked->request + ": " +
                  std::to_string(first_blocked->remaining) + " of " +
                  std::to_string(first_blocked->requested) + " devices left after stage " +
                  StageName(first_blocked->blocking);
  } else if (any_constraints) {
    out.summary =
        "every request has enough matching devices, but no combination satisfies the "
        "constraints and all requests together";
  } else {
    out.summary =
        "every request has enough matching devices on its own, but not all requests together";
  }
  if (unusable > 0) {
    out.summary += " (" + std::to_string(unusable) + " pool(s) incomplete or invalid)";
  }
  return out;
}

}  // namespace dra::allocator
