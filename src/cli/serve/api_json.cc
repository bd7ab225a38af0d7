// The dashboard's JSON documents.
#include "cli/serve/api_json.h"

#include <algorithm>
#include <cctype>
#include <functional>
#include <set>
#include <span>
#include <string_view>
#include <utility>

#include "dra/json/value.h"
#include "dra/json/writer.h"

namespace dra::cli::serve {
namespace {

void WriteTally(json::Writer& w, const Tally& t) {
  w.Key("free").Int(t.free);
  w.Key("allocated").Int(t.allocated);
  w.Key("tainted").Int(t.tainted);
  w.Key("partiallyConsumed").Int(t.partially_consumed);
}

void WriteTallyObject(json::Writer& w, const Tally& t) {
  w.BeginObject();
  WriteTally(w, t);
  w.EndObject();
}

// A tally with the name first.
void WriteNamedTally(json::Writer& w, std::string_view name, const Tally& t) {
  w.BeginObject().Key("name").String(name);
  WriteTally(w, t);
  w.EndObject();
}

// Exact text ("80Gi") for people, an approximate number for bars.
void WriteUse(json::Writer& w, std::string_view name, const Use& use) {
  w.BeginObject();
  w.Key("name").String(name);
  w.Key("total").String(use.total.CanonicalString());
  w.Key("consumed").String(use.consumed.CanonicalString());
  w.Key("totalValue").Number(json::FormatGoFloatG(use.total.AsApproximateDouble()));
  w.Key("consumedValue").Number(json::FormatGoFloatG(use.consumed.AsApproximateDouble()));
  w.EndObject();
}

void WriteUses(json::Writer& w, const DashboardState& s, std::span<const NamedUse> uses) {
  w.BeginArray();
  for (const NamedUse& u : uses) WriteUse(w, s.Text(u.name), u.use);
  w.EndArray();
}

void WriteStrings(json::Writer& w, const std::vector<std::string>& items) {
  w.BeginArray();
  for (const std::string& item : items) w.String(item);
  w.EndArray();
}

void WritePending(json::Writer& w, const PendingPod& p) {
  w.BeginObject();
  w.Key("namespace").String(p.namespace_);
  w.Key("name").String(p.name);
  w.Key("stage").String(p.stage);
  w.Key("message").String(p.message);
  w.Key("node").String(p.node);
  w.Key("claims");
  WriteStrings(w, p.claims);
  // Compact JSON written by ToJson (Explain), or none: null.
  w.Key("explanation");
  if (p.explanation_json.empty()) {
    w.Null();
  } else {
    w.Raw(p.explanation_json);
  }
  w.Key("explanationText").String(p.explanation);
  w.EndObject();
}

void WriteTexts(json::Writer& w, const DashboardState& s, std::span<const TextTable::Id> ids) {
  w.BeginArray();
  for (TextTable::Id id : ids) w.String(s.Text(id));
  w.EndArray();
}

void WriteDevice(json::Writer& w, const DashboardState& s, const DeviceCell& d) {
  w.BeginObject();
  w.Key("driver").String(s.Text(d.driver));
  w.Key("pool").String(s.Text(d.pool));
  w.Key("name").String(s.Text(d.name));
  w.Key("node").String(s.Text(d.node));
  if (d.reach != TextTable::kEmpty) w.Key("reach").String(s.Text(d.reach));
  w.Key("state").String(DeviceStateName(d.state));
  w.Key("partiallyConsumed").Bool(d.partially_consumed);
  w.Key("blockedByCounters").Bool(d.blocked_by_counters);
  w.Key("counterSet").String(s.Text(d.counter_set));
  w.Key("shared").Bool(d.shared);
  w.Key("capacity").BeginArray();
  for (const NamedUse& c : s.Capacity(d)) WriteUse(w, s.Text(c.name), c.use);
  w.EndArray();
  w.Key("claims");
  WriteTexts(w, s, s.Claims(d));
  w.Key("pods");
  WriteTexts(w, s, s.Pods(d));
  w.Key("taints");
  WriteTexts(w, s, s.Taints(d));
  w.Key("uuid").String(s.Text(d.uuid));
  w.Key("product").String(s.Text(d.product));
  w.EndObject();
}

std::string Lower(std::string_view text) {
  std::string s(text);
  std::transform(s.begin(), s.end(), s.begin(),
                 [](unsigned char c) { return static_cast<char>(std::tolower(c)); });
  return s;
}

void WriteHealth(json::Writer& w, const DashboardState& s, std::int64_t now) {
  w.Key("stale");
  if (s.stale_since != 0) {
    w.BeginObject();
    w.Key("since").String(Rfc3339(s.stale_since));
    w.Key("seconds").Int(now - s.stale_since);
    w.Key("reason").String(s.stale_reason);
    w.EndObject();
  } else {
    w.Null();
  }
  bool synced = true;
  for (const ResourceHealth& h : s.health) synced = synced && h.synced;
  w.Key("synced").Bool(synced);
  w.Key("informers").BeginArray();
  for (const ResourceHealth& h : s.health) {
    w.BeginObject();
    w.Key("resource").String(h.resource);
    w.Key("synced").Bool(h.synced);
    w.Key("events").Uint(h.stats.events);
    w.Key("watches").Uint(h.stats.watches);
    w.Key("errors").Uint(h.stats.list_errors + h.stats.watch_errors);
    w.EndObject();
  }
  w.EndArray();
}

// `between` runs after each entry of the long lists (pools, nodes), where
// the text written so far may be handed on.
void WritePools(json::Writer& w, const DashboardState& s, const std::function<void()>& between) {
  w.BeginArray();
  for (const PoolSummary& p : s.pools) {
    w.BeginObject();
    w.Key("driver").String(s.Text(p.driver));
    w.Key("pool").String(s.Text(p.pool));
    w.Key("node").String(s.Text(p.node));
    w.Key("complete").Bool(p.complete);
    w.Key("devices");
    WriteTallyObject(w, p.devices);
    w.Key("counters");
    WriteUses(w, s, s.Counters(p));
    w.Key("capacity");
    WriteUses(w, s, s.Capacity(p));
    w.EndObject();
    between();
  }
  w.EndArray();
}

void WriteNodes(json::Writer& w, const DashboardState& s, const std::function<void()>& between) {
  std::int64_t without_devices = 0;
  w.Key("nodes").BeginArray();
  for (const NodeSummary& n : s.nodes) {
    if (n.devices.total() == 0) {
      ++without_devices;
    } else {
      WriteNamedTally(w, s.Text(n.name), n.devices);
      between();
    }
  }
  w.EndArray();
  w.Key("nodesWithoutDevices").Int(without_devices);
  std::int64_t not_node_local = 0;
  for (const DeviceCell& d : s.devices) not_node_local += d.node == TextTable::kEmpty ? 1 : 0;
  w.Key("devicesNotNodeLocal").Int(not_node_local);
}

void WriteClaims(json::Writer& w, const DashboardState& s) {
  w.BeginArray();
  for (const auto& [ns, c] : s.claims) {
    w.BeginObject();
    w.Key("namespace").String(ns);
    w.Key("pending").Int(c.pending);
    w.Key("allocated").Int(c.allocated);
    w.Key("reserved").Int(c.reserved);
    w.Key("deallocating").Int(c.deallocating);
    w.EndObject();
  }
  w.EndArray();
}

}  // namespace

void WriteSummaryJson(const DashboardState& s, std::int64_t now,
                      const std::function<void(std::string_view)>& sink) {
  constexpr std::size_t kPiece = 64 * 1024;
  std::string out;
  out.reserve(kPiece + 4096);
  // The writer keeps its place in its own state, not in `out`: what it has
  // written can go at any point.
  auto between = [&] {
    if (out.size() < kPiece) return;
    sink(out);
    out.clear();
  };
  json::Writer w(out);
  w.BeginObject();
  w.Key("generation").Uint(s.generation);
  w.Key("computedAt").String(Rfc3339(s.computed_at));
  w.Key("ageSeconds").Int(now - s.computed_at);
  w.Key("computeSeconds").Number(json::FormatGoFloatG(s.compute_seconds));
  w.Key("computePhases").BeginObject();
  w.Key("devices").Number(json::FormatGoFloatG(s.devices_seconds));
  w.Key("claims").Number(json::FormatGoFloatG(s.claims_seconds));
  w.Key("pending").Number(json::FormatGoFloatG(s.pending_seconds));
  w.EndObject();
  w.Key("origin").String(s.origin);
  WriteHealth(w, s, now);
  w.Key("total");
  WriteTallyObject(w, s.total);
  w.Key("classes").BeginArray();
  for (const auto& [name, t] : s.classes) WriteNamedTally(w, name, t);
  w.EndArray();
  w.Key("pools");
  WritePools(w, s, between);
  WriteNodes(w, s, between);
  w.Key("claims");
  WriteClaims(w, s);
  w.Key("pending").BeginArray();
  for (const PendingPod& p : s.pending) WritePending(w, p);
  w.EndArray();
  w.Key("warnings");
  WriteStrings(w, s.warnings);
  w.EndObject();
  sink(out);
}

std::string DevicesJson(const DashboardState& s, const std::string& node, const std::string& pool,
                        bool not_node_local, std::size_t limit) {
  std::string out;
  json::Writer w(out);
  w.BeginObject();
  w.Key("generation").Uint(s.generation);
  w.Key("devices").BeginArray();
  bool truncated = false;
  std::size_t written = 0;
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
    if (written == limit) {
      truncated = true;
      break;
    }
    WriteDevice(w, s, d);
    ++written;
  }
  w.EndArray();
  w.Key("truncated").Bool(truncated);
  w.EndObject();
  return out;
}

