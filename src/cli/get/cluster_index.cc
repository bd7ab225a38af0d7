#include "cli/get/cluster_index.h"

#include <algorithm>
#include <map>
#include <tuple>

#include "allocator/node_match.h"
#include "dra/cel/api_device_view.h"
#include "dra/cel/device_view.h"

namespace dra::cli::get {
namespace {

std::string DeviceKey(std::string_view driver, std::string_view pool, std::string_view device) {
  std::string key;
  key.reserve(driver.size() + pool.size() + device.size() + 2);
  key.append(driver).push_back('\0');
  key.append(pool).push_back('\0');
  key.append(device);
  return key;
}

std::string RequirementText(const api::NodeSelectorRequirement& r) {
  auto values = [&] {
    std::string out;
    for (const std::string& v : r.values) out += (out.empty() ? "" : ",") + v;
    return out;
  };
  if (r.operator_ == "In") return r.key + " in (" + values() + ")";
  if (r.operator_ == "NotIn") return r.key + " notin (" + values() + ")";
  if (r.operator_ == "Exists") return r.key;
  if (r.operator_ == "DoesNotExist") return "!" + r.key;
  if (r.operator_ == "Gt") return r.key + ">" + values();
  if (r.operator_ == "Lt") return r.key + "<" + values();
  return r.key + " " + r.operator_ + " (" + values() + ")";
}

bool UsesPerDeviceSelection(const api::ResourceSlice& slice) {
  return slice.spec.per_device_node_selection.value_or(false);
}

}  // namespace

std::string QualifiedName(const api::ObjectMeta& meta) { return meta.namespace_ + "/" + meta.name; }

AllocationIndex::AllocationIndex(const std::vector<api::ResourceClaim>& claims) {
  for (const api::ResourceClaim& claim : claims) {
    if (!claim.status.allocation) continue;
    for (const api::DeviceRequestAllocationResult& r : claim.status.allocation->devices.results) {
      by_device_[DeviceKey(r.driver, r.pool, r.device)].push_back({&claim, &r});
    }
  }
}

const std::vector<AllocationRef>& AllocationIndex::Find(std::string_view driver,
                                                        std::string_view pool,
                                                        std::string_view device) const {
  auto it = by_device_.find(DeviceKey(driver, pool, device));
  return it == by_device_.end() ? none_ : it->second;
}

std::vector<PoolSlices> GroupPools(const std::vector<api::ResourceSlice>& slices) {
  std::map<std::pair<std::string_view, std::string_view>, PoolSlices> pools;
  for (const api::ResourceSlice& slice : slices) {
    std::string_view driver = slice.spec.driver, name = slice.spec.pool.name;
    auto [it, inserted] = pools.try_emplace({driver, name});
    PoolSlices& pool = it->second;
    std::int64_t generation = slice.spec.pool.generation;
    if (inserted || generation > pool.generation) {
      pool.driver = driver;
      pool.pool = name;
      pool.generation = generation;
      pool.resource_slice_count = 0;
      pool.slices.clear();
    } else if (generation < pool.generation) {
      continue;
    }
    pool.slices.push_back(&slice);
    pool.resource_slice_count =
        std::max(pool.resource_slice_count, slice.spec.pool.resource_slice_count);
  }
  std::vector<PoolSlices> out;
  out.reserve(pools.size());
  for (auto& [key, pool] : pools) out.push_back(std::move(pool));
  return out;
}

std::string NodeSelectorText(const api::NodeSelector& selector) {
  const auto& terms = selector.node_selector_terms;
  if (terms.size() == 1 && terms[0].match_expressions.empty() &&
      terms[0].match_fields.size() == 1) {
    const api::NodeSelectorRequirement& r = terms[0].match_fields[0];
    if (r.key == "metadata.name" && r.operator_ == "In" && r.values.size() == 1) {
      return r.values[0];
    }
  }
  std::string out;
  for (const api::NodeSelectorTerm& term : terms) {
    std::string text;
    for (const auto* list : {&term.match_expressions, &term.match_fields}) {
      for (const api::NodeSelectorRequirement& r : *list) {
        text += (text.empty() ? "" : ",") + RequirementText(r);
      }
    }
    out += (out.empty() ? "" : " || ") + text;
  }
  return out.empty() ? "<none>" : out;
}

std::string NodeColumn(const api::ResourceSlice& slice, const api::Device* device) {
  const std::optional<std::string>* node_name = &slice.spec.node_name;
  const std::optional<api::NodeSelector>* selector = &slice.spec.node_selector;
  const std::optional<bool>* all_nodes = &slice.spec.all_nodes;
  if (UsesPerDeviceSelection(slice)) {
    if (device == nullptr) return "<per device>";
    node_name = &device->node_name;
    selector = &device->node_selector;
    all_nodes = &device->all_nodes;
  }
  if (*node_name && !(*node_name)->empty()) return **node_name;
  if (all_nodes->value_or(false)) return "<all nodes>";
  if (*selector) return NodeSelectorText(**selector);
  return "<none>";
}

TaintIndex::TaintIndex(const std::vector<api::DeviceTaintRule>& rules) {
  for (const api::DeviceTaintRule& rule : rules) rules_.push_back(&rule);
  std::sort(rules_.begin(), rules_.end(),
            [](const auto* a, const auto* b) { return a->metadata.name < b->metadata.name; });
}

std::vector<RowTaint> TaintIndex::TaintsOf(const api::ResourceSlice& slice,
                                           const api::Device& device) const {
  std::vector<RowTaint> out;
  for (const api::DeviceTaint& t : device.taints) out.push_back({&t, {}});
  for (const api::DeviceTaintRule* rule : rules_) {
    const auto& sel = rule->spec.device_selector;
    if (sel) {
      if (sel->driver && *sel->driver != slice.spec.driver) continue;
      if (sel->pool && *sel->pool != slice.spec.pool.name) continue;
      if (sel->device && *sel->device != device.name) continue;
    }
    out.push_back({&rule->spec.taint, rule->metadata.name});
  }
  return out;
}

Result<DeviceFilter> DeviceFilter::Make(const ClusterObjects& objects, const GetFilters& filters) {
  DeviceFilter f;
  f.driver_ = filters.driver;
  if (!filters.node.empty()) {
    for (const api::Node& node : objects.nodes) {
      if (node.metadata.name == filters.node) f.node_ = std::make_shared<api::Node>(node);
    }
    if (f.node_ == nullptr) {
      // A node the input does not define: its name and hostname label only.
      f.node_ = std::make_shared<api::Node>();
      f.node_->metadata.name = filters.node;
      f.node_->metadata.labels["kubernetes.io/hostname"] = filters.node;
    }
  }
  if (!filters.device_class.empty()) {
    f.has_class_ = true;
    const api::DeviceClass* found = nullptr;
    for (const api::DeviceClass& c : objects.classes) {
      if (c.metadata.name == filters.device_class) found = &c;
    }
    if (found == nullptr) {
      return Error{"deviceclass \"" + filters.device_class + "\" not found"};
    }
    for (const api::DeviceSelector& s : found->spec.selectors) {
      if (!s.cel) continue;
      cel::Compilation c = cel::Compile(s.cel->expression);
      if (!c.ok()) {
        return Error{"deviceclass \"" + filters.device_class + "\": selector " + s.cel->expression +
                     ": " + c.error.detail};
      }
      f.programs_.push_back(c.program);
    }
  }
  return f;
}

bool DeviceFilter::Matches(const api::ResourceSlice& slice, const api::Device& device) const {
  if (!driver_.empty() && slice.spec.driver != driver_) return false;
  if (node_ != nullptr) {
    const bool per_device = UsesPerDeviceSelection(slice);
    Result<bool> m = per_device ? allocator::NodeMatches(device.node_name, device.all_nodes,
                                                         device.node_selector, *node_)
                                : allocator::NodeMatches(slice.spec.node_name, slice.spec.all_nodes,
                                                         slice.spec.node_selector, *node_);
    if (!m.ok() || !*m) return false;
  }
  if (!programs_.empty()) {
    cel::ApiDeviceView view(device, slice.spec.driver);
    // As the allocator: a device whose attributes CEL cannot take matches no selector.
    if (!cel::ValidateDeviceAttributes(view).ok()) return false;
    for (const auto& program : programs_) {
      Result<bool> r = program->Evaluate(view);
      if (!r.ok() || !*r) return false;
    }
  }
  return true;
}

CounterLedger PoolCounters(const PoolSlices& pool) {
  CounterLedger ledger;
  for (const api::ResourceSlice* slice : pool.slices) {
    for (const api::CounterSet& set : slice->spec.shared_counters) {
      for (const auto& [name, counter] : set.counters) {
        ledger[set.name][name] = Use{counter.value, counter.value.Sub(counter.value)};
      }
    }
  }
  return ledger;
}

void Consume(CounterLedger& ledger, const api::Device& device) {
  for (const api::DeviceCounterConsumption& c : device.consumes_counters) {
    auto set = ledger.find(c.counter_set);
    if (set == ledger.end()) continue;
    for (const auto& [name, counter] : c.counters) {
      auto it = set->second.find(name);
      if (it != set->second.end()) it->second.consumed = it->second.consumed.Add(counter.value);
    }
  }
}

bool FitsCounters(const CounterLedger& ledger, const api::Device& device, bool* partly_consumed) {
  bool fits = true;
  bool partial = false;
  for (const api::DeviceCounterConsumption& c : device.consumes_counters) {
    auto set = ledger.find(c.counter_set);
    if (set == ledger.end()) {
      fits = false;
      continue;
    }
    for (const auto& [name, counter] : c.counters) {
      auto it = set->second.find(name);
      if (it == set->second.end()) {
        fits = false;
        continue;
      }
      partial = partial || !it->second.consumed.IsZero();
      if (it->second.total.Sub(it->second.consumed).Compare(counter.value) < 0) fits = false;
    }
  }
  if (partly_consumed != nullptr) *partly_consumed = partial;
  return fits;
}

}  // namespace dra::cli::get
