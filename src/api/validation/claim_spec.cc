// Hand-written claim spec rules. Lists over their size limit are reported by
// the declarative maxItems rules, and their items are then not checked.
#include "api/validation/claim_spec.h"

#include <map>
#include <set>

#include "api/validation/device_configuration.h"
#include "api/validation/formats.h"
#include "api/validation/request_reference.h"
#include "api/validation/resource_limits.h"
#include "api/validation/selectors.h"
#include "api/validation/tolerations.h"

namespace dra::api::validation {
namespace {

// What the derived attributes of a claim are checked against: the attribute
// names its matchAttribute/distinctAttribute constraints use, by target
// ("" for constraints on every request, else "req" or "req/sub"), and the
// estimated cost of all derived expressions so far.
struct DerivedAttributeContext {
  std::map<std::string, std::set<std::string>, std::less<>> constraint_attributes;
  std::uint64_t total_cost = 0;

  explicit DerivedAttributeContext(const List<DeviceConstraint>& constraints) {
    for (const DeviceConstraint& c : constraints) {
      const std::optional<std::string>& name =
          c.match_attribute ? c.match_attribute : c.distinct_attribute;
      if (!name) continue;
      if (c.requests.empty()) constraint_attributes[""].insert(*name);
      for (const std::string& request : c.requests) constraint_attributes[request].insert(*name);
    }
  }

  // A constraint on every request, on this one, or on the parent request of
  // this sub-request uses `name`.
  bool Used(const std::string& name, std::string_view request) const {
    auto has = [&](std::string_view target) {
      auto it = constraint_attributes.find(target);
      return it != constraint_attributes.end() && it->second.contains(name);
    };
    if (has("") || has(request)) return true;
    const std::size_t slash = request.find('/');
    return slash != std::string_view::npos && has(request.substr(0, slash));
  }
};

void ValidateDerivedAttributes(const List<DeviceDerivedAttribute>& attributes,
                               const std::string& path, std::string_view request,
                               const ValidationOptions& options, DerivedAttributeContext& context,
                               FieldErrors& errors) {
  for (std::size_t i = 0; i < attributes.size(); ++i) {
    const DeviceDerivedAttribute& attribute = attributes[i];
    const std::string entry = Index(path, i);
    // Empty names and expressions are the declarative rules' to report.
    if (!attribute.name.empty() && !context.Used(attribute.name, request)) {
      errors.push_back(InvalidString(Child(entry, "name"), attribute.name,
                                     "must be referenced by at least one matchAttribute or "
                                     "distinctAttribute constraint targeting this request"));
    }
    if (attribute.expression.empty()) continue;
    const std::string expression = Child(entry, "expression");
    if (attribute.expression.size() > kCELSelectorExpressionMaxLength) {
      errors.push_back(TooLong(expression, kCELSelectorExpressionMaxLength));
    } else if (options.selector_checker != nullptr) {
      context.total_cost += options.selector_checker->CheckDerivedAttribute(
          attribute.expression, expression, options.gates, errors);
    }
  }
  for (std::size_t i = 0; i < attributes.size(); ++i) {
    for (std::size_t j = 0; j < i; ++j) {
      if (attributes[j].name == attributes[i].name) {
        errors.push_back(Duplicate(Index(path, i), GoQuote(attributes[i].name)));
        break;
      }
    }
  }
}

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
                          const std::string& request, const ValidationOptions& options,
                          DerivedAttributeContext& context, FieldErrors& errors) {
  const std::string class_path = Child(path, "deviceClassName");
  if (exact.device_class_name.empty()) {
    errors.push_back(Required(class_path));
  } else {
    ValidateDnsSubdomain(exact.device_class_name, class_path, errors);
  }
  ValidateSelectors(exact.selectors, Child(path, "selectors"), /*stored=*/false, options, errors);
  ValidateDerivedAttributes(exact.derived_attributes, Child(path, "derivedAttributes"), request,
                            options, context, errors);
  ValidateAllocationMode(exact.allocation_mode, exact.count, path, errors);
  ValidateTolerations(exact.tolerations, Child(path, "tolerations"), errors);
}

// The sub-request's deviceClassName has only declarative rules.
void ValidateSubRequest(const DeviceSubRequest& subrequest, const std::string& path,
                        const std::string& parent, const ValidationOptions& options,
                        DerivedAttributeContext& context, FieldErrors& errors) {
  ValidateDnsLabel(subrequest.name, Child(path, "name"), errors);
  ValidateSelectors(subrequest.selectors, Child(path, "selectors"), /*stored=*/false, options,
                    errors);
  ValidateDerivedAttributes(subrequest.derived_attributes, Child(path, "derivedAttributes"),
                            parent + "/" + subrequest.name, options, context, errors);
  ValidateAllocationMode(subrequest.allocation_mode, subrequest.count, path, errors);
  ValidateTolerations(subrequest.tolerations, Child(path, "tolerations"), errors);
}

void ValidateRequest(const DeviceRequest& request, const std::string& path,
                     const ValidationOptions& options, DerivedAttributeContext& context,
                     FieldErrors& errors) {
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
    ValidateExactRequest(*request.exactly, Child(path, "exactly"), request.name, options, context,
                         errors);
  } else if (request.first_available.size() <= kFirstAvailableDeviceRequestMaxSize) {
    const std::string first_available = Child(path, "firstAvailable");
    for (std::size_t i = 0; i < request.first_available.size(); ++i) {
      ValidateSubRequest(request.first_available[i], Index(first_available, i), request.name,
                         options, context, errors);
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
  DerivedAttributeContext derived(claim.constraints);
  if (claim.requests.size() <= kDeviceRequestsMaxSize) {
    const std::string requests = Child(devices, "requests");
    for (std::size_t i = 0; i < claim.requests.size(); ++i) {
      ValidateRequest(claim.requests[i], Index(requests, i), options, derived, errors);
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
  // The budget all derived expressions of the claim share
  // (DeviceClaimDerivedAttributeCELMaxCost in k8s.io/api/resource/v1).
  constexpr std::uint64_t kDerivedAttributeCostBudget = 1'000'000;
  if (derived.total_cost > kDerivedAttributeCostBudget) {
    errors.push_back(Forbidden(devices,
                               "too complex, total cost of derived attribute CEL expressions in "
                               "the claim exceeds cost limit"));
  }
}

}  // namespace dra::api::validation
