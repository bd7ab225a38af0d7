#include "dra/api/feature_gates.h"

#include <string>

namespace dra::api {
namespace {

// Indexed by Feature; the defaults of Kubernetes 1.37
// (defaultVersionedKubernetesFeatureGates in k8s.io/kubernetes/pkg/features/kube_features.go).
constexpr FeatureInfo kFeatures[] = {
    {"DynamicResourceAllocation", "GA", true, true},
    {"DRAAdminAccess", "GA", true, true},
    {"DRAPrioritizedList", "GA", true, true},
    {"DRAResourceClaimDeviceStatus", "GA", true, true},
    {"DRAExtendedResource", "GA", true, true},
    {"DRADeviceTaints", "GA", true, false},
    {"DRADeviceTaintRules", "GA", true, false},
    {"DRAConsumableCapacity", "beta", true, false},
    {"DRADeviceBindingConditions", "beta", true, false},
    {"DRAPartitionableDevices", "beta", true, false},
    {"DRAFractionalCapacityRange", "beta", true, false},
    {"DRAResourceClaimGranularStatusAuthorization", "beta", true, false},
    {"DRASchedulerFilterTimeout", "beta", true, false},
    {"DRAListTypeAttributes", "alpha", false, false},
    {"DRANodeAllocatableResources", "alpha", false, false},
    {"DRAOptionalNodeOperations", "alpha", false, false},
    {"DRAPartitionableDevicesType", "alpha", false, false},
    {"DRAResourcePoolStatus", "alpha", false, false},
    {"DRAWorkloadResourceClaims", "beta", false, false},
    {"DRADeviceCompatibilityGroups", "alpha", false, false},
    {"DRADerivedAttributes", "alpha", false, false},
    {"DeclarativeValidation", "GA", true, true},
    {"DeclarativeValidationBeta", "beta", true, false},
};
static_assert(std::size(kFeatures) == static_cast<std::size_t>(Feature::kCount));

std::string_view Trim(std::string_view s) {
  while (!s.empty() && (s.front() == ' ' || s.front() == '\t')) s.remove_prefix(1);
  while (!s.empty() && (s.back() == ' ' || s.back() == '\t')) s.remove_suffix(1);
  return s;
}

// strconv.ParseBool's accepted spellings.
bool ParseGoBool(std::string_view s, bool& out) {
  if (s == "1" || s == "t" || s == "T" || s == "true" || s == "TRUE" || s == "True") {
    out = true;
    return true;
  }
  if (s == "0" || s == "f" || s == "F" || s == "false" || s == "FALSE" || s == "False") {
    out = false;
    return true;
  }
  return false;
}

}  // namespace

const FeatureInfo& InfoOf(Feature f) { return kFeatures[static_cast<std::size_t>(f)]; }

FeatureGates::FeatureGates() {
  for (std::size_t i = 0; i < values_.size(); ++i) values_[i] = kFeatures[i].default_value;
}

Status FeatureGates::Apply(std::string_view spec) {
  auto next = values_;
  while (!spec.empty()) {
    std::size_t comma = spec.find(',');
    std::string_view item = Trim(spec.substr(0, comma));
    spec = comma == std::string_view::npos ? std::string_view{} : spec.substr(comma + 1);
    if (item.empty()) continue;
    std::size_t eq = item.find('=');
    if (eq == std::string_view::npos) {
      return Error{"missing bool value for " + std::string(item)};
    }
    std::string_view name = Trim(item.substr(0, eq));
    std::string_view text = Trim(item.substr(eq + 1));
    std::size_t index = values_.size();
    for (std::size_t i = 0; i < values_.size(); ++i) {
      if (kFeatures[i].name == name) index = i;
    }
    if (index == values_.size()) {
      return Error{"unrecognized feature gate: " + std::string(name)};
    }
    bool value = false;
    if (!ParseGoBool(text, value)) {
      return Error{"invalid value of " + std::string(name) + "=" + std::string(text) +
                   ", err: strconv.ParseBool: parsing \"" + std::string(text) +
                   "\": invalid syntax"};
    }
    const FeatureInfo& info = kFeatures[index];
    if (info.locked && value != info.default_value) {
      return Error{"cannot set feature gate " + std::string(name) + " to " +
                   (value ? "true" : "false") + ", feature is locked to " +
                   (info.default_value ? "true" : "false")};
    }
    if (static_cast<Feature>(index) == Feature::kDeclarativeValidationBeta && !value) {
      // With it off, kube-apiserver reports the hand-written twin of each
      // beta declarative rule instead (other texts, other order); dra
      // models only the default.
      return Error{
          "DeclarativeValidationBeta=false is not supported: dra validates as "
          "kube-apiserver 1.37 does with its default, DeclarativeValidationBeta=true"};
    }
    next[index] = value;
  }
  values_ = next;
  return Status::Ok();
}

std::string FeatureGates::ChangedString() const {
  std::string out;
  for (std::size_t i = 0; i < values_.size(); ++i) {
    if (values_[i] == kFeatures[i].default_value) continue;
    if (!out.empty()) out += ',';
    out += kFeatures[i].name;
    out += values_[i] ? "=true" : "=false";
  }
  return out;
}

}  // namespace dra::api
