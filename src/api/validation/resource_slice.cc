// ResourceSlice validation (ValidateResourceSlice, ValidateResourceSliceUpdate
// in k8s.io/kubernetes/pkg/apis/resource/validation): the hand-written checks
// in their upstream order, then the declarative ones, as kube-apiserver reports
// them after merging the two validators (see error_lists.h).
#include <algorithm>
#include <cstdint>
#include <limits>
#include <map>
#include <string>
#include <string_view>
#include <vector>

#include "api/validation/bad_values.h"
#include "api/validation/binding_conditions.h"
#include "api/validation/error_lists.h"
#include "api/validation/formats.h"
#include "api/validation/list_checks.h"
#include "api/validation/skip_node_operations.h"
#include "dra/api/validation.h"

namespace dra::api {
namespace {

using validation::ErrorLists;
using validation::ExactKey;
using validation::ExceedsMaxItems;
using validation::Index;
using validation::Key;
using validation::ReportDuplicates;

constexpr std::size_t kMaxDevices = 128;
constexpr std::size_t kMaxDevicesWithAdvancedFeatures = 64;
constexpr std::size_t kMaxCounterSets = 8;
constexpr std::size_t kMaxCountersPerCounterSet = 32;
constexpr std::size_t kMaxCounterConsumptionsPerDevice = 2;
constexpr std::size_t kMaxCompatibilityGroups = 2;  // DeviceCompatibilityGroupsMaxSize
constexpr std::size_t kMaxCountersPerCounterConsumption = 32;
constexpr std::size_t kMaxAttributesAndCapacities = 32;
constexpr std::size_t kMaxAttributeValues = 48;
constexpr std::size_t kMaxAttributeValueLength = 64;
constexpr std::size_t kMaxDeviceTaints = 16;
constexpr std::size_t kMaxRequestPolicyValidValues = 10;

constexpr std::string_view kNodeSelectionRequired =
    "exactly one of `nodeName`, `nodeSelector`, `allNodes`, `perDeviceNodeSelection` is required";
constexpr std::string_view kDeviceNodeSelectionRequired =
    "exactly one of `nodeName`, `nodeSelector`, or `allNodes` is required when "
    "`perDeviceNodeSelection` is set to true in the ResourceSlice spec";

const std::vector<std::string_view> kAttributeMembers = {"int",  "bool",  "string",  "version",
                                                         "ints", "bools", "strings", "versions"};

std::string BoolText(bool b) { return b ? "true" : "false"; }

// A quantity as validation messages show it.
std::string QuantityValue(const Quantity& q) { return GoQuote(q.String()); }

// ---- Bad values of the hand-written validator (internal Go structs) -------

template <class T, class Render>
std::string InternalListJson(const List<T>& list, Render render) {
  if (list.nil()) return "null";
  std::string out = "[";
  for (const T& v : list) {
    if (out.size() > 1) out += ',';
    out += render(v);
  }
  return out + "]";
}

std::string InternalRequirementJson(const NodeSelectorRequirement& r) {
  return R"({"Key":)" + validation::GoJsonString(std::string_view(r.key)) + R"(,"Operator":)" +
         validation::GoJsonString(std::string_view(r.operator_)) + R"(,"Values":)" +
         validation::GoJsonStringList(r.values) + "}";
}

std::string InternalTermJson(const NodeSelectorTerm& t) {
  return R"({"MatchExpressions":)" +
         InternalListJson(t.match_expressions, InternalRequirementJson) + R"(,"MatchFields":)" +
         InternalListJson(t.match_fields, InternalRequirementJson) + "}";
}

std::string InternalAttributeJson(const DeviceAttribute& a) {
  auto optional_string = [](const std::optional<std::string>& s) {
    return validation::GoJsonString(s);
  };
  auto string_item = [](const std::string& s) {
    return validation::GoJsonString(std::string_view(s));
  };
  std::string out = R"({"IntValue":)";
  out += a.int_value ? RenderInt(*a.int_value) : "null";
  out += R"(,"BoolValue":)";
  out += a.bool_value ? BoolText(*a.bool_value) : "null";
  out += R"(,"StringValue":)" + optional_string(a.string_value);
  out += R"(,"VersionValue":)" + optional_string(a.version_value);
  out += R"(,"IntValues":)" + InternalListJson(a.int_values, RenderInt);
  out += R"(,"BoolValues":)" + InternalListJson(a.bool_values, BoolText);
  out += R"(,"StringValues":)" + InternalListJson(a.string_values, string_item);
  out += R"(,"VersionValues":)" + InternalListJson(a.version_values, string_item);
  return out + "}";
}

// ---- Quantities in request policies ----------------------------------------

// The exact decimal text of `q` ("1.5", "1073741824", "-0.25"), as
// apimachinery prints a quantity's inf.Dec, derived from the canonical text.
// Two known differences: inf.Dec keeps trailing fraction zeros of the input
// ("1.50"), and canonical text has no suffix for 10^21 and beyond.
std::string PlainDecimal(const Quantity& q) {
  std::string text = q.CanonicalString();
  const bool negative = !text.empty() && text.front() == '-';
  if (negative) text.erase(0, 1);
  std::size_t digits_end = 0;
  while (digits_end < text.size() && text[digits_end] >= '0' && text[digits_end] <= '9') {
    ++digits_end;
  }
  std::string digits = text.substr(0, digits_end);
  const std::string suffix = text.substr(digits_end);

  static const std::map<std::string, int, std::less<>> kDecimalSuffixes = {
      {"n", -9}, {"u", -6}, {"m", -3}, {"", 0},   {"k", 3},
      {"M", 6},  {"G", 9},  {"T", 12}, {"P", 15}, {"E", 18}};
  static const std::map<std::string, int, std::less<>> kBinarySuffixes = {
      {"Ki", 1}, {"Mi", 2}, {"Gi", 3}, {"Ti", 4}, {"Pi", 5}, {"Ei", 6}};

  int exponent = 0;
  if (auto it = kBinarySuffixes.find(suffix); it != kBinarySuffixes.end()) {
    // Canonical binary text is an integer below 2^63 once multiplied out.
    unsigned __int128 value = std::stoull(digits);
    for (int k = 0; k < it->second; ++k) value *= 1024;
    digits.clear();
    do {
      digits.insert(digits.begin(), static_cast<char>('0' + static_cast<int>(value % 10)));
      value /= 10;
    } while (value != 0);
  } else if (auto dec = kDecimalSuffixes.find(suffix); dec != kDecimalSuffixes.end()) {
    exponent = dec->second;
  } else if (suffix.size() > 1 && (suffix[0] == 'e' || suffix[0] == 'E')) {
    exponent = std::stoi(suffix.substr(1));
  }

  std::string out;
  if (exponent >= 0) {
    out = digits + std::string(static_cast<std::size_t>(exponent), '0');
  } else {
    const auto shift = static_cast<std::size_t>(-exponent);
    if (digits.size() <= shift) digits.insert(0, shift - digits.size() + 1, '0');
    std::string fraction = digits.substr(digits.size() - shift);
    while (!fraction.empty() && fraction.back() == '0') fraction.pop_back();
    out = digits.substr(0, digits.size() - shift);
    if (!fraction.empty()) out += "." + fraction;
  }
  if (negative && out != "0") out.insert(0, "-");
  return out;
}

const Quantity& MaxInt64Quantity() {
  static const Quantity q = Quantity::FromInt(std::numeric_limits<std::int64_t>::max());
  return q;
}

// True when MilliValue() is exact: a multiple of 0.001 within int64 milli units.
bool FitsMilli(const Quantity& q) {
  static const Quantity kMax = Quantity::MustParse("9223372036854775807m");
  static const Quantity kMin = Quantity::MustParse("-9223372036854775808m");
  return q.IsMilliExact() && q.Compare(kMax) <= 0 && q.Compare(kMin) >= 0;
}

// Go's int64 arithmetic wraps; so does this.
std::int64_t WrappingSub(std::int64_t a, std::int64_t b) {
  return static_cast<std::int64_t>(static_cast<std::uint64_t>(a) - static_cast<std::uint64_t>(b));
}

// ---- The validator ----------------------------------------------------------

class SliceValidator {
 public:
  SliceValidator(const ResourceSliceSpec& spec, const ResourceSliceSpec* old,
                 const ValidationOptions& options)
      : spec_(spec), old_(old), options_(options) {}

