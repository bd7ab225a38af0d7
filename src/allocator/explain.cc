#include "allocator/explain.h"

#include "allocator/capacity.h"
#include "allocator/counters.h"
#include "allocator/node_match.h"
#include "allocator/taints.h"

namespace dra::allocator {
namespace {

class Funnel {
 public:
  Funnel(const Inventory& inv, const AllocatedState::Impl& in_use, const Scan& scan,
         Selection& selection, const api::Node& node)
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
    for (Index slot = 0; slot < scan_.devices.size(); ++slot) {
      Stage stage;
      if (Rejects(entry, slot, &stage, &x.note)) {
        ++x.removed[static_cast<int>(stage)];
      } else {
        ++x.remaining;
      }
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
  const api::Node& node_;
  CounterLedger counters_;
};

}  // namespace

Explanation Explain(const Inventory& inventory, const AllocatedState::Impl& in_use,
                    const GatheredPools& pools, const Scan& scan,
                    const std::vector<ClaimPlan>& plans, Selection& selection,
                    const api::Node& node) {
  Explanation out;
  out.node = node.metadata.name;
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
  std::size_t unusable = 0;
  for (const Pool& p : pools.pools) unusable += (p.incomplete || p.invalid) ? 1 : 0;
  if (first_blocked != nullptr) {
    out.summary = "claim " + first_blocked->claim + ", request " + first_blocked->request + ": " +
                  std::to_string(first_blocked->remaining) + " of " +
                  std::to_string(first_blocked->requested) + " devices left after stage " +
                  StageName(first_blocked->blocking);
  } else {
    out.summary =
        "every request has enough matching devices, but no "
        "combination satisfies the "
        "constraints and all requests together";
  }
  if (unusable > 0) {
    out.summary += " (" + std::to_string(unusable) + " pool(s) incomplete or invalid)";
  }
  return out;
}

}  // namespace dra::allocator
