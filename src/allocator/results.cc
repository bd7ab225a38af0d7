#include "allocator/results.h"

#include <algorithm>
#include <set>

namespace dra::allocator {
namespace {

api::DeviceRequestAllocationResult DeviceResult(const Inventory& inv, const Pick& pick) {
  const DeviceRecord& rec = inv.devices()[pick.device];
  const PoolName& pool = inv.pool_name(inv.slices()[rec.slice].pool);
  api::DeviceRequestAllocationResult r;
  r.request = pick.entry->name;
  r.driver = pool.driver;
  r.pool = pool.name;
  r.device = inv.device_name(pick.device);
  if (pick.entry->admin_access) r.admin_access = true;
  if (!pick.entry->tolerations->empty()) r.tolerations = *pick.entry->tolerations;
  if (!pick.share_id.empty()) r.share_id = pick.share_id;
  r.consumed_capacity = pick.consumed;
  if (inv.features().device_binding_and_status) {
    const DeviceExtra& x = inv.extra(pick.device);
    r.binding_conditions = x.binding_conditions;
    r.binding_failure_conditions = x.binding_failure_conditions;
  }
  return r;
}

bool SameRequirement(const api::NodeSelectorRequirement& a, const api::NodeSelectorRequirement& b) {
  if (a.key != b.key || a.operator_ != b.operator_) return false;
  return std::set<std::string>(a.values.begin(), a.values.end()) ==
         std::set<std::string>(b.values.begin(), b.values.end());
}

void Merge(api::List<api::NodeSelectorRequirement>& into,
           const api::List<api::NodeSelectorRequirement>& from) {
  for (const auto& r : from) {
    bool seen =
        std::any_of(into.begin(), into.end(), [&](const auto& x) { return SameRequirement(x, r); });
    if (!seen) into.push_back(r);
  }
}

// The claim's node selector: the first device tied to one node (nodeName, or bindsToNode)
// pins the node; otherwise the devices' single-term selectors merge into one term, without
// duplicate requirements, and allNodes devices add nothing.
Result<std::optional<api::NodeSelector>> NodeSelectorFor(const Inventory& inv,
                                                         const std::string& claim,
                                                         const std::vector<Pick>& picks,
                                                         NodeRef node) {
  api::NodeSelectorTerm term;
  for (const Pick& pick : picks) {
    const DeviceRecord& rec = inv.devices()[pick.device];
    const SliceRecord& slice = inv.slices()[rec.slice];
    const DeviceExtra& x = inv.extra(pick.device);
    bool per_device = slice.per_device_node_selection.value_or(false);
    // The node it names, if it names one (possibly "").
    const bool names_node = per_device ? x.node_name.has_value() : slice.node_name.has_value();
    const std::string_view node_name =
        per_device ? (names_node ? std::string_view(*x.node_name) : std::string_view())
                   : slice.node_name.value_or(std::string_view());
    const auto& selector = per_device ? x.node_selector : inv.slice_extra(rec.slice).node_selector;
    // The stable variant ignores bindsToNode and pins the device's own node.
    const bool binds = !inv.stable() && rec.binds_to_node;
    if (names_node || binds) {
      api::NodeSelectorRequirement field;
      field.key = "metadata.name";
      field.operator_ = "In";
      field.values = {inv.stable() ? std::string(node_name) : std::string(node.name())};
      api::NodeSelectorTerm pinned;
      pinned.match_fields.push_back(std::move(field));
      api::NodeSelector out;
      out.node_selector_terms.push_back(std::move(pinned));
      return std::optional<api::NodeSelector>(std::move(out));
    }
    if (!selector) continue;
    const auto& terms = selector->node_selector_terms;
    if (terms.size() > 1) {
      return Error{"create NodeSelector for claim " + claim +
                   ": unsupported ResourceSlice.NodeSelector with " + std::to_string(terms.size()) +
                   " terms"};
    }
    if (terms.size() == 1) {
      Merge(term.match_fields, terms[0].match_fields);
      Merge(term.match_expressions, terms[0].match_expressions);
    }
  }
  if (term.match_expressions.empty() && term.match_fields.empty()) {
    return std::optional<api::NodeSelector>();
  }
  api::NodeSelector out;
  out.node_selector_terms.push_back(std::move(term));
  return std::optional<api::NodeSelector>(std::move(out));
}

// The claim's config: each selected class's config once, naming every request of that class,
// then the claim's configs that apply to a selected request or subrequest. A requests list
// that names every request becomes null (all requests).
api::List<api::DeviceAllocationConfiguration> Configs(const ClaimPlan& plan,
                                                      const std::vector<int>& selected) {
  api::List<api::DeviceAllocationConfiguration> out;
  std::vector<const Entry*> chosen;
  for (std::size_t r = 0; r < plan.requests.size(); ++r) {
    chosen.push_back(&plan.requests[r].entries[static_cast<std::size_t>(selected[r])]);
  }
  std::vector<std::pair<const api::DeviceClass*, std::pair<std::size_t, std::size_t>>> seen;
  for (const Entry* e : chosen) {
    auto it = std::find_if(seen.begin(), seen.end(),
                           [&](const auto& p) { return p.first == e->device_class; });
    if (it != seen.end()) {
      for (std::size_t i = it->second.first; i < it->second.second; ++i) {
        out[i].requests.push_back(e->name);
      }
      continue;
    }
    std::size_t begin = out.size();
    for (const api::DeviceClassConfiguration& c : e->device_class->spec.config) {
      api::DeviceAllocationConfiguration a;
      a.source = "FromClass";
      a.requests.push_back(e->name);
      a.config = c.config;
      out.push_back(std::move(a));
    }
    seen.push_back({e->device_class, {begin, out.size()}});
  }
  for (const api::DeviceClaimConfiguration& c : plan.claim->spec.devices.config) {
    bool applies = c.requests.empty();
    for (std::size_t r = 0; r < chosen.size() && !applies; ++r) {
      for (const std::string& name : c.requests) {
        if (name == chosen[r]->name || name == chosen[r]->request) applies = true;
      }
    }
    if (!applies) continue;
    api::DeviceAllocationConfiguration a;
    a.source = "FromClaim";
    a.requests = c.requests;
    a.config = c.config;
    out.push_back(std::move(a));
  }
  for (api::DeviceAllocationConfiguration& a : out) {
    if (a.requests.empty()) continue;
    bool covers_all = std::all_of(chosen.begin(), chosen.end(), [&](const Entry* e) {
      auto listed = [&](const std::string& n) {
        return std::find(a.requests.begin(), a.requests.end(), n) != a.requests.end();
      };
      return listed(e->request) || listed(e->name);
    });
    if (covers_all) a.requests.set_nil();
  }
  return out;
}

}  // namespace

Result<api::AllocationResult> BuildAllocation(const Inventory& inventory, const ClaimPlan& plan,
                                              const std::vector<Pick>& picks,
                                              const std::vector<int>& selected, NodeRef node) {
  api::AllocationResult result;
  result.devices.results.set_present();
  for (const Pick& p : picks) result.devices.results.push_back(DeviceResult(inventory, p));
  result.devices.config = Configs(plan, selected);
  // Upstream names the claim without its namespace here.
  auto selector = NodeSelectorFor(inventory, plan.claim->metadata.name, picks, node);
  if (!selector.ok()) return selector.failure();
  result.node_selector = std::move(*selector);
  return result;
}

}  // namespace dra::allocator