  FieldErrors Run(const ObjectMeta& meta, const ObjectMeta* old_meta) && {
    if (old_meta == nullptr) {
      validation::ValidateObjectMeta(meta, /*namespaced=*/false, /*content_name=*/false,
                                     errors_.hv);
    } else {
      validation::ValidateObjectMetaUpdate(meta, *old_meta, errors_.hv);
    }
    HandWrittenSpec();
    // Declarative validation skips whatever did not change on update.
    if (old_ == nullptr || !(spec_ == *old_)) DeclarativeSpec();
    return std::move(errors_).Merged();
  }

 private:
  FieldErrors& hv() { return errors_.hv; }
  FieldErrors& dv() { return errors_.dv; }

  bool Enabled(Feature f) const { return options_.gates.Enabled(f); }

  // Declarative checks of devices run on create and whenever the device list
  // changed; devices are not matched with old ones, so all of them are checked.
  bool DeclarativeChecksDevices() const {
    return !spec_.devices.empty() && (old_ == nullptr || !(spec_.devices == old_->devices));
  }

  // ---- Hand-written ----------------------------------------------------------

  void HandWrittenSpec() {
    validation::ValidateDriverName(spec_.driver, "spec.driver", hv());
    validation::ValidatePoolName(spec_.pool.name, "spec.pool.name", hv());
    if (spec_.pool.resource_slice_count <= 0) {
      hv().push_back(Invalid("spec.pool.resourceSliceCount",
                             RenderInt(spec_.pool.resource_slice_count),
                             "must be greater than zero"));
    }
    if (spec_.pool.generation < 0) {
      hv().push_back(Invalid("spec.pool.generation", RenderInt(spec_.pool.generation),
                             "must be greater than or equal to zero"));
    }
    if (old_ != nullptr) Immutability();
    NodeSelection();
    if (!spec_.shared_counters.nil() && !spec_.devices.nil()) {
      hv().push_back(
          Invalid("spec", R"("")", "only one of `sharedCounters` or `devices` is allowed"));
    }
    Devices();
    SharedCountersSizes();
    if (spec_.partition_type_attribute) PartitionTypeAttribute(*spec_.partition_type_attribute);
    validation::ValidateSkipNodeOperations(spec_.skip_node_operations, "spec.skipNodeOperations",
                                           hv());
  }

