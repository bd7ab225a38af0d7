// References from constraints, configuration and allocation results to the
// requests of a claim: `<request>` or `<request>/<subrequest>`
// (validateRequestNameRef in k8s.io/kubernetes/pkg/apis/resource/validation).
#pragma once

#include <map>
#include <set>
#include <string>
#include <string_view>

#include "dra/api/field_error.h"
#include "dra/api/resource.h"

namespace dra::api::validation {

// The request names of a claim and, for each request with firstAvailable,
// its sub-request names. A request without firstAvailable has none, so
// `<request>/<anything>` never names it.
class RequestNames {
 public:
  explicit RequestNames(const DeviceClaim& claim);

  bool Has(std::string_view reference) const;

 private:
  std::map<std::string, std::set<std::string, std::less<>>, std::less<>> subrequests_;
};

// Hand-written check of one reference at `field`: its shape, each segment
// as a DNS label, then that it names a request (or sub-request) of the claim.
void ValidateRequestReference(std::string_view reference, const std::string& field,
                              const RequestNames& names, FieldErrors& errors);

// Each reference of a `requests` list. A list over its size limit is left to
// the declarative maxItems rule.
void ValidateRequestReferences(const List<std::string>& references, const std::string& field,
                               const RequestNames& names, FieldErrors& errors);

// Declarative rules of a `requests` list: maxItems 32 and set uniqueness.
void ValidateRequestReferencesDeclarative(const List<std::string>& references,
                                          const std::string& field, FieldErrors& errors);

}  // namespace dra::api::validation
