// ComputeState: one pass over the pools for devices, counters and capacity,
// one over the claims, and one simulated scheduling round for the waiting
// pods.
#include "cli/serve/dashboard_state.h"

#include <malloc.h>

#include <algorithm>
#include <chrono>
#include <ctime>
#include <memory>
#include <optional>
#include <set>
#include <span>
#include <string_view>
#include <tuple>
#include <unordered_map>
#include <utility>

#include "cli/explain/pod_report.h"
#include "cli/get/cluster_index.h"
#include "cli/serve/claim_facts.h"
#include "cli/serve/kept_objects.h"
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

// A device by the texts of its driver, pool and name.
using DeviceKey = std::tuple<std::string_view, std::string_view, std::string_view>;

// The kept claims' allocation results by device: a sorted array, a few
// words a result (a hash map of keys took over a hundred). A claim's facts
// are parsed again where one of its devices is drawn: held parsed for the
// whole computation, 20,000 claims took 4.6 MB (two heap blocks a claim).
// Views into the claims' kept texts: valid as long as the claims are.
class FactIndex {
 public:
  struct Ref {
    std::string_view driver, pool, device;
    std::uint32_t claim;   // into the kept claims
    std::uint32_t result;  // among the claim's results
  };
  // A claim that does not parse is left out, with a warning in `warnings`.
  FactIndex(const std::vector<KeptPtr>& claims, std::vector<std::string>& warnings)
      : claims_(claims) {
    // Each result is a line of its own ("\nr ..."): counted, the array is
    // made once at its size.
    std::size_t results = 0;
    for (const KeptPtr& k : claims) {
      const std::string_view text = Summary(*k);
      for (std::size_t at = text.find("\nr "); at != std::string_view::npos;
           at = text.find("\nr ", at + 1)) {
        ++results;
      }
    }
    refs_.reserve(results);
    for (std::size_t i = 0; i < claims.size(); ++i) {
      const Result<ClaimFacts> facts = ParseClaimFacts(Summary(*claims[i]));
      if (!facts.ok()) {
        warnings.push_back("a kept ResourceClaim: " + facts.error());
        continue;
      }
      for (std::size_t r = 0; r < facts->devices.size(); ++r) {
        const AllocatedDevice& d = facts->devices[r];
        refs_.push_back({d.driver, d.pool, d.device, static_cast<std::uint32_t>(i),
                         static_cast<std::uint32_t>(r)});
      }
    }
    // Stable: a device's results stay in the claims' order.
    std::stable_sort(refs_.begin(), refs_.end(),
                     [](const Ref& a, const Ref& b) { return Key(a) < Key(b); });
  }
  std::span<const Ref> Find(std::string_view driver, std::string_view pool,
                            std::string_view device) const {
    const DeviceKey key{driver, pool, device};
    auto [first, last] = std::equal_range(refs_.begin(), refs_.end(), key, ByKey{});
    return {first, last};
  }
  // The facts of the claim `ref` is a result of (they parsed when indexed).
  ClaimFacts FactsOf(const Ref& ref) const {
    Result<ClaimFacts> facts = ParseClaimFacts(Summary(*claims_[ref.claim]));
    return facts.ok() ? std::move(*facts) : ClaimFacts{};
  }

 private:
  static DeviceKey Key(const Ref& r) { return {r.driver, r.pool, r.device}; }
  struct ByKey {
    bool operator()(const Ref& r, const DeviceKey& k) const { return Key(r) < k; }
    bool operator()(const DeviceKey& k, const Ref& r) const { return k < Key(r); }
  };
  const std::vector<KeptPtr>& claims_;
  std::vector<Ref> refs_;
};

// A device while its pool is computed, its texts as strings; kept as a
// DeviceCell of ids once the pool is done.
struct DeviceDraft {
  std::string_view name;
  std::string node, reach, counter_set, uuid, product;
  DeviceState state = DeviceState::kFree;
  bool partially_consumed = false, blocked_by_counters = false, shared = false;
  std::map<std::string, Use> capacity;
  std::vector<std::string> claims, pods, taints;
};