  void Immutability() {
    constexpr std::string_view kImmutable = "field is immutable";
    if (spec_.pool.name != old_->pool.name) {
      hv().push_back(InvalidString("spec.pool.name", spec_.pool.name, std::string(kImmutable)));
    }
    if (spec_.driver != old_->driver) {
      hv().push_back(InvalidString("spec.driver", spec_.driver, std::string(kImmutable)));
    }
    if (spec_.node_name != old_->node_name) {
      hv().push_back(Invalid("spec.nodeName", validation::GoJsonString(spec_.node_name),
                             std::string(kImmutable)));
    }
  }

  void NodeSelection() {
    std::vector<std::string_view> set;
    if (spec_.node_name) {
      if (spec_.node_name->empty()) {
        hv().push_back(
            Invalid("spec.nodeName", R"("")", "must be either unset or set to a non-empty string"));
      } else {
        set.push_back("`nodeName`");
        validation::ValidateDnsSubdomain(*spec_.node_name, "spec.nodeName", hv());
      }
    }
    if (spec_.node_selector) {
      set.push_back("`nodeSelector`");
      validation::ValidateNodeSelector(*spec_.node_selector, "spec.nodeSelector", hv());
      // One term keeps selectors of different slices easy to merge.
      if (spec_.node_selector->node_selector_terms.size() != 1) {
        hv().push_back(
            Invalid("spec.nodeSelector.nodeSelectorTerms",
                    InternalListJson(spec_.node_selector->node_selector_terms, InternalTermJson),
                    "must have exactly one node selector term"));
      }
    }
    SetOnlyToTrue(spec_.all_nodes, "`allNodes`", "spec.allNodes", set);
    SetOnlyToTrue(spec_.per_device_node_selection, "`perDeviceNodeSelection`",
                  "spec.perDeviceNodeSelection", set);
    ReportSelectionCount(set, "spec", kNodeSelectionRequired, ", but multiple fields are set");
  }

  void SetOnlyToTrue(const std::optional<bool>& flag, std::string_view name,
                     const std::string& path, std::vector<std::string_view>& set) {
    if (!flag) return;
    if (*flag) {
      set.push_back(name);
    } else {
      hv().push_back(Invalid(path, "false", "must be either unset or set to true"));
    }
  }

  void ReportSelectionCount(const std::vector<std::string_view>& set, const std::string& path,
                            std::string_view required, std::string_view multiple_suffix) {
    if (set.empty()) {
      hv().push_back(Required(path, std::string(required)));
    } else if (set.size() > 1) {
      std::string fields = "{";
      for (std::size_t i = 0; i < set.size(); ++i) {
        if (i > 0) fields += ", ";
        fields += set[i];
      }
      fields += '}';
      hv().push_back(
          InvalidString(path, fields, std::string(required) + std::string(multiple_suffix)));
    }
  }

  bool HaveConsumesCounters() const {
    return std::any_of(spec_.devices.begin(), spec_.devices.end(),
                       [](const Device& d) { return !d.consumes_counters.empty(); });
  }

  // Taints, counter consumption and list attributes make devices costlier to
  // handle, so slices using them hold fewer devices.
  std::size_t MaxDevices() const {
    const bool advanced =
        std::any_of(spec_.devices.begin(), spec_.devices.end(), [](const Device& d) {
          if (!d.taints.empty() || !d.consumes_counters.empty()) {
            return true;
          }
          return std::any_of(d.attributes.begin(), d.attributes.end(), [](const auto& entry) {
            const DeviceAttribute& a = entry.second;
            return !a.int_values.nil() || !a.bool_values.nil() || !a.string_values.nil() ||
                   !a.version_values.nil();
          });
        });
    return advanced ? kMaxDevicesWithAdvancedFeatures : kMaxDevices;
  }

  const Device* OldDevice(const std::string& name) const {
    if (old_ == nullptr) return nullptr;
    for (const Device& d : old_->devices) {
      if (d.name == name) return &d;
    }
    return nullptr;
  }

  void Devices() {
    if (ExceedsMaxItems(spec_.devices.size(), MaxDevices(), "spec.devices", hv())) return;
    for (std::size_t i = 0; i < spec_.devices.size(); ++i) {
      HandWrittenDevice(spec_.devices[i], OldDevice(spec_.devices[i].name),
                        Index("spec.devices", i));
    }
    ReportDuplicates(
        spec_.devices, "spec.devices",
        [](const Device& a, const Device& b) { return a.name == b.name; },
        [](const Device& d) { return GoQuote(d.name); }, hv());
  }

  static std::size_t AttributeValueCount(const Device& device) {
    std::size_t n = 0;
    for (const auto& [key, a] : device.attributes) {
      const std::size_t lists = a.int_values.size() + a.bool_values.size() +
                                a.string_values.size() + a.version_values.size();
      n += lists == 0 ? 1 : lists;
    }
    return n;
  }

