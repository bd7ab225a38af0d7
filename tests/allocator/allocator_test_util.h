// Helpers for the allocator tests, on the fixtures of upstream's shared
// allocator suite (k8s.io/dynamic-resource-allocation
// structured/internal/allocatortesting, release v0.37.2: node-1 and node-2
// with region/planet labels, class-a and class-b selecting driver-a and
// driver-b), in two namespaces:
//
// dra::allocator::testing, for the hand-written tests (tests/allocator/*_test.cc
// other than catalog_*): the fixtures and YAML builders both sets use, and
// Allocate(), which answers compact views of results.
//
// dra::allocator::catalog, for the catalogue tests
// (tests/allocator/catalog_*_test.cc): one test per case of the upstream
// suite, written from the cases' facts as scenarios in YAML.
#pragma once

#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <cstdint>
#include <initializer_list>
#include <string>
#include <string_view>
#include <vector>

#include "allocator/scenario.h"
#include "dra/allocator/allocator.h"

namespace dra::allocator::testing {

// Upstream's fixture nodes (node(name, region)) and classes.
inline constexpr char kNode1Yaml[] = R"(
apiVersion: v1
kind: Node
metadata:
  name: node-1
  labels: {region: region-1, planet: earth}
---
)";

inline constexpr char kNode2Yaml[] = R"(
apiVersion: v1
kind: Node
metadata:
  name: node-2
  labels: {region: region-2, planet: earth}
---
)";

inline constexpr char kClasses[] = R"(
apiVersion: resource.k8s.io/v1
kind: DeviceClass
metadata: {name: class-a}
spec:
  selectors:
  - cel: {expression: 'device.driver == "driver-a"'}
---
apiVersion: resource.k8s.io/v1
kind: DeviceClass
metadata: {name: class-b}
spec:
  selectors:
  - cel: {expression: 'device.driver == "driver-b"'}
---
)";

// The fixtures of the hand-written tests: node-1 and the two classes.
inline std::string Fixtures() { return std::string(kNode1Yaml) + kClasses; }

// A ResourceSlice. `selection`: a node name, "all" (allNodes), "per-device"
// (perDeviceNodeSelection) or a flow mapping used as nodeSelector. `pool`: a
// pool name (generation 1, one slice) or a full flow mapping. `body`: further
// spec fields as "key: value" lines without indentation, e.g.
// "devices: [{name: device-1}]".
inline std::string SliceYaml(const std::string& name, const std::string& selection,
                             const std::string& pool, const std::string& driver,
                             const std::string& body) {
  std::string out =
      "apiVersion: resource.k8s.io/v1\nkind: ResourceSlice\nmetadata: {name: " + name +
      "}\nspec:\n  driver: " + driver + "\n  pool: ";
  out += pool.front() == '{' ? pool : "{name: " + pool + ", generation: 1, resourceSliceCount: 1}";
  out += "\n";
  if (selection == "all") {
    out += "  allNodes: true\n";
  } else if (selection == "per-device") {
    out += "  perDeviceNodeSelection: true\n";
  } else if (selection.front() == '{') {
    out += "  nodeSelector: " + selection + "\n";
  } else {
    out += "  nodeName: " + selection + "\n";
  }
  std::size_t start = 0;
  while (start < body.size()) {
    std::size_t end = body.find('\n', start);
    if (end == std::string::npos) end = body.size();
    out += "  " + body.substr(start, end - start) + "\n";
    start = end + 1;
  }
  return out + "---\n";
}

struct Outcome {
  AllocateResult result;
  // One line per claim: "req:driver/pool/device req:driver/pool/device".
  std::vector<std::string> devices;
};

inline std::string DeviceList(const api::AllocationResult& a) {
  std::string out;
  for (const auto& r : a.devices.results) {
    if (!out.empty()) out += ' ';
    out += r.request + ":" + r.driver + "/" + r.pool + "/" + r.device;
  }
  return out;
}

