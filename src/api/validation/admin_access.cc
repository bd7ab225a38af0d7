#include "api/validation/admin_access.h"

#include <optional>
#include <string>

#include "api/validation/formats.h"

namespace dra::api::validation {
namespace {

constexpr std::string_view kAdminAccessLabel = "resource.kubernetes.io/admin-access";

void CheckNamespaceLabel(const std::string& field, std::string_view ns,
                         const ValidationOptions& options, FieldErrors& errors) {
  std::optional<StringMap> labels =
      options.namespace_labels ? options.namespace_labels(ns) : StringMap{};
  if (!labels) {
    // The error a namespace lookup reports for a missing namespace.
    errors.push_back(
        InternalError(field, "could not retrieve namespace to verify admin access: namespaces \"" +
                                 std::string(ns) + "\" not found"));
    return;
  }
  auto label = labels->find(std::string(kAdminAccessLabel));
  if (label == labels->end() || label->second != "true") {
    errors.push_back(Forbidden(field, "admin access to devices requires the `" +
                                          std::string(kAdminAccessLabel) +
                                          ": true` label on the containing namespace"));
  }
}

// Index of the first result granting admin access, or -1.
long FirstAdminResult(const ResourceClaimStatus& status) {
  if (!status.allocation) return -1;
  const auto& results = status.allocation->devices.results;
  for (std::size_t i = 0; i < results.size(); ++i) {
    if (results[i].admin_access.value_or(false)) return static_cast<long>(i);
  }
  return -1;
}

}  // namespace

void ValidateAdminAccessForRequests(const DeviceClaim& claim, std::string_view ns,
                                    const ValidationOptions& options, FieldErrors& errors) {
  for (std::size_t i = 0; i < claim.requests.size(); ++i) {
    const auto& exactly = claim.requests[i].exactly;
    if (exactly && exactly->admin_access.value_or(false)) {
      CheckNamespaceLabel(Child(Index("spec.devices.requests", i), "adminAccess"), ns, options,
                          errors);
      return;
    }
  }
}

void ValidateAdminAccessForAllocation(const ResourceClaimStatus& status,
                                      const ResourceClaimStatus& old, std::string_view ns,
                                      const ValidationOptions& options, FieldErrors& errors) {
  if (FirstAdminResult(old) >= 0) return;
  const long granted = FirstAdminResult(status);
  if (granted < 0) return;
  CheckNamespaceLabel(
      Child(Index("status.allocation.devices.results", static_cast<std::size_t>(granted)),
            "adminAccess"),
      ns, options, errors);
}

}  // namespace dra::api::validation