  void HandWrittenDevice(const Device& device, const Device* old, const std::string& d) {
    validation::ValidateDnsLabel(device.name, d + ".name", hv());
    const std::size_t entries = device.attributes.size() + device.capacity.size();
    if (entries > kMaxAttributesAndCapacities) {
      hv().push_back(Invalid(d, RenderInt(static_cast<std::int64_t>(entries)),
                             "the total number of attributes and capacities must not exceed " +
                                 std::to_string(kMaxAttributesAndCapacities)));
    }
    const std::size_t values = AttributeValueCount(device);
    if (values > kMaxAttributeValues) {
      hv().push_back(Invalid(d, RenderInt(static_cast<std::int64_t>(values)),
                             "the total number of attribute values must not exceed " +
                                 std::to_string(kMaxAttributeValues)));
    }

    if (!device.attributes.empty()) {
      const std::string attributes_path = d + ".attributes";
      for (const auto& [key, attribute] : device.attributes) {
        validation::ValidateQualifiedName(key, attributes_path, hv());
        HandWrittenAttribute(attribute, attributes_path, key);
      }
    }

    // Unchanged capacity and taints were valid when stored and stay so.
    if (!device.capacity.empty() && (old == nullptr || !(old->capacity == device.capacity))) {
      Capacity(device, d);
    }
    if (!device.taints.empty() && (old == nullptr || !(old->taints == device.taints))) {
      Taints(device, d);
    }

    if (device.consumes_counters.size() <= kMaxCounterConsumptionsPerDevice) {
      for (std::size_t j = 0; j < device.consumes_counters.size(); ++j) {
        const std::size_t n = device.consumes_counters[j].counters.size();
        if (n > kMaxCountersPerCounterConsumption) {
          hv().push_back(TooMany(Index(d + ".consumesCounters", j) + ".counters",
                                 static_cast<std::int64_t>(n),
                                 static_cast<std::int64_t>(kMaxCountersPerCounterConsumption)));
        }
      }
    }

    DeviceNodeSelection(device, d);
    if (!device.binding_conditions.empty() || !device.binding_failure_conditions.empty()) {
      validation::ValidateBindingConditions(device.binding_conditions,
                                            device.binding_failure_conditions, d, hv());
    }
    if (!device.node_allocatable_resources.empty()) {
      NodeAllocatableResources(device, d + ".nodeAllocatableResources");
    }
  }

  // Paths are only built for errors: most attributes are valid.
  void HandWrittenAttribute(const DeviceAttribute& a, const std::string& attributes_path,
                            const std::string& key) {
    auto path = [&](std::string_view member) {
      return Key(attributes_path, key) + "." + std::string(member);
    };
    auto item_path = [&](std::string_view member, std::size_t j) { return Index(path(member), j); };
    std::size_t set = 0;
    if (a.bool_value) ++set;
    if (a.int_value) ++set;
    if (a.string_value) {
      ++set;
      if (TooLongValue(*a.string_value)) hv().push_back(ValueTooLong(path("string")));
    }
    if (a.version_value) {
      ++set;
      AttributeVersion(*a.version_value, [&] { return path("version"); });
    }
    auto list = [&](bool nil, bool empty, std::string_view member) {
      if (nil) return;
      ++set;
      if (empty) hv().push_back(Invalid(path(member), "[]", "must not be empty if specified"));
    };
    list(a.bool_values.nil(), a.bool_values.empty(), "bools");
    list(a.int_values.nil(), a.int_values.empty(), "ints");
    list(a.string_values.nil(), a.string_values.empty(), "strings");
    for (std::size_t j = 0; j < a.string_values.size(); ++j) {
      if (TooLongValue(a.string_values[j])) hv().push_back(ValueTooLong(item_path("strings", j)));
    }
    list(a.version_values.nil(), a.version_values.empty(), "versions");
    for (std::size_t j = 0; j < a.version_values.size(); ++j) {
      AttributeVersion(a.version_values[j], [&] { return item_path("versions", j); });
    }

    // The hand-written union check counts empty lists as set, the declarative
    // one does not; the hand-written text shows only without a declarative twin.
    if (set == 1 || (DeclarativeChecksDevices() && DeclarativeMemberCount(a) != 1)) return;
    hv().push_back(Invalid(Key(attributes_path, key), set == 0 ? R"("")" : InternalAttributeJson(a),
                           "exactly one value must be specified"));
  }

  static bool TooLongValue(const std::string& value) {
    return value.size() > kMaxAttributeValueLength;
  }

  static FieldError ValueTooLong(std::string path) {
    return TooLong(std::move(path), static_cast<std::int64_t>(kMaxAttributeValueLength));
  }

  template <class Path>
  void AttributeVersion(const std::string& value, Path path) {
    if (!IsValidSemver(value)) {
      hv().push_back(
          InvalidString(path(), value, "must be a string compatible with semver.org spec 2.0.0"));
    }
    if (TooLongValue(value)) hv().push_back(ValueTooLong(path()));
  }

  void Capacity(const Device& device, const std::string& d) {
    const bool multiple = device.allow_multiple_allocations.value_or(false);
    const std::string capacity_path = d + ".capacity";
    for (const auto& [key, capacity] : device.capacity) {
      validation::ValidateQualifiedName(key, capacity_path, hv());
      if (!capacity.request_policy) continue;
      const std::string r = Key(capacity_path, key) + ".requestPolicy";
      if (multiple) {
        RequestPolicy(capacity.value, *capacity.request_policy, r);
      } else {
        hv().push_back(Forbidden(r, "allowMultipleAllocations must be true"));
      }
    }
  }

  void Taints(const Device& device, const std::string& d) {
    const std::string taints_path = d + ".taints";
    if (ExceedsMaxItems(device.taints.size(), kMaxDeviceTaints, taints_path, hv())) return;
    for (std::size_t k = 0; k < device.taints.size(); ++k) {
      validation::ValidateDeviceTaintKeyAndValue(device.taints[k], Index(taints_path, k), hv());
    }
  }