// No feature gate on, but upstream's incubating variant (selected by
// DRAFractionalCapacityRange, which changes nothing else here): the tests
// below pin down that variant unless they say otherwise.
inline Features Base() {
  Features f;
  f.fractional_capacity_range = true;
  return f;
}

// The stable variant: only gates of its supported set.
inline Features Stable() { return Features{}; }

// Allocates the scenario's unallocated claims on `node` with the fixtures.
inline Outcome Allocate(const std::string& yaml, const Features& features = Base(),
                        const std::string& node = "node-1", AllocateOptions options = {}) {
  Result<Scenario> s = ParseScenario(Fixtures() + yaml, features);
  EXPECT_TRUE(s.ok()) << (s.ok() ? "" : s.error());
  if (!s.ok()) return {};
  Allocator allocator(s->snapshot);
  Outcome out;
  out.result = allocator.Allocate(FindNode(*s, node), s->claims, options);
  for (const auto& a : out.result.allocations) out.devices.push_back(DeviceList(a));
  return out;
}

inline Features AllFeatures() {
  Features f = Base();
  f.admin_access = f.prioritized_list = f.partitionable_devices = f.device_taints = true;
  f.device_binding_and_status = true;
  return f;
}

// A slice for node-1 in its own pool (generation 1, one slice) with devices
// given as a YAML flow list body, e.g. "{name: device-1}".
inline std::string Slice(const std::string& name, const std::string& pool,
                         const std::string& devices, const std::string& driver = "driver-a",
                         const std::string& node = "node-1") {
  return SliceYaml(name, node, pool, driver, "devices: [" + devices + "]");
}

// A claim with requests given as a YAML block (indented by 6 spaces).
inline std::string Claim(const std::string& name, const std::string& devices_block) {
  return "apiVersion: resource.k8s.io/v1\nkind: ResourceClaim\nmetadata: {name: " + name +
         ", namespace: default}\nspec:\n  devices:\n" + devices_block + "---\n";
}

inline std::string OneRequest(const std::string& request = "req-0",
                              const std::string& cls = "class-a", int count = 1) {
  return "    requests:\n    - name: " + request + "\n      exactly: {deviceClassName: " + cls +
         ", allocationMode: ExactCount, count: " + std::to_string(count) + "}\n";
}

}  // namespace dra::allocator::testing

