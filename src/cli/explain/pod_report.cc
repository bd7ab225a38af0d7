#include "cli/explain/pod_report.h"

#include <algorithm>
#include <cstdint>
#include <limits>
#include <set>
#include <utility>

#include "allocator/report.h"
#include "dra/allocator/explanation.h"

namespace dra::cli::explain {
namespace {

using json::Value;

Value Str(std::string s) { return Value::String(std::move(s)); }
Value Int(std::uint64_t v) { return Value::Number(std::to_string(v)); }
void Put(Value& obj, std::string key, Value v) {
  obj.members.push_back({std::move(key), std::move(v), {}});
}
Value Strings(const std::vector<std::string>& items) {
  Value out = Value::Array();
  for (const std::string& s : items) out.items.push_back(Str(s));
  return out;
}

// "a, b, c and 4 more" (at most `shown` names).
std::string NameList(const std::vector<std::string>& names, std::size_t shown = 5) {
  std::string out;
  for (std::size_t i = 0; i < names.size() && i < shown; ++i) {
    out += (i == 0 ? "" : ", ") + names[i];
  }
  if (names.size() > shown) out += " and " + std::to_string(names.size() - shown) + " more";
  return out;
}

std::string Join(const std::vector<std::string>& items, const std::string& sep) {
  std::string out;
  for (std::size_t i = 0; i < items.size(); ++i) out += (i == 0 ? "" : sep) + items[i];
  return out;
}

std::string Plural(std::uint64_t n, const std::string& one) {
  return std::to_string(n) + " " + one + (n == 1 ? "" : "s");
}

// Nodes that failed the same way: same reasons and, where DRA rejected
// them, the same explanation apart from the node's name.
struct Group {
  std::vector<std::string> nodes;
  const scheduler::NodeVerdict* first = nullptr;
};

std::string GroupKey(const scheduler::NodeVerdict& n) {
  std::string key = n.feasible ? "1" : "0";
  for (const std::string& r : n.reasons) key += "\x1f" + r;
  if (n.explanation) {
    allocator::Explanation e = *n.explanation;
    e.node.clear();
    key += "\x1e" + json::ToJson(allocator::ExplanationValue(e));
  }
  return key;
}

// How far a DRA-rejected node is from fitting: the devices missing over the
// entries that block (at least one per blocking entry, for constraints).
std::uint64_t Shortfall(const allocator::Explanation& e) {
  std::uint64_t total = 0;
  for (const allocator::EntryExplanation& x : e.entries) {
    if (!x.blocks) continue;
    total += x.requested > x.remaining ? x.requested - x.remaining : 1;
  }
  return total;
}

// The first entry that blocks.
const allocator::EntryExplanation* Blocker(const allocator::Explanation& e) {
  for (const allocator::EntryExplanation& x : e.entries) {
    if (x.blocks) return &x;
  }
  return nullptr;
}

// Whether the blocking entry found no device of its class on the node.
bool ClassAbsent(const allocator::Explanation& e) {
  const allocator::EntryExplanation* x = Blocker(e);
  return x != nullptr && x->class_absent_here;
}

// Who holds devices on `node`: "gpu-2, gpu-3 by default/c (default/p)",
// one entry per holder.
std::vector<std::string> HeldOn(const std::string& node, const ReportContext& ctx) {
  std::map<std::string, std::vector<std::string>> by_holder;
  for (const auto& [id, holders] : ctx.holders) {
    auto slash = id.rfind('/');
    if (slash == std::string::npos) continue;
    auto pool = ctx.pool_nodes.find(id.substr(0, slash));
    if (pool == ctx.pool_nodes.end() || pool->second != node) continue;
    for (const std::string& h : holders) by_holder[h].push_back(id.substr(slash + 1));
  }
  std::vector<std::string> out;
  out.reserve(by_holder.size());
  for (const auto& [holder, devices] : by_holder) {
    out.push_back(Join(devices, ", ") + " by " + holder);
  }
  return out;
}

std::string WhatWouldFit(const std::vector<const scheduler::NodeVerdict*>& closest,
                         const std::map<std::string, int>& histogram, const ReportContext& ctx) {
  if (closest.empty()) {
    std::vector<std::string> counted;
    counted.reserve(histogram.size());
    for (const auto& [reason, count] : histogram) {
      counted.push_back(std::to_string(count) + " " + reason);
    }
    return "no node passes the node filters before DynamicResources (" + Join(counted, ", ") + ")";
  }
  const scheduler::NodeVerdict& best = *closest.front();
  const allocator::EntryExplanation* x = Blocker(*best.explanation);
  if (x == nullptr) return best.explanation->summary;
  std::string what = "claim " + x->claim + ", request " + x->request;
  if (x->class_absent_here) {
    // The closest node has none: neither has any other.
    if (x->drivers_elsewhere.empty()) {
      return what + ": no device in the cluster matches its device class";
    }
    return what + ": no node that passes the other filters has devices of driver " +
           Join(x->drivers_elsewhere, " or ");
  }
  switch (x->blocking) {
    case allocator::Stage::kConstraints:
      return what + ": no node has devices that satisfy the claim's constraints together (" +
             best.node + " came closest)";
    case allocator::Stage::kCount:
      if (x->remaining >= x->requested) {
        return what + ": each request fits alone but not all of them together on one node (" +
               best.node + " came closest)";
      }
      break;
    default:
      break;
  }
  std::string out = what + " needs " + Plural(x->requested, "device") + " on one node";
  if (x->all_mode) out = what + " needs every matching device usable on one node";
  out += "; the most any node has left is " + std::to_string(x->remaining) + " (" + best.node;
  std::vector<std::string> held = HeldOn(best.node, ctx);
  if (!held.empty()) out += "; held there: " + NameList(held, 3);
  return out + ")";
}

Result<Value> AllocationsJson(const scheduler::PodVerdict& v) {
  Value claims = Value::Array();
  for (const auto& [claim, allocation] : v.allocations) {
    Value c = Value::Object();
    Put(c, "claim", Str(claim));
    Result<Value> a = allocator::AllocationResultJson(allocation);
    if (!a.ok()) return a.failure();
    Put(c, "allocation", std::move(*a));
    claims.items.push_back(std::move(c));
  }
  return claims;
}

std::string AllocationsText(const scheduler::PodVerdict& v) {
  std::string out;
  for (const auto& [claim, allocation] : v.allocations) {
    out += "  claim " + claim + ":\n";
    std::map<std::string, std::vector<std::string>> by_request;
    std::vector<std::string> order;
    for (const api::DeviceRequestAllocationResult& r : allocation.devices.results) {
      if (!by_request.contains(r.request)) order.push_back(r.request);
      std::string id = r.driver + "/" + r.pool + "/" + r.device;
      if (r.share_id) id += " (share " + *r.share_id + ")";
      if (r.admin_access.value_or(false)) id += " (admin access)";
      by_request[r.request].push_back(std::move(id));
    }
    for (const std::string& request : order) {
      out += "    request " + request + ": " + Join(by_request[request], ", ") + "\n";
    }
  }
  return out;
}

// The pod, its verdict and node, and kube-scheduler's and the cluster's messages.
void AddHeader(const scheduler::PodVerdict& v, const ReportContext& ctx, Value& doc,
               std::string& text) {
  const std::string pod = v.namespace_ + "/" + v.name;
  Put(doc, "pod", Str(pod));
  Put(doc, "verdict", Str(scheduler::VerdictName(v.verdict)));
  Put(doc, "node", v.node.empty() ? Value() : Str(v.node));
  text = "Pod " + pod + ": " + scheduler::VerdictName(v.verdict);
  if (!v.node.empty()) {
    text += v.verdict == scheduler::Verdict::kScheduled ? " on node " : ": fits on node ";
    text += v.node;
  }
  text += "\n";
  if (!v.message.empty()) {
    Put(doc, "message", Str(v.message));
    text += "  kube-scheduler: " + v.message + "\n";
  }
  if (ctx.cluster_condition && ctx.cluster_condition->status == "False") {
    Put(doc, "clusterMessage", Str(ctx.cluster_condition->message));
    text += "  the cluster's PodScheduled condition: " + ctx.cluster_condition->reason + ": " +
            ctx.cluster_condition->message + "\n";
  }
}

// The node verdicts of a pod: grouped (feasible groups first, then the
// largest), how often each reason came up, those DRA rejected and those that fit.
struct NodeTally {
  std::vector<Group> groups;
  std::map<std::string, int> histogram;
  std::vector<const scheduler::NodeVerdict*> dra_rejected;
  std::vector<std::string> feasible;
};

NodeTally TallyNodes(const scheduler::PodVerdict& v) {
  NodeTally t;
  std::map<std::string, std::size_t> group_of;
  for (const scheduler::NodeVerdict& n : v.nodes) {
    auto [it, inserted] = group_of.emplace(GroupKey(n), t.groups.size());
    if (inserted) t.groups.push_back({{}, &n});
    t.groups[it->second].nodes.push_back(n.node);
    for (const std::string& r : n.reasons) ++t.histogram[r];
    if (n.explanation) t.dra_rejected.push_back(&n);
    if (n.feasible) t.feasible.push_back(n.node);
  }
  std::stable_sort(t.groups.begin(), t.groups.end(), [](const Group& a, const Group& b) {
    if (a.first->feasible != b.first->feasible) return a.first->feasible;
    return a.nodes.size() > b.nodes.size();
  });
  return t;
}

// An explanation's text without its own first line ("unschedulable on node
// ..."), each line indented by two spaces.
std::string ExplanationDetail(const allocator::Explanation& e) {
  std::string out;
  std::string lines = allocator::ExplanationText(e);
  std::size_t nl = lines.find('\n');
  if (nl == std::string::npos) return out;
  std::string rest = lines.substr(nl + 1);
  std::size_t pos = 0;
  while (pos < rest.size()) {
    std::size_t end = rest.find('\n', pos);
    if (end == std::string::npos) end = rest.size();
    out += "  " + rest.substr(pos, end - pos) + "\n";
    pos = end + 1;
  }
  return out;
}

// One entry per group of nodes; appends the "Nodes:" section to `text`.
Value NodeGroups(const std::vector<Group>& groups, std::string& text) {
  Value nodes = Value::Array();
  if (!groups.empty()) text += "Nodes:\n";
  for (const Group& g : groups) {
    Value j = Value::Object();
    if (g.nodes.size() == 1) {
      Put(j, "node", Str(g.nodes.front()));
    } else {
      Put(j, "nodes", Strings(g.nodes));
    }
    Put(j, "feasible", Value::Bool(g.first->feasible));
    if (!g.first->reasons.empty()) Put(j, "reasons", Strings(g.first->reasons));
    text += "  " + NameList(g.nodes);
    if (g.nodes.size() > 1) text += " (" + Plural(g.nodes.size(), "node") + ")";
    text += ": " + (g.first->feasible ? std::string("fits") : Join(g.first->reasons, ", ")) + "\n";
    if (g.first->explanation) {
      allocator::Explanation e = *g.first->explanation;
      Put(j, "explanation", allocator::ExplanationValue(e));
      text += ExplanationDetail(e);
    }
    nodes.items.push_back(std::move(j));
  }
  return nodes;
}

// The (at most 3) DRA-rejected nodes that came closest, fewest devices
// missing first. Nodes without any device of the class come last, and only
// when no other node is left.
void KeepClosest(std::vector<const scheduler::NodeVerdict*>& dra_rejected) {
  auto absent = [](const scheduler::NodeVerdict* n) { return ClassAbsent(*n->explanation); };
  std::stable_sort(dra_rejected.begin(), dra_rejected.end(),
                   [&](const scheduler::NodeVerdict* a, const scheduler::NodeVerdict* b) {
                     return Distance(*a->explanation) < Distance(*b->explanation);
                   });
  if (!dra_rejected.empty() && !absent(dra_rejected.front())) {
    std::erase_if(dra_rejected, absent);
  }
  if (dra_rejected.size() > 3) dra_rejected.resize(3);
}

// The closest nodes and who holds devices on the closest one.
void AddClosest(const std::vector<const scheduler::NodeVerdict*>& closest_nodes,
                const ReportContext& ctx, Value& doc, std::string& text) {
  Value closest = Value::Array();
  if (!closest_nodes.empty()) {
    std::vector<std::string> names;
    for (const scheduler::NodeVerdict* n : closest_nodes) {
      Value c = Value::Object();
      Put(c, "node", Str(n->node));
      Put(c, "missingDevices", Int(Shortfall(*n->explanation)));
      Put(c, "summary", Str(n->explanation->summary));
      closest.items.push_back(std::move(c));
      names.push_back(n->node + " (" + n->explanation->summary + ")");
    }
    text += "Closest: " + Join(names, "; ") + "\n";
    std::vector<std::string> held = HeldOn(closest_nodes.front()->node, ctx);
    Put(doc, "heldOnClosest", Strings(held));
    if (!held.empty()) {
      text += "Held on " + closest_nodes.front()->node + ": " + NameList(held, 8) + "\n";
    }
  }
  Put(doc, "closest", std::move(closest));
}

std::string ScheduledSummary(const scheduler::PodVerdict& v,
                             const std::vector<std::string>& feasible) {
  std::string summary = "bound to " + v.node;
  auto own = std::find_if(v.nodes.begin(), v.nodes.end(),
                          [&](const scheduler::NodeVerdict& n) { return n.node == v.node; });
  if (own != v.nodes.end() && own->feasible) {
    summary += ", one of " + Plural(feasible.size(), "node") + " that fit it";
  } else if (own != v.nodes.end()) {
    summary += ", which would not fit it now (" + Join(own->reasons, ", ") + ")";
  }
  if (!v.allocations.empty()) {
    summary +=
        "; the allocator gives each request the first devices, in pool and slice order, "
        "that its class and selectors accept and that are free when it is scheduled";
  }
  return summary;
}

std::string Summary(const scheduler::PodVerdict& v, const NodeTally& t, const ReportContext& ctx) {
  switch (v.verdict) {
    case scheduler::Verdict::kScheduled:
      return ScheduledSummary(v, t.feasible);
    case scheduler::Verdict::kSchedulable:
      return "fits now on " + Plural(t.feasible.size(), "node") + " (" + NameList(t.feasible, 3) +
             "); kube-scheduler would pick " + v.node;
    case scheduler::Verdict::kUnschedulable:
      return v.rejected_before_filter ? v.message : WhatWouldFit(t.dra_rejected, t.histogram, ctx);
  }
  return "";
}

}  // namespace

void CollectHolders(const scheduler::Scheduler& sched, ReportContext& ctx) {
  for (const api::ResourceClaim* claim : sched.Claims()) {
    if (!claim->status.allocation) continue;
    std::string holder = claim->metadata.namespace_ + "/" + claim->metadata.name;
    std::vector<std::string> pods;
    for (const api::ResourceClaimConsumerReference& r : claim->status.reserved_for) {
      if (r.resource == "pods") pods.push_back(claim->metadata.namespace_ + "/" + r.name);
    }
    if (!pods.empty()) holder += " (" + Join(pods, ", ") + ")";
    for (const api::DeviceRequestAllocationResult& r : claim->status.allocation->devices.results) {
      if (r.admin_access.value_or(false)) continue;
      ctx.holders[r.driver + "/" + r.pool + "/" + r.device].push_back(holder);
    }
  }
}

Result<PodReport> BuildPodReport(const scheduler::PodVerdict& v, const ReportContext& ctx) {
  PodReport out;
  Value doc = Value::Object();
  std::string& text = out.text;
  AddHeader(v, ctx, doc, text);
  NodeTally t = TallyNodes(v);
  Put(doc, "nodes", NodeGroups(t.groups, text));
  KeepClosest(t.dra_rejected);
  if (v.verdict == scheduler::Verdict::kUnschedulable) AddClosest(t.dra_rejected, ctx, doc, text);

  if (!v.allocations.empty()) {
    Result<Value> claims = AllocationsJson(v);
    if (!claims.ok()) return claims.failure();
    Put(doc, "claims", std::move(*claims));
    text += v.verdict == scheduler::Verdict::kScheduled ? "Devices:\n" : "Devices it would get:\n";
    text += AllocationsText(v);
  }

  std::string summary = Summary(v, t, ctx);
  Put(doc, "summary", Str(summary));
  text += "Summary: " + summary + "\n";
  out.json = std::move(doc);
  return out;
}

std::uint64_t Distance(const allocator::Explanation& explanation) {
  constexpr std::uint64_t kAbsent = std::uint64_t{1} << 63;
  return (ClassAbsent(explanation) ? kAbsent : 0) | std::min(Shortfall(explanation), kAbsent - 1);
}

std::vector<const scheduler::NodeVerdict*> ClosestNodes(const scheduler::PodVerdict& verdict) {
  std::vector<const scheduler::NodeVerdict*> dra_rejected;
  for (const scheduler::NodeVerdict& n : verdict.nodes) {
    if (n.explanation) dra_rejected.push_back(&n);
  }
  KeepClosest(dra_rejected);
  return dra_rejected;
}

}  // namespace dra::cli::explain