  void DeviceNodeSelection(const Device& device, const std::string& d) {
    if (!spec_.per_device_node_selection.value_or(false)) {
      if (device.node_name || device.node_selector || device.all_nodes) {
        hv().push_back(Invalid(d, "null",
                               "`nodeName`, `nodeSelector` and `allNodes` can only be set if "
                               "`perDeviceNodeSelection` is set to true in the ResourceSlice "
                               "spec"));
      }
      return;
    }
    std::vector<std::string_view> set;
    if (device.node_name) {
      if (device.node_name->empty()) {
        hv().push_back(Invalid(d + ".nodeName", R"("")", "must not be empty"));
      } else {
        set.push_back("`nodeName`");
        validation::ValidateDnsSubdomain(*device.node_name, d + ".nodeName", hv());
      }
    }
    if (device.node_selector) {
      set.push_back("`nodeSelector`");
      validation::ValidateNodeSelector(*device.node_selector, d + ".nodeSelector", hv());
    }
    SetOnlyToTrue(device.all_nodes, "`allNodes`", d + ".allNodes", set);
    ReportSelectionCount(set, d, kDeviceNodeSelectionRequired, "");
  }

  static bool IsNodeAllocatableResourceName(std::string_view name) {
    return name == "cpu" || name == "memory" || name == "ephemeral-storage" ||
           name.substr(0, 10) == "hugepages-";
  }

  void NodeAllocatableResources(const Device& device, const std::string& path) {
    for (const auto& [name, resource] : device.node_allocatable_resources) {
      const std::string n = ExactKey(path, name);
      if (!IsNodeAllocatableResourceName(name)) {
        hv().push_back(InvalidString(n, name, "must be a node allocatable resource name"));
      }
      if (!resource.mapping && !resource.overhead) {
        hv().push_back(Required(n, "at least one of mapping or overhead must be set"));
      }
      if (resource.mapping) Mapping(*resource.mapping, device, n + ".mapping");
      if (resource.overhead) Overhead(*resource.overhead, n + ".overhead");
    }
  }

  void Mapping(const NodeAllocatableMapping& m, const Device& device, const std::string& path) {
    if (m.capacity_key) {
      if (m.capacity_key->empty()) {
        hv().push_back(
            Invalid(path + ".capacityKey", R"("")", "capacityKey must not be an empty string"));
      } else if (device.capacity.count(*m.capacity_key) == 0) {
        hv().push_back(NotFound(path + ".capacityKey", GoQuote(*m.capacity_key)));
      }
      if (!m.capacity_multiplier) {
        hv().push_back(Required(path + ".capacityMultiplier",
                                "capacityMultiplier is required when capacityKey is set"));
      } else if (m.capacity_multiplier->Sign() <= 0) {
        hv().push_back(Invalid(path + ".capacityMultiplier", QuantityValue(*m.capacity_multiplier),
                               "must be positive"));
      }
    }
    if (m.device_multiplier && m.device_multiplier->Sign() <= 0) {
      hv().push_back(Invalid(path + ".deviceMultiplier", QuantityValue(*m.device_multiplier),
                             "must be positive"));
    }
    if (m.capacity_multiplier && !m.capacity_key) {
      hv().push_back(Required(path + ".capacityKey",
                              "capacityKey is required when capacityMultiplier is set"));
    }
  }

  void Overhead(const NodeAllocatableOverhead& o, const std::string& path) {
    if (!o.per_pod && !o.per_container) {
      hv().push_back(Invalid(path, R"("")", "at least one of perPod or perContainer must be set"));
      return;
    }
    if (o.per_pod && o.per_pod->Sign() < 0) {
      hv().push_back(Invalid(path + ".perPod", QuantityValue(*o.per_pod), "must be non-negative"));
    }
    if (o.per_container && o.per_container->Sign() < 0) {
      hv().push_back(
          Invalid(path + ".perContainer", QuantityValue(*o.per_container), "must be non-negative"));
    }
  }

  // Counter set names, sizes and keys are declarative except the per-set
  // counter limit.
  void SharedCountersSizes() {
    if (spec_.shared_counters.size() > kMaxCounterSets) return;
    for (std::size_t i = 0; i < spec_.shared_counters.size(); ++i) {
      const std::size_t n = spec_.shared_counters[i].counters.size();
      if (n > kMaxCountersPerCounterSet) {
        hv().push_back(TooMany(Index("spec.sharedCounters", i) + ".counters",
                               static_cast<std::int64_t>(n),
                               static_cast<std::int64_t>(kMaxCountersPerCounterSet)));
      }
    }
  }

  void PartitionTypeAttribute(const std::string& name) {
    if (!HaveConsumesCounters()) {
      hv().push_back(
          InvalidString("spec.partitionTypeAttribute", name,
                        "may only be set on a slice which declares devices that consume counters"));
      return;
    }
    // A malformed name is reported declaratively; no device can carry it.
    FieldErrors format;
    validation::ValidateFullyQualifiedName(name, "spec.partitionTypeAttribute", format);
    if (!format.empty()) return;

    const std::string driver_prefix = spec_.driver + "/";
    const std::string bare = name.compare(0, driver_prefix.size(), driver_prefix) == 0
                                 ? name.substr(driver_prefix.size())
                                 : name;
    for (std::size_t i = 0; i < spec_.devices.size(); ++i) {
      const Device& device = spec_.devices[i];
      if (device.consumes_counters.empty()) continue;
      const std::string path = ExactKey(Index("spec.devices", i) + ".attributes", name);
      auto it = device.attributes.find(name);
      if (it == device.attributes.end()) it = device.attributes.find(bare);
      if (it == device.attributes.end()) {
        hv().push_back(Required(path,
                                "device consumes counters and `partitionTypeAttribute` names this "
                                "attribute, so it must be set"));
      } else if (!it->second.string_value) {
        hv().push_back(Invalid(path, InternalAttributeJson(it->second),
                               "must be a string value because `partitionTypeAttribute` names "
                               "this attribute"));
      }
    }
  }