namespace dra::allocator::catalog {

// Results are compared as text (Render) so that a test states the complete
// answer: every claim's devices in pick order with all result fields, the
// config and the node selector, or the outcome and error.
//
// Variants: upstream runs a case on each variant that supports its features;
// ours picks the most stable variant that supports the enabled features. A
// case is checked on the stable variant with its own features, and on the
// incubating variant by also enabling DRAConsumableCapacity, which changes
// nothing for inputs without capacity requests or allowMultipleAllocations
// (DRADeviceBindingConditions would: devices with binding conditions become
// usable).

using testing::kClasses;
using testing::kNode1Yaml;
using testing::kNode2Yaml;
using testing::SliceYaml;

// Features by upstream's names, comma separated ("PrioritizedList,DeviceTaints").
inline Features Feat(std::string_view names) {
  Features f;
  while (!names.empty()) {
    std::size_t comma = names.find(',');
    std::string_view name = names.substr(0, comma);
    names = comma == std::string_view::npos ? std::string_view() : names.substr(comma + 1);
    while (!name.empty() && name.front() == ' ') name.remove_prefix(1);
    if (name == "AdminAccess") {
      f.admin_access = true;
    } else if (name == "PrioritizedList") {
      f.prioritized_list = true;
    } else if (name == "PartitionableDevices") {
      f.partitionable_devices = true;
    } else if (name == "DeviceTaints") {
      f.device_taints = true;
    } else if (name == "DeviceBindingAndStatus") {
      f.device_binding_and_status = true;
    } else if (name == "ConsumableCapacity") {
      f.consumable_capacity = true;
    } else if (name == "ListTypeAttributes") {
      f.list_type_attributes = true;
    } else if (!name.empty()) {
      ADD_FAILURE() << "unknown feature " << name;
    }
  }
  return f;
}

// The same features on the incubating variant (see the top of this namespace).
inline Features Incubating(Features f) {
  f.consumable_capacity = true;
  return f;
}

inline std::string Tolerations(const api::List<api::DeviceToleration>& list) {
  std::string out;
  for (const auto& t : list) {
    if (!out.empty()) out += ',';
    out += t.key + ":" + t.operator_ + ":" + t.value + ":" + t.effect;
    if (t.toleration_seconds) out += ":" + std::to_string(*t.toleration_seconds);
  }
  return out;
}

inline std::string Strings(const api::List<std::string>& list) {
  std::string out;
  for (const auto& s : list) {
    if (!out.empty()) out += ',';
    out += s;
  }
  return out;
}

inline std::string Requirements(const api::List<api::NodeSelectorRequirement>& list,
                                const char* kind) {
  std::string out;
  for (const auto& r : list) {
    out +=
        std::string(" ") + kind + "[" + r.key + " " + r.operator_ + " " + Strings(r.values) + "]";
  }
  return out;
}

// One claim's result as text:
//   node: F[metadata.name In node-1]            (or "node: none")
//   req-0 driver-a/pool-1/device-1 admin tol=k:Exists::NoSchedule bc=a bfc=b share cc=c0=1
//   (consumed quantities in canonical form, as Go's Quantity.String())
//   config FromClass * driver-a {"x":"xValue"}  (requests "*" when null)
inline std::string RenderAllocation(const api::AllocationResult& a) {
  std::string out = "node:";
  if (!a.node_selector) {
    out += " none";
  } else {
    for (const auto& term : a.node_selector->node_selector_terms) {
      out += " {" + Requirements(term.match_expressions, "E") +
             Requirements(term.match_fields, "F") + " }";
    }
  }
  out += "\n";
  for (const auto& r : a.devices.results) {
    out += r.request + " " + r.driver + "/" + r.pool + "/" + r.device;
    if (r.admin_access) out += *r.admin_access ? " admin" : " admin=false";
    if (!r.tolerations.nil()) out += " tol=" + Tolerations(r.tolerations);
    if (!r.binding_conditions.nil()) out += " bc=" + Strings(r.binding_conditions);
    if (!r.binding_failure_conditions.nil()) out += " bfc=" + Strings(r.binding_failure_conditions);
    if (r.share_id) {
      // A lowercase RFC-4122 UUID; the value itself is random.
      bool uuid = r.share_id->size() == 36;
      for (std::size_t i = 0; uuid && i < r.share_id->size(); ++i) {
        char c = (*r.share_id)[i];
        bool dash = i == 8 || i == 13 || i == 18 || i == 23;
        uuid = dash ? c == '-' : ((c >= '0' && c <= '9') || (c >= 'a' && c <= 'f'));
      }
      out += uuid ? " share" : " share=" + *r.share_id;
    }
    if (!r.consumed_capacity.empty()) {
      out += " cc=";
      bool first = true;
      for (const auto& [name, q] : r.consumed_capacity) {
        if (!first) out += ',';
        first = false;
        out += name + "=" + q.CanonicalString();
      }
    }
    out += "\n";
  }
  for (const auto& c : a.devices.config) {
    out += "config " + c.source + " " + (c.requests.nil() ? "*" : "[" + Strings(c.requests) + "]");
    if (c.config.opaque)
      out += " " + c.config.opaque->driver + " " + c.config.opaque->parameters.raw;
    out += "\n";
  }
  return out;
}

// The whole outcome: "unschedulable\n", "error: <text>\n", or the claims'
// results separated by "--\n".
inline std::string Render(const AllocateResult& r) {
  switch (r.outcome) {
    case Outcome::kUnschedulable:
      return "unschedulable\n";
    case Outcome::kError:
      return "error: " + r.error + "\n";
    case Outcome::kAllocated:
      break;
  }
  std::string out;
  for (std::size_t i = 0; i < r.allocations.size(); ++i) {
    if (i > 0) out += "--\n";
    out += RenderAllocation(r.allocations[i]);
  }
  return out;
}

struct RunOptions {
  std::string node = "node-1";
  bool classes = true;  // prepend class-a and class-b
  AllocateOptions allocate;
};

// Allocates the scenario's claims without status.allocation; claims with one
// are in use.
inline AllocateResult RunCase(const std::string& yaml, const Features& features,
                              const RunOptions& options = {}) {
  Result<Scenario> s = ParseScenario(
      std::string(kNode1Yaml) + kNode2Yaml + (options.classes ? kClasses : "") + yaml, features);
  EXPECT_TRUE(s.ok()) << (s.ok() ? "" : s.error());
  if (!s.ok()) {
    AllocateResult failed;
    failed.outcome = Outcome::kError;
    failed.error = "scenario: " + s.error();
    return failed;
  }
  Allocator allocator(s->snapshot);
  return allocator.Allocate(FindNode(*s, options.node), s->claims, options.allocate);
}

// The variants a case runs on: stable with the case's own features and
// incubating (see the top of this namespace), or just the given features when they
// already need incubating or experimental.
inline std::vector<Features> Variants(const Features& f) {
  if (f.device_binding_and_status || f.consumable_capacity || f.list_type_attributes) return {f};
  return {f, Incubating(f)};
}

inline std::string VariantName(const Features& f) {
  if (f.list_type_attributes) return "experimental";
  if (f.device_binding_and_status || f.consumable_capacity) return "incubating";
  return "stable";
}

// Checks the rendered outcome on every variant in `variants`.
inline void Expect(const std::string& in, const std::vector<Features>& variants,
                   const std::string& want, const RunOptions& options = {}) {
  for (const Features& f : variants) {
    SCOPED_TRACE(VariantName(f));
    EXPECT_EQ(Render(RunCase(in, f, options)), want);
  }
}

// Checks the outcome and upstream's search-step count on one variant.
inline void ExpectSteps(const std::string& in, const Features& f, const std::string& want,
                        std::uint64_t steps, const RunOptions& options = {}) {
  SCOPED_TRACE(VariantName(f));
  AllocateResult r = RunCase(in, f, options);
  EXPECT_EQ(Render(r), want);
  EXPECT_EQ(r.steps, steps);
}

// Checks that every variant fails with an error containing `text` (upstream
// matches error substrings).
inline void ExpectError(const std::string& in, const std::vector<Features>& variants,
                        const std::string& text, const RunOptions& options = {}) {
  for (const Features& f : variants) {
    SCOPED_TRACE(VariantName(f));
    AllocateResult r = RunCase(in, f, options);
    EXPECT_EQ(r.outcome, Outcome::kError) << Render(r);
    EXPECT_THAT(r.error, ::testing::HasSubstr(text));
  }
}

inline constexpr char kUnschedulable[] = "unschedulable\n";

// Expected text for a claim on node-1-local devices.
inline constexpr char kNode1[] = "node: { F[metadata.name In node-1] }\n";

// ---- Builders for objects as YAML ----

// A slice holding `devices` (a flow list body: "{name: device-1}, {name: device-2}").
inline std::string Devices(const std::string& name, const std::string& selection,
                           const std::string& pool, const std::string& driver,
                           const std::string& devices) {
  return SliceYaml(name, selection, pool, driver, "devices: [" + devices + "]");
}

// Counter lists in a compact form: "set-1:memory=4Gi,cpus=6;set-2:cpus=4".
// Returns the flow list body of CounterSets or consumesCounters entries.
inline std::string CounterEntries(const std::string& spec, const char* set_key,
                                  std::string* capacities = nullptr) {
  std::string out;
  std::size_t start = 0;
  while (start < spec.size()) {
    std::size_t end = spec.find(';', start);
    if (end == std::string::npos) end = spec.size();
    std::string part = spec.substr(start, end - start);
    start = end + 1;
    std::size_t colon = part.find(':');
    std::string counters;
    std::size_t cstart = colon + 1;
    while (cstart < part.size()) {
      std::size_t cend = part.find(',', cstart);
      if (cend == std::string::npos) cend = part.size();
      std::string kv = part.substr(cstart, cend - cstart);
      cstart = cend + 1;
      std::size_t eq = kv.find('=');
      std::string entry = kv.substr(0, eq) + ": {value: \"" + kv.substr(eq + 1) + "\"}";
      counters += (counters.empty() ? "" : ", ") + entry;
      if (capacities) {
        // A later entry for the same name wins (upstream builds a map).
        std::string key = kv.substr(0, eq) + ": ";
        std::size_t at = capacities->find(key);
        if (at != std::string::npos && (at == 0 || (*capacities)[at - 2] == ',')) {
          std::size_t stop = capacities->find('}', at);
          capacities->replace(at, stop + 1 - at, entry);
        } else {
          *capacities += (capacities->empty() ? "" : ", ") + entry;
        }
      }
    }
    out += std::string(out.empty() ? "" : ", ") + "{" + set_key + ": " + part.substr(0, colon) +
           ", counters: {" + counters + "}}";
  }
  return out;
}

// A device consuming counters (spec as for CounterEntries). With
// `from_counters` it gets one capacity per consumed counter, as upstream's
// fromCounters devices. `extra` adds fields (", attributes: {...}").
inline std::string CounterDevice(const std::string& name, const std::string& spec,
                                 bool from_counters = false, const std::string& extra = "") {
  std::string capacities;
  std::string consumes = CounterEntries(spec, "counterSet", &capacities);
  std::string out = "{name: " + name;
  if (from_counters) out += ", capacity: {" + capacities + "}";
  return out + ", consumesCounters: [" + consumes + "]" + extra + "}";
}

// A slice holding only shared counter sets.
inline std::string CounterSlice(const std::string& name, const std::string& selection,
                                const std::string& pool, const std::string& driver,
                                const std::string& spec) {
  return SliceYaml(name, selection, pool, driver,
                   "sharedCounters: [" + CounterEntries(spec, "name") + "]");
}

// A pool as a flow mapping with `count` slices, generation `generation`.
inline std::string Pool(const std::string& name, int count, int generation = 1) {
  return "{name: " + name + ", generation: " + std::to_string(generation) +
         ", resourceSliceCount: " + std::to_string(count) + "}";
}

// Label selector "key In values" and the matchFields selector for a node name.
inline std::string LabelSelector(const std::string& key, const std::string& values) {
  return "{nodeSelectorTerms: [{matchExpressions: [{key: " + key + ", operator: In, values: [" +
         values + "]}]}]}";
}
inline std::string NameSelector(const std::string& node) {
  return "{nodeSelectorTerms: [{matchFields: [{key: metadata.name, operator: In, values: [" + node +
         "]}]}]}";
}

// Request builders (flow mappings). `extra` is appended inside the mapping,
// e.g. ", selectors: [...]".
inline std::string Exact(const std::string& name, const std::string& cls, int count,
                         const std::string& extra = "") {
  return "{name: " + name + ", exactly: {deviceClassName: " + cls +
         ", allocationMode: ExactCount, count: " + std::to_string(count) + extra + "}}";
}
inline std::string AllOf(const std::string& name, const std::string& cls,
                         const std::string& extra = "") {
  return "{name: " + name + ", exactly: {deviceClassName: " + cls + ", allocationMode: All" +
         extra + "}}";
}
inline std::string Sub(const std::string& name, const std::string& cls, int count,
                       const std::string& extra = "") {
  return "{name: " + name + ", deviceClassName: " + cls +
         ", allocationMode: ExactCount, count: " + std::to_string(count) + extra + "}";
}
inline std::string SubAll(const std::string& name, const std::string& cls,
                          const std::string& extra = "") {
  return "{name: " + name + ", deviceClassName: " + cls + ", allocationMode: All" + extra + "}";
}
inline std::string FirstAvailable(const std::string& name,
                                  std::initializer_list<std::string> subs) {
  std::string out = "{name: " + name + ", firstAvailable: [";
  bool first = true;
  for (const auto& s : subs) {
    if (!first) out += ", ";
    first = false;
    out += s;
  }
  return out + "]}";
}
// ", selectors: [{cel: {expression: '<expr>'}}]"
inline std::string Sel(const std::string& expression) {
  return ", selectors: [{cel: {expression: '" + expression + "'}}]";
}
// ", capacity: {requests: {capacity-0: <q>}}"
inline std::string CapReq(const std::string& quantity) {
  return ", capacity: {requests: {capacity-0: \"" + quantity + "\"}}";
}

// Opaque configuration as upstream's deviceConfiguration(driver, attribute):
// parameters {"<attribute>": "<attribute>Value"}; and its rendering.
inline std::string Opaque(const std::string& driver, const std::string& attribute) {
  return "{opaque: {driver: " + driver + ", parameters: {" + attribute + ": " + attribute +
         "Value}}}";
}
inline std::string OpaqueText(const std::string& driver, const std::string& attribute) {
  return driver + " {\"" + attribute + "\":\"" + attribute + "Value\"}";
}

// A DeviceClass with one CEL selector and, if `config_attribute` is set, one
// opaque config for `config_driver`.
inline std::string ClassYaml(const std::string& name, const std::string& expression,
                             const std::string& config_driver = "",
                             const std::string& config_attribute = "") {
  std::string out = "apiVersion: resource.k8s.io/v1\nkind: DeviceClass\nmetadata: {name: " + name +
                    "}\nspec:\n  selectors: [{cel: {expression: '" + expression + "'}}]\n";
  if (!config_attribute.empty()) {
    out += "  config: [" + Opaque(config_driver, config_attribute) + "]\n";
  }
  return out + "---\n";
}
inline std::string DriverClass(const std::string& name, const std::string& driver,
                               const std::string& config_attribute = "") {
  return ClassYaml(name, "device.driver == \"" + driver + "\"", driver, config_attribute);
}

// A ResourceClaim (no namespace, as upstream's test claims). `constraints` and `config` are
// flow-list bodies (without brackets) or empty.
inline std::string ClaimYaml(const std::string& name, std::initializer_list<std::string> requests,
                             const std::string& constraints = "", const std::string& config = "") {
  std::string out =
      "apiVersion: resource.k8s.io/v1\nkind: ResourceClaim\nmetadata: {name: " + name +
      "}\nspec:\n  devices:\n    requests:\n";
  for (const auto& r : requests) out += "    - " + r + "\n";
  if (!constraints.empty()) out += "    constraints: [" + constraints + "]\n";
  if (!config.empty()) out += "    config: [" + config + "]\n";
  return out + "---\n";
}

// A claim that is in use: its allocation holds `results` (flow mappings
// "{request: r, driver: d, pool: p, device: x}" with optional shareID and
// consumedCapacity).
inline std::string InUse(const std::string& name, std::initializer_list<std::string> results) {
  std::string out =
      "apiVersion: resource.k8s.io/v1\nkind: ResourceClaim\nmetadata: {name: " + name +
      ", namespace: default}\nspec:\n  devices:\n    requests:\n    - {name: r, "
      "exactly: {deviceClassName: class-a}}\nstatus:\n  allocation:\n    devices:\n"
      "      results:\n";
  for (const auto& r : results) out += "      - " + r + "\n";
  return out + "---\n";
}
// An exclusively allocated device "driver/pool/device" as a result mapping.
inline std::string Dev(const std::string& id) {
  std::size_t a = id.find('/');
  std::size_t b = id.find('/', a + 1);
  return "{request: r, driver: " + id.substr(0, a) + ", pool: " + id.substr(a + 1, b - a - 1) +
         ", device: " + id.substr(b + 1) + "}";
}
// Devices allocated exclusively before this call (upstream's allocatedDevices).
inline std::string Allocated(std::initializer_list<std::string> ids) {
  std::string out;
  int i = 0;
  for (const auto& id : ids) out += InUse("allocated-" + std::to_string(i++), {Dev(id)});
  return out;
}

}  // namespace dra::allocator::catalog
