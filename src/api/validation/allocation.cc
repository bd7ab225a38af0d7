// Allocation results. Lists over their size limit are reported by the
// declarative maxItems rules, and their items are then not checked.
#include "api/validation/allocation.h"

#include "api/validation/binding_conditions.h"
#include "api/validation/device_configuration.h"
#include "api/validation/formats.h"
#include "api/validation/list_checks.h"
#include "api/validation/resource_limits.h"
#include "api/validation/skip_node_operations.h"
#include "api/validation/tolerations.h"

namespace dra::api::validation {
namespace {

constexpr std::string_view kAllocationPath = "status.allocation";

std::string ResultsPath() { return Child(Child(kAllocationPath, "devices"), "results"); }
std::string ConfigPath() { return Child(Child(kAllocationPath, "devices"), "config"); }

// The result's driver, pool and shareID have only declarative rules.
void ValidateResult(const DeviceRequestAllocationResult& result, const std::string& path,
                    const RequestNames& names, FieldErrors& errors) {
  ValidateRequestReference(result.request, Child(path, "request"), names, errors);
  ValidateDnsLabel(result.device, Child(path, "device"), errors);
  ValidateBindingConditions(result.binding_conditions, result.binding_failure_conditions, path,
                            errors);
  const std::string tolerations = Child(path, "tolerations");
  for (std::size_t i = 0; i < result.tolerations.size(); ++i) {
    ValidateToleration(result.tolerations[i], Index(tolerations, i), errors);
  }
  ValidateSkipNodeOperations(result.skip_node_operations, Child(path, "skipNodeOperations"),
                             errors);
}

void ValidateResultDeclarative(const DeviceRequestAllocationResult& result, const std::string& path,
                               FieldErrors& errors) {
  ValidateDriverNameDeclarative(result.driver, Child(path, "driver"), errors);
  ValidatePoolNameDeclarative(result.pool, Child(path, "pool"), errors);
  const std::string tolerations = Child(path, "tolerations");
  for (std::size_t i = 0; i < result.tolerations.size(); ++i) {
    ValidateTolerationDeclarative(result.tolerations[i], Index(tolerations, i), errors);
  }
  ValidateBindingConditionsDeclarative(result.binding_conditions, result.binding_failure_conditions,
                                       path, errors);
  if (result.share_id) ValidateUuid(*result.share_id, Child(path, "shareID"), errors);
  ValidateSkipNodeOperationsDeclarative(result.skip_node_operations,
                                        Child(path, "skipNodeOperations"), errors);
}

void ValidateConfigDeclarative(const DeviceAllocationConfiguration& config, const std::string& path,
                               FieldErrors& errors) {
  const std::string source = Child(path, "source");
  if (config.source.empty()) {
    errors.push_back(Required(source));
  } else if (config.source != "FromClaim" && config.source != "FromClass") {
    errors.push_back(NotSupported(source, config.source, {"FromClaim", "FromClass"}));
  }
  ValidateRequestReferencesDeclarative(config.requests, Child(path, "requests"), errors);
  ValidateDeviceConfigurationDeclarative(config.config, path, errors);
}

}  // namespace

void ValidateAllocation(const AllocationResult& allocation, const RequestNames& names,
                        FieldErrors& errors) {
  const auto& results = allocation.devices.results;
  if (results.size() <= kAllocationResultsMaxSize) {
    const std::string path = ResultsPath();
    for (std::size_t i = 0; i < results.size(); ++i) {
      ValidateResult(results[i], Index(path, i), names, errors);
    }
  }
  const auto& config = allocation.devices.config;
  if (config.size() <= kAllocationConfigMaxSize) {
    const std::string path = ConfigPath();
    for (std::size_t i = 0; i < config.size(); ++i) {
      const std::string entry = Index(path, i);
      ValidateRequestReferences(config[i].requests, Child(entry, "requests"), names, errors);
      ValidateDeviceConfiguration(config[i].config, entry, /*stored=*/false, errors);
    }
  }
  if (allocation.node_selector) {
    ValidateNodeSelector(*allocation.node_selector, Child(kAllocationPath, "nodeSelector"), errors);
  }
}

void ValidateAllocationDeclarative(const AllocationResult& allocation, FieldErrors& errors) {
  const auto& results = allocation.devices.results;
  const std::string results_path = ResultsPath();
  if (!ExceedsMaxItems(results.size(), kAllocationResultsMaxSize, results_path, errors)) {
    for (std::size_t i = 0; i < results.size(); ++i) {
      ValidateResultDeclarative(results[i], Index(results_path, i), errors);
    }
  }
  const auto& config = allocation.devices.config;
  const std::string config_path = ConfigPath();
  if (!ExceedsMaxItems(config.size(), kAllocationConfigMaxSize, config_path, errors)) {
    for (std::size_t i = 0; i < config.size(); ++i) {
      ValidateConfigDeclarative(config[i], Index(config_path, i), errors);
    }
  }
}

}  // namespace dra::api::validation
