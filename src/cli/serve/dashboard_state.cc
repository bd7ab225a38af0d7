// ComputeState: one pass over the pools for devices, counters and capacity,
// one over the claims, and one simulated scheduling round for the waiting
// pods.
#include "cli/serve/dashboard_state.h"

#include <algorithm>
#include <chrono>
#include <ctime>
#include <memory>
#include <optional>
#include <set>
#include <string_view>
#include <tuple>
#include <unordered_map>
#include <utility>

#include "cli/explain/pod_report.h"
#include "cli/get/cluster_index.h"
#include "dra/allocator/allocator.h"
#include "dra/allocator/explanation.h"
#include "dra/cel/api_device_view.h"
#include "dra/cel/device_view.h"
#include "dra/cel/program.h"
#include "dra/scheduler/scheduler.h"

namespace dra::cli::serve {
namespace {

// The value of the first string attribute named `name` in any domain.
std::string StringAttribute(const api::Device& device, std::string_view name) {
  for (const auto& [key, attribute] : device.attributes) {
    std::string_view base = key;
    if (auto slash = base.rfind('/'); slash != std::string_view::npos)
      base = base.substr(slash + 1);
    if (base == name && attribute.string_value) return *attribute.string_value;
  }
  return {};
}

std::string NodeOf(const api::ResourceSlice& slice, const api::Device& device) {
  const std::optional<std::string>& name = slice.spec.per_device_node_selection.value_or(false)
                                               ? device.node_name
                                               : slice.spec.node_name;
  return name.value_or("");
}

std::string TaintText(const api::DeviceTaint& t) {
  return t.key + (t.value.empty() ? "" : "=" + t.value) + ":" + t.effect;
}

// Holders, taints and capacity of one device; state and counters are the
// caller's.
DeviceCell MakeCell(const get::PoolSlices& pool, const api::ResourceSlice& slice,
                    const api::Device& device, const get::AllocationIndex& allocations,
                    const get::TaintIndex& taints) {
  DeviceCell cell;
  cell.driver = pool.driver;
  cell.pool = pool.pool;
  cell.name = device.name;
  cell.node = NodeOf(slice, device);
  if (cell.node.empty()) cell.reach = get::NodeColumn(slice, &device);
  cell.uuid = StringAttribute(device, "uuid");
  cell.product = StringAttribute(device, "productName");
  if (cell.product.empty()) cell.product = StringAttribute(device, "model");
  if (!device.consumes_counters.empty()) cell.counter_set = device.consumes_counters[0].counter_set;
  cell.shared = device.allow_multiple_allocations.value_or(false);
  if (cell.shared) {
    for (const auto& [name, capacity] : device.capacity) {
      // Zero in the total's format, so sums print as the total does ("10Gi").
      cell.capacity[name] = Use{capacity.value, capacity.value.Sub(capacity.value)};
    }
  }
  std::set<std::string> claim_names, pod_names;
  bool allocated = false;
  for (const get::AllocationRef& a : allocations.Find(pool.driver, pool.pool, device.name)) {
    const std::string claim = get::QualifiedName(a.claim->metadata);
    claim_names.insert(claim);
    for (const api::ResourceClaimConsumerReference& r : a.claim->status.reserved_for) {
      if (r.resource == "pods") pod_names.insert(a.claim->metadata.namespace_ + "/" + r.name);
    }
    if (a.admin_access()) continue;
    allocated = true;
    for (const auto& [name, q] : a.result->consumed_capacity) {
      auto it = cell.capacity.find(name);
      if (it != cell.capacity.end()) it->second.consumed = it->second.consumed.Add(q);
    }
  }
  cell.claims.assign(claim_names.begin(), claim_names.end());
  cell.pods.assign(pod_names.begin(), pod_names.end());
  bool tainted = false;
  for (const get::RowTaint& t : taints.TaintsOf(slice, device)) {
    cell.taints.push_back(TaintText(*t.taint));
    tainted = tainted || t.taint->effect == "NoSchedule" || t.taint->effect == "NoExecute";
  }
  cell.state = allocated ? DeviceState::kAllocated
               : tainted ? DeviceState::kTainted
                         : DeviceState::kFree;
  return cell;
}

void AddUse(std::map<std::string, Use>& into, const std::string& name, const Use& use) {
  auto [it, inserted] = into.try_emplace(name, use);
  if (!inserted) {
    it->second.total = it->second.total.Add(use.total);
    it->second.consumed = it->second.consumed.Add(use.consumed);
  }
}

// A DeviceClass's compiled CEL selectors.
struct ClassMatcher {
  std::string name;
  std::vector<std::shared_ptr<const cel::Program>> programs;

