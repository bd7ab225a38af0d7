#include "api/validation/tolerations.h"

#include <algorithm>

#include "api/validation/formats.h"

namespace dra::api::validation {

void ValidateToleration(const DeviceToleration& toleration, const std::string& field,
                        FieldErrors& errors) {
  if (toleration.operator_ == "Exists") {
    if (!toleration.value.empty()) {
      errors.push_back(InvalidString(Child(field, "value"), toleration.value,
                                     "must be empty for operator `Exists`"));
    }
  } else if (toleration.operator_ == "Equal") {
    ValidateLabelValue(toleration.value, Child(field, "value"), errors);
  } else if (toleration.operator_.empty()) {
    errors.push_back(Required(Child(field, "operator")));
  }
}

void ValidateTolerationDeclarative(const DeviceToleration& toleration, const std::string& field,
                                   FieldErrors& errors) {
  if (!toleration.key.empty()) ValidateLabelKey(toleration.key, Child(field, "key"), errors);
  if (!toleration.operator_.empty() && toleration.operator_ != "Equal" &&
      toleration.operator_ != "Exists") {
    errors.push_back(
        NotSupported(Child(field, "operator"), toleration.operator_, {"Equal", "Exists"}));
  }
  if (!toleration.effect.empty() &&
      std::find(kDeviceTaintEffects.begin(), kDeviceTaintEffects.end(), toleration.effect) ==
          kDeviceTaintEffects.end()) {
    errors.push_back(NotSupported(Child(field, "effect"), toleration.effect, kDeviceTaintEffects));
  }
}

}  // namespace dra::api::validation
