// Helpers for the DeviceClass, ResourceClaim, ResourceClaimTemplate and Pod
// validation tests: error texts, apimachinery's format messages, valid
// objects to start from, and a fake CEL seam.
#pragma once

#include <string>
#include <utility>
#include <vector>

#include "dra/api/validation.h"

namespace dra::api::testing {

using Strings = std::vector<std::string>;

inline Strings Texts(const FieldErrors& errors) {
  Strings out;
  for (const FieldError& e : errors) out.push_back(e.ToString());
  return out;
}

inline const std::string kLabelMsg =
    R"x(a lowercase RFC 1123 label must consist of lower case alphanumeric characters or '-', and must start and end with an alphanumeric character (e.g. 'my-name',  or '123-abc', regex used for validation is '[a-z0-9]([-a-z0-9]*[a-z0-9])?'))x";
inline const std::string kSubdomainMsg =
    R"x(a lowercase RFC 1123 subdomain must consist of lower case alphanumeric characters, '-' or '.', and must start and end with an alphanumeric character (e.g. 'example.com', regex used for validation is '[a-z0-9]([-a-z0-9]*[a-z0-9])?(\.[a-z0-9]([-a-z0-9]*[a-z0-9])?)*'))x";
inline const std::string kCaselessSubdomainMsg =
    R"x(an RFC 1123 subdomain must consist of alphanumeric characters, '-' or '.', and must start and end with an alphanumeric character (e.g. 'Example.com', regex used for validation is '[a-z0-9]([-a-z0-9]*[a-z0-9])?(\.[a-z0-9]([-a-z0-9]*[a-z0-9])?)*'))x";
inline const std::string kLabelKeyNameMsg =
    R"x(name part must consist of alphanumeric characters, '-', '_' or '.', and must start and end with an alphanumeric character (e.g. 'MyName',  or 'my.name',  or '123-abc', regex used for validation is '([A-Za-z0-9][-A-Za-z0-9_.]*)?[A-Za-z0-9]'))x";
inline const std::string kLabelValueMsg =
    R"x(a valid label must be an empty string or consist of alphanumeric characters, '-', '_' or '.', and must start and end with an alphanumeric character (e.g. 'MyValue',  or 'my_value',  or '12345', regex used for validation is '(([A-Za-z0-9][-A-Za-z0-9_.]*)?[A-Za-z0-9])?'))x";
inline const std::string kBadReferenceMsg =
    "must be the name of a request in the claim or the name of a request and a subrequest "
    "separated by '/'";

// A request as v1 defaulting leaves it: ExactCount, count 1.
inline DeviceRequest ExactRequest(std::string name, std::string device_class = "gpu.example.com") {
  DeviceRequest request;
  request.name = std::move(name);
  request.exactly.emplace();
  request.exactly->device_class_name = std::move(device_class);
  request.exactly->allocation_mode = "ExactCount";
  request.exactly->count = 1;
  return request;
}

inline DeviceSubRequest SubRequest(std::string name, std::string device_class = "gpu.example.com") {
  DeviceSubRequest subrequest;
  subrequest.name = std::move(name);
  subrequest.device_class_name = std::move(device_class);
  subrequest.allocation_mode = "ExactCount";
  subrequest.count = 1;
  return subrequest;
}

inline DeviceRequest FirstAvailableRequest(std::string name, std::vector<DeviceSubRequest> subs) {
  DeviceRequest request;
  request.name = std::move(name);
  for (DeviceSubRequest& sub : subs) request.first_available.push_back(std::move(sub));
  return request;
}

inline DeviceSelector CelSelector(std::string expression) {
  DeviceSelector selector;
  selector.cel.emplace();
  selector.cel->expression = std::move(expression);
  return selector;
}

inline DeviceConfiguration OpaqueConfig(std::string driver,
                                        std::string parameters = R"({"key":"value"})") {
  DeviceConfiguration config;
  config.opaque.emplace();
  config.opaque->driver = std::move(driver);
  config.opaque->parameters.raw = std::move(parameters);
  return config;
}

// ResourceClaim "c1" in namespace "ns1" with one request "gpu".
inline ResourceClaim ValidClaim() {
  ResourceClaim claim;
  claim.metadata.name = "c1";
  claim.metadata.namespace_ = "ns1";
  claim.metadata.resource_version = "1";
  claim.spec.devices.requests.push_back(ExactRequest("gpu"));
  return claim;
}

// Records each call and reports a fixed error for expressions containing
// "bad", standing in for the CEL engine.
class FakeSelectorChecker : public SelectorChecker {
 public:
  struct Call {
    std::string expression;
    std::string field;
    bool stored;
  };

  void Check(std::string_view expression, const std::string& field, bool stored,
             const FeatureGates& /*gates*/, FieldErrors& errors) const override {
    calls.push_back({std::string(expression), field, stored});
    if (expression.find("bad") != std::string_view::npos) {
      errors.push_back(InvalidString(field, expression, "compilation failed: fake"));
    }
  }

  mutable std::vector<Call> calls;
};

}  // namespace dra::api::testing
