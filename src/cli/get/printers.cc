#include "cli/get/printers.h"

#include <algorithm>
#include <array>
#include <cctype>
#include <string_view>

#include "api/codec/time_format.h"
#include "dra/json/build.h"

namespace dra::cli::get {
namespace {

using json::Int;
using json::Put;
using json::StringArray;

using json::Value;

Value ListDocument(std::string_view kind, Value items) {
  Value out = Value::Object();
  Put(out, "kind", Value::String(std::string(kind)));
  Put(out, "apiVersion", Value::String(kListApiVersion));
  Put(out, "items", std::move(items));
  return out;
}

std::string Join(const std::vector<std::string>& items, std::string_view sep = ",") {
  std::string out;
  for (const std::string& s : items) {
    if (!out.empty()) out += sep;
    out += s;
  }
  return out.empty() ? "<none>" : out;
}

template <class T, class F>
std::string JoinList(const T& items, F text) {
  std::string out;
  for (const auto& item : items) out += (out.empty() ? "" : ",") + text(item);
  return out;
}

// kubectl prints an empty cell as <none>.
std::string Cell(const std::string& s) { return s.empty() ? "<none>" : s; }

std::string AttributeId(const std::string& name) {
  auto slash = name.rfind('/');
  return slash == std::string::npos ? name : name.substr(slash + 1);
}

std::string AttributesText(const api::Device& device, bool all) {
  std::vector<std::string> parts;
  for (const auto& [name, value] : device.attributes) {
    if (!all && !IsKeyAttribute(name)) continue;
    parts.push_back((all ? name : AttributeId(name)) + "=" + AttributeValueText(value));
  }
  return Join(parts);
}

std::string TaintText(const RowTaint& t) {
  std::string out = t.taint->key;
  if (!t.taint->value.empty()) out += "=" + t.taint->value;
  return out + ":" + t.taint->effect;
}

std::string QuantitiesText(const std::map<std::string, api::Quantity>& q) {
  return JoinList(q, [](const auto& kv) { return kv.first + "=" + kv.second.String(); });
}

std::string CountersText(const std::map<std::string, api::Counter>& c) {
  return JoinList(c, [](const auto& kv) { return kv.first + "=" + kv.second.value.String(); });
}

// Partitionable: "<counterSet>:<counter>=<value>,..." per set; shared:
// "left:<capacity>=<value>,...". Joined by ";".
std::string UsageText(const DeviceRow& row) {
  std::vector<std::string> parts;
  for (const api::DeviceCounterConsumption& c : row.device->consumes_counters) {
    parts.push_back(c.counter_set + ":" + CountersText(c.counters));
  }
  if (row.shared) parts.push_back("left:" + QuantitiesText(row.capacity_left));
  return Join(parts, ";");
}

std::string ClaimsText(const DeviceRow& row) {
  std::vector<std::string> parts;
  for (const std::string& c : row.claims) {
    bool admin =
        std::binary_search(row.admin_access_claims.begin(), row.admin_access_claims.end(), c);
    parts.push_back(admin ? c + "(admin)" : c);
  }
  return Join(parts);
}

Value AttributeJson(const api::DeviceAttribute& a) {
  Value out = Value::Object();
  if (a.int_value) Put(out, "int", Value::Number(std::to_string(*a.int_value)));
  if (a.bool_value) Put(out, "bool", Value::Bool(*a.bool_value));
  if (a.string_value) Put(out, "string", Value::String(*a.string_value));
  if (a.version_value) Put(out, "version", Value::String(*a.version_value));
  auto list = [&](const char* key, const auto& values, auto make) {
    if (values.nil()) return;
    Value arr = Value::Array();
    for (const auto& v : values) arr.items.push_back(make(v));
    Put(out, key, std::move(arr));
  };
  list("ints", a.int_values, [](std::int64_t v) { return Value::Number(std::to_string(v)); });
  list("bools", a.bool_values, [](bool v) { return Value::Bool(v); });
  list("strings", a.string_values, [](const std::string& v) { return Value::String(v); });
  list("versions", a.version_values, [](const std::string& v) { return Value::String(v); });
  return out;
}

Value QuantityMapJson(const std::map<std::string, api::Quantity>& q) {
  Value out = Value::Object();
  for (const auto& [name, value] : q) Put(out, name, Value::String(value.String()));
  return out;
}

Value DeviceJson(const DeviceRow& row) {
  Value out = Value::Object();
  Put(out, "driver", Value::String(row.driver()));
  Put(out, "pool", Value::String(row.pool()));
  Put(out, "device", Value::String(row.name()));
  Put(out, "node", Value::String(row.node));
  Value attributes = Value::Object();
  for (const auto& [name, value] : row.device->attributes) {
    Put(attributes, name, AttributeJson(value));
  }
  Put(out, "attributes", std::move(attributes));
  std::map<std::string, api::Quantity> capacity;
  for (const auto& [name, c] : row.device->capacity) capacity.emplace(name, c.value);
  Put(out, "capacity", QuantityMapJson(capacity));
  Value taints = Value::Array();
  for (const RowTaint& t : row.taints) {
    Value taint = Value::Object();
    Put(taint, "key", Value::String(t.taint->key));
    if (!t.taint->value.empty()) Put(taint, "value", Value::String(t.taint->value));
    Put(taint, "effect", Value::String(t.taint->effect));
    if (!t.taint->time_added.IsZero()) {
      Put(taint, "timeAdded", Value::String(api::codec::FormatRfc3339(t.taint->time_added)));
    }
    if (!t.rule.empty()) Put(taint, "rule", Value::String(std::string(t.rule)));
    taints.items.push_back(std::move(taint));
  }
  Put(out, "taints", std::move(taints));
  Put(out, "allocated", Value::Bool(row.allocated));
  Put(out, "claims", StringArray(row.claims));
  Put(out, "adminAccessClaims", StringArray(row.admin_access_claims));
  Put(out, "pods", StringArray(row.pods));
  if (!row.device->consumes_counters.empty()) {
    Value consumed = Value::Array();
    for (const api::DeviceCounterConsumption& c : row.device->consumes_counters) {
      Value entry = Value::Object();
      Put(entry, "counterSet", Value::String(c.counter_set));
      Value counters = Value::Object();
      for (const auto& [name, counter] : c.counters) {
        Value v = Value::Object();
        Put(v, "value", Value::String(counter.value.String()));
        Put(counters, name, std::move(v));
      }
      Put(entry, "counters", std::move(counters));
      consumed.items.push_back(std::move(entry));
    }
    Put(out, "consumedCounters", std::move(consumed));
  }
  if (row.shared) Put(out, "capacityLeft", QuantityMapJson(row.capacity_left));
  return out;
}

}  // namespace

bool IsKeyAttribute(const std::string& name) {
  static constexpr std::array<std::string_view, 8> kKeys = {
      "model", "productname", "type", "family", "architecture", "profile", "uuid", "brand"};
  std::string id = AttributeId(name);
  std::transform(id.begin(), id.end(), id.begin(),
                 [](unsigned char c) { return static_cast<char>(std::tolower(c)); });
  return std::find(kKeys.begin(), kKeys.end(), id) != kKeys.end();
}

std::string AttributeValueText(const api::DeviceAttribute& a) {
  if (a.int_value) return std::to_string(*a.int_value);
  if (a.bool_value) return *a.bool_value ? "true" : "false";
  if (a.string_value) return *a.string_value;
  if (a.version_value) return *a.version_value;
  auto list = [](const auto& values, auto text) {
    std::string out = "[";
    for (const auto& v : values) out += (out.size() > 1 ? " " : "") + text(v);
    return out + "]";
  };
  auto same = [](const std::string& s) { return s; };
  if (!a.int_values.nil()) {
    return list(a.int_values, [](std::int64_t v) { return std::to_string(v); });
  }
  if (!a.bool_values.nil()) {
    return list(a.bool_values, [](bool v) { return std::string(v ? "true" : "false"); });
  }
  if (!a.string_values.nil()) return list(a.string_values, same);
  if (!a.version_values.nil()) return list(a.version_values, same);
  return "";
}

std::string FormatTable(const std::vector<std::vector<std::string>>& rows) {
  std::vector<std::size_t> widths;
  for (const auto& row : rows) {
    if (widths.size() < row.size()) widths.resize(row.size(), 0);
    for (std::size_t i = 0; i < row.size(); ++i) widths[i] = std::max(widths[i], row[i].size());
  }
  std::string out;
  for (const auto& row : rows) {
    std::string line;
    for (std::size_t i = 0; i < row.size(); ++i) {
      line += row[i];
      if (i + 1 < row.size()) line.append(widths[i] - row[i].size() + 3, ' ');
    }
    while (!line.empty() && line.back() == ' ') line.pop_back();
    out += line + "\n";
  }
  return out;
}

std::string DeviceTable(const std::vector<DeviceRow>& rows, bool wide) {
  std::vector<std::vector<std::string>> table;
  table.push_back(
      {"DRIVER", "POOL", "DEVICE", "NODE", "ATTRIBUTES", "TAINTS", "CLAIMS", "PODS", "USAGE"});
  if (wide) table.back().push_back("CAPACITY");
  for (const DeviceRow& row : rows) {
    std::vector<std::string> taints;
    for (const RowTaint& t : row.taints) taints.push_back(TaintText(t));
    table.push_back({Cell(row.driver()), Cell(row.pool()), Cell(row.name()), Cell(row.node),
                     AttributesText(*row.device, wide), Join(taints), ClaimsText(row),
                     Join(row.pods), UsageText(row)});
    if (wide) {
      std::map<std::string, api::Quantity> capacity;
      for (const auto& [name, c] : row.device->capacity) capacity.emplace(name, c.value);
      std::string text = QuantitiesText(capacity);
      table.back().push_back(text.empty() ? "<none>" : text);
    }
  }
  return FormatTable(table);
}

std::string PoolTable(const std::vector<PoolRow>& rows, bool wide) {
  std::vector<std::vector<std::string>> table;
  table.push_back(
      {"DRIVER", "POOL", "NODE", "SLICES", "DEVICES", "ALLOCATED", "FREE", "TAINTED", "COMPLETE"});
  if (wide) table.back().push_back("GENERATION");
  for (const PoolRow& row : rows) {
    table.push_back({Cell(row.driver), Cell(row.pool), Cell(row.node),
                     std::to_string(row.slices) + "/" + std::to_string(row.resource_slice_count),
                     std::to_string(row.devices), std::to_string(row.allocated),
                     std::to_string(row.free), std::to_string(row.tainted),
                     row.complete ? "true" : "false"});
    if (wide) table.back().push_back(std::to_string(row.generation));
  }
  return FormatTable(table);
}

std::string ClaimTable(const std::vector<ClaimRow>& rows, bool wide, bool all_namespaces) {
  std::vector<std::vector<std::string>> table;
  std::vector<std::string> header = {"NAME", "STATE", "DEVICES", "PODS"};
  if (all_namespaces) header.insert(header.begin(), "NAMESPACE");
  if (wide) header.push_back("NODE");
  table.push_back(std::move(header));
  for (const ClaimRow& row : rows) {
    std::vector<std::string> devices;
    for (const auto* r : row.devices) {
      std::string text = wide ? r->request + "=" : std::string();
      text.append(r->driver).append("/").append(r->pool).append("/").append(r->device);
      if (r->admin_access.value_or(false)) text += "(admin)";
      devices.push_back(std::move(text));
    }
    std::vector<std::string> cells = {Cell(row.name()), std::string(row.state), Join(devices),
                                      Join(row.pods)};
    if (all_namespaces) cells.insert(cells.begin(), Cell(row.namespace_()));
    if (wide) cells.push_back(row.node.empty() ? "<none>" : row.node);
    table.push_back(std::move(cells));
  }
  return FormatTable(table);
}

json::Value DeviceListJson(const std::vector<DeviceRow>& rows) {
  Value items = Value::Array();
  items.items.reserve(rows.size());
  for (const DeviceRow& row : rows) items.items.push_back(DeviceJson(row));
  return ListDocument("DeviceList", std::move(items));
}

json::Value PoolListJson(const std::vector<PoolRow>& rows) {
  Value items = Value::Array();
  for (const PoolRow& row : rows) {
    Value p = Value::Object();
    Put(p, "driver", Value::String(row.driver));
    Put(p, "pool", Value::String(row.pool));
    Put(p, "node", Value::String(row.node));
    Put(p, "generation", Int(row.generation));
    Put(p, "slices", Int(row.slices));
    Put(p, "resourceSliceCount", Int(row.resource_slice_count));
    Put(p, "complete", Value::Bool(row.complete));
    Put(p, "devices", Int(row.devices));
    Put(p, "allocated", Int(row.allocated));
    Put(p, "free", Int(row.free));
    Put(p, "tainted", Int(row.tainted));
    items.items.push_back(std::move(p));
  }
  return ListDocument("PoolList", std::move(items));
}

json::Value ClaimListJson(const std::vector<ClaimRow>& rows) {
  Value items = Value::Array();
  for (const ClaimRow& row : rows) {
    Value c = Value::Object();
    Put(c, "namespace", Value::String(row.namespace_()));
    Put(c, "name", Value::String(row.name()));
    Put(c, "state", Value::String(std::string(row.state)));
    Value devices = Value::Array();
    for (const auto* r : row.devices) {
      Value d = Value::Object();
      Put(d, "request", Value::String(r->request));
      Put(d, "driver", Value::String(r->driver));
      Put(d, "pool", Value::String(r->pool));
      Put(d, "device", Value::String(r->device));
      if (r->admin_access.value_or(false)) Put(d, "adminAccess", Value::Bool(true));
      if (r->share_id) Put(d, "shareID", Value::String(*r->share_id));
      devices.items.push_back(std::move(d));
    }
    Put(c, "devices", std::move(devices));
    Put(c, "pods", StringArray(row.pods));
    if (!row.node.empty()) Put(c, "node", Value::String(row.node));
    items.items.push_back(std::move(c));
  }
  return ListDocument("ClaimList", std::move(items));
}

}  // namespace dra::cli::get
