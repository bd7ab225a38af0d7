#include "allocator/inventory.h"

#include <algorithm>
#include <functional>
#include <utility>

namespace dra::allocator {
namespace {

std::string Key(std::string_view driver, std::string_view pool, std::string_view device) {
  std::string k;
  k.reserve(driver.size() + pool.size() + device.size() + 2);
  k.append(driver).append(1, '/').append(pool).append(1, '/').append(device);
  return k;
}

std::string PoolKey(std::string_view driver, std::string_view pool) {
  std::string k;
  k.reserve(driver.size() + pool.size() + 1);
  k.append(driver).append(1, '\0').append(pool);
  return k;
}

// The scheduler's slice tracker appends each rule's taint to the devices it
// selects; unset selector fields (driver, pool, device) are wildcards.
void ApplyTaintRules(const std::vector<api::DeviceTaintRule>& rules, api::ResourceSlice& slice) {
  for (const api::DeviceTaintRule& rule : rules) {
    const auto& sel = rule.spec.device_selector;
    if (sel && sel->driver && *sel->driver != slice.spec.driver) continue;
    if (sel && sel->pool && *sel->pool != slice.spec.pool.name) continue;
    for (api::Device& device : slice.spec.devices) {
      if (sel && sel->device && *sel->device != device.name) continue;
      device.taints.push_back(rule.spec.taint);
    }
  }
}

bool HasExtra(const api::Device& d) {
  return !d.consumes_counters.empty() || d.node_name || d.node_selector || d.all_nodes ||
         !d.taints.empty() || !d.binding_conditions.nil() || !d.binding_failure_conditions.nil();
}

void Mix(std::size_t& h, std::size_t v) { h ^= v + 0x9e3779b97f4a7c15ULL + (h << 6) + (h >> 2); }

std::size_t ExtraHash(const DeviceExtra& e) {
  std::hash<std::string> hs;
  std::size_t h = 0;
  for (const auto& c : e.consumes_counters) {
    Mix(h, hs(c.counter_set));
    for (const auto& [name, counter] : c.counters) Mix(h, hs(name));
  }
  if (e.node_name) Mix(h, hs(*e.node_name));
  if (e.all_nodes) Mix(h, *e.all_nodes ? 7 : 11);
  for (const auto& t : e.taints) Mix(h, hs(t.key) ^ hs(t.effect));
  for (const auto& s : e.binding_conditions) Mix(h, hs(s));
  for (const auto& s : e.binding_failure_conditions) Mix(h, hs(s));
  return h;
}

// Equal in everything the allocator reads of them: counter values only as
// numbers, binding condition lists also in being present (results copy them).
bool SameExtra(const DeviceExtra& a, const DeviceExtra& b) {
  return a.consumes_counters == b.consumes_counters && a.node_name == b.node_name &&
         a.all_nodes == b.all_nodes && a.taints == b.taints &&
         a.binding_conditions == b.binding_conditions &&
         a.binding_conditions.nil() == b.binding_conditions.nil() &&
         a.binding_failure_conditions == b.binding_failure_conditions &&
         a.binding_failure_conditions.nil() == b.binding_failure_conditions.nil() &&
         !a.node_selector && !b.node_selector;
}

}  // namespace

const DeviceExtra Inventory::kNoExtra{};
const SliceExtra Inventory::kNoSliceExtra{};

Variant ChooseVariant(const Features& f) {
  if (f.list_type_attributes || f.optional_node_operations) return Variant::kExperimental;
  if (f.device_binding_and_status || f.consumable_capacity || f.fractional_capacity_range) {
    return Variant::kIncubating;
  }
  return Variant::kStable;
}

Inventory::Inventory(Snapshot snapshot)
    : snapshot_(std::move(snapshot)), variant_(ChooseVariant(snapshot_.features)) {
  // Each slice dies once recorded: the index keeps what it needs, so slices
  // that a source decodes one at a time never all exist at once.
  std::vector<api::ResourceSlice> slices = std::move(snapshot_.slices);
  snapshot_.slices.clear();
  snapshot_.slices.shrink_to_fit();
  SliceSource more = std::move(snapshot_.more_slices);
  snapshot_.more_slices = nullptr;
  table_ = std::make_unique<DeviceTable>(variant_ == Variant::kStable);
  // Slices given at once are counted first, so their records are allocated
  // once; streamed ones grow the records and are trimmed in IndexSlices.
  std::size_t devices = 0;
  for (const api::ResourceSlice& s : slices) devices += s.spec.devices.size();
  devices_.reserve(devices);
  slices_.reserve(slices.size());
  Recording recording;
  for (api::ResourceSlice& s : slices) {
    RecordSlice(s, recording);
    s = api::ResourceSlice();
  }
  slices.clear();
  slices.shrink_to_fit();
  if (more) {
    for (api::ResourceSlice s; more(s); s = api::ResourceSlice()) RecordSlice(s, recording);
  }
  IndexSlices();
}

std::string_view Inventory::Intern(const std::string& s) { return *strings_.insert(s).first; }

Index Inventory::AddExtra(const api::Device& d,
                          std::unordered_multimap<std::size_t, Index>& distinct) {
  DeviceExtra e{d.consumes_counters,
                d.node_name,
                d.node_selector,
                d.all_nodes,
                d.taints,
                d.binding_conditions,
                d.binding_failure_conditions};
  const std::size_t h = ExtraHash(e);
  for (auto [it, end] = distinct.equal_range(h); it != end; ++it) {
    if (SameExtra(extras_[it->second], e)) return it->second;
  }
  const Index index = static_cast<Index>(extras_.size());
  extras_.push_back(std::move(e));
  distinct.emplace(h, index);
  return index;
}

void Inventory::IndexSlices() {
  table_->Seal();
  same_id_next_.assign(devices_.size(), kNoIndex);
  RecordAttributeErrors();
  GroupByPool();
  SortByName();
  for (auto* list : {&slices_by_node_, &shared_slices_, &counter_slices_}) list->shrink_to_fit();
  slices_.shrink_to_fit();
  devices_.shrink_to_fit();
  pool_names_.shrink_to_fit();
  slice_extras_.shrink_to_fit();
  extras_.shrink_to_fit();
  device_names_.shrink_to_fit();
  for (const api::DeviceClass& c : snapshot_.classes) classes_.emplace(c.metadata.name, &c);
}

// Records one slice and its devices, after the taint rules are applied to
// it; what the index keeps is moved out of `s`.
void Inventory::RecordSlice(api::ResourceSlice& s, Recording& recording) {
  ApplyTaintRules(snapshot_.taint_rules, s);
  const std::string_view driver = Intern(s.spec.driver);
  auto [it, inserted] = recording.pool_ids.try_emplace(PoolKey(s.spec.driver, s.spec.pool.name),
                                                       static_cast<Index>(pool_names_.size()));
  if (inserted) pool_names_.push_back({driver, s.spec.pool.name});
  const Index pool = it->second;
  const Index slice_index = static_cast<Index>(slices_.size());
  const bool has_counters = !s.spec.shared_counters.empty();
  SliceRecord& rec = slices_.emplace_back();
  rec.name = KeepText(texts_, s.metadata.name);
  rec.pool = pool;
  rec.first_device = static_cast<Index>(devices_.size());
  rec.device_count = static_cast<Index>(s.spec.devices.size());
  rec.has_counters = has_counters;
  rec.per_device_node_selection = s.spec.per_device_node_selection;
  rec.all_nodes = s.spec.all_nodes;
  rec.generation = s.spec.pool.generation;
  rec.resource_slice_count = s.spec.pool.resource_slice_count;
  if (s.spec.node_name) rec.node_name = KeepText(texts_, *s.spec.node_name);
  rec.extra = kNoIndex;
  if (s.spec.node_selector || has_counters) {
    rec.extra = static_cast<Index>(slice_extras_.size());
    slice_extras_.push_back({std::move(s.spec.node_selector), std::move(s.spec.shared_counters)});
  }
  if (rec.node_name && !rec.node_name->empty()) {
    slices_by_node_.push_back(slice_index);
  } else {
    shared_slices_.push_back(slice_index);
  }
  if (has_counters) counter_slices_.push_back(slice_index);
  for (const api::Device& d : s.spec.devices) {
    DeviceRecord dev{};
    const std::string_view name = Intern(d.name);
    auto [id, inserted] = recording.name_ids.try_emplace(name, device_names_.size());
    if (inserted) device_names_.push_back(name);
    dev.name_id = id->second;
    dev.slice = slice_index;
    dev.extra = HasExtra(d) ? AddExtra(d, recording.distinct_extras) : kNoIndex;
    dev.attribute_error = kNoIndex;
    dev.has_binding_conditions = !d.binding_conditions.empty();
    dev.allow_multiple_allocations = d.allow_multiple_allocations.value_or(false);
    dev.binds_to_node = d.binds_to_node.value_or(false);
    dev.consumes_counters = !d.consumes_counters.empty();
    devices_.push_back(dev);
    table_->Add(d, driver);
  }
}

// Devices whose attributes fail validation, with each distinct reason stored once.
void Inventory::RecordAttributeErrors() {
  std::unordered_map<std::string, Index> distinct_errors;
  for (Index d = 0; d < devices_.size(); ++d) {
    Status st = cel::ValidateDeviceAttributes(table_->view(d));
    if (st.ok()) continue;
    auto [it, inserted] =
        distinct_errors.try_emplace(st.error(), static_cast<Index>(attribute_errors_.size()));
    if (inserted) attribute_errors_.push_back(st.error());
    devices_[d].attribute_error = it->second;
  }
}

void Inventory::GroupByPool() {
  // Per pool slices and devices, grouped by pool in input order.
  const std::size_t pools = pool_names_.size();
  pool_slice_begin_.assign(pools + 1, 0);
  pool_device_begin_.assign(pools + 1, 0);
  for (const SliceRecord& r : slices_) {
    ++pool_slice_begin_[r.pool + 1];
    pool_device_begin_[r.pool + 1] += r.device_count;
  }
  for (std::size_t p = 0; p < pools; ++p) {
    pool_slice_begin_[p + 1] += pool_slice_begin_[p];
    pool_device_begin_[p + 1] += pool_device_begin_[p];
  }
  pool_slices_.resize(slices_.size());
  pool_devices_.resize(devices_.size());
  {
    std::vector<Index> next_slice(pool_slice_begin_.begin(), pool_slice_begin_.end() - 1);
    std::vector<Index> next_device(pool_device_begin_.begin(), pool_device_begin_.end() - 1);
    for (Index s = 0; s < slices_.size(); ++s) {
      const SliceRecord& r = slices_[s];
      pool_slices_[next_slice[r.pool]++] = s;
      for (Index d = r.first_device; d < r.first_device + r.device_count; ++d) {
        pool_devices_[next_device[r.pool]++] = d;
      }
    }
  }
}

// Device IDs, pools and node-local slices in name order.
void Inventory::SortByName() {
  const std::size_t pools = pool_names_.size();
  // Device IDs: per pool by name; duplicates chain in input order.
  for (std::size_t p = 0; p < pools; ++p) {
    auto first = pool_devices_.begin() + pool_device_begin_[p];
    auto last = pool_devices_.begin() + pool_device_begin_[p + 1];
    std::stable_sort(first, last,
                     [&](Index a, Index b) { return device_name(a) < device_name(b); });
    for (auto it = first; it != last && it + 1 != last; ++it) {
      if (devices_[*it].name_id == devices_[*(it + 1)].name_id) same_id_next_[*it] = *(it + 1);
    }
  }
  pools_by_name_.resize(pools);
  for (Index p = 0; p < pools; ++p) pools_by_name_[p] = p;
  std::sort(pools_by_name_.begin(), pools_by_name_.end(), [&](Index a, Index b) {
    const PoolName& x = pool_names_[a];
    const PoolName& y = pool_names_[b];
    return x.driver != y.driver ? x.driver < y.driver : x.name < y.name;
  });
  std::stable_sort(slices_by_node_.begin(), slices_by_node_.end(),
                   [&](Index a, Index b) { return *slices_[a].node_name < *slices_[b].node_name; });
}

std::span<const Index> Inventory::node_slices(std::string_view node) const {
  auto first =
      std::lower_bound(slices_by_node_.begin(), slices_by_node_.end(), node,
                       [&](Index s, std::string_view n) { return *slices_[s].node_name < n; });
  auto last =
      std::upper_bound(first, slices_by_node_.end(), node,
                       [&](std::string_view n, Index s) { return n < *slices_[s].node_name; });
  return {slices_by_node_.data() + (first - slices_by_node_.begin()),
          static_cast<std::size_t>(last - first)};
}

const api::DeviceClass* Inventory::FindClass(const std::string& name) const {
  auto it = classes_.find(name);
  return it == classes_.end() ? nullptr : it->second;
}

Index Inventory::FindDevice(std::string_view driver, std::string_view pool,
                            std::string_view device) const {
  const PoolName wanted{driver, std::string(pool)};
  auto p = std::lower_bound(pools_by_name_.begin(), pools_by_name_.end(), wanted,
                            [&](Index a, const PoolName& y) {
                              const PoolName& x = pool_names_[a];
                              return x.driver != y.driver ? x.driver < y.driver : x.name < y.name;
                            });
  if (p == pools_by_name_.end() || pool_names_[*p].driver != driver ||
      pool_names_[*p].name != pool) {
    return kNoIndex;
  }
  auto first = pool_devices_.begin() + pool_device_begin_[*p];
  auto last = pool_devices_.begin() + pool_device_begin_[*p + 1];
  auto it = std::lower_bound(first, last, device,
                             [&](Index d, std::string_view name) { return device_name(d) < name; });
  return it != last && device_name(*it) == device ? *it : kNoIndex;
}

std::string Inventory::DeviceIdString(Index device) const {
  const PoolName& pool = pool_names_[slices_[devices_[device].slice].pool];
  return Key(pool.driver, pool.name, device_name(device));
}

std::size_t Inventory::bytes() const {
  // Heap of individual names, selectors and counter sets is not counted.
  return slices_.capacity() * sizeof(SliceRecord) + devices_.capacity() * sizeof(DeviceRecord) +
         extras_.capacity() * sizeof(DeviceExtra) + slice_extras_.capacity() * sizeof(SliceExtra) +
         pool_names_.capacity() * sizeof(PoolName) +
         device_names_.capacity() * sizeof(std::string_view) + texts_.bytes() +
         (same_id_next_.capacity() + pools_by_name_.capacity() + pool_slice_begin_.capacity() +
          pool_slices_.capacity() + pool_device_begin_.capacity() + pool_devices_.capacity() +
          slices_by_node_.capacity()) *
             sizeof(Index) +
         table_->bytes();
}

}  // namespace dra::allocator