  // As the allocator evaluates a class: every selector must accept, and a
  // device whose attributes CEL cannot take matches none.
  bool Matches(const api::Device& device, const std::string& driver) const {
    cel::ApiDeviceView view(device, driver);
    if (!programs.empty() && !cel::ValidateDeviceAttributes(view).ok()) return false;
    for (const auto& p : programs) {
      Result<bool> r = p->Evaluate(view);
      if (!r.ok() || !*r) return false;
    }
    return true;
  }
};

std::vector<ClassMatcher> CompileClasses(const scheduler::Cluster& cluster, DashboardState& out) {
  std::vector<ClassMatcher> matchers;
  for (const api::DeviceClass& c : cluster.classes) {
    ClassMatcher m{c.metadata.name, {}};
    bool usable = true;
    for (const api::DeviceSelector& s : c.spec.selectors) {
      if (!s.cel) continue;
      cel::Compilation compiled = cel::Compile(s.cel->expression);
      if (!compiled.ok()) {
        out.warnings.push_back("deviceclass \"" + c.metadata.name +
                               "\": a selector does not compile: " + compiled.error.detail);
        usable = false;
        break;
      }
      m.programs.push_back(compiled.program);
    }
    out.classes[c.metadata.name];  // listed even when it matches nothing
    if (usable) matchers.push_back(std::move(m));
  }
  return matchers;
}

void ComputeDevices(const scheduler::Cluster& cluster, DashboardState& out) {
  const std::vector<ClassMatcher> classes = CompileClasses(cluster, out);
  get::AllocationIndex allocations(cluster.claims);
  get::TaintIndex taints(cluster.taint_rules);
  for (const get::PoolSlices& pool : get::GroupPools(cluster.slices)) {
    get::CounterLedger ledger = get::PoolCounters(pool);
    const std::size_t first = out.devices.size();
    for (const api::ResourceSlice* slice : pool.slices) {
      for (const api::Device& device : slice->spec.devices) {
        out.devices.push_back(MakeCell(pool, *slice, device, allocations, taints));
        if (out.devices.back().state == DeviceState::kAllocated) get::Consume(ledger, device);
      }
    }
    PoolSummary summary;
    summary.driver = pool.driver;
    summary.pool = pool.pool;
    summary.complete = pool.complete();
    std::size_t i = first;
    for (const api::ResourceSlice* slice : pool.slices) {
      for (const api::Device& device : slice->spec.devices) {
        DeviceCell& cell = out.devices[i++];
        if (cell.state == DeviceState::kFree) {
          cell.blocked_by_counters = !get::FitsCounters(ledger, device, &cell.partially_consumed);
        }
        if (summary.node.empty() && !cell.node.empty()) summary.node = cell.node;
        summary.devices.Count(cell);
        for (const ClassMatcher& m : classes) {
          if (m.Matches(device, cell.driver)) out.classes[m.name].Count(cell);
        }
        for (const auto& [name, use] : cell.capacity) AddUse(summary.capacity, name, use);
      }
    }
    for (const auto& [set, counters] : ledger) {
      for (const auto& [name, use] : counters) AddUse(summary.counters, name, use);
    }
    out.pools.push_back(std::move(summary));
  }
  std::sort(out.devices.begin(), out.devices.end(), [](const DeviceCell& a, const DeviceCell& b) {
    return std::make_tuple(a.node.empty(), std::cref(a.node), std::cref(a.driver),
                           std::cref(a.pool), std::cref(a.name)) <
           std::make_tuple(b.node.empty(), std::cref(b.node), std::cref(b.driver),
                           std::cref(b.pool), std::cref(b.name));
  });
}

void ComputeNodes(const scheduler::Cluster& cluster, DashboardState& out) {
  std::map<std::string, NodeSummary> nodes;
  for (const api::Node& n : cluster.nodes) nodes[n.metadata.name].name = n.metadata.name;
  for (const DeviceCell& cell : out.devices) {
    out.total.Count(cell);
    if (cell.node.empty()) continue;
    NodeSummary& n = nodes[cell.node];
    n.name = cell.node;
    n.devices.Count(cell);
  }
  for (auto& [name, n] : nodes) out.nodes.push_back(std::move(n));
}

// Claims by state, and one join row per allocated device and reserving pod.
void ComputeClaims(const scheduler::Cluster& cluster, DashboardState& out) {
  std::unordered_map<std::string, std::string> device_nodes;
  std::unordered_map<std::string, std::string> device_uuids;
  for (const DeviceCell& cell : out.devices) {
    const std::string key = cell.driver + "/" + cell.pool + "/" + cell.name;
    device_nodes[key] = cell.node;
    if (!cell.uuid.empty()) device_uuids[key] = cell.uuid;
  }
  for (const api::ResourceClaim& claim : cluster.claims) {
    ClaimCounts& counts = out.claims[claim.metadata.namespace_];
    const auto& allocation = claim.status.allocation;
    if (!allocation) {
      ++counts.pending;
      continue;
    }
    if (!claim.metadata.deletion_timestamp.IsZero()) {
      ++counts.deallocating;
    } else if (!claim.status.reserved_for.empty()) {
      ++counts.reserved;
    } else {
      ++counts.allocated;
    }
    for (const api::ResourceClaimConsumerReference& r : claim.status.reserved_for) {
      if (r.resource != "pods") continue;
      for (const api::DeviceRequestAllocationResult& d : allocation->devices.results) {
        const std::string key = d.driver + "/" + d.pool + "/" + d.device;
        PodDevice row{claim.metadata.namespace_,
                      r.name,
                      claim.metadata.name,
                      d.request,
                      d.driver,
                      d.pool,
                      d.device,
                      {},
                      {}};
        if (auto it = device_nodes.find(key); it != device_nodes.end()) row.node = it->second;
        if (auto it = device_uuids.find(key); it != device_uuids.end()) row.uuid = it->second;
        out.pod_devices.push_back(std::move(row));
      }
    }
  }
  std::sort(out.pod_devices.begin(), out.pod_devices.end(),
            [](const PodDevice& a, const PodDevice& b) {
              return std::tie(a.namespace_, a.pod, a.claim, a.request, a.device) <
                     std::tie(b.namespace_, b.pod, b.claim, b.request, b.device);
            });
}

// How many node evaluations a state spends on finding the closest node of
// waiting pods (2 pods on 5,000 nodes; 20 on 500).
constexpr std::int64_t kClosestNodeBudget = 10'000;

bool Finished(const api::Pod& pod) {
  return pod.status.phase == "Succeeded" || pod.status.phase == "Failed";
}

bool UsesDra(const api::Pod& pod) {
  return !pod.spec.resource_claims.empty() || pod.status.extended_resource_claim_status;
}

// "namespace/name" of the claims the pod names, directly or (for a template)
// through its status once the claim controller has created the claim.
std::vector<std::string> PodClaims(const api::Pod& pod) {
  std::vector<std::string> out;
  for (const api::PodResourceClaim& c : pod.spec.resource_claims) {
    std::optional<std::string> name = c.resource_claim_name;
    if (!name) {
      for (const api::PodResourceClaimStatus& st : pod.status.resource_claim_statuses) {
        if (st.name == c.name) name = st.resource_claim_name;
      }
    }
    if (name) out.push_back(pod.metadata.namespace_ + "/" + *name);
  }
  return out;
}

std::string PodScheduledMessage(const api::Pod& pod) {
  for (const api::PodCondition& c : pod.status.conditions) {
    if (c.type == "PodScheduled" && c.status == "False") return c.message;
  }
  return {};
}

std::string PodKey(const api::Pod& pod) {
  return pod.metadata.namespace_ + "/" + pod.metadata.name;
}

// Unscheduled, unfinished pods that use DRA, by namespace/name.
std::vector<const api::Pod*> Waiting(const scheduler::Cluster& cluster) {
  std::vector<const api::Pod*> waiting;
  for (const api::Pod& pod : cluster.pods) {
    if (pod.spec.node_name.empty() && !Finished(pod) && UsesDra(pod)) waiting.push_back(&pod);
  }
  std::sort(waiting.begin(), waiting.end(), [](const api::Pod* a, const api::Pod* b) {
    return std::tie(a->metadata.namespace_, a->metadata.name) <
           std::tie(b->metadata.namespace_, b->metadata.name);
  });
  return waiting;
}

// Where `why` leaves the pod: the stage that blocks it, and the explanation.
void Explain(const allocator::Explanation& why, PendingPod& p) {
  p.node = why.node;
  p.explanation = allocator::ExplanationText(why);
  p.explanation_json = allocator::ExplanationValue(why);
  p.stage = "count";
  for (const allocator::EntryExplanation& e : why.entries) {
    if (e.blocks) {
      p.stage = allocator::StageName(e.blocking);
      break;
    }
  }
}

// The waiting pods, with the explanations of `explained` where it has the
// pod, and kube-scheduler's current message.
void ComputePending(const scheduler::Cluster& cluster, const std::vector<PendingPod>& explained,
                    DashboardState& out) {
  std::unordered_map<std::string, const PendingPod*> known;
  for (const PendingPod& p : explained) known[p.namespace_ + "/" + p.name] = &p;
  for (const api::Pod* pod : Waiting(cluster)) {
    PendingPod p;
    if (auto it = known.find(PodKey(*pod)); it != known.end()) {
      p = *it->second;
    } else {
      p.namespace_ = pod->metadata.namespace_;
      p.name = pod->metadata.name;
      p.stage = "unexplained";
    }
    p.claims = PodClaims(*pod);
    if (std::string message = PodScheduledMessage(*pod); !message.empty()) p.message = message;
    out.pending.push_back(std::move(p));
  }
}

}  // namespace

std::vector<std::string> WaitingPods(const scheduler::Cluster& cluster) {
  std::vector<std::string> out;
  for (const api::Pod* pod : Waiting(cluster)) out.push_back(PodKey(*pod));
  return out;
}

std::vector<PendingPod> ExplainWaiting(scheduler::Cluster cluster, const api::FeatureGates& gates) {
  std::vector<PendingPod> pending;
  for (const api::Pod* pod : Waiting(cluster)) {
    PendingPod p;
    p.namespace_ = pod->metadata.namespace_;
    p.name = pod->metadata.name;
    p.message = PodScheduledMessage(*pod);
    pending.push_back(std::move(p));
  }
  if (pending.empty()) return pending;
  scheduler::SchedulerOptions sopt;
  sopt.features = allocator::Features::FromGates(gates);
  sopt.now = static_cast<std::int64_t>(std::time(nullptr));
  sopt.explain = true;
  scheduler::Scheduler sched(std::move(cluster), sopt);
  sched.Run();
  // Node evaluations left for finding the closest node (ExplainPod tries
  // the pod on every node).
  std::int64_t closest_budget = kClosestNodeBudget;
  const auto nodes = static_cast<std::int64_t>(sched.nodes().size());
  for (PendingPod& p : pending) {
    const scheduler::PodRecord* r = sched.FindPod(p.namespace_, p.name);
    if (r == nullptr) continue;
    if (r->state == scheduler::PodState::kBound) {
      p.stage = "schedulable";
      p.node = r->node;
      if (p.message.empty()) p.message = "a node fits it now: " + r->node;
      continue;
    }
    if (p.message.empty()) p.message = r->reason;
    std::optional<allocator::Explanation> why = r->explanation;
    if (why && closest_budget >= nodes) {
      // The scheduler explains the first node DRA rejected; the page shows
      // the node that came closest, as dra explain does. That tries the pod
      // on every node, so only for the first pods of a large backlog.
      closest_budget -= nodes;
      Result<scheduler::PodVerdict> verdict = sched.ExplainPod(p.namespace_, p.name);
      if (verdict.ok()) {
        std::vector<const scheduler::NodeVerdict*> closest = explain::ClosestNodes(*verdict);
        if (!closest.empty()) why = closest.front()->explanation;
      }
    }
    if (why) {
      Explain(*why, p);
    } else if (r->reason.find("esourceClaim") != std::string::npos ||
               r->reason.find("esourceclaim") != std::string::npos) {
      p.stage = "claim";
    } else {
      p.stage = "other";
    }
  }
  return pending;
}

namespace {}  // namespace

const char* DeviceStateName(DeviceState state) {
  switch (state) {
    case DeviceState::kFree:
      return "free";
    case DeviceState::kAllocated:
      return "allocated";
    case DeviceState::kTainted:
      return "tainted";
  }
  return "free";
}

void Tally::Count(const DeviceCell& cell) {
  switch (cell.state) {
    case DeviceState::kFree:
      ++free;
      if (cell.partially_consumed) ++partially_consumed;
      break;
    case DeviceState::kAllocated:
      ++allocated;
      break;
    case DeviceState::kTainted:
      ++tainted;
      break;
  }
}

DashboardState ComputeState(const SourceSnapshot& snapshot,
                            const std::vector<PendingPod>& explained) {
  const auto start = std::chrono::steady_clock::now();
  DashboardState out;
  out.computed_at = static_cast<std::int64_t>(std::time(nullptr));
  out.stale_since = snapshot.stale_since;
  out.stale_reason = snapshot.stale_reason;
  out.health = snapshot.health;
  auto since = [](std::chrono::steady_clock::time_point t) {
    return std::chrono::duration<double>(std::chrono::steady_clock::now() - t).count();
  };
  ComputeDevices(snapshot.cluster, out);
  ComputeNodes(snapshot.cluster, out);
  out.devices_seconds = since(start);
  auto phase = std::chrono::steady_clock::now();
  ComputeClaims(snapshot.cluster, out);
  out.claims_seconds = since(phase);
  ComputePending(snapshot.cluster, explained, out);
  out.compute_seconds = since(start);
  return out;
}

}  // namespace dra::cli::serve