  // ---- Consumable capacity request policy (upstream validateRequestPolicy) ----

  void RequestPolicy(const Quantity& capacity, const CapacityRequestPolicy& policy,
                     const std::string& r) {
    if (!policy.valid_values.empty() && policy.valid_range) {
      hv().push_back(Forbidden(r,
                               "exactly one policy can be specified, cannot specify "
                               R"("validValues" and "validRange" at the same time)"));
      return;
    }
    if (!policy.valid_values.empty()) {
      if (!policy.default_) {
        hv().push_back(Required(r + ".default", "required when validValues is defined"));
        return;
      }
      ValidValues(*policy.default_, capacity, policy.valid_values, r + ".validValues");
    } else if (policy.valid_range) {
      if (!policy.default_) {
        hv().push_back(Required(r + ".default", "required when validRange is defined"));
        return;
      }
      ValidRange(*policy.default_, capacity, *policy.valid_range, r + ".validRange");
    }
  }

  void ValidValues(const Quantity& default_value, const Quantity& capacity,
                   const List<Quantity>& values, const std::string& path) {
    for (std::size_t i = 0; i + 1 < values.size(); ++i) {
      if (values[i].Compare(values[i + 1]) > 0) {
        hv().push_back(Invalid(Index(path, i + 1), QuantityValue(values[i + 1]),
                               "values must be sorted in ascending order"));
      }
    }
    bool found_default = false;
    if (!ExceedsMaxItems(values.size(), kMaxRequestPolicyValidValues, path, hv())) {
      for (std::size_t i = 0; i < values.size(); ++i) {
        if (values[i].Compare(capacity) > 0) {
          hv().push_back(Invalid(Index(path, i), QuantityValue(values[i]),
                                 "option is larger than capacity value: " + capacity.String()));
        }
        found_default = found_default || values[i].Compare(default_value) == 0;
      }
      // Duplicates are keyed by integer value, or by exact value once
      // fractional ranges are supported.
      const bool exact = Enabled(Feature::kDRAFractionalCapacityRange);
      auto key = [exact](const Quantity& q) {
        return exact ? PlainDecimal(q) : std::to_string(q.Value());
      };
      ReportDuplicates(
          values, path, [&](const Quantity& a, const Quantity& b) { return key(a) == key(b); },
          [&](const Quantity& q) { return GoQuote(key(q)); }, hv());
    }
    if (!found_default) {
      hv().push_back(Invalid(path, QuantityValue(default_value),
                             "default value is not valid according to the requestPolicy"));
    }
  }

  struct Bound {
    const Quantity* q;
    std::string_view name;
  };

  void ValidRange(const Quantity& default_value, const Quantity& capacity,
                  const CapacityRequestPolicyRange& range, const std::string& path) {
    if (!range.min) {
      hv().push_back(Required(path + ".min", "required when validRange is defined"));
      return;
    }
    const Quantity& min = *range.min;
    RangeOrder(default_value, capacity, range, path);

    const std::vector<Bound> bounds = {{&default_value, "default"},
                                       {&min, "min"},
                                       {range.max ? &*range.max : nullptr, "max"},
                                       {range.step ? &*range.step : nullptr, "step"}};
    // Milli units are used when fractional ranges are supported and any bound
    // needs them; every bound must then be exact in milli units.
    const bool milli = Enabled(Feature::kDRAFractionalCapacityRange) &&
                       std::any_of(bounds.begin(), bounds.end(), [](const Bound& b) {
                         return b.q != nullptr && !b.q->IsInteger();
                       });
    if (milli && !BoundsFitMilli(bounds, path)) return;
    if (!range.step) return;
    const Quantity& step = *range.step;
    if (step.Sign() <= 0) {
      hv().push_back(Invalid(path + ".step", QuantityValue(step), "must be greater than zero"));
      return;
    }
    const Quantity one_step = min.Add(step);
    if (one_step.Compare(capacity) > 0) {
      hv().push_back(Invalid(path + ".step", QuantityValue(step),
                             "one step " + one_step.String() +
                                 " is larger than capacity value: " + capacity.String()));
    }
    // Integer arithmetic below needs every bound within [0, MaxInt64].
    if (!milli && !BoundsFitInt64(bounds, path)) return;
    StepMultiple(default_value, min, step, milli, path + ".step");
    if (range.max) StepMultiple(*range.max, min, step, milli, path + ".step");
  }

  // min and max against each other and the capacity; default between them.
  void RangeOrder(const Quantity& default_value, const Quantity& capacity,
                  const CapacityRequestPolicyRange& range, const std::string& path) {
    const Quantity& min = *range.min;
    if (min.Compare(capacity) > 0) {
      hv().push_back(Invalid(path + ".min", QuantityValue(min),
                             "min is larger than capacity value: " + capacity.String()));
    }
    if (default_value.Compare(min) < 0) {
      hv().push_back(Invalid(path + ".default", QuantityValue(default_value),
                             "default is less than min: " + min.String()));
    }
    if (range.max) {
      const Quantity& max = *range.max;
      if (min.Compare(max) > 0) {
        hv().push_back(
            Invalid(path + ".max", QuantityValue(min), "min is larger than max: " + max.String()));
      }
      if (max.Compare(capacity) > 0) {
        hv().push_back(Invalid(path + ".max", QuantityValue(max),
                               "max is larger than capacity value: " + capacity.String()));
      }
      if (default_value.Compare(max) > 0) {
        hv().push_back(Invalid(path + ".default", QuantityValue(default_value),
                               "default is more than max: " + max.String()));
      }
    }
  }

