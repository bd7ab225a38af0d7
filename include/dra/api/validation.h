// Validation as kube-apiserver does it for resource.k8s.io and the pod-side
// claim fields: the errors a client sees after the hand-written validators
// (k8s.io/kubernetes/pkg/apis/resource/validation) and the declarative ones
// (from the +k8s: tags of k8s.io/api) are merged, in that order, with
// kube-apiserver's paths and messages.
#pragma once

#include <cstdint>
#include <functional>
#include <optional>
#include <string>
#include <string_view>
#include <variant>
#include <vector>

#include "dra/api/feature_gates.h"
#include "dra/api/field_error.h"
#include "dra/api/resource.h"

namespace dra::api {

// The seam where the CEL engine compiles selector expressions and checks
// their estimated cost. Without one, only the length limit is checked.
class SelectorChecker {
 public:
  virtual ~SelectorChecker() = default;
  // Appends errors for `expression` at `field` ("...cel.expression"):
  // compile errors, non-bool results, cost over the limit. `stored` selects
  // the lenient environment used for unchanged stored expressions.
  virtual void Check(std::string_view expression, const std::string& field, bool stored,
                     const FeatureGates& gates, FieldErrors& errors) const = 0;
  // A derived attribute's expression ("...derivedAttributes[i].expression",
  // DRADerivedAttributes) in the NewExpressions environment: compile errors,
  // a result that is not a scalar or list of scalars, cost over the limit.
  // Returns the estimated cost, which counts towards the claim's shared
  // budget; 0 when it does not compile. Without an override nothing is
  // checked.
  virtual std::uint64_t CheckDerivedAttribute(std::string_view /*expression*/,
                                              const std::string& /*field*/,
                                              const FeatureGates& /*gates*/,
                                              FieldErrors& /*errors*/) const {
    return 0;
  }
};

struct ValidationOptions {
  FeatureGates gates;
  const SelectorChecker* selector_checker = nullptr;
  // Labels of a namespace, for the admin-access check (AuthorizedForAdmin in
  // k8s.io/kubernetes/pkg/registry/resource/utils.go); nullopt
  // when the namespace cannot be retrieved. Unset function: every namespace
  // is treated as existing without labels.
  std::function<std::optional<StringMap>(std::string_view ns)> namespace_labels;
  // The API version of the request (v1, v1beta2, v1beta1); declarative error
  // paths use its shape (v1beta1: flat requests, device fields under `basic`).
  std::string request_version = "v1";
};

FieldErrors ValidateResourceSlice(const ResourceSlice& slice, const ValidationOptions& options);
FieldErrors ValidateResourceSliceUpdate(const ResourceSlice& slice, const ResourceSlice& old,
                                        const ValidationOptions& options);
FieldErrors ValidateDeviceClass(const DeviceClass& cls, const ValidationOptions& options);
FieldErrors ValidateDeviceClassUpdate(const DeviceClass& cls, const DeviceClass& old,
                                      const ValidationOptions& options);
FieldErrors ValidateResourceClaim(const ResourceClaim& claim, const ValidationOptions& options);
FieldErrors ValidateResourceClaimUpdate(const ResourceClaim& claim, const ResourceClaim& old,
                                        const ValidationOptions& options);
FieldErrors ValidateResourceClaimStatusUpdate(const ResourceClaim& claim, const ResourceClaim& old,
                                              const ValidationOptions& options);
FieldErrors ValidateResourceClaimTemplate(const ResourceClaimTemplate& tmpl,
                                          const ValidationOptions& options);
FieldErrors ValidateDeviceTaintRule(const DeviceTaintRule& rule, const ValidationOptions& options);
FieldErrors ValidateDeviceTaintRuleUpdate(const DeviceTaintRule& rule, const DeviceTaintRule& old,
                                          const ValidationOptions& options);
FieldErrors ValidateResourcePoolStatusRequest(const ResourcePoolStatusRequest& request,
                                              const ValidationOptions& options);
// The claim-related parts of Pod validation
// (k8s.io/kubernetes/pkg/apis/core/validation).
FieldErrors ValidatePodClaims(const Pod& pod, const ValidationOptions& options);

// Registry strategies before create (PrepareForCreate in
// k8s.io/kubernetes/pkg/registry/resource/*/strategy.go): generation, status
// reset, fields of disabled feature gates dropped silently.
void PrepareForCreate(ResourceSlice& slice, const FeatureGates& gates);
void PrepareForCreate(DeviceClass& cls, const FeatureGates& gates);
void PrepareForCreate(ResourceClaim& claim, const FeatureGates& gates);
void PrepareForCreate(ResourceClaimTemplate& tmpl, const FeatureGates& gates);
void PrepareForCreate(DeviceTaintRule& rule, const FeatureGates& gates);
void PrepareForCreate(ResourcePoolStatusRequest& request, const FeatureGates& gates);

// The status strategy of ResourceClaim (resourceclaimStatusStrategy in
// k8s.io/kubernetes/pkg/registry/resource/resourceclaim): spec and the protected
// metadata come from `old`, status fields of disabled gates are dropped unless
// `old` used them, and status.devices entries of devices that `old` allocated
// and `claim` no longer allocates are removed. Run before
// ValidateResourceClaimStatusUpdate.
void PrepareForStatusUpdate(ResourceClaim& claim, const ResourceClaim& old,
                            const FeatureGates& gates);

// The DeviceTaintRule update strategy (deviceTaintRuleStrategy.PrepareForUpdate
// in k8s.io/kubernetes/pkg/registry/resource/devicetaintrule): status from `old`;
// timeAdded set to `now` (seconds) when the effect changes and the client
// sent the stored timeAdded; generation + 1 when the spec changed. Run before
// ValidateDeviceTaintRuleUpdate.
void PrepareForUpdate(DeviceTaintRule& rule, const DeviceTaintRule& old, std::int64_t now);

// Warnings kube-apiserver returns with a successful create (kubectl prints
// them as "Warning: ..."): upper-case letters in a ResourceSlice's driver.
std::vector<std::string> WarningsOnCreate(const ResourceSlice& slice);

}  // namespace dra::api

namespace dra::api {

// What `kubectl apply` of a new object would be told: the registry strategy
// runs (PrepareForCreate), then create validation. A ResourceClaim that
// carries a status is additionally checked as a status update of the same
// claim without status, because that is the only way such a status reaches
// the server. Node and Namespace have no checks here.
FieldErrors ValidateForCreate(
    const std::variant<ResourceSlice, DeviceClass, ResourceClaim, ResourceClaimTemplate,
                       DeviceTaintRule, Node, Pod, Namespace, ResourcePoolStatusRequest>& object,
    const ValidationOptions& options);

}  // namespace dra::api
