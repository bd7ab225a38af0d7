// The claim-related parts of Pod validation
// (k8s.io/kubernetes/pkg/apis/core/validation), in the order core validation
// reaches them: spec.resourceClaims, the containers' and then the init
// containers' resources.claims, status.resourceClaimStatuses.
#include <algorithm>
#include <set>
#include <string>

#include "api/validation/bad_values.h"
#include "api/validation/formats.h"
#include "dra/api/validation.h"

namespace dra::api {
namespace {

using validation::Child;
using validation::GoJsonString;
using validation::Index;

// The internal core.PodResourceClaim as Go JSON (Go field names).
std::string InternalJson(const PodResourceClaim& claim) {
  return "{\"Name\":" + GoJsonString(claim.name) +
         ",\"ResourceClaimName\":" + GoJsonString(claim.resource_claim_name) +
         ",\"ResourceClaimTemplateName\":" + GoJsonString(claim.resource_claim_template_name) + "}";
}

void ValidatePodResourceClaims(const List<PodResourceClaim>& claims, FieldErrors& errors) {
  const std::string path = "spec.resourceClaims";
  std::set<std::string, std::less<>> seen;
  for (std::size_t i = 0; i < claims.size(); ++i) {
    const PodResourceClaim& claim = claims[i];
    const std::string entry = Index(path, i);
    const std::string name = Child(entry, "name");
    if (claim.name.empty()) {
      errors.push_back(Required(name));
    } else if (seen.contains(claim.name)) {
      errors.push_back(Duplicate(name, GoQuote(claim.name)));
    } else {
      validation::ValidateDnsLabel(claim.name, name, errors);
      seen.insert(claim.name);
    }
    if (claim.resource_claim_name && claim.resource_claim_template_name) {
      errors.push_back(Invalid(entry, InternalJson(claim),
                               "at most one of `resourceClaimName` or "
                               "`resourceClaimTemplateName` may be specified"));
    } else if (!claim.resource_claim_name && !claim.resource_claim_template_name) {
      errors.push_back(Invalid(entry, InternalJson(claim),
                               "must specify one of: `resourceClaimName`, "
                               "`resourceClaimTemplateName`"));
    }
    if (claim.resource_claim_name) {
      validation::ValidateDnsSubdomain(*claim.resource_claim_name,
                                       Child(entry, "resourceClaimName"), errors);
    }
    if (claim.resource_claim_template_name) {
      validation::ValidateDnsSubdomain(*claim.resource_claim_template_name,
                                       Child(entry, "resourceClaimTemplateName"), errors);
    }
  }
}

// `pod_claim_names` holds every non-empty spec.resourceClaims name, valid or not.
void ValidateContainerClaims(const List<Container>& containers, const std::string& path,
                             const std::set<std::string, std::less<>>& pod_claim_names,
                             FieldErrors& errors) {
  std::string known;
  for (const std::string& name : pod_claim_names) {
    known += known.empty() ? ": " : ", ";
    known += name;
  }
  const std::string not_found_detail = "must be one of the names in pod.spec.resourceClaims" +
                                       (known.empty() ? " which is empty" : known);
  for (std::size_t c = 0; c < containers.size(); ++c) {
    const std::string claims_path = Child(Child(Index(path, c), "resources"), "claims");
    std::set<std::string, std::less<>> keys;
    const auto& claims = containers[c].resources.claims;
    for (std::size_t i = 0; i < claims.size(); ++i) {
      const ContainerResourceClaim& claim = claims[i];
      const std::string entry = Index(claims_path, i);
      if (claim.name.empty()) {
        errors.push_back(Required(entry));
        continue;
      }
      std::string key = claim.name;
      if (!claim.request.empty()) {
        validation::ValidateDnsLabel(claim.request, Child(entry, "request"), errors);
        key += "/" + claim.request;
      }
      if (!keys.insert(key).second) errors.push_back(Duplicate(entry, GoQuote(key)));
      if (!pod_claim_names.contains(claim.name)) {
        errors.push_back(NotFound(entry, GoQuote(claim.name), not_found_detail));
      }
    }
  }
}

void ValidateClaimStatuses(const List<PodResourceClaimStatus>& statuses,
                           const List<PodResourceClaim>& claims, FieldErrors& errors) {
  const std::string path = "status.resourceClaimStatuses";
  std::set<std::string, std::less<>> seen;
  for (std::size_t i = 0; i < statuses.size(); ++i) {
    const PodResourceClaimStatus& status = statuses[i];
    const std::string name = Child(Index(path, i), "name");
    const bool known = std::any_of(claims.begin(), claims.end(), [&status](const auto& claim) {
      return claim.name == status.name;
    });
    if (!known) {
      errors.push_back(InvalidString(name, status.name,
                                     "must match the name of an entry in `spec.resourceClaims`"));
    }
    if (!seen.insert(status.name).second) errors.push_back(Duplicate(name, GoQuote(status.name)));
    if (status.resource_claim_name) {
      // Upstream reports these at `.name`, with the *string value as JSON.
      FieldErrors name_errors;
      validation::ValidateDnsSubdomain(*status.resource_claim_name, name, name_errors);
      for (FieldError& e : name_errors) {
        e.value = GoJsonString(*status.resource_claim_name);
        errors.push_back(std::move(e));
      }
    }
  }
}

}  // namespace

FieldErrors ValidatePodClaims(const Pod& pod, const ValidationOptions& /*options*/) {
  FieldErrors errors;
  ValidatePodResourceClaims(pod.spec.resource_claims, errors);
  std::set<std::string, std::less<>> pod_claim_names;
  for (const PodResourceClaim& claim : pod.spec.resource_claims) {
    if (!claim.name.empty()) pod_claim_names.insert(claim.name);
  }
  ValidateContainerClaims(pod.spec.containers, "spec.containers", pod_claim_names, errors);
  ValidateContainerClaims(pod.spec.init_containers, "spec.initContainers", pod_claim_names, errors);
  ValidateClaimStatuses(pod.status.resource_claim_statuses, pod.spec.resource_claims, errors);
  return errors;
}

}  // namespace dra::api
