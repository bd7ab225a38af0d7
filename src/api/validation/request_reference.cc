#include "api/validation/request_reference.h"

#include "api/validation/formats.h"
#include "api/validation/list_checks.h"
#include "api/validation/resource_limits.h"

namespace dra::api::validation {
namespace {

constexpr std::string_view kBadReference =
    "must be the name of a request in the claim or the name of a request and a subrequest "
    "separated by '/'";

}  // namespace

RequestNames::RequestNames(const DeviceClaim& claim) {
  for (const DeviceRequest& request : claim.requests) {
    // A repeated request name (itself an error) takes the later request's
    // sub-requests, as upstream's map assignment does.
    auto& subrequests = subrequests_[request.name];
    subrequests.clear();
    for (const DeviceSubRequest& subrequest : request.first_available) {
      subrequests.insert(subrequest.name);
    }
  }
}

bool RequestNames::Has(std::string_view reference) const {
  const std::size_t slash = reference.find('/');
  auto request = subrequests_.find(reference.substr(0, slash));
  if (request == subrequests_.end()) return false;
  if (slash == std::string_view::npos) return true;
  std::string_view subrequest = reference.substr(slash + 1);
  return subrequest.find('/') == std::string_view::npos && request->second.contains(subrequest);
}

void ValidateRequestReference(std::string_view reference, const std::string& field,
                              const RequestNames& names, FieldErrors& errors) {
  const std::size_t slash = reference.find('/');
  if (slash != std::string_view::npos && reference.find('/', slash + 1) != std::string_view::npos) {
    errors.push_back(InvalidString(field, reference, std::string(kBadReference)));
    return;
  }
  ValidateDnsLabel(reference.substr(0, slash), field, errors);
  if (slash != std::string_view::npos) {
    ValidateDnsLabel(reference.substr(slash + 1), field, errors);
  }
  if (!names.Has(reference)) {
    errors.push_back(InvalidString(field, reference, std::string(kBadReference)));
  }
}

void ValidateRequestReferences(const List<std::string>& references, const std::string& field,
                               const RequestNames& names, FieldErrors& errors) {
  if (references.size() > kDeviceRequestsMaxSize) return;
  for (std::size_t i = 0; i < references.size(); ++i) {
    ValidateRequestReference(references[i], Index(field, i), names, errors);
  }
}

void ValidateRequestReferencesDeclarative(const List<std::string>& references,
                                          const std::string& field, FieldErrors& errors) {
  if (ExceedsMaxItems(references.size(), kDeviceRequestsMaxSize, field, errors)) return;
  ReportDuplicates(
      references, field, [](const std::string& a, const std::string& b) { return a == b; },
      [](const std::string& reference) { return GoQuote(reference); }, errors);
}

}  // namespace dra::api::validation