std::string SearchJson(const DashboardState& s, const std::string& query, std::size_t limit) {
  std::string out;
  json::Writer w(out);
  w.BeginObject();
  w.Key("query").String(query);
  w.Key("results").BeginArray();
  const std::string q = Lower(query);
  bool truncated = false;
  std::size_t written = 0;
  std::set<std::string> seen;
  auto add = [&](const std::string& kind, const std::string& name, std::string_view node,
                 const std::string& detail) {
    if (!seen.insert(kind + "\n" + name).second) return;
    if (written == limit) {
      truncated = true;
      return;
    }
    w.BeginObject();
    w.Key("kind").String(kind);
    w.Key("name").String(name);
    w.Key("node").String(node);
    w.Key("detail").String(detail);
    w.EndObject();
    ++written;
  };
  auto match = [&](std::string_view text) {
    return !q.empty() && Lower(text).find(q) != std::string::npos;
  };
  if (!q.empty()) {
    for (const NodeSummary& n : s.nodes) {
      const std::string name(s.Text(n.name));
      if (n.devices.total() > 0 && match(name)) add("node", name, name, "");
    }
    for (const PoolSummary& p : s.pools) {
      const std::string id = std::string(s.Text(p.driver)) + "/" + std::string(s.Text(p.pool));
      if (match(id)) add("pool", id, std::string(s.Text(p.node)), "");
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
  w.EndArray();
  w.Key("truncated").Bool(truncated);
  w.EndObject();
  return out;
}

}  // namespace dra::cli::serve
