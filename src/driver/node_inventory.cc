#include "dra/driver/node_inventory.h"

#include <algorithm>
#include <cctype>
#include <charconv>
#include <initializer_list>
#include <map>
#include <set>
#include <utility>

#include "dra/driver/extension.h"
#include "dra/driver/slice_publisher.h"

namespace dra::driver {
namespace {

bool IsDnsLabel(std::string_view s) {
  if (s.empty() || s.size() > 63) return false;
  auto alnum = [](char c) { return (c >= 'a' && c <= 'z') || (c >= '0' && c <= '9'); };
  if (!alnum(s.front()) || !alnum(s.back())) return false;
  return std::all_of(s.begin(), s.end(), [&](char c) { return alnum(c) || c == '-'; });
}

bool IsDnsSubdomain(std::string_view s) {
  if (s.empty() || s.size() > 253) return false;
  while (true) {
    auto dot = s.find('.');
    if (!IsDnsLabel(s.substr(0, dot))) return false;
    if (dot == std::string_view::npos) return true;
    s.remove_prefix(dot + 1);
  }
}

// A label name part or value: up to 63 alphanumerics, '-', '_', '.', starting
// and ending alphanumeric (a value may also be empty).
bool IsLabelToken(std::string_view s) {
  if (s.empty() || s.size() > 63) return false;
  auto alnum = [](char c) { return std::isalnum(static_cast<unsigned char>(c)) != 0; };
  if (!alnum(s.front()) || !alnum(s.back())) return false;
  return std::all_of(s.begin(), s.end(),
                     [&](char c) { return alnum(c) || c == '-' || c == '_' || c == '.'; });
}

bool IsLabelKey(std::string_view key) {
  auto slash = key.find('/');
  if (slash == std::string_view::npos) return IsLabelToken(key);
  return IsDnsSubdomain(key.substr(0, slash)) && IsLabelToken(key.substr(slash + 1));
}

std::string_view JsonTypeName(const json::Value& v) {
  switch (v.kind) {
    case json::Kind::kNull:
      return "null";
    case json::Kind::kBool:
      return "boolean";
    case json::Kind::kNumber:
      return "number";
    case json::Kind::kString:
      return "string";
    case json::Kind::kArray:
      return "array";
    case json::Kind::kObject:
      return "object";
  }
  return "value";
}

// Strict reading of one JSON object: every member must be claimed by a
// field; duplicates and unclaimed members are errors naming their path.
class ObjectReader {
 public:
  ObjectReader(const json::Value& object, std::string path)
      : object_(object), path_(std::move(path)) {}

  // The member `key`, or nullptr when absent or null.
  const json::Value* Field(std::string_view key) {
    known_.insert(std::string(key));
    const json::Value* v = object_.Find(key);
    return v == nullptr || v->is_null() ? nullptr : v;
  }

  std::string PathOf(std::string_view key) const {
    return path_.empty() ? std::string(key) : path_ + "." + std::string(key);
  }

  // Fails on the first unknown or duplicate member.
  Status Finish() const {
    std::set<std::string> seen;
    for (const json::Member& m : object_.members) {
      if (!seen.insert(m.key).second) return Error{PathOf(m.key) + ": duplicate field"};
      if (!known_.contains(m.key)) return Error{PathOf(m.key) + ": unknown field"};
    }
    return {};
  }

