// Defaulting (SetDefaults_* in k8s.io/kubernetes/pkg/apis/resource/<version>/defaults.go):
// applied to the v1-shaped object with the rules of the version the document was written in.
#include <variant>

#include "dra/api/codec.h"

namespace dra::api {
namespace {

template <class Request>
void DefaultMode(Request& r) {
  if (r.allocation_mode.empty()) r.allocation_mode = "ExactCount";
  if (r.allocation_mode == "ExactCount" && r.count == 0) r.count = 1;
}

void DefaultTolerations(List<DeviceToleration>& tolerations) {
  for (DeviceToleration& t : tolerations) {
    if (t.operator_.empty()) t.operator_ = "Equal";
  }
}

void DefaultTaintTime(DeviceTaint& taint, std::int64_t now) {
  if (!taint.time_added.set) taint.time_added = Time::FromUnix(now);
}

void DefaultClaimSpec(ResourceClaimSpec& spec, ApiVersion version) {
  for (DeviceRequest& r : spec.devices.requests) {
    if (r.exactly) {
      // v1beta1 defaults the flat request only when it names a class.
      if (version != ApiVersion::kV1beta1 || !r.exactly->device_class_name.empty()) {
        DefaultMode(*r.exactly);
      }
      DefaultTolerations(r.exactly->tolerations);
    }
    for (DeviceSubRequest& s : r.first_available) {
      DefaultMode(s);
      DefaultTolerations(s.tolerations);
    }
  }
}

void DefaultClaimStatus(ResourceClaimStatus& status) {
  if (!status.allocation) return;
  for (DeviceRequestAllocationResult& r : status.allocation->devices.results) {
    DefaultTolerations(r.tolerations);
  }
}

}  // namespace

void ApplyDefaults(Object& object, ApiVersion version, std::int64_t now) {
  if (auto* slice = std::get_if<ResourceSlice>(&object)) {
    for (Device& d : slice->spec.devices) {
      for (DeviceTaint& t : d.taints) DefaultTaintTime(t, now);
    }
  } else if (auto* claim = std::get_if<ResourceClaim>(&object)) {
    DefaultClaimSpec(claim->spec, version);
    DefaultClaimStatus(claim->status);
  } else if (auto* tmpl = std::get_if<ResourceClaimTemplate>(&object)) {
    DefaultClaimSpec(tmpl->spec.spec, version);
  } else if (auto* rule = std::get_if<DeviceTaintRule>(&object)) {
    DefaultTaintTime(rule->spec.taint, now);
  } else if (auto* request = std::get_if<ResourcePoolStatusRequest>(&object)) {
    // SetDefaults_ResourcePoolStatusRequestSpec (pkg/apis/resource/v1alpha3).
    if (!request->spec.limit) request->spec.limit = 100;
  }
}

}  // namespace dra::api
