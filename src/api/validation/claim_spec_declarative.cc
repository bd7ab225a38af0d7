// Declarative claim spec rules, in the order the generated validators visit
// the fields of the request's API version.
#include "api/validation/bad_values.h"
#include "api/validation/claim_spec.h"
#include "api/validation/device_configuration.h"
#include "api/validation/formats.h"
#include "api/validation/list_checks.h"
#include "api/validation/request_reference.h"
#include "api/validation/resource_limits.h"
#include "api/validation/tolerations.h"

namespace dra::api::validation {
namespace {

void ValidateAllocationModeEnum(const std::string& mode, const std::string& path,
                                FieldErrors& errors) {
  if (!mode.empty() && mode != "All" && mode != "ExactCount") {
    errors.push_back(NotSupported(path, mode, {"All", "ExactCount"}));
  }
}

void ValidateTolerations(const List<DeviceToleration>& tolerations, const std::string& path,
                         FieldErrors& errors) {
  for (std::size_t i = 0; i < tolerations.size(); ++i) {
    ValidateTolerationDeclarative(tolerations[i], Index(path, i), errors);
  }
}

void ValidateDerivedAttributes(const List<DeviceDerivedAttribute>& attributes,
                               const std::string& path, FieldErrors& errors) {
  if (ExceedsMaxItems(attributes.size(), kDeviceDerivedAttributesMaxSize, path, errors)) return;
  for (std::size_t i = 0; i < attributes.size(); ++i) {
    const std::string entry = Index(path, i);
    const std::string name = Child(entry, "name");
    if (attributes[i].name.empty()) {
      errors.push_back(Required(name));
    } else {
      ValidateFullyQualifiedNameDeclarative(attributes[i].name, name, errors);
    }
    if (attributes[i].expression.empty()) errors.push_back(Required(Child(entry, "expression")));
  }
}

void ValidateSubRequest(const DeviceSubRequest& subrequest, const std::string& path,
                        FieldErrors& errors) {
  const std::string class_path = Child(path, "deviceClassName");
  if (subrequest.device_class_name.empty()) {
    errors.push_back(Required(class_path));
  } else {
    ValidateDnsSubdomain(subrequest.device_class_name, class_path, errors, /*content=*/true);
  }
  ExceedsMaxItems(subrequest.selectors.size(), kDeviceSelectorsMaxSize, Child(path, "selectors"),
                  errors);
  ValidateAllocationModeEnum(subrequest.allocation_mode, Child(path, "allocationMode"), errors);
  ValidateTolerations(subrequest.tolerations, Child(path, "tolerations"), errors);
  ValidateDerivedAttributes(subrequest.derived_attributes, Child(path, "derivedAttributes"),
                            errors);
}

void ValidateFirstAvailable(const List<DeviceSubRequest>& subrequests, const std::string& path,
                            ApiVersion version, FieldErrors& errors) {
  if (ExceedsMaxItems(subrequests.size(), kFirstAvailableDeviceRequestMaxSize, path, errors)) {
    return;
  }
  ReportDuplicates(
      subrequests, path,
      [](const DeviceSubRequest& a, const DeviceSubRequest& b) { return a.name == b.name; },
      [version](const DeviceSubRequest& s) { return VersionedJson(s, version); }, errors);
  for (std::size_t i = 0; i < subrequests.size(); ++i) {
    ValidateSubRequest(subrequests[i], Index(path, i), errors);
  }
}

// v1beta1 requests are flat: the ExactDeviceRequest fields sit on the request
// itself, and tolerations come after firstAvailable.
void ValidateRequest(const DeviceRequest& request, const std::string& path, ApiVersion version,
                     FieldErrors& errors) {
  const std::string first_available = Child(path, "firstAvailable");
  if (!request.exactly) {
    ValidateFirstAvailable(request.first_available, first_available, version, errors);
    return;
  }
  const ExactDeviceRequest& exact = *request.exactly;
  const bool flat = version == ApiVersion::kV1beta1;
  const std::string exact_path = flat ? path : Child(path, "exactly");
  ExceedsMaxItems(exact.selectors.size(), kDeviceSelectorsMaxSize, Child(exact_path, "selectors"),
                  errors);
  ValidateAllocationModeEnum(exact.allocation_mode, Child(exact_path, "allocationMode"), errors);
  if (flat) ValidateFirstAvailable(request.first_available, first_available, version, errors);
  ValidateTolerations(exact.tolerations, Child(exact_path, "tolerations"), errors);
  ValidateDerivedAttributes(exact.derived_attributes, Child(exact_path, "derivedAttributes"),
                            errors);
  if (!flat) ValidateFirstAvailable(request.first_available, first_available, version, errors);
}

}  // namespace

void ValidateClaimSpecDeclarative(const ResourceClaimSpec& spec, const std::string& path,
                                  ApiVersion version, FieldErrors& errors) {
  const DeviceClaim& claim = spec.devices;
  const std::string devices = Child(path, "devices");

  const std::string requests = Child(devices, "requests");
  if (!ExceedsMaxItems(claim.requests.size(), kDeviceRequestsMaxSize, requests, errors)) {
    ReportDuplicates(
        claim.requests, requests,
        [](const DeviceRequest& a, const DeviceRequest& b) { return a.name == b.name; },
        [version](const DeviceRequest& r) { return VersionedJson(r, version); }, errors);
    for (std::size_t i = 0; i < claim.requests.size(); ++i) {
      ValidateRequest(claim.requests[i], Index(requests, i), version, errors);
    }
  }

  const std::string constraints = Child(devices, "constraints");
  if (!ExceedsMaxItems(claim.constraints.size(), kDeviceConstraintsMaxSize, constraints, errors)) {
    for (std::size_t i = 0; i < claim.constraints.size(); ++i) {
      const DeviceConstraint& constraint = claim.constraints[i];
      const std::string entry = Index(constraints, i);
      ValidateRequestReferencesDeclarative(constraint.requests, Child(entry, "requests"), errors);
      if (constraint.match_attribute) {
        ValidateFullyQualifiedNameDeclarative(*constraint.match_attribute,
                                              Child(entry, "matchAttribute"), errors);
      }
    }
  }

  const std::string config = Child(devices, "config");
  if (!ExceedsMaxItems(claim.config.size(), kDeviceConfigMaxSize, config, errors)) {
    for (std::size_t i = 0; i < claim.config.size(); ++i) {
      const std::string entry = Index(config, i);
      ValidateRequestReferencesDeclarative(claim.config[i].requests, Child(entry, "requests"),
                                           errors);
      ValidateDeviceConfigurationDeclarative(claim.config[i].config, entry, errors);
    }
  }
}

}  // namespace dra::api::validation
