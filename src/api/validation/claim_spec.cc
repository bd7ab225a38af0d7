// Hand-written claim spec rules. Lists over their size limit are reported by
// the declarative maxItems rules, and their items are then not checked.
#include "api/validation/claim_spec.h"

#include "api/validation/device_configuration.h"
#include "api/validation/formats.h"
#include "api/validation/request_reference.h"
#include "api/validation/resource_limits.h"
#include "api/validation/selectors.h"
#include "api/validation/tolerations.h"

namespace dra::api::validation {
namespace {

void ValidateAllocationMode(const std::string& mode, std::int64_t count,
                            const std::string& request_path, FieldErrors& errors) {
  if (mode == "All") {
    if (count != 0) {
      errors.push_back(Invalid(Child(request_path, "count"), RenderInt(count),
                               "must not be specified when allocationMode is 'All'"));
    }
  } else if (mode == "ExactCount") {
    if (count <= 0) {
      errors.push_back(
          Invalid(Child(request_path, "count"), RenderInt(count), "must be greater than zero"));
    }
  } else if (mode.empty()) {
    // The declarative enum treats the field as optional and skips "".
    errors.push_back(
        NotSupported(Child(request_path, "allocationMode"), mode, {"All", "ExactCount"}));
  }
}

void ValidateTolerations(const List<DeviceToleration>& tolerations, const std::string& path,
                         FieldErrors& errors) {
  for (std::size_t i = 0; i < tolerations.size(); ++i) {
    ValidateToleration(tolerations[i], Index(path, i), errors);
  }
}

void ValidateExactRequest(const ExactDeviceRequest& exact, const std::string& path,
                          const ValidationOptions& options, FieldErrors& errors) {
  const std::string class_path = Child(path, "deviceClassName");
  if (exact.device_class_name.empty()) {
    errors.push_back(Required(class_path));
  } else {
    ValidateDnsSubdomain(exact.device_class_name, class_path, errors);
  }
  ValidateSelectors(exact.selectors, Child(path, "selectors"), /*stored=*/false, options, errors);
  ValidateAllocationMode(exact.allocation_mode, exact.count, path, errors);
  ValidateTolerations(exact.tolerations, Child(path, "tolerations"), errors);
}

// The sub-request's deviceClassName has only declarative rules.
void ValidateSubRequest(const DeviceSubRequest& subrequest, const std::string& path,
                        const ValidationOptions& options, FieldErrors& errors) {
  ValidateDnsLabel(subrequest.name, Child(path, "name"), errors);
  ValidateSelectors(subrequest.selectors, Child(path, "selectors"), /*stored=*/false, options,
                    errors);
  ValidateAllocationMode(subrequest.allocation_mode, subrequest.count, path, errors);
  ValidateTolerations(subrequest.tolerations, Child(path, "tolerations"), errors);
}

void ValidateRequest(const DeviceRequest& request, const std::string& path,
                     const ValidationOptions& options, FieldErrors& errors) {
  ValidateDnsLabel(request.name, Child(path, "name"), errors);
  const bool has_first_available = !request.first_available.empty();
  const bool has_exactly = request.exactly.has_value();
  if (!has_first_available && !has_exactly) {
    errors.push_back(Required(path, "exactly one of `exactly` or `firstAvailable` is required"));
  } else if (has_first_available && has_exactly) {
    errors.push_back(
        Invalid(path, "null",
                "exactly one of `exactly` or `firstAvailable` is required, but multiple "
                "fields are set"));
  } else if (has_exactly) {
    ValidateExactRequest(*request.exactly, Child(path, "exactly"), options, errors);
  } else if (request.first_available.size() <= kFirstAvailableDeviceRequestMaxSize) {
    const std::string first_available = Child(path, "firstAvailable");
    for (std::size_t i = 0; i < request.first_available.size(); ++i) {
      ValidateSubRequest(request.first_available[i], Index(first_available, i), options, errors);
    }
  }
}

void ValidateConstraint(const DeviceConstraint& constraint, const std::string& path,
                        const RequestNames& names, const ValidationOptions& options,
                        FieldErrors& errors) {
  ValidateRequestReferences(constraint.requests, Child(path, "requests"), names, errors);
  // A set matchAttribute has only declarative rules; distinctAttribute is
  // then not checked at all, as upstream.
  if (constraint.match_attribute) return;
  if (constraint.distinct_attribute) {
    ValidateFullyQualifiedName(*constraint.distinct_attribute, Child(path, "distinctAttribute"),
                               errors);
  } else if (options.gates.Enabled(Feature::kDRAConsumableCapacity)) {
    // Upstream's text for "neither is set".
    errors.push_back(Required(path,
                              "exactly one of \"matchAttribute\" or \"distinctAttribute\" is "
                              "required, but multiple fields are set"));
  } else {
    errors.push_back(Required(Child(path, "matchAttribute")));
  }
}

}  // namespace

void ValidateClaimSpec(const ResourceClaimSpec& spec, const std::string& path,
                       const ValidationOptions& options, FieldErrors& errors) {
  const DeviceClaim& claim = spec.devices;
  const std::string devices = Child(path, "devices");
  const RequestNames names(claim);
  if (claim.requests.size() <= kDeviceRequestsMaxSize) {
    const std::string requests = Child(devices, "requests");
    for (std::size_t i = 0; i < claim.requests.size(); ++i) {
      ValidateRequest(claim.requests[i], Index(requests, i), options, errors);
    }
  }
  if (claim.constraints.size() <= kDeviceConstraintsMaxSize) {
    const std::string constraints = Child(devices, "constraints");
    for (std::size_t i = 0; i < claim.constraints.size(); ++i) {
      ValidateConstraint(claim.constraints[i], Index(constraints, i), names, options, errors);
    }
  }
  if (claim.config.size() <= kDeviceConfigMaxSize) {
    const std::string config = Child(devices, "config");
    for (std::size_t i = 0; i < claim.config.size(); ++i) {
      const std::string entry = Index(config, i);
      ValidateRequestReferences(claim.config[i].requests, Child(entry, "requests"), names, errors);
      ValidateDeviceConfiguration(claim.config[i].config, entry, /*stored=*/false, errors);
    }
  }
}

}  // namespace dra::api::validation