// Holders, taints and capacity of one device; state and counters are the
// caller's.
DeviceDraft MakeDraft(const get::PoolSlices& pool, const api::ResourceSlice& slice,
                      const api::Device& device, const FactIndex& allocations,
                      const get::TaintIndex& taints) {
  DeviceDraft cell;
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
  for (const FactIndex::Ref& a : allocations.Find(pool.driver, pool.pool, device.name)) {
    const ClaimFacts claim = allocations.FactsOf(a);
    if (a.result >= claim.devices.size()) continue;
    const AllocatedDevice& result = claim.devices[a.result];
    const std::string ns(claim.namespace_);
    claim_names.insert(ns + "/" + std::string(claim.name));
    for (std::string_view pod : claim.pods) pod_names.insert(ns + "/" + std::string(pod));
    if (result.admin_access) continue;
    allocated = true;
    for (const auto& [name, text] : result.consumed) {
      auto it = cell.capacity.find(std::string(name));
      Result<api::Quantity> q = api::Quantity::Parse(text);
      if (it != cell.capacity.end() && q.ok()) it->second.consumed = it->second.consumed.Add(*q);
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

// `draft` as a cell of `out`.
void AddCell(const DeviceDraft& draft, TextTable::Id driver, TextTable::Id pool,
             DashboardState& out) {
  TextTable& t = out.texts;
  DeviceCell cell;
  cell.driver = driver;
  cell.pool = pool;
  cell.name = t.Intern(draft.name);
  cell.node = t.Intern(draft.node);
  cell.reach = t.Intern(draft.reach);
  cell.counter_set = t.Intern(draft.counter_set);
  cell.uuid = t.Intern(draft.uuid);
  cell.product = t.Intern(draft.product);
  cell.refs = static_cast<std::uint32_t>(out.refs.size());
  cell.claims = static_cast<std::uint16_t>(draft.claims.size());
  cell.pods = static_cast<std::uint16_t>(draft.pods.size());
  cell.taints = static_cast<std::uint16_t>(draft.taints.size());
  for (const auto* texts : {&draft.claims, &draft.pods, &draft.taints}) {
    for (const std::string& text : *texts) out.refs.push_back(t.Intern(text));
  }
  cell.capacity = static_cast<std::uint32_t>(out.capacities.size());
  cell.capacities = static_cast<std::uint16_t>(draft.capacity.size());
  for (const auto& [name, use] : draft.capacity) out.capacities.push_back({t.Intern(name), use});
  cell.state = draft.state;
  cell.partially_consumed = draft.partially_consumed;
  cell.blocked_by_counters = draft.blocked_by_counters;
  cell.shared = draft.shared;
  out.devices.push_back(cell);
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
  // device whose attributes CEL cannot take (`valid` false) matches none.
  bool Matches(const cel::ApiDeviceView& view, bool valid) const {
    if (!programs.empty() && !valid) return false;
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

// The kept slices by pool (their index keys), decoded one pool at a time.
std::map<std::string_view, std::vector<const KeptObject*>> KeptPools(
    const std::vector<KeptPtr>& slices) {
  std::map<std::string_view, std::vector<const KeptObject*>> pools;
  for (const KeptPtr& s : slices) pools[SlicePool(*s)].push_back(s.get());
  return pools;
}

// One pool's devices, counters and capacity.
void ComputePool(const get::PoolSlices& pool, const std::vector<ClassMatcher>& classes,
                 const FactIndex& allocations, const get::TaintIndex& taints, DashboardState& out) {
  get::CounterLedger ledger = get::PoolCounters(pool);
  std::vector<DeviceDraft> drafts;
  for (const api::ResourceSlice* slice : pool.slices) {
    for (const api::Device& device : slice->spec.devices) {
      drafts.push_back(MakeDraft(pool, *slice, device, allocations, taints));
      if (drafts.back().state == DeviceState::kAllocated) get::Consume(ledger, device);
    }
  }
  PoolSummary summary;
  summary.complete = pool.complete();
  const TextTable::Id driver = out.texts.Intern(pool.driver);
  const TextTable::Id pool_name = out.texts.Intern(pool.pool);
  summary.driver = driver;
  summary.pool = pool_name;
  std::string_view node;
  std::map<std::string, Use> counters, capacity;
  std::size_t i = 0;
  for (const api::ResourceSlice* slice : pool.slices) {
    for (const api::Device& device : slice->spec.devices) {
      DeviceDraft& cell = drafts[i++];
      if (cell.state == DeviceState::kFree) {
        cell.blocked_by_counters = !get::FitsCounters(ledger, device, &cell.partially_consumed);
      }
      if (node.empty() && !cell.node.empty()) node = cell.node;
      summary.devices.Count(cell.state, cell.partially_consumed, cell.blocked_by_counters);
      if (!classes.empty()) {
        const cel::ApiDeviceView view(device, pool.driver);
        const bool valid = cel::ValidateDeviceAttributes(view).ok();
        for (const ClassMatcher& m : classes) {
          if (m.Matches(view, valid)) {
            out.classes[m.name].Count(cell.state, cell.partially_consumed,
                                      cell.blocked_by_counters);
          }
        }
      }
      for (const auto& [name, use] : cell.capacity) AddUse(capacity, name, use);
      AddCell(cell, driver, pool_name, out);
    }
  }
  for (const auto& [set, set_counters] : ledger) {
    for (const auto& [name, use] : set_counters) AddUse(counters, name, use);
  }
  summary.node = out.texts.Intern(node);
  summary.uses = static_cast<std::uint32_t>(out.pool_uses.size());
  summary.counters = static_cast<std::uint16_t>(counters.size());
  summary.capacities = static_cast<std::uint16_t>(capacity.size());
  for (const auto* uses : {&counters, &capacity}) {
    for (const auto& [name, use] : *uses) out.pool_uses.push_back({out.texts.Intern(name), use});
  }
  out.pools.push_back(summary);
}

// `cluster` has every kind but slices; those are decoded a pool at a time,
// so that only one pool's decoded devices exist at once.
void ComputeDevices(const scheduler::Cluster& cluster, const KeptCluster& kept,
                    const FactIndex& allocations, DashboardState& out) {
  const std::vector<ClassMatcher> classes = CompileClasses(cluster, out);
  get::TaintIndex taints(cluster.taint_rules);
  for (const auto& [key, pool_slices] : KeptPools(kept.slices)) {
    std::vector<api::ResourceSlice> decoded;
    for (const KeptObject* k : pool_slices) {
      Result<api::Object> o = Unkeep(*k);
      auto* slice = o.ok() ? std::get_if<api::ResourceSlice>(&o.value()) : nullptr;
      if (slice == nullptr) {
        out.warnings.push_back("a kept ResourceSlice does not decode");
        continue;
      }
      decoded.push_back(std::move(*slice));
    }
    if (!kept.in_input_order) {
      std::sort(decoded.begin(), decoded.end(),
                [](const api::ResourceSlice& a, const api::ResourceSlice& b) {
                  return a.metadata.name < b.metadata.name;
                });
    }
    for (const get::PoolSlices& pool : get::GroupPools(decoded)) {
      ComputePool(pool, classes, allocations, taints, out);
    }
  }
  const TextTable& t = out.texts;
  std::sort(out.devices.begin(), out.devices.end(), [&t](const DeviceCell& a, const DeviceCell& b) {
    return std::make_tuple(a.node == TextTable::kEmpty, t[a.node], t[a.driver], t[a.pool],
                           t[a.name]) < std::make_tuple(b.node == TextTable::kEmpty, t[b.node],
                                                        t[b.driver], t[b.pool], t[b.name]);
  });
}

void ComputeNodes(const KeptCluster& kept, DashboardState& out) {
  // By name; the views are into the table, which the interning below may
  // move: they are made only once every name is in.
  std::vector<TextTable::Id> ids;
  ids.reserve(kept.nodes.size());
  for (const KeptPtr& n : kept.nodes) ids.push_back(out.texts.Intern(Summary(*n)));
  std::map<std::string_view, NodeSummary> nodes;
  for (TextTable::Id id : ids) nodes[out.Text(id)].name = id;
  for (const DeviceCell& cell : out.devices) {
    out.total.Count(cell);
    if (cell.node == TextTable::kEmpty) continue;
    NodeSummary& n = nodes[out.Text(cell.node)];
    n.name = cell.node;
    n.devices.Count(cell);
  }
  out.nodes.reserve(nodes.size());
  for (const auto& [name, n] : nodes) out.nodes.push_back(n);
}

// Claims by state, and one join row per allocated device and reserving pod.
// The claims are parsed one at a time; one that does not parse is left out
// (FactIndex has warned of it).
void ComputeClaims(const std::vector<KeptPtr>& kept_claims, DashboardState& out) {
  // The node and uuid of each device, found by the texts of its name (made
  // from the table at each comparison: interning may move them).
  TextTable& t = out.texts;
  auto key = [&t](const DeviceCell* c) { return DeviceKey{t[c->driver], t[c->pool], t[c->name]}; };
  std::vector<const DeviceCell*> cells;
  cells.reserve(out.devices.size());
  for (const DeviceCell& cell : out.devices) cells.push_back(&cell);
  // Stable: of devices with the same name (only in invalid pools), the last.
  std::stable_sort(cells.begin(), cells.end(),
                   [&key](const DeviceCell* a, const DeviceCell* b) { return key(a) < key(b); });
  auto find = [&](const AllocatedDevice& d) -> const DeviceCell* {
    const DeviceKey wanted{d.driver, d.pool, d.device};
    auto after =
        std::upper_bound(cells.begin(), cells.end(), wanted,
                         [&key](const DeviceKey& k, const DeviceCell* c) { return k < key(c); });
    if (after == cells.begin() || key(*(after - 1)) != wanted) return nullptr;
    return *(after - 1);
  };
  for (const KeptPtr& k : kept_claims) {
    const Result<ClaimFacts> claim = ParseClaimFacts(Summary(*k));
    if (!claim.ok()) continue;
    ClaimCounts& counts = out.claims[std::string(claim->namespace_)];
    switch (claim->phase) {
      case ClaimPhase::kPending:
        ++counts.pending;
        continue;
      case ClaimPhase::kDeallocating:
        ++counts.deallocating;
        break;
      case ClaimPhase::kReserved:
        ++counts.reserved;
        break;
      case ClaimPhase::kAllocated:
        ++counts.allocated;
        break;
    }
    for (std::string_view pod : claim->pods) {
      for (const AllocatedDevice& d : claim->devices) {
        const DeviceCell* cell = find(d);
        out.pod_devices.push_back(
            PodDevice{t.Intern(claim->namespace_), t.Intern(pod), t.Intern(claim->name),
                      t.Intern(d.request), t.Intern(d.driver), t.Intern(d.pool), t.Intern(d.device),
                      cell != nullptr ? cell->node : TextTable::kEmpty,
                      cell != nullptr ? cell->uuid : TextTable::kEmpty});
      }
    }
  }
  std::sort(
      out.pod_devices.begin(), out.pod_devices.end(), [&t](const PodDevice& a, const PodDevice& b) {
        return std::make_tuple(t[a.namespace_], t[a.pod], t[a.claim], t[a.request], t[a.device]) <
               std::make_tuple(t[b.namespace_], t[b.pod], t[b.claim], t[b.request], t[b.device]);
      });
}

// How many node evaluations a state spends on finding the closest node of
// waiting pods (2 pods on 5,000 nodes; 20 on 500).
constexpr std::int64_t kClosestNodeBudget = 10'000;

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

// Of `pods`, the unscheduled, unfinished ones that use DRA, by
// namespace/name.
std::vector<const api::Pod*> Waiting(std::vector<const api::Pod*> pods) {
  std::vector<const api::Pod*> waiting = std::move(pods);
  std::erase_if(waiting, [](const api::Pod* p) { return !IsWaitingPod(*p); });
  std::sort(waiting.begin(), waiting.end(), [](const api::Pod* a, const api::Pod* b) {
    return std::tie(a->metadata.namespace_, a->metadata.name) <
           std::tie(b->metadata.namespace_, b->metadata.name);
  });
  return waiting;
}

std::vector<const api::Pod*> Waiting(const std::vector<api::Pod>& pods) {
  std::vector<const api::Pod*> all;
  all.reserve(pods.size());
  for (const api::Pod& p : pods) all.push_back(&p);
  return Waiting(std::move(all));
}

std::vector<const api::Pod*> Waiting(const std::vector<scheduler::PodRecord>& records) {
  std::vector<const api::Pod*> all;
  all.reserve(records.size());
  for (const scheduler::PodRecord& r : records) all.push_back(&r.pod);
  return Waiting(std::move(all));
}

// Where `why` leaves the pod: the stage that blocks it, and the explanation.
void Explain(const allocator::Explanation& why, PendingPod& p) {
  p.node = why.node;
  p.explanation = allocator::ExplanationText(why);
  p.explanation_json = json::ToJson(allocator::ExplanationValue(why));
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
  for (const api::Pod* pod : Waiting(cluster.pods)) {
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

std::vector<PendingPod> ExplainWaiting(scheduler::Cluster cluster, const api::FeatureGates& gates,
                                       const std::atomic<bool>* hurry, bool* hurried) {
  if (hurried != nullptr) *hurried = false;
  std::vector<PendingPod> pending;
  // Streamed pods are known only once the Scheduler has read them.
  if (!cluster.more_pods.next && Waiting(cluster.pods).empty()) return pending;
  scheduler::SchedulerOptions sopt;
  sopt.features = allocator::Features::FromGates(gates);
  sopt.now = static_cast<std::int64_t>(std::time(nullptr));
  sopt.explain = true;
  // The explanations are made anew from the objects each time: memory over
  // speed (the scheduler is dropped as soon as they are made).
  sopt.keep_node_pools = false;
  scheduler::Scheduler sched(std::move(cluster), sopt);
  // And what building it freed (the slices decoded on their way into the
  // allocator's index, its lookup tables), before the pods run.
  malloc_trim(0);
  // The pods as they came, before Run binds any.
  for (const api::Pod* pod : Waiting(sched.pods())) {
    PendingPod p;
    p.namespace_ = pod->metadata.namespace_;
    p.name = pod->metadata.name;
    p.message = PodScheduledMessage(*pod);
    pending.push_back(std::move(p));
  }
  if (pending.empty()) return pending;
  sched.Run();
  // Node evaluations left for finding the closest node (ExplainPod tries
  // the pod on every node).
  std::int64_t closest_budget = kClosestNodeBudget;
  // Only the closest node's explanation is shown: the others are not kept.
  scheduler::ExplainOptions closest_only;
  closest_only.distance = explain::Distance;
  closest_only.keep = 1;
  closest_only.every_node = false;
  closest_only.cancel = hurry;
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
      // Hurried, before or during it: cancelled, the first node stays.
      Result<scheduler::PodVerdict> verdict = sched.ExplainPod(p.namespace_, p.name, closest_only);
      if (verdict.ok()) {
        std::vector<const scheduler::NodeVerdict*> closest = explain::ClosestNodes(*verdict);
        if (!closest.empty()) why = closest.front()->explanation;
      } else if (hurried != nullptr && hurry != nullptr && hurry->load()) {
        *hurried = true;
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

std::string DashboardState::DeviceName(const DeviceCell& d) const {
  std::string out(Text(d.driver));
  out.append("/").append(Text(d.pool)).append("/").append(Text(d.name));
  return out;
}

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

void Tally::Count(DeviceState state, bool is_partially_consumed, bool is_blocked) {
  switch (state) {
    case DeviceState::kFree:
      ++free;
      if (is_partially_consumed) ++partially_consumed;
      if (is_blocked) ++blocked_by_counters;
      break;
    case DeviceState::kAllocated:
      ++allocated;
      break;
    case DeviceState::kTainted:
      ++tainted;
      break;
  }
}

StateSizes SizesOf(const DashboardState& state) {
  return {state.devices.size(), state.refs.size(), state.pod_devices.size(), state.texts.size(),
          state.texts.bytes()};
}

DashboardState ComputeState(const SourceSnapshot& snapshot,
                            const std::vector<PendingPod>& explained, const StateSizes& expected) {
  const auto start = std::chrono::steady_clock::now();
  DashboardState out;
  out.devices.reserve(expected.devices);
  out.refs.reserve(expected.refs);
  out.pod_devices.reserve(expected.pod_devices);
  out.texts.Reserve(expected.texts, expected.text_bytes);
  out.computed_at = static_cast<std::int64_t>(std::time(nullptr));
  out.stale_since = snapshot.stale_since;
  out.stale_reason = snapshot.stale_reason;
  out.health = snapshot.health;
  auto since = [](std::chrono::steady_clock::time_point t) {
    return std::chrono::duration<double>(std::chrono::steady_clock::now() - t).count();
  };
  UnpackOptions unpack;
  unpack.pods = PodsToUnpack::kWaiting;
  unpack.slices = false;
  unpack.claims = false;
  unpack.nodes = false;
  const scheduler::Cluster cluster = Unpack(snapshot.objects, unpack);
  out.warnings = snapshot.objects.warnings;
  out.warnings.insert(out.warnings.end(), cluster.warnings.begin(), cluster.warnings.end());
  {
    // Its warnings (claims that do not parse) come before the devices'. It
    // goes before the claims are counted.
    const FactIndex allocations(snapshot.objects.claims, out.warnings);
    ComputeDevices(cluster, snapshot.objects, allocations, out);
  }
  ComputeNodes(snapshot.objects, out);
  out.devices_seconds = since(start);
  auto phase = std::chrono::steady_clock::now();
  ComputeClaims(snapshot.objects.claims, out);
  out.claims_seconds = since(phase);
  ComputePending(cluster, explained, out);
  out.texts.Seal();
  out.refs.shrink_to_fit();
  out.devices.shrink_to_fit();
  out.pod_devices.shrink_to_fit();
  out.compute_seconds = since(start);
  return out;
}

}  // namespace dra::cli::serve
