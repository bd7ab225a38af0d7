#include "scheduler/simulation_report.h"

#include <algorithm>
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

std::string Html(const std::string& s) {
  std::string out;
  for (char c : s) {
    switch (c) {
      case '<':
        out += "&lt;";
        break;
      case '>':
        out += "&gt;";
        break;
      case '&':
        out += "&amp;";
        break;
      case '"':
        out += "&quot;";
        break;
      default:
        out += c;
    }
  }
  return out;
}

struct Counts {
  std::int64_t scheduled = 0, pending = 0, finished = 0;
};

Counts CountPods(const Scheduler& s) {
  Counts c;
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

}  // namespace

Utilization ComputeUtilization(const Scheduler& scheduler,
                               const std::vector<api::ResourceSlice>& slices) {
  Utilization u;
  const Cluster& cluster = scheduler.cluster();
  struct DeviceRef {
    const api::Device* device;
    const api::ResourceSlice* slice;
    std::string node;
  };
  std::unordered_map<std::string, DeviceRef> devices;
  std::map<std::string, std::size_t> partition_index;  // driver/pool/set
  std::map<std::string, NodeUtilization> nodes;
  for (const api::Node& n : cluster.nodes) nodes[n.metadata.name].name = n.metadata.name;
  std::map<std::string, bool> whole_used;  // whole device key -> used
  std::map<std::string, std::string> whole_node;

  for (const api::ResourceSlice& slice : slices) {
    std::string pool = slice.spec.driver + "/" + slice.spec.pool.name + "/";
    std::string slice_node = slice.spec.node_name.value_or("");
    for (const api::CounterSet& cs : slice.spec.shared_counters) {
      std::string key = pool + cs.name;
      if (partition_index.contains(key)) continue;
      PartitionUse p{slice.spec.driver, slice.spec.pool.name, cs.name, slice_node, {}};
      for (const auto& [name, counter] : cs.counters) {
        p.counters.push_back({name, {0.0, counter.value.AsApproximateDouble()}});
      }
      partition_index[key] = u.partitions.size();
      u.partitions.push_back(std::move(p));
    }
  }
  for (const api::ResourceSlice& slice : slices) {
    std::string pool = slice.spec.driver + "/" + slice.spec.pool.name + "/";
    for (const api::Device& d : slice.spec.devices) {
      std::string node = d.node_name ? *d.node_name : slice.spec.node_name.value_or("");
      devices[pool + d.name] = {&d, &slice, node};
      std::string whole = d.consumes_counters.empty()
                              ? "device:" + pool + d.name
                              : "counters:" + pool + d.consumes_counters.front().counter_set;
      if (!whole_used.contains(whole)) {
        whole_used[whole] = false;
        whole_node[whole] = node;
      }
      if (!d.consumes_counters.empty()) {
        auto p = partition_index.find(pool + d.consumes_counters.front().counter_set);
        if (p != partition_index.end() && u.partitions[p->second].node.empty()) {
          u.partitions[p->second].node = node;
        }
      }
    }
  }

  std::map<std::string, std::size_t> use_index;
  for (const api::ResourceClaim* claim : scheduler.Claims()) {
    if (!claim->status.allocation) continue;
    std::string claim_key = claim->metadata.namespace_ + "/" + claim->metadata.name;
    for (const api::DeviceRequestAllocationResult& r : claim->status.allocation->devices.results) {
      if (r.admin_access.value_or(false)) continue;
      std::string pool = r.driver + "/" + r.pool + "/";
      std::string id = pool + r.device;
      auto ref = devices.find(id);
      auto [it, inserted] = use_index.emplace(id, u.in_use.size());
      if (inserted) {
        DeviceUse use{r.driver, r.pool, r.device, ref == devices.end() ? "" : ref->second.node,
                      {},       {}};
        if (ref != devices.end() &&
            ref->second.device->allow_multiple_allocations.value_or(false)) {
          for (const auto& [name, cap] : ref->second.device->capacity) {
            use.capacity.push_back({name, {0.0, cap.value.AsApproximateDouble()}});
          }
        }
        u.in_use.push_back(std::move(use));
      }
      DeviceUse& use = u.in_use[it->second];
      if (use.claims.empty() || use.claims.back() != claim_key) use.claims.push_back(claim_key);
      for (const auto& [name, q] : r.consumed_capacity) {
        for (auto& [cap_name, values] : use.capacity) {
          if (cap_name == name) values.first += q.AsApproximateDouble();
        }
      }
      if (ref == devices.end()) continue;
      const api::Device& d = *ref->second.device;
      if (d.consumes_counters.empty()) {
        whole_used["device:" + id] = true;
        continue;
      }
      whole_used["counters:" + pool + d.consumes_counters.front().counter_set] = true;
      for (const api::DeviceCounterConsumption& cc : d.consumes_counters) {
        auto p = partition_index.find(pool + cc.counter_set);
        if (p == partition_index.end()) continue;
        for (auto& [name, values] : u.partitions[p->second].counters) {
          auto c = cc.counters.find(name);
          if (c != cc.counters.end()) values.first += c->second.value.AsApproximateDouble();
        }
      }
    }
  }
  for (const auto& [key, used] : whole_used) {
    const std::string& node = whole_node[key];
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
  for (const api::Node& n : cluster.nodes) u.nodes.push_back(nodes[n.metadata.name]);
  return u;
}

json::Value SimulationJson(const SimulationReport& report) {
  const Scheduler& s = *report.scheduler;
  const Utilization& u = report.utilization;
  Value root = Value::Object();
  Value pods = Value::Array();
  auto prepared = PreparedPods(report.prepare);
  for (const PodRecord& p : s.pods()) {
    if (p.deleted) continue;
    Value v = Value::Object();
    Put(v, "namespace", Str(p.pod.metadata.namespace_));
    Put(v, "name", Str(p.pod.metadata.name));
    Put(v, "node", p.state == PodState::kBound ? Str(p.node) : Value{});
    Put(v, "phase", Str(PodStateName(p.state)));
    if (p.state != PodState::kBound && !p.reason.empty()) Put(v, "reason", Str(p.reason));
    Value claims = Value::Array();
    for (const std::string& c : p.claims) claims.items.push_back(Str(c));
    if (!p.claims.empty()) Put(v, "claims", std::move(claims));
    if (p.waited_for_binding_conditions) Put(v, "bindingConditions", Str("met"));
    if (p.explanation) Put(v, "explanation", allocator::ExplanationValue(*p.explanation));
    if (auto it = prepared.find(p.pod.metadata.namespace_ + "/" + p.pod.metadata.name);
        p.state == PodState::kBound && it != prepared.end()) {
      Value containers = Value::Array();
      for (const PreparedContainer& c : it->second->containers) {
        Value cv = Value::Object();
        Put(cv, "name", Str(c.name));
        if (c.init) Put(cv, "init", Value::Bool(true));
        Value ids = Value::Array();
        for (const std::string& id : c.cdi_devices) ids.items.push_back(Str(id));
        Put(cv, "cdiDevices", std::move(ids));
        containers.items.push_back(std::move(cv));
      }
      Put(v, "containers", std::move(containers));
      if (!it->second->errors.empty()) {
        Value errors = Value::Array();
        for (const std::string& e : it->second->errors) errors.items.push_back(Str(e));
        Put(v, "prepareErrors", std::move(errors));
      }
    }
    pods.items.push_back(std::move(v));
  }
  Put(root, "pods", std::move(pods));

  Counts c = CountPods(s);
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
  Put(root, "summary", std::move(summary));

  Value nodes = Value::Array();
  for (const NodeUtilization& n : u.nodes) {
    Value v = Value::Object();
    Put(v, "name", Str(n.name));
    Put(v, "pods", Int(n.pods));
    Put(v, "devices", Int(n.devices));
    Put(v, "devicesUsed", Int(n.devices_used));
    nodes.items.push_back(std::move(v));
  }
  Put(root, "nodes", std::move(nodes));

  Value devices = Value::Array();
  for (const DeviceUse& d : u.in_use) {
    Value v = Value::Object();
    Put(v, "driver", Str(d.driver));
    Put(v, "pool", Str(d.pool));
    Put(v, "device", Str(d.device));
    Put(v, "node", d.node.empty() ? Value{} : Str(d.node));
    Value claims = Value::Array();
    for (const std::string& c : d.claims) claims.items.push_back(Str(c));
    Put(v, "claims", std::move(claims));
    if (!d.capacity.empty()) {
      Value cap = Value::Object();
      for (const auto& [name, values] : d.capacity) {
        Value x = Value::Object();
        Put(x, "consumed", Num(values.first));
        Put(x, "total", Num(values.second));
        Put(cap, name, std::move(x));
      }
      Put(v, "capacity", std::move(cap));
    }
    devices.items.push_back(std::move(v));
  }
  Put(root, "devices", std::move(devices));

  Value partitions = Value::Array();
  for (const PartitionUse& p : u.partitions) {
    Value v = Value::Object();
    Put(v, "driver", Str(p.driver));
    Put(v, "pool", Str(p.pool));
    Put(v, "counterSet", Str(p.counter_set));
    Put(v, "node", p.node.empty() ? Value{} : Str(p.node));
    Value counters = Value::Object();
    for (const auto& [name, values] : p.counters) {
      Value x = Value::Object();
      Put(x, "consumed", Num(values.first));
      Put(x, "total", Num(values.second));
      Put(counters, name, std::move(x));
    }
    Put(v, "counters", std::move(counters));
    partitions.items.push_back(std::move(v));
  }
  Put(root, "partitions", std::move(partitions));

  if (!s.cluster().warnings.empty()) {
    Value w = Value::Array();
    for (const std::string& x : s.cluster().warnings) w.items.push_back(Str(x));
    Put(root, "warnings", std::move(w));
  }

  if (report.device_plugin != nullptr) {
    const DevicePluginResult& dp = *report.device_plugin;
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
    Put(root, "devicePlugin", std::move(v));
  }
  if (report.prepare != nullptr) {
    const PrepareReport& pr = *report.prepare;
    Value v = Value::Object();
    Put(v, "nodes", Int(pr.nodes));
    Put(v, "claimsPrepared", Int(pr.claims_prepared));
    Put(v, "cdiDevices", Int(pr.cdi_devices));
    Put(v, "failures", Int(pr.failures));
    Put(v, "seconds", Num(pr.seconds));
    Value errors = Value::Array();
    for (const std::string& e : pr.errors) errors.items.push_back(Str(e));
    Put(v, "errors", std::move(errors));
    Put(root, "prepare", std::move(v));
  }
  return root;
}

namespace {

std::string PrepareSummaryText(const PrepareReport& pr) {
  return "Prepared " + std::to_string(pr.claims_prepared) + " claims on " +
         std::to_string(pr.nodes) + " nodes: " + std::to_string(pr.cdi_devices) +
         " CDI device IDs, " + std::to_string(pr.failures) + " failures, in " +
         Fixed(pr.seconds * 1000, 1) + " ms";
}

}  // namespace

std::string SimulationText(const SimulationReport& report) {
  const Scheduler& s = *report.scheduler;
  const Utilization& u = report.utilization;
  Counts c = CountPods(s);
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

  out += "\nPLACEMENTS\n";
  for (const PodRecord& p : s.pods()) {
    if (p.deleted || p.state != PodState::kBound) continue;
    out += "  " + p.pod.metadata.namespace_ + "/" + p.pod.metadata.name + " -> " + p.node;
    if (!p.claims.empty()) {
      out += "  [";
      for (std::size_t i = 0; i < p.claims.size(); ++i) out += (i ? ", " : "") + p.claims[i];
      out += "]";
    }
    out += "\n";
  }
  if (c.pending > 0) {
    out += "\nPENDING\n";
    for (const PodRecord& p : s.pods()) {
      if (p.deleted || p.state != PodState::kPending) continue;
      out += "  " + p.pod.metadata.namespace_ + "/" + p.pod.metadata.name + ": " + p.reason + "\n";
      if (p.explanation) {
        std::string text = allocator::ExplanationText(*p.explanation);
        std::size_t pos = 0;
        while (pos < text.size()) {
          std::size_t end = text.find('\n', pos);
          if (end == std::string::npos) end = text.size();
          out += "    " + text.substr(pos, end - pos) + "\n";
          pos = end + 1;
        }
      }
    }
  }
  out += "\nNODES\n";
  for (const NodeUtilization& n : u.nodes) {
    out += "  " + n.name + ": " + std::to_string(n.pods) + " pods, devices " +
           std::to_string(n.devices_used) + "/" + std::to_string(n.devices) + " (" +
           Percent(static_cast<double>(n.devices_used), static_cast<double>(n.devices)) + ")\n";
  }
  if (!u.partitions.empty()) {
    out += "\nPARTITIONS (counter sets)\n";
    for (const PartitionUse& p : u.partitions) {
      out += "  " + p.driver + "/" + p.pool + "/" + p.counter_set +
             (p.node.empty() ? "" : " on " + p.node) + ":";
      for (const auto& [name, values] : p.counters) {
        out += " " + name + " " + Percent(values.first, values.second);
      }
      out += "\n";
    }
  }
  bool shared = false;
  for (const DeviceUse& d : u.in_use) shared |= !d.capacity.empty();
  if (shared) {
    out += "\nSHARED DEVICES (consumable capacity)\n";
    for (const DeviceUse& d : u.in_use) {
      if (d.capacity.empty()) continue;
      out += "  " + d.driver + "/" + d.pool + "/" + d.device + ": " +
             std::to_string(d.claims.size()) + " claims;";
      for (const auto& [name, values] : d.capacity) {
        out += " " + name + " " + Percent(values.first, values.second);
      }
      out += "\n";
    }
  }
  if (report.prepare != nullptr) {
    const PrepareReport& pr = *report.prepare;
    out += "\nPREPARED (CDI devices per container)\n";
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
  }
  if (report.device_plugin != nullptr) {
    const DevicePluginResult& dp = *report.device_plugin;
    out += "\nCOMPARISON          DRA    device plugin\n";
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
  }
  return out;
}

namespace {

// A horizontal bar: `used` of `total`, with a label and a value text.
std::string Bar(const std::string& label, double used, double total, const std::string& color,
                int y) {
  double frac = total > 0 ? std::min(1.0, used / total) : 0;
  std::string out = "<text x=\"0\" y=\"" + std::to_string(y + 13) + "\">" + Html(label) +
                    "</text><rect x=\"220\" y=\"" + std::to_string(y) +
                    "\" width=\"400\" height=\"16\" fill=\"#eee\"/><rect x=\"220\" y=\"" +
                    std::to_string(y) + "\" width=\"" + Fixed(400 * frac, 1) +
                    "\" height=\"16\" fill=\"" + color + "\"/><text x=\"630\" y=\"" +
                    std::to_string(y + 13) + "\">" + Fixed(used, 0) + " / " + Fixed(total, 0) +
                    " (" + Percent(used, total) + ")</text>";
  return out;
}

std::string Chart(const std::string& title, const std::vector<std::string>& bars) {
  std::string out = "<h2>" + Html(title) + "</h2><svg width=\"820\" height=\"" +
                    std::to_string(bars.size() * 22 + 4) +
                    "\" xmlns=\"http://www.w3.org/2000/svg\" font-size=\"12\" "
                    "font-family=\"sans-serif\">";
  for (const std::string& b : bars) out += b;
  return out + "</svg>";
}

}  // namespace

std::string SimulationHtml(const SimulationReport& report) {
  const Scheduler& s = *report.scheduler;
  const Utilization& u = report.utilization;
  Counts c = CountPods(s);
  std::string out =
      "<!DOCTYPE html><html><head><meta charset=\"utf-8\"><title>dra simulate</title><style>"
      "body{font-family:sans-serif;margin:2em;color:#222}table{border-collapse:collapse}"
      "td,th{border:1px solid #ccc;padding:3px 8px;text-align:left;font-size:13px}"
      "th{background:#f4f4f4}.pending{color:#b00}.kpi{display:inline-block;margin:0 2em 1em 0}"
      ".kpi b{font-size:28px;display:block}pre{margin:0;font-size:12px}</style></head><body>";
  out += "<h1>DRA scheduling simulation</h1>";
  auto kpi = [&](const std::string& label, const std::string& value) {
    out += "<div class=\"kpi\"><b>" + Html(value) + "</b>" + Html(label) + "</div>";
  };
  kpi("pods scheduled", std::to_string(c.scheduled));
  kpi("pods pending", std::to_string(c.pending));
  kpi("nodes", std::to_string(s.nodes().size()));
  kpi("devices in use", std::to_string(u.devices_used) + " / " + std::to_string(u.devices));
  kpi("scheduling time", Fixed(report.schedule_seconds * 1000, 1) + " ms");

  std::vector<std::string> bars;
  int y = 2;
  bars.push_back(Bar("DRA: pods scheduled", static_cast<double>(c.scheduled),
                     static_cast<double>(c.scheduled + c.pending), "#2a7", y));
  y += 22;
  bars.push_back(Bar("DRA: devices used", static_cast<double>(u.devices_used),
                     static_cast<double>(u.devices), "#27a", y));
  y += 22;
  if (report.device_plugin != nullptr) {
    const DevicePluginResult& dp = *report.device_plugin;
    bars.push_back(Bar("device plugin: pods scheduled", static_cast<double>(dp.scheduled),
                       static_cast<double>(dp.scheduled + dp.pending), "#a72", y));
    y += 22;
    bars.push_back(Bar("device plugin: devices used", static_cast<double>(dp.devices_used),
                       static_cast<double>(dp.devices), "#a52", y));
  }
  out +=
      Chart(report.device_plugin ? "DRA compared with the device-plugin model" : "Overview", bars);

  bars.clear();
  y = 2;
  for (const NodeUtilization& n : u.nodes) {
    bars.push_back(Bar(n.name + " (" + std::to_string(n.pods) + " pods)",
                       static_cast<double>(n.devices_used), static_cast<double>(n.devices), "#27a",
                       y));
    y += 22;
  }
  out += Chart("Devices in use per node", bars);

  if (!u.partitions.empty()) {
    bars.clear();
    y = 2;
    for (const PartitionUse& p : u.partitions) {
      for (const auto& [name, values] : p.counters) {
        bars.push_back(
            Bar(p.pool + "/" + p.counter_set + " " + name, values.first, values.second, "#72a", y));
        y += 22;
      }
    }
    out += Chart("Partitionable devices: counters consumed", bars);
  }
  bars.clear();
  y = 2;
  for (const DeviceUse& d : u.in_use) {
    for (const auto& [name, values] : d.capacity) {
      bars.push_back(
          Bar(d.pool + "/" + d.device + " " + name, values.first, values.second, "#2aa", y));
      y += 22;
    }
  }
  if (!bars.empty()) out += Chart("Shared devices: capacity consumed", bars);

  if (c.pending > 0) {
    out += "<h2>Pending pods</h2><table><tr><th>Pod</th><th>Reason</th><th>Explanation</th></tr>";
    for (const PodRecord& p : s.pods()) {
      if (p.deleted || p.state != PodState::kPending) continue;
      out += "<tr><td>" + Html(p.pod.metadata.namespace_ + "/" + p.pod.metadata.name) +
             "</td><td class=\"pending\">" + Html(p.reason) + "</td><td><pre>" +
             (p.explanation ? Html(allocator::ExplanationText(*p.explanation)) : "") +
             "</pre></td></tr>";
    }
    out += "</table>";
  }
  out += "<h2>Placements</h2><table><tr><th>Pod</th><th>Node</th><th>Claims</th></tr>";
  for (const PodRecord& p : s.pods()) {
    if (p.deleted || p.state != PodState::kBound) continue;
    std::string claims;
    for (std::size_t i = 0; i < p.claims.size(); ++i) claims += (i ? ", " : "") + p.claims[i];
    out += "<tr><td>" + Html(p.pod.metadata.namespace_ + "/" + p.pod.metadata.name) + "</td><td>" +
           Html(p.node) + "</td><td>" + Html(claims) + "</td></tr>";
  }
  out += "</table>";
  if (report.prepare != nullptr) {
    const PrepareReport& pr = *report.prepare;
    out += "<h2>Prepared devices</h2><p>" + Html(PrepareSummaryText(pr)) +
           "</p><table><tr><th>Pod</th><th>Node</th><th>Container</th><th>CDI devices</th></tr>";
    for (const PreparedPod& p : pr.pods) {
      std::string pod = Html(p.namespace_ + "/" + p.name);
      for (const PreparedContainer& c : p.containers) {
        out += "<tr><td>" + pod + "</td><td>" + Html(p.node) + "</td><td>" +
               Html((c.init ? "init: " : "") + c.name) + "</td><td>" +
               Html(Joined(c.cdi_devices, ", ")) + "</td></tr>";
      }
      for (const std::string& e : p.errors) {
        out += "<tr><td>" + pod + "</td><td>" + Html(p.node) +
               "</td><td></td><td class=\"pending\">" + Html(e) + "</td></tr>";
      }
    }
    out += "</table>";
    if (!pr.errors.empty()) {
      out += "<ul>";
      for (const std::string& e : pr.errors) out += "<li class=\"pending\">" + Html(e) + "</li>";
      out += "</ul>";
    }
  }
  if (!s.cluster().warnings.empty()) {
    out += "<h2>Warnings</h2><ul>";
    for (const std::string& w : s.cluster().warnings) out += "<li>" + Html(w) + "</li>";
    out += "</ul>";
  }
  return out + "</body></html>\n";
}

}  // namespace dra::scheduler
