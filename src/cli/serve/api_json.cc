// The dashboard's JSON documents.
#include "cli/serve/api_json.h"

#include <algorithm>
#include <cctype>
#include <set>
#include <span>
#include <string_view>
#include <utility>

#include "dra/json/build.h"

namespace dra::cli::serve {
namespace {

using json::Int;
using json::Put;
using json::Str;
using json::Value;

Value TallyValue(const Tally& t) {
  Value v = Value::Object();
  Put(v, "free", Int(t.free));
  Put(v, "allocated", Int(t.allocated));
  Put(v, "tainted", Int(t.tainted));
  Put(v, "partiallyConsumed", Int(t.partially_consumed));
  return v;
}

// Exact text ("80Gi") for people, an approximate number for bars.
Value UseValue(const std::string& name, const Use& use) {
  Value v = Value::Object();
  Put(v, "name", Str(name));
  Put(v, "total", Str(use.total.CanonicalString()));
  Put(v, "consumed", Str(use.consumed.CanonicalString()));
  Put(v, "totalValue", Value::Number(json::FormatGoFloatG(use.total.AsApproximateDouble())));
  Put(v, "consumedValue", Value::Number(json::FormatGoFloatG(use.consumed.AsApproximateDouble())));
  return v;
}

Value UsesValue(const std::map<std::string, Use>& uses) {
  Value out = Value::Array();
  for (const auto& [name, use] : uses) json::Push(out, UseValue(name, use));
  return out;
}

Value PendingValue(const PendingPod& p) {
  Value v = Value::Object();
  Put(v, "namespace", Str(p.namespace_));
  Put(v, "name", Str(p.name));
  Put(v, "stage", Str(p.stage));
  Put(v, "message", Str(p.message));
  Put(v, "node", Str(p.node));
  Put(v, "claims", json::StringArray(p.claims));
  Value explanation;  // null when none
  if (!p.explanation_json.empty()) {
    if (Result<Value> parsed = json::ParseJson(p.explanation_json); parsed.ok()) {
      explanation = std::move(*parsed);
    }
  }
  Put(v, "explanation", std::move(explanation));
  Put(v, "explanationText", Str(p.explanation));
  return v;
}

Value Strs(const DashboardState& s, std::span<const TextTable::Id> ids) {
  Value out = Value::Array();
  for (TextTable::Id id : ids) json::Push(out, Str(std::string(s.Text(id))));
  return out;
}

Value DeviceValue(const DashboardState& s, const DeviceCell& d) {
  auto text = [&s](TextTable::Id id) { return Str(std::string(s.Text(id))); };
  Value v = Value::Object();
  Put(v, "driver", text(d.driver));
  Put(v, "pool", text(d.pool));
  Put(v, "name", text(d.name));
  Put(v, "node", text(d.node));
  if (d.reach != TextTable::kEmpty) Put(v, "reach", text(d.reach));
  Put(v, "state", Str(DeviceStateName(d.state)));
  Put(v, "partiallyConsumed", Value::Bool(d.partially_consumed));
  Put(v, "blockedByCounters", Value::Bool(d.blocked_by_counters));
  Put(v, "counterSet", text(d.counter_set));
  Put(v, "shared", Value::Bool(d.shared));
  Value capacity = Value::Array();
  for (const NamedUse& c : s.Capacity(d)) {
    json::Push(capacity, UseValue(std::string(s.Text(c.name)), c.use));
  }
  Put(v, "capacity", std::move(capacity));
  Put(v, "claims", Strs(s, s.Claims(d)));
  Put(v, "pods", Strs(s, s.Pods(d)));
  Put(v, "taints", Strs(s, s.Taints(d)));
  Put(v, "uuid", text(d.uuid));
  Put(v, "product", text(d.product));
  return v;
}

std::string Lower(std::string_view text) {
  std::string s(text);
  std::transform(s.begin(), s.end(), s.begin(),
                 [](unsigned char c) { return static_cast<char>(std::tolower(c)); });
  return s;
}

}  // namespace

namespace {

void PutHealth(const DashboardState& s, std::int64_t now, Value& v) {
  if (s.stale_since != 0) {
    Value stale = Value::Object();
    Put(stale, "since", Str(Rfc3339(s.stale_since)));
    Put(stale, "seconds", Int(now - s.stale_since));
    Put(stale, "reason", Str(s.stale_reason));
    Put(v, "stale", std::move(stale));
  } else {
    Put(v, "stale", Value());
  }
  bool synced = true;
  Value informers = Value::Array();
  for (const ResourceHealth& h : s.health) {
    synced = synced && h.synced;
    Value i = Value::Object();
    Put(i, "resource", Str(h.resource));
    Put(i, "synced", Value::Bool(h.synced));
    Put(i, "events", json::Uint(h.stats.events));
    Put(i, "watches", json::Uint(h.stats.watches));
    Put(i, "errors", json::Uint(h.stats.list_errors + h.stats.watch_errors));
    json::Push(informers, std::move(i));
  }
  Put(v, "synced", Value::Bool(synced));
  Put(v, "informers", std::move(informers));
}

// A tally with the name first.
Value NamedTally(const std::string& name, const Tally& t) {
  Value v = TallyValue(t);
  v.members.insert(v.members.begin(), json::Member{"name", Str(name), {}});
  return v;
}

Value PoolsValue(const DashboardState& s) {
  Value pools = Value::Array();
  for (const PoolSummary& p : s.pools) {
    Value j = Value::Object();
    Put(j, "driver", Str(p.driver));
    Put(j, "pool", Str(p.pool));
    Put(j, "node", Str(p.node));
    Put(j, "complete", Value::Bool(p.complete));
    Put(j, "devices", TallyValue(p.devices));
    Put(j, "counters", UsesValue(p.counters));
    Put(j, "capacity", UsesValue(p.capacity));
    json::Push(pools, std::move(j));
  }
  return pools;
}

void PutNodes(const DashboardState& s, Value& v) {
  Value nodes = Value::Array();
  std::int64_t without_devices = 0;
  for (const NodeSummary& n : s.nodes) {
    if (n.devices.total() == 0) {
      ++without_devices;
    } else {
      json::Push(nodes, NamedTally(n.name, n.devices));
    }
  }
  Put(v, "nodes", std::move(nodes));
  Put(v, "nodesWithoutDevices", Int(without_devices));
  std::int64_t not_node_local = 0;
  for (const DeviceCell& d : s.devices) not_node_local += d.node == TextTable::kEmpty ? 1 : 0;
  Put(v, "devicesNotNodeLocal", Int(not_node_local));
}

Value ClaimsValue(const DashboardState& s) {
  Value claims = Value::Array();
  for (const auto& [ns, c] : s.claims) {
    Value j = Value::Object();
    Put(j, "namespace", Str(ns));
    Put(j, "pending", Int(c.pending));
    Put(j, "allocated", Int(c.allocated));
    Put(j, "reserved", Int(c.reserved));
    Put(j, "deallocating", Int(c.deallocating));
    json::Push(claims, std::move(j));
  }
  return claims;
}

}  // namespace

std::string SummaryJson(const DashboardState& s, std::int64_t now) {
  Value v = Value::Object();
  Put(v, "generation", json::Uint(s.generation));
  Put(v, "computedAt", Str(Rfc3339(s.computed_at)));
  Put(v, "ageSeconds", Int(now - s.computed_at));
  Put(v, "computeSeconds", Value::Number(json::FormatGoFloatG(s.compute_seconds)));
  Value phases = Value::Object();
  Put(phases, "devices", Value::Number(json::FormatGoFloatG(s.devices_seconds)));
  Put(phases, "claims", Value::Number(json::FormatGoFloatG(s.claims_seconds)));
  Put(phases, "pending", Value::Number(json::FormatGoFloatG(s.pending_seconds)));
  Put(v, "computePhases", std::move(phases));
  Put(v, "origin", Str(s.origin));
  PutHealth(s, now, v);
  Put(v, "total", TallyValue(s.total));
  Value classes = Value::Array();
  for (const auto& [name, t] : s.classes) json::Push(classes, NamedTally(name, t));
  Put(v, "classes", std::move(classes));
  Put(v, "pools", PoolsValue(s));
  PutNodes(s, v);
  Put(v, "claims", ClaimsValue(s));
  Value pending = Value::Array();
  for (const PendingPod& p : s.pending) json::Push(pending, PendingValue(p));
  Put(v, "pending", std::move(pending));
  Put(v, "warnings", json::StringArray(s.warnings));
  return json::ToJson(v);
}

std::string DevicesJson(const DashboardState& s, const std::string& node, const std::string& pool,
                        bool not_node_local, std::size_t limit) {
  Value devices = Value::Array();
  bool truncated = false;
  // "driver/pool": a driver name has no '/', a pool name may.
  const std::size_t slash = pool.find('/');
  const std::string_view pool_driver = std::string_view(pool).substr(0, slash);
  const std::string_view pool_name =
      slash == std::string::npos ? std::string_view() : std::string_view(pool).substr(slash + 1);
  for (const DeviceCell& d : s.devices) {
    bool keep = false;
    if (!node.empty()) keep = s.Text(d.node) == node;
    if (!pool.empty()) {
      keep = slash != std::string::npos && s.Text(d.driver) == pool_driver &&
             s.Text(d.pool) == pool_name;
    }
    if (not_node_local) keep = d.node == TextTable::kEmpty;
    if (!keep) continue;
    if (devices.items.size() == limit) {
      truncated = true;
      break;
    }
    json::Push(devices, DeviceValue(s, d));
  }
  Value v = Value::Object();
  Put(v, "generation", json::Uint(s.generation));
  Put(v, "devices", std::move(devices));
  Put(v, "truncated", Value::Bool(truncated));
  return json::ToJson(v);
}

std::string SearchJson(const DashboardState& s, const std::string& query, std::size_t limit) {
  Value results = Value::Array();
  const std::string q = Lower(query);
  bool truncated = false;
  std::set<std::string> seen;
  auto add = [&](const std::string& kind, const std::string& name, std::string_view node,
                 const std::string& detail) {
    if (!seen.insert(kind + "\n" + name).second) return;
    if (results.items.size() == limit) {
      truncated = true;
      return;
    }
    Value r = Value::Object();
    Put(r, "kind", Str(kind));
    Put(r, "name", Str(name));
    Put(r, "node", Str(std::string(node)));
    Put(r, "detail", Str(detail));
    json::Push(results, std::move(r));
  };
  auto match = [&](std::string_view text) {
    return !q.empty() && Lower(text).find(q) != std::string::npos;
  };
  if (!q.empty()) {
    for (const NodeSummary& n : s.nodes) {
      if (n.devices.total() > 0 && match(n.name)) add("node", n.name, n.name, "");
    }
    for (const PoolSummary& p : s.pools) {
      if (match(p.driver + "/" + p.pool)) add("pool", p.driver + "/" + p.pool, p.node, "");
    }
    for (const DeviceCell& d : s.devices) {
      const std::string_view node = s.Text(d.node), uuid = s.Text(d.uuid);
      if (match(s.Text(d.name)) || match(uuid)) {
        add("device", s.DeviceName(d), node,
            std::string(DeviceStateName(d.state)) +
                (uuid.empty() ? "" : ", uuid " + std::string(uuid)));
      }
      for (TextTable::Id pod : s.Pods(d)) {
        if (match(s.Text(pod))) add("pod", std::string(s.Text(pod)), node, s.DeviceName(d));
      }
      for (TextTable::Id claim : s.Claims(d)) {
        if (match(s.Text(claim))) add("claim", std::string(s.Text(claim)), node, s.DeviceName(d));
      }
    }
    for (const PendingPod& p : s.pending) {
      if (match(p.namespace_ + "/" + p.name)) {
        add("pod", p.namespace_ + "/" + p.name, "", "pending: " + p.stage);
      }
      for (const std::string& claim : p.claims) {
        if (match(claim)) add("claim", claim, "", "pending: " + p.stage);
      }
    }
  }
  Value v = Value::Object();
  Put(v, "query", Str(query));
  Put(v, "results", std::move(results));
  Put(v, "truncated", Value::Bool(truncated));
  return json::ToJson(v);
}

}  // namespace dra::cli::serve