 private:
  const json::Value& object_;
  std::string path_;
  std::set<std::string> known_;
};

Status WrongType(const std::string& path, const json::Value& v, std::string_view want) {
  return Error{path + ": must be " + std::string(want) + ", not " + std::string(JsonTypeName(v))};
}

Result<std::string> ReadString(const json::Value& v, const std::string& path) {
  if (!v.is_string()) return WrongType(path, v, "a string").failure();
  return v.text;
}

Result<std::int64_t> ReadInt(const json::Value& v, const std::string& path, std::int64_t min,
                             std::int64_t max) {
  if (v.kind != json::Kind::kNumber) return WrongType(path, v, "an integer").failure();
  std::int64_t n = 0;
  const char* end = v.text.data() + v.text.size();
  auto [ptr, ec] = std::from_chars(v.text.data(), end, n);
  if (ec != std::errc() || ptr != end) return Error{path + ": must be an integer, not " + v.text};
  if (n < min || n > max) {
    return Error{path + ": " + v.text + " is out of range (" + std::to_string(min) + " to " +
                 std::to_string(max) + ")"};
  }
  return n;
}

Result<bool> ReadBool(const json::Value& v, const std::string& path) {
  if (v.kind != json::Kind::kBool) return WrongType(path, v, "true or false").failure();
  return v.boolean;
}

Status ReadMetadata(const json::Value& meta, NodeInventory& out) {
  if (!meta.is_object()) return WrongType("metadata", meta, "an object");
  ObjectReader r(meta, "metadata");
  const json::Value* name = r.Field("name");
  if (name == nullptr) return Error{"metadata.name: required"};
  Result<std::string> s = ReadString(*name, "metadata.name");
  if (!s) return s.failure();
  if (!IsDnsSubdomain(*s)) {
    return Error{"metadata.name: \"" + *s +
                 "\" is not a DNS subdomain (lower case alphanumerics, "
                 "'-' and '.')"};
  }
  out.name = *s;
  return r.Finish();
}

Status ReadNodeNames(ObjectReader& spec, NodeInventory& out) {
  const json::Value* prefix = spec.Field("namePrefix");
  const json::Value* count = spec.Field("count");
  const json::Value* names = spec.Field("names");
  if (names != nullptr) {
    if (prefix != nullptr || count != nullptr) {
      return Error{"spec.names: cannot be combined with spec.namePrefix and spec.count"};
    }
    if (!names->is_array()) return WrongType("spec.names", *names, "a list of node names");
    if (names->items.empty()) return Error{"spec.names: must list at least one node"};
    if (names->items.size() > static_cast<std::size_t>(kMaxInventoryNodes)) {
      return Error{"spec.names: more than " + std::to_string(kMaxInventoryNodes) + " nodes"};
    }
    std::set<std::string> seen;
    for (std::size_t i = 0; i < names->items.size(); ++i) {
      std::string path = "spec.names[" + std::to_string(i) + "]";
      Result<std::string> s = ReadString(names->items[i], path);
      if (!s) return s.failure();
      if (!IsDnsLabel(*s)) {
        return Error{path + ": \"" + *s +
                     "\" is not a DNS label (at most 63 lower case alphanumerics or '-', "
                     "starting and ending alphanumeric)"};
      }
      if (!seen.insert(*s).second) return Error{path + ": duplicate node name \"" + *s + "\""};
      out.node_names.push_back(*s);
    }
    return {};
  }
  if (prefix == nullptr || count == nullptr) {
    return Error{"spec: give either namePrefix and count, or names"};
  }
  Result<std::string> p = ReadString(*prefix, "spec.namePrefix");
  if (!p) return p.failure();
  Result<std::int64_t> n = ReadInt(*count, "spec.count", 1, kMaxInventoryNodes);
  if (!n) return n.failure();
  for (std::int64_t i = 0; i < *n; ++i) {
    std::string name = *p + std::to_string(i);
    if (!IsDnsLabel(name)) {
      return Error{"spec.namePrefix: node name \"" + name +
                   "\" is not a DNS label (at most 63 lower case alphanumerics or '-', "
                   "starting and ending alphanumeric)"};
    }
    out.node_names.push_back(std::move(name));
  }
  return {};
}

Status ReadLabels(const json::Value& v, NodeInventory& out) {
  if (!v.is_object()) return WrongType("spec.labels", v, "an object");
  std::set<std::string> seen;
  for (const json::Member& m : v.members) {
    std::string path = "spec.labels[" + m.key + "]";
    if (!seen.insert(m.key).second) return Error{path + ": duplicate label"};
    if (!IsLabelKey(m.key)) {
      return Error{path +
                   ": not a valid label key (an optional DNS subdomain prefix and '/', "
                   "then at most 63 alphanumerics, '-', '_' or '.')"};
    }
    Result<std::string> s = ReadString(m.value, path);
    if (!s) return s.failure();
    if (!s->empty() && !IsLabelToken(*s)) {
      return Error{path + ": \"" + *s +
                   "\" is not a valid label value (at most 63 alphanumerics, '-', '_' or '.', "
                   "starting and ending alphanumeric)"};
    }
    out.labels[m.key] = *s;
  }
  if (out.labels.contains("kubernetes.io/hostname")) {
    return Error{"spec.labels[kubernetes.io/hostname]: set per node to its name; remove it"};
  }
  return {};
}

Status ReadAllocatable(const json::Value& v, NodeInventory& out) {
  if (!v.is_object()) return WrongType("spec.allocatable", v, "an object");
  std::set<std::string> seen;
  for (const json::Member& m : v.members) {
    std::string path = "spec.allocatable[" + m.key + "]";
    if (!seen.insert(m.key).second) return Error{path + ": duplicate resource"};
    if (!IsLabelKey(m.key)) return Error{path + ": not a valid resource name"};
    // Quantities may be written as YAML numbers ("cpu: 64") or strings.
    if (m.value.kind != json::Kind::kString && m.value.kind != json::Kind::kNumber) {
      return WrongType(path, m.value, "a quantity");
    }
    Result<api::Quantity> q = api::Quantity::Parse(m.value.text);
    if (!q) return q.failure().WithPrefix(path + ": ");
    if (q->Sign() < 0) return Error{path + ": must not be negative"};
    out.allocatable[m.key] = *q;
  }
  return {};
}

Status ReadDriver(const json::Value& v, const std::string& path, InventoryDriver& out) {
  if (!v.is_object()) return WrongType(path, v, "an object");
  ObjectReader r(v, path);
  if (const json::Value* name = r.Field("name")) {
    Result<std::string> s = ReadString(*name, r.PathOf("name"));
    if (!s) return s.failure();
    if (!IsDnsSubdomain(*s) || s->size() > 63) {
      return Error{r.PathOf("name") + ": \"" + *s +
                   "\" is not a driver name (a DNS subdomain of at most 63 characters)"};
    }
    out.name = *s;
  }
  if (const json::Value* n = r.Field("numDevices")) {
    Result<std::int64_t> count = ReadInt(*n, r.PathOf("numDevices"), 0, kMaxInventoryGpus);
    if (!count) return count.failure();
    out.num_devices = static_cast<int>(*count);
  }
  if (const json::Value* b = r.Field("migPartitions")) {
    Result<bool> on = ReadBool(*b, r.PathOf("migPartitions"));
    if (!on) return on.failure();
    out.mig_partitions = *on;
  }
  if (const json::Value* b = r.Field("allowMultipleAllocations")) {
    Result<bool> on = ReadBool(*b, r.PathOf("allowMultipleAllocations"));
    if (!on) return on.failure();
    out.allow_multiple_allocations = *on;
  }
  if (Status s = r.Finish(); !s) return s;
  if (out.mig_partitions && out.allow_multiple_allocations) {
    return Error{path + ": migPartitions and allowMultipleAllocations cannot both be true"};
  }
  return {};
}

Status ReadDrivers(const json::Value& v, NodeInventory& out) {
  if (!v.is_array()) return WrongType("spec.drivers", v, "a list");
  std::set<std::string> names;
  for (std::size_t i = 0; i < v.items.size(); ++i) {
    std::string path = "spec.drivers[" + std::to_string(i) + "]";
    InventoryDriver d;
    if (Status s = ReadDriver(v.items[i], path, d); !s) return s;
    if (!names.insert(d.name).second) {
      return Error{path + ".name: driver \"" + d.name + "\" is listed twice"};
    }
    out.drivers.push_back(std::move(d));
  }
  return {};
}

// The example driver that runs `d` on `node`, found by name
// (dra/driver/extension.h): the inventory describes that driver's GPUs.
Result<std::unique_ptr<Driver>> ExampleDriverFor(const InventoryDriver& d, const std::string& node,
                                                 int num_devices) {
  const DriverExtension* example = FindDriverExtension("example");
  if (example == nullptr) return Error{"no example driver is registered"};
  DriverConfig config{d.name, node, {"--num-devices=" + std::to_string(num_devices)}, {}};
  if (d.mig_partitions) config.args.emplace_back("--mig-partitions");
  if (d.allow_multiple_allocations) config.args.emplace_back("--gpu-allow-multiple-allocations");
  return example->Create(config);
}

// Devices one node publishes for `d`: those of one GPU (a full GPU, plus its
// partitions in MIG mode) times the GPUs; 0 when the driver cannot be built
// (expansion then reports why).
std::int64_t DevicesPerNode(const InventoryDriver& d) {
  Result<std::unique_ptr<Driver>> one = ExampleDriverFor(d, "count", 1);
  if (!one) return 0;
  Result<Inventory> devices = (*one)->Enumerate();
  if (!devices) return 0;
  std::int64_t per_gpu = 0;
  for (const Pool& pool : devices->pools) per_gpu += static_cast<std::int64_t>(pool.devices.size());
  return per_gpu * d.num_devices;
}

std::int64_t DeviceCount(const NodeInventory& inventory) {
  std::int64_t per_node = 0;
  for (const InventoryDriver& d : inventory.drivers) per_node += DevicesPerNode(d);
  return per_node * static_cast<std::int64_t>(inventory.node_names.size());
}

std::string Join(std::initializer_list<std::string_view> parts) {
  std::string out;
  for (std::string_view p : parts) out += p;
  return out;
}

std::string Where(const api::ExtensionDocument& doc) {
  return doc.source + ": document " + std::to_string(doc.index);
}

}  // namespace

Result<NodeInventory> ParseNodeInventory(const json::Value& document) {
  if (!document.is_object()) return WrongType("document", document, "an object").failure();
  NodeInventory out;
  ObjectReader top(document, "");
  const json::Value* api_version = top.Field("apiVersion");
  const json::Value* kind = top.Field("kind");
  if (api_version == nullptr || !api_version->is_string() ||
      api_version->text != kNodeInventoryApiVersion) {
    return Error{"apiVersion: must be " + std::string(kNodeInventoryApiVersion)};
  }
  if (kind == nullptr || !kind->is_string() || kind->text != kNodeInventoryKind) {
    return Error{"kind: must be " + std::string(kNodeInventoryKind)};
  }
  const json::Value* meta = top.Field("metadata");
  if (meta == nullptr) return Error{"metadata.name: required"};
  if (Status s = ReadMetadata(*meta, out); !s) return s.failure();
  const json::Value* spec = top.Field("spec");
  if (Status s = top.Finish(); !s) return s.failure();
  if (spec == nullptr) return Error{"spec: required"};
  if (!spec->is_object()) return WrongType("spec", *spec, "an object").failure();

  ObjectReader r(*spec, "spec");
  if (Status s = ReadNodeNames(r, out); !s) return s.failure();
  if (const json::Value* v = r.Field("labels")) {
    if (Status s = ReadLabels(*v, out); !s) return s.failure();
  }
  if (const json::Value* v = r.Field("allocatable")) {
    if (Status s = ReadAllocatable(*v, out); !s) return s.failure();
  }
  if (const json::Value* v = r.Field("drivers")) {
    if (Status s = ReadDrivers(*v, out); !s) return s.failure();
  }
  if (Status s = r.Finish(); !s) return s.failure();

  std::int64_t per_node = 0;
  for (const InventoryDriver& d : out.drivers) per_node += DevicesPerNode(d);
  std::int64_t total = DeviceCount(out);
  if (total > kMaxInventoryDevices) {
    return Error{"spec: " + std::to_string(out.node_names.size()) + " nodes with " +
                 std::to_string(per_node) + " devices each are " + std::to_string(total) +
                 " devices, more than the limit of " + std::to_string(kMaxInventoryDevices)};
  }
  return out;
}

Result<NodeInventory> DecodeNodeInventory(const api::ExtensionDocument& doc) {
  if (doc.api_version != kNodeInventoryApiVersion || doc.kind != kNodeInventoryKind) {
    return Error{"no kind \"" + doc.kind + "\" in version \"" + doc.api_version + "\" (" +
                 std::string(kNodeInventoryApiVersion) + " serves " +
                 std::string(kNodeInventoryKind) + ")"};
  }
  Result<NodeInventory> inventory = ParseNodeInventory(doc.root);
  if (inventory) return inventory;
  std::string name;
  if (const json::Value* meta = doc.root.Find("metadata"); meta && meta->is_object()) {
    if (const json::Value* n = meta->Find("name"); n && n->is_string()) name = n->text;
  }
  return inventory.failure().WithPrefix("NodeInventory" + (name.empty() ? "" : " " + name) + ": ");
}

Result<std::vector<api::Object>> ExpandNodeInventory(const NodeInventory& inventory,
                                                     std::int64_t now) {
  std::vector<api::Object> out;
  for (const std::string& node_name : inventory.node_names) {
    api::Node node;
    node.type = {"Node", "v1"};
    node.metadata.name = node_name;
    node.metadata.labels = inventory.labels;
    node.metadata.labels["kubernetes.io/hostname"] = node_name;
    node.status.capacity = inventory.allocatable;
    node.status.allocatable = inventory.allocatable;
    out.emplace_back(std::move(node));

    for (const InventoryDriver& d : inventory.drivers) {
      Result<std::unique_ptr<Driver>> example = ExampleDriverFor(d, node_name, d.num_devices);
      if (!example) return example.failure().WithPrefix("driver " + d.name + ": ");
      Result<Inventory> devices = (*example)->Enumerate();
      if (!devices) return devices.failure().WithPrefix("driver " + d.name + ": ");
      Result<std::vector<api::ResourceSlice>> slices =
          BuildResourceSlices(d.name, SliceOwner{node_name, ""}, *devices, {});
      if (!slices) return slices.failure().WithPrefix("driver " + d.name + ": ");
      for (api::ResourceSlice& slice : *slices) {
        // generateName ends in '-'; without it the name is unique per driver,
        // node and slice index, and the same in every run.
        std::string name = slice.metadata.generate_name;
        if (!name.empty() && name.back() == '-') name.pop_back();
        slice.metadata.name = std::move(name);
        api::Object object(std::move(slice));
        api::ApplyDefaults(object, api::ApiVersion::kV1, now);
        out.push_back(std::move(object));
      }
    }
  }
  return out;
}

Result<std::vector<api::Object>> ExpandNodeInventories(const api::ManifestSet& set,
                                                       std::int64_t now) {
  // Where each explicitly defined Node and node-local pool comes from.
  std::map<std::string, std::string> explicit_nodes;
  std::map<std::pair<std::string, std::string>, std::string> explicit_pools;
  for (const api::ManifestDocument& doc : set.documents) {
    std::string where = doc.source + ": document " + std::to_string(doc.index);
    for (const api::DecodedObject& o : doc.decoded.objects) {
      if (const auto* n = std::get_if<api::Node>(&o.object)) {
        explicit_nodes.emplace(n->metadata.name, where);
      } else if (const auto* s = std::get_if<api::ResourceSlice>(&o.object)) {
        explicit_pools.emplace(std::pair{s->spec.driver, s->spec.pool.name}, where);
      }
    }
  }

  // All inventories are checked before any is expanded, so a bad or
  // oversized input fails fast.
  struct Parsed {
    NodeInventory inventory;
    std::string prefix;  // "<source>: document <n>: NodeInventory <name>: "
  };
  std::vector<Parsed> parsed;
  std::int64_t devices = 0;
  std::map<std::string, std::string> generated;  // node -> "NodeInventory x (where)"
  for (const api::ExtensionDocument& doc : set.extensions) {
    if (doc.api_version.substr(0, doc.api_version.find('/')) != kNodeInventoryGroup) continue;
    Result<NodeInventory> inventory = DecodeNodeInventory(doc);
    if (!inventory) return inventory.failure().WithPrefix(Where(doc) + ": ");
    std::string prefix = Where(doc) + ": NodeInventory " + inventory->name + ": ";
    std::string self = "NodeInventory " + inventory->name + " (" + Where(doc) + ")";
    for (const std::string& node : inventory->node_names) {
      if (auto it = explicit_nodes.find(node); it != explicit_nodes.end()) {
        return Error{
            Join({prefix, "node ", node, " is also defined as a Node (", it->second, ")"})};
      }
      if (auto [it, inserted] = generated.emplace(node, self); !inserted) {
        return Error{Join({prefix, "node ", node, " is also generated by ", it->second})};
      }
      for (const InventoryDriver& d : inventory->drivers) {
        if (auto it = explicit_pools.find({d.name, node}); it != explicit_pools.end()) {
          return Error{Join({prefix, "driver ", d.name, " on node ", node, " would publish pool ",
                             node, ", which a ResourceSlice already defines (", it->second, ")"})};
        }
      }
    }
    devices += DeviceCount(*inventory);
    if (devices > kMaxInventoryDevices) {
      return Error{prefix + "the NodeInventories up to this one expand to " +
                   std::to_string(devices) + " devices, more than the limit of " +
                   std::to_string(kMaxInventoryDevices)};
    }
    parsed.push_back({std::move(*inventory), std::move(prefix)});
  }

  std::vector<api::Object> out;
  for (const Parsed& p : parsed) {
    Result<std::vector<api::Object>> objects = ExpandNodeInventory(p.inventory, now);
    if (!objects) return objects.failure().WithPrefix(p.prefix);
    for (api::Object& o : *objects) out.push_back(std::move(o));
  }
  return out;
}

}  // namespace dra::driver
