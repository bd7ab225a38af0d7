// NodeInventory (inventory.dra.local/v1alpha1): a compact manifest for a group
// of identical nodes and the simulated GPUs of `dra driver example` on each,
// for `dra simulate` (docs/SIMULATE.md). It is our own kind, not a Kubernetes
// API: expansion turns it into core/v1 Nodes and the ResourceSlices that the
// example driver would publish on each node, through the driver's own device
// model and the SDK's slice building.
#pragma once

#include <cstdint>
#include <map>
#include <string>
#include <string_view>
#include <vector>

#include "dra/api/codec.h"
#include "dra/api/manifest.h"
#include "dra/json/value.h"
#include "dra/util/result.h"

namespace dra::driver {

inline constexpr std::string_view kNodeInventoryGroup = "inventory.dra.local";
inline constexpr std::string_view kNodeInventoryApiVersion = "inventory.dra.local/v1alpha1";
inline constexpr std::string_view kNodeInventoryKind = "NodeInventory";

// Bounds that keep a typo from exhausting memory: nodes per NodeInventory,
// and devices of all NodeInventories of one input together (a device takes
// roughly 10 KB while expanded and again in the allocator's tables).
inline constexpr int kMaxInventoryNodes = 10000;
// GPUs per driver and node: the example driver's own limit (--num-devices).
inline constexpr int kMaxInventoryGpus = 1024;
inline constexpr std::int64_t kMaxInventoryDevices = 250000;

// One instance of the example driver on every node of the inventory, as
// `dra driver example --driver-name <name> --num-devices <n>
// [--mig-partitions | --gpu-allow-multiple-allocations]` would run there.
struct InventoryDriver {
  std::string name = "gpu.example.com";
  int num_devices = 8;
  bool mig_partitions = false;
  bool allow_multiple_allocations = false;
  bool operator==(const InventoryDriver&) const = default;
};

struct NodeInventory {
  std::string name;                     // metadata.name, for messages
  std::vector<std::string> node_names;  // expanded from namePrefix/count or names
  std::map<std::string, std::string> labels;
  std::map<std::string, api::Quantity> allocatable;
  std::vector<InventoryDriver> drivers;
};

// Decodes one NodeInventory document strictly: unknown or duplicate fields,
// wrong types, names that are not DNS labels, bad label keys or values, bad
// quantities, counts out of bounds and conflicting options are errors that
// name the field ("spec.drivers[1].numDevices: ...").
Result<NodeInventory> ParseNodeInventory(const json::Value& document);

// One document that the manifest reader handed back for kNodeInventoryGroup:
// "no kind ..." for other kinds or versions of the group, else
// ParseNodeInventory's result with errors prefixed "NodeInventory <name>: ".
Result<NodeInventory> DecodeNodeInventory(const api::ExtensionDocument& doc);

// The Nodes (labels plus kubernetes.io/hostname; capacity = allocatable) and,
// per node and driver, the ResourceSlices the example driver would publish
// there (no owner reference; metadata.name is the generateName without its
// trailing '-'), defaulted as the API server would store them in v1.
// Expects an inventory as ParseNodeInventory returns it (valid names, counts
// within bounds).
Result<std::vector<api::Object>> ExpandNodeInventory(const NodeInventory& inventory,
                                                     std::int64_t now);

// Parses and expands every NodeInventory among `set.extensions` (documents of
// group kNodeInventoryGroup), in input order. Errors read
// "<source>: document <n>: NodeInventory <name>: <message>"; a node generated
// twice, or also defined as a Node, a driver's pool also published by a
// ResourceSlice of the set, and more than kMaxInventoryDevices devices in all
// are errors too, found before anything is expanded.
Result<std::vector<api::Object>> ExpandNodeInventories(const api::ManifestSet& set,
                                                       std::int64_t now);

}  // namespace dra::driver