  // Whether every bound is exact in milli units; an error for each one that is not.
  bool BoundsFitMilli(const std::vector<Bound>& bounds, const std::string& path) {
    bool fit = true;
    for (const Bound& b : bounds) {
      if (b.q == nullptr || FitsMilli(*b.q)) continue;
      hv().push_back(Invalid(path + "." + std::string(b.name), QuantityValue(*b.q),
                             "value cannot be represented as a milli value"));
      fit = false;
    }
    return fit;
  }

  // Whether every bound is within [0, MaxInt64]; an error for each one that is not.
  bool BoundsFitInt64(const std::vector<Bound>& bounds, const std::string& path) {
    bool fit = true;
    for (const Bound& b : bounds) {
      if (b.q == nullptr) continue;
      const std::string bound_path = path + "." + std::string(b.name);
      if (b.q->Sign() < 0) {
        hv().push_back(
            Invalid(bound_path, QuantityValue(*b.q), "must be greater than or equal to 0"));
        fit = false;
      } else if (b.q->Compare(MaxInt64Quantity()) > 0) {
        hv().push_back(Invalid(bound_path, QuantityValue(*b.q),
                               "must not be larger than 9223372036854775807"));
        fit = false;
      }
    }
    return fit;
  }

  void StepMultiple(const Quantity& value, const Quantity& min, const Quantity& step, bool milli,
                    const std::string& path) {
    auto units = [milli](const Quantity& q) { return milli ? q.MilliValue() : q.Value(); };
    if (WrappingSub(units(value), units(min)) % units(step) != 0) {
      hv().push_back(Invalid(path, QuantityValue(value),
                             "value is not a multiple of a given step (" + step.String() +
                                 ") from (" + min.String() + ")"));
    }
  }

  // ---- Declarative -----------------------------------------------------------

  // Devices keep their fields under `basic` in v1beta1.
  std::string DeclarativeDevicePath(std::size_t i) const {
    std::string path = Index("spec.devices", i);
    if (options_.request_version == "v1beta1") path += ".basic";
    return path;
  }

  static std::size_t DeclarativeMemberCount(const DeviceAttribute& a) {
    return a.int_value.has_value() + a.bool_value.has_value() + a.string_value.has_value() +
           a.version_value.has_value() + !a.int_values.empty() + !a.bool_values.empty() +
           !a.string_values.empty() + !a.version_values.empty();
  }

  static std::vector<std::string_view> DeclarativeMembers(const DeviceAttribute& a) {
    std::vector<std::string_view> set;
    if (a.int_value) set.push_back("int");
    if (a.bool_value) set.push_back("bool");
    if (a.string_value) set.push_back("string");
    if (a.version_value) set.push_back("version");
    if (!a.int_values.empty()) set.push_back("ints");
    if (!a.bool_values.empty()) set.push_back("bools");
    if (!a.string_values.empty()) set.push_back("strings");
    if (!a.version_values.empty()) set.push_back("versions");
    return set;
  }

  void DeclarativeSpec() {
    if (DeclarativeChecksDevices()) {
      for (std::size_t i = 0; i < spec_.devices.size(); ++i) {
        DeclarativeDevice(spec_.devices[i], DeclarativeDevicePath(i));
      }
    }
    DeclarativeSharedCounters();
    DeclarativePartitionTypeAttribute();
    if (old_ == nullptr || !(spec_.skip_node_operations == old_->skip_node_operations)) {
      validation::ValidateSkipNodeOperationsDeclarative(spec_.skip_node_operations,
                                                        "spec.skipNodeOperations", dv());
    }
  }

  void DeclarativeDevice(const Device& device, const std::string& d) {
    for (const auto& [key, attribute] : device.attributes) {
      if (DeclarativeMemberCount(attribute) == 1) continue;
      const std::vector<std::string_view> set = DeclarativeMembers(attribute);
      const std::string path = ExactKey(d + ".attributes", key);
      dv().push_back(set.empty() ? validation::UnionNoneSet(path, kAttributeMembers)
                                 : validation::UnionSeveralSet(path, set, kAttributeMembers));
    }
    if (!device.consumes_counters.empty()) {
      DeclarativeCounterConsumptions(device.consumes_counters, d + ".consumesCounters");
    }
    for (std::size_t k = 0; k < device.taints.size(); ++k) {
      validation::ValidateDeviceTaintEffect(device.taints[k].effect,
                                            Index(d + ".taints", k) + ".effect", dv());
    }
    if (!device.binding_conditions.empty() || !device.binding_failure_conditions.empty()) {
      validation::ValidateBindingConditionsDeclarative(device.binding_conditions,
                                                       device.binding_failure_conditions, d, dv());
    }
    for (const auto& [name, resource] : device.node_allocatable_resources) {
      if (!resource.mapping) continue;
      std::vector<std::string_view> set;
      if (resource.mapping->capacity_key) set.push_back("capacityKey");
      if (resource.mapping->device_multiplier) set.push_back("deviceMultiplier");
      const std::string path = ExactKey(d + ".nodeAllocatableResources", name) + ".mapping";
      const std::vector<std::string_view> members = {"capacityKey", "deviceMultiplier"};
      if (set.empty()) {
        dv().push_back(validation::UnionNoneSet(path, members));
      } else if (set.size() > 1) {
        dv().push_back(validation::UnionSeveralSet(path, set, members));
      }
    }
  }

