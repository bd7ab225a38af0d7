#include "scheduler/simulation_report.h"

#include <cmath>
#include <cstdio>
#include <map>
#include <unordered_map>

#include "dra/allocator/explanation.h"
#include "dra/json/build.h"

namespace dra::scheduler {
namespace {

using json::Int;
using json::Put;
using json::Str;
using json::StringArray;

using json::Value;

Value Num(double v) {
  char buf[32];
  std::snprintf(buf, sizeof(buf), "%.15g", std::isfinite(v) ? v : 0.0);
  return Value::Number(buf);
}

// Bound pods' prepare results by namespace/name.
std::unordered_map<std::string, const PreparedPod*> PreparedPods(const PrepareReport* report) {
  std::unordered_map<std::string, const PreparedPod*> out;
  if (report != nullptr) {
    for (const PreparedPod& p : report->pods) out[p.namespace_ + "/" + p.name] = &p;
  }
  return out;
}

std::string Joined(const std::vector<std::string>& items, const std::string& sep) {
  std::string out;
  for (std::size_t i = 0; i < items.size(); ++i) out += (i ? sep : "") + items[i];
  return out;
}

std::string Percent(double used, double total) {
  if (total <= 0) return "-";
  char buf[16];
  std::snprintf(buf, sizeof(buf), "%.0f%%", 100.0 * used / total);
  return buf;
}

std::string Fixed(double v, int digits) {
  char buf[32];
  std::snprintf(buf, sizeof(buf), "%.*f", digits, v);
  return buf;
}

}  // namespace

PodCounts CountPods(const Scheduler& s) {
  PodCounts c;
  for (const PodRecord& p : s.pods()) {
    if (p.deleted) continue;
    switch (p.state) {
      case PodState::kBound:
        ++c.scheduled;
        break;
      case PodState::kPending:
        ++c.pending;
        break;
      default:
        ++c.finished;
    }
  }
  return c;
}

namespace {

// Where each device is, and which whole devices (a device, or the counter set
// a partition consumes from) exist and are in use.
struct DeviceRef {
  const api::Device* device;
  const api::ResourceSlice* slice;
  std::string node;
};

struct UtilizationIndex {
  std::unordered_map<std::string, DeviceRef> devices;
  std::map<std::string, std::size_t> partition_index;  // driver/pool/set
  std::map<std::string, bool> whole_used;              // whole device key -> used
  std::map<std::string, std::string> whole_node;
};

// One PartitionUse per counter set, with nothing consumed yet.
void IndexPartitions(const std::vector<api::ResourceSlice>& slices, UtilizationIndex& index,
                     Utilization& u) {
  for (const api::ResourceSlice& slice : slices) {
    std::string pool = slice.spec.driver + "/" + slice.spec.pool.name + "/";
    std::string slice_node = slice.spec.node_name.value_or("");
    for (const api::CounterSet& cs : slice.spec.shared_counters) {
      std::string key = pool + cs.name;
      if (index.partition_index.contains(key)) continue;
      PartitionUse p{slice.spec.driver, slice.spec.pool.name, cs.name, slice_node, {}};
      for (const auto& [name, counter] : cs.counters) {
        p.counters.push_back({name, api::Quantity(), counter.value});
      }
      index.partition_index[key] = u.partitions.size();
      u.partitions.push_back(std::move(p));
    }
  }
}

// Every device and whole device, unused; a partition without a node gets its
// first device's.
void IndexDevices(const std::vector<api::ResourceSlice>& slices, UtilizationIndex& index,
                  Utilization& u) {
  for (const api::ResourceSlice& slice : slices) {
    std::string pool = slice.spec.driver + "/" + slice.spec.pool.name + "/";
    for (const api::Device& d : slice.spec.devices) {
      std::string node = d.node_name ? *d.node_name : slice.spec.node_name.value_or("");
      index.devices[pool + d.name] = {&d, &slice, node};
      std::string whole = d.consumes_counters.empty()
                              ? "device:" + pool + d.name
                              : "counters:" + pool + d.consumes_counters.front().counter_set;
      if (!index.whole_used.contains(whole)) {
        index.whole_used[whole] = false;
        index.whole_node[whole] = node;
      }
      if (!d.consumes_counters.empty()) {
        auto p = index.partition_index.find(pool + d.consumes_counters.front().counter_set);
        if (p != index.partition_index.end() && u.partitions[p->second].node.empty()) {
          u.partitions[p->second].node = node;
        }
      }
    }
  }
}

// The DeviceUse of an allocated device, added on its first allocation.
DeviceUse& DeviceUseOf(const api::DeviceRequestAllocationResult& r, const std::string& id,
                       const DeviceRef* ref, std::map<std::string, std::size_t>& use_index,
                       Utilization& u) {
  auto [it, inserted] = use_index.emplace(id, u.in_use.size());
  if (inserted) {
    DeviceUse use{r.driver, r.pool, r.device, ref == nullptr ? "" : ref->node, {}, {}, {}};
    if (ref != nullptr && ref->device->allow_multiple_allocations.value_or(false)) {
      for (const auto& [name, cap] : ref->device->capacity) {
        use.capacity.push_back({name, api::Quantity(), cap.value});
      }
    }
    if (ref != nullptr && !ref->device->consumes_counters.empty()) {
      use.counter_set = ref->device->consumes_counters.front().counter_set;
    }
    u.in_use.push_back(std::move(use));
  }
  return u.in_use[it->second];
}

// Marks an allocated device's whole device used and adds the counters it consumes.
void CountWholeDeviceUse(const api::Device& d, const std::string& pool, const std::string& id,
                         UtilizationIndex& index, Utilization& u) {
  if (d.consumes_counters.empty()) {
    index.whole_used["device:" + id] = true;
    return;
  }
  index.whole_used["counters:" + pool + d.consumes_counters.front().counter_set] = true;
  for (const api::DeviceCounterConsumption& cc : d.consumes_counters) {
    auto p = index.partition_index.find(pool + cc.counter_set);
    if (p == index.partition_index.end()) continue;
    for (QuantityUse& counter : u.partitions[p->second].counters) {
      auto c = cc.counters.find(counter.name);
      if (c != cc.counters.end()) counter.consumed = counter.consumed.Add(c->second.value);
    }
  }
}

// Adds what the allocated claims use: devices, capacity and counters.
void CountClaimUse(const Scheduler& scheduler, UtilizationIndex& index, Utilization& u) {
  std::map<std::string, std::size_t> use_index;
  for (const api::ResourceClaim* claim : scheduler.Claims()) {
    if (!claim->status.allocation) continue;
    std::string claim_key = claim->metadata.namespace_ + "/" + claim->metadata.name;
    for (const api::DeviceRequestAllocationResult& r : claim->status.allocation->devices.results) {
      if (r.admin_access.value_or(false)) continue;
      std::string pool = r.driver + "/" + r.pool + "/";
      std::string id = pool + r.device;
      auto ref = index.devices.find(id);
      const DeviceRef* found = ref == index.devices.end() ? nullptr : &ref->second;
      DeviceUse& use = DeviceUseOf(r, id, found, use_index, u);
      if (use.claims.empty() || use.claims.back() != claim_key) use.claims.push_back(claim_key);
      for (const auto& [name, q] : r.consumed_capacity) {
        for (QuantityUse& cap : use.capacity) {
          if (cap.name == name) cap.consumed = cap.consumed.Add(q);
        }
      }
      if (found != nullptr) CountWholeDeviceUse(*found->device, pool, id, index, u);
    }
  }
}

}  // namespace

Utilization ComputeUtilization(const Scheduler& scheduler,
                               const std::vector<api::ResourceSlice>& slices) {
  Utilization u;
  std::map<std::string, NodeUtilization> nodes;
  for (const NodeRecord& n : scheduler.nodes()) nodes[n.name].name = n.name;
  UtilizationIndex index;
  IndexPartitions(slices, index, u);
  IndexDevices(slices, index, u);
  CountClaimUse(scheduler, index, u);
  for (const auto& [key, used] : index.whole_used) {
    const std::string& node = index.whole_node[key];
    ++u.devices;
    u.devices_used += used;
    auto n = nodes.find(node);
    if (n == nodes.end()) continue;
    ++n->second.devices;
    n->second.devices_used += used;
  }
  for (const PodRecord& p : scheduler.pods()) {
    if (p.state == PodState::kBound && !p.deleted) ++nodes[p.node].pods;
  }
  for (const NodeRecord& n : scheduler.nodes()) u.nodes.push_back(nodes[n.name]);
  return u;
}

namespace {

// {"consumed": used, "total": total} for each named counter or capacity.
Value UsageJson(const std::vector<QuantityUse>& usage) {
  Value out = Value::Object();
  for (const QuantityUse& use : usage) {
    Value x = Value::Object();
    Put(x, "consumed", Num(use.consumed.AsApproximateDouble()));
    Put(x, "total", Num(use.total.AsApproximateDouble()));
    Put(out, use.name, std::move(x));
  }
  return out;
}

// A bound pod's prepared containers and prepare errors.
void PutPrepared(Value& v, const PreparedPod& prepared) {
  Value containers = Value::Array();
  for (const PreparedContainer& c : prepared.containers) {
    Value cv = Value::Object();
    Put(cv, "name", Str(c.name));
    if (c.init) Put(cv, "init", Value::Bool(true));
    Put(cv, "cdiDevices", StringArray(c.cdi_devices));
    containers.items.push_back(std::move(cv));
  }
  Put(v, "containers", std::move(containers));
  if (!prepared.errors.empty()) Put(v, "prepareErrors", StringArray(prepared.errors));
}

Value PodsJson(const Scheduler& s, const PrepareReport* prepare) {
  Value pods = Value::Array();
  auto prepared = PreparedPods(prepare);
  for (const PodRecord& p : s.pods()) {
    if (p.deleted) continue;
    Value v = Value::Object();
    Put(v, "namespace", Str(p.pod.metadata.namespace_));
    Put(v, "name", Str(p.pod.metadata.name));
    Put(v, "node", p.state == PodState::kBound ? Str(p.node) : Value{});
    Put(v, "phase", Str(PodStateName(p.state)));
    if (p.state != PodState::kBound && !p.reason.empty()) Put(v, "reason", Str(p.reason));
    if (!p.claims.empty()) Put(v, "claims", StringArray(p.claims));
    if (p.waited_for_binding_conditions) Put(v, "bindingConditions", Str("met"));
    if (p.explanation) Put(v, "explanation", allocator::ExplanationValue(*p.explanation));
    if (auto it = prepared.find(p.pod.metadata.namespace_ + "/" + p.pod.metadata.name);
        p.state == PodState::kBound && it != prepared.end()) {
      PutPrepared(v, *it->second);
    }
    pods.items.push_back(std::move(v));
  }
  return pods;
}

Value SummaryJson(const SimulationReport& report) {
  const Scheduler& s = *report.scheduler;
  const Utilization& u = report.utilization;
  PodCounts c = CountPods(s);
  Value summary = Value::Object();
  Put(summary, "scheduled", Int(c.scheduled));
  Put(summary, "pending", Int(c.pending));
  Put(summary, "finished", Int(c.finished));
  Put(summary, "nodes", Int(static_cast<std::int64_t>(s.nodes().size())));
  Put(summary, "devices", Int(u.devices));
  Put(summary, "devicesUsed", Int(u.devices_used));
  Put(summary, "attempts", Int(static_cast<std::int64_t>(s.stats().attempts)));
  Put(summary, "loadSeconds", Num(report.load_seconds));
  Put(summary, "scheduleSeconds", Num(report.schedule_seconds));
  Put(summary, "podsPerSecond",
      Num(report.schedule_seconds > 0
              ? static_cast<double>(s.stats().bound) / report.schedule_seconds
              : 0));
  return summary;
}

Value NodesJson(const Utilization& u) {
  Value nodes = Value::Array();
  for (const NodeUtilization& n : u.nodes) {
    Value v = Value::Object();
    Put(v, "name", Str(n.name));
    Put(v, "pods", Int(n.pods));
    Put(v, "devices", Int(n.devices));
    Put(v, "devicesUsed", Int(n.devices_used));
    nodes.items.push_back(std::move(v));
  }
  return nodes;
}

Value DevicesJson(const Utilization& u) {
  Value devices = Value::Array();
  for (const DeviceUse& d : u.in_use) {
    Value v = Value::Object();
    Put(v, "driver", Str(d.driver));
    Put(v, "pool", Str(d.pool));
    Put(v, "device", Str(d.device));
    Put(v, "node", d.node.empty() ? Value{} : Str(d.node));
    Put(v, "claims", StringArray(d.claims));
    if (!d.capacity.empty()) Put(v, "capacity", UsageJson(d.capacity));
    devices.items.push_back(std::move(v));
  }
  return devices;
}

Value PartitionsJson(const Utilization& u) {
  Value partitions = Value::Array();
  for (const PartitionUse& p : u.partitions) {
    Value v = Value::Object();
    Put(v, "driver", Str(p.driver));
    Put(v, "pool", Str(p.pool));
    Put(v, "counterSet", Str(p.counter_set));
    Put(v, "node", p.node.empty() ? Value{} : Str(p.node));
    Put(v, "counters", UsageJson(p.counters));
    partitions.items.push_back(std::move(v));
  }
  return partitions;
}

Value DevicePluginJson(const DevicePluginResult& dp) {
  Value v = Value::Object();
  Value dpods = Value::Array();
  for (const DevicePluginPod& p : dp.pods) {
    Value x = Value::Object();
    Put(x, "namespace", Str(p.namespace_));
    Put(x, "name", Str(p.name));
    Put(x, "node", p.node.empty() ? Value{} : Str(p.node));
    if (p.node.empty()) Put(x, "reason", Str(p.reason));
    Put(x, "devices", Int(p.devices));
    dpods.items.push_back(std::move(x));
  }
  Put(v, "pods", std::move(dpods));
  Value sum = Value::Object();
  Put(sum, "scheduled", Int(dp.scheduled));
  Put(sum, "pending", Int(dp.pending));
  Put(sum, "devices", Int(dp.devices));
  Put(sum, "devicesUsed", Int(dp.devices_used));
  Put(v, "summary", std::move(sum));
  return v;
}

Value PrepareJson(const PrepareReport& pr) {
  Value v = Value::Object();
  Put(v, "nodes", Int(pr.nodes));
  Put(v, "claimsPrepared", Int(pr.claims_prepared));
  Put(v, "cdiDevices", Int(pr.cdi_devices));
  Put(v, "failures", Int(pr.failures));
  Put(v, "seconds", Num(pr.seconds));
  Put(v, "errors", StringArray(pr.errors));
  return v;
}

}  // namespace

json::Value SimulationJson(const SimulationReport& report) {
  const Scheduler& s = *report.scheduler;
  Value root = Value::Object();
  Put(root, "pods", PodsJson(s, report.prepare));
  Put(root, "summary", SummaryJson(report));
  Put(root, "nodes", NodesJson(report.utilization));
  Put(root, "devices", DevicesJson(report.utilization));
  Put(root, "partitions", PartitionsJson(report.utilization));
  if (!s.cluster().warnings.empty()) Put(root, "warnings", StringArray(s.cluster().warnings));
  if (report.device_plugin != nullptr) {
    Put(root, "devicePlugin", DevicePluginJson(*report.device_plugin));
  }
  if (report.prepare != nullptr) Put(root, "prepare", PrepareJson(*report.prepare));
  return root;
}

std::string PrepareSummaryText(const PrepareReport& pr) {
  return "Prepared " + std::to_string(pr.claims_prepared) + " claims on " +
         std::to_string(pr.nodes) + " nodes: " + std::to_string(pr.cdi_devices) +
         " CDI device IDs, " + std::to_string(pr.failures) + " failures, in " +
         Fixed(pr.seconds * 1000, 1) + " ms";
}

namespace {

// The headline: pods scheduled, timing, devices in use and cluster warnings.
std::string HeadlineText(const SimulationReport& report, const PodCounts& c) {
  const Scheduler& s = *report.scheduler;
  const Utilization& u = report.utilization;
  std::string out;
  out += "Scheduled " + std::to_string(c.scheduled) + " of " +
         std::to_string(c.scheduled + c.pending) + " pods on " + std::to_string(s.nodes().size()) +
         " nodes (" + std::to_string(c.pending) + " Pending";
  if (c.finished > 0) out += ", " + std::to_string(c.finished) + " finished";
  out += ") in " + Fixed(report.schedule_seconds * 1000, 1) + " ms";
  if (report.schedule_seconds > 0) {
    out +=
        ", " + Fixed(static_cast<double>(s.stats().bound) / report.schedule_seconds, 0) + " pods/s";
  }
  out += "; input read in " + Fixed(report.load_seconds * 1000, 1) + " ms\n";
  out += "Devices in use: " + std::to_string(u.devices_used) + " of " + std::to_string(u.devices) +
         " (" + Percent(static_cast<double>(u.devices_used), static_cast<double>(u.devices)) +
         ")\n";
  for (const std::string& w : s.cluster().warnings) out += "warning: " + w + "\n";
  return out;
}

std::string PlacementsText(const Scheduler& s) {
  std::string out = "\nPLACEMENTS\n";
  for (const PodRecord& p : s.pods()) {
    if (p.deleted || p.state != PodState::kBound) continue;
    out += "  " + p.pod.metadata.namespace_ + "/" + p.pod.metadata.name + " -> " + p.node;
    if (!p.claims.empty()) out += "  [" + Joined(p.claims, ", ") + "]";
    out += "\n";
  }
  return out;
}

// Each line of `text`, indented by `indent`.
std::string Indented(const std::string& text, const std::string& indent) {
  std::string out;
  std::size_t pos = 0;
  while (pos < text.size()) {
    std::size_t end = text.find('\n', pos);
    if (end == std::string::npos) end = text.size();
    out += indent + text.substr(pos, end - pos) + "\n";
    pos = end + 1;
  }
  return out;
}

std::string PendingText(const Scheduler& s) {
  std::string out = "\nPENDING\n";
  for (const PodRecord& p : s.pods()) {
    if (p.deleted || p.state != PodState::kPending) continue;
    out += "  " + p.pod.metadata.namespace_ + "/" + p.pod.metadata.name + ": " + p.reason + "\n";
    if (p.explanation) out += Indented(allocator::ExplanationText(*p.explanation), "    ");
  }
  return out;
}

std::string NodesText(const Utilization& u) {
  std::string out = "\nNODES\n";
  for (const NodeUtilization& n : u.nodes) {
    out += "  " + n.name + ": " + std::to_string(n.pods) + " pods, devices " +
           std::to_string(n.devices_used) + "/" + std::to_string(n.devices) + " (" +
           Percent(static_cast<double>(n.devices_used), static_cast<double>(n.devices)) + ")\n";
  }
  return out;
}

// " name 42%" for each named counter or capacity.
std::string UsageText(const std::vector<QuantityUse>& usage) {
  std::string out;
  for (const QuantityUse& use : usage) {
    out += " " + use.name + " " +
           Percent(use.consumed.AsApproximateDouble(), use.total.AsApproximateDouble());
  }
  return out;
}

std::string PartitionsText(const Utilization& u) {
  std::string out = "\nPARTITIONS (counter sets)\n";
  for (const PartitionUse& p : u.partitions) {
    out += "  " + p.driver + "/" + p.pool + "/" + p.counter_set +
           (p.node.empty() ? "" : " on " + p.node) + ":" + UsageText(p.counters) + "\n";
  }
  return out;
}

std::string SharedDevicesText(const Utilization& u) {
  std::string out = "\nSHARED DEVICES (consumable capacity)\n";
  for (const DeviceUse& d : u.in_use) {
    if (d.capacity.empty()) continue;
    out += "  " + d.driver + "/" + d.pool + "/" + d.device + ": " +
           std::to_string(d.claims.size()) + " claims;" + UsageText(d.capacity) + "\n";
  }
  return out;
}

std::string PreparedText(const PrepareReport& pr) {
  std::string out = "\nPREPARED (CDI devices per container)\n";
  for (const PreparedPod& p : pr.pods) {
    out += "  " + p.namespace_ + "/" + p.name + " on " + p.node + "\n";
    for (const PreparedContainer& c : p.containers) {
      out += "    " + std::string(c.init ? "init container " : "") + c.name + ": " +
             (c.cdi_devices.empty() ? "-" : Joined(c.cdi_devices, ", ")) + "\n";
    }
    for (const std::string& e : p.errors) out += "    error: " + e + "\n";
  }
  for (const std::string& e : pr.errors) out += "  error: " + e + "\n";
  out += "  " + PrepareSummaryText(pr) + "\n";
  return out;
}

std::string ComparisonText(const PodCounts& c, const Utilization& u, const DevicePluginResult& dp) {
  std::string out = "\nCOMPARISON          DRA    device plugin\n";
  auto row = [&](const std::string& label, std::int64_t a, std::int64_t b) {
    std::string l = label;
    l.resize(18, ' ');
    std::string x = std::to_string(a);
    x.resize(7, ' ');
    out += "  " + l + x + std::to_string(b) + "\n";
  };
  row("pods scheduled", c.scheduled, dp.scheduled);
  row("pods pending", c.pending, dp.pending);
  row("devices used", u.devices_used, dp.devices_used);
  row("devices", u.devices, dp.devices);
  return out;
}

}  // namespace

std::string SimulationText(const SimulationReport& report) {
  const Scheduler& s = *report.scheduler;
  const Utilization& u = report.utilization;
  PodCounts c = CountPods(s);
  std::string out = HeadlineText(report, c);
  out += PlacementsText(s);
  if (c.pending > 0) out += PendingText(s);
  out += NodesText(u);
  if (!u.partitions.empty()) out += PartitionsText(u);
  bool shared = false;
  for (const DeviceUse& d : u.in_use) shared |= !d.capacity.empty();
  if (shared) out += SharedDevicesText(u);
  if (report.prepare != nullptr) out += PreparedText(*report.prepare);
  if (report.device_plugin != nullptr) out += ComparisonText(c, u, *report.device_plugin);
  return out;
}

}  // namespace dra::scheduler