  // Counter names: required, DNS labels (content texts); keys of counter maps
  // are reported at the map.
  void DeclarativeName(const std::string& name, const std::string& path) {
    if (name.empty()) {
      dv().push_back(Required(path));
    } else {
      validation::ValidateDnsLabel(name, path, dv(), /*content=*/true);
    }
  }

  void DeclarativeCounters(const std::map<std::string, Counter>& counters,
                           const std::map<std::string, Counter>* old, const std::string& path) {
    if (counters.empty()) {
      dv().push_back(Required(path));
      return;
    }
    for (const auto& [key, counter] : counters) {
      if (old != nullptr && old->count(key) != 0) continue;
      validation::ValidateDnsLabel(key, path, dv(), /*content=*/true);
    }
  }

  void DeclarativeCounterConsumptions(const List<DeviceCounterConsumption>& consumptions,
                                      const std::string& path) {
    if (ExceedsMaxItems(consumptions.size(), kMaxCounterConsumptionsPerDevice, path, dv())) return;
    const ApiVersion version = validation::DeclarativeVersion(options_.request_version);
    ReportDuplicates(
        consumptions, path,
        [](const DeviceCounterConsumption& a, const DeviceCounterConsumption& b) {
          return a.counter_set == b.counter_set;
        },
        [version](const DeviceCounterConsumption& c) {
          return validation::VersionedJson(c, version);
        },
        dv());
    for (std::size_t j = 0; j < consumptions.size(); ++j) {
      const std::string item = Index(path, j);
      DeclarativeName(consumptions[j].counter_set, item + ".counterSet");
      DeclarativeCounters(consumptions[j].counters, nullptr, item + ".counters");
      DeclarativeCompatibilityGroups(consumptions[j].compatibility_groups,
                                     item + ".compatibilityGroups");
    }
  }

  // +k8s:maxItems=2, +k8s:unique=set, +k8s:eachVal=+k8s:format=k8s-short-name
  // (DeviceCounterConsumption.CompatibilityGroups in k8s.io/api v0.37.2).
  void DeclarativeCompatibilityGroups(const List<std::string>& groups, const std::string& path) {
    if (ExceedsMaxItems(groups.size(), kMaxCompatibilityGroups, path, dv())) return;
    ReportDuplicates(
        groups, path, [](const std::string& a, const std::string& b) { return a == b; },
        [](const std::string& g) { return GoQuote(g); }, dv());
    for (std::size_t k = 0; k < groups.size(); ++k) {
      validation::ValidateDnsLabel(groups[k], Index(path, k), dv(), /*content=*/true);
    }
  }

  void DeclarativeSharedCounters() {
    const List<CounterSet>& sets = spec_.shared_counters;
    if (sets.empty() || (old_ != nullptr && sets == old_->shared_counters)) return;
    const std::string path = "spec.sharedCounters";
    if (ExceedsMaxItems(sets.size(), kMaxCounterSets, path, dv())) return;
    const ApiVersion version = validation::DeclarativeVersion(options_.request_version);
    ReportDuplicates(
        sets, path, [](const CounterSet& a, const CounterSet& b) { return a.name == b.name; },
        [version](const CounterSet& s) { return validation::VersionedJson(s, version); }, dv());
    for (std::size_t i = 0; i < sets.size(); ++i) {
      // Sets are matched with old ones by name; unchanged ones are skipped.
      const CounterSet* old = nullptr;
      if (old_ != nullptr) {
        for (const CounterSet& candidate : old_->shared_counters) {
          if (candidate.name == sets[i].name) {
            old = &candidate;
            break;
          }
        }
      }
      if (old != nullptr && *old == sets[i]) continue;
      const std::string item = Index(path, i);
      DeclarativeName(sets[i].name, item + ".name");
      DeclarativeCounters(sets[i].counters, old != nullptr ? &old->counters : nullptr,
                          item + ".counters");
    }
  }

  void DeclarativePartitionTypeAttribute() {
    const std::optional<std::string>& name = spec_.partition_type_attribute;
    if (!name || (old_ != nullptr && name == old_->partition_type_attribute)) return;
    const std::string path = "spec.partitionTypeAttribute";
    if (!Enabled(Feature::kDRAPartitionableDevicesType)) {
      dv().push_back(Forbidden(path));
      return;
    }
    validation::ValidateFullyQualifiedNameDeclarative(*name, path, dv());
  }

  const ResourceSliceSpec& spec_;
  const ResourceSliceSpec* old_;
  const ValidationOptions& options_;
  ErrorLists errors_;
};

}  // namespace

FieldErrors ValidateResourceSlice(const ResourceSlice& slice, const ValidationOptions& options) {
  return SliceValidator(slice.spec, nullptr, options).Run(slice.metadata, nullptr);
}

FieldErrors ValidateResourceSliceUpdate(const ResourceSlice& slice, const ResourceSlice& old,
                                        const ValidationOptions& options) {
  return SliceValidator(slice.spec, &old.spec, options).Run(slice.metadata, &old.metadata);
}

}  // namespace dra::api
