#include "api/validation/device_configuration.h"

#include "api/validation/formats.h"
#include "api/validation/resource_limits.h"

namespace dra::api::validation {

void ValidateDeviceConfiguration(const DeviceConfiguration& config, const std::string& field,
                                 bool stored, FieldErrors& errors) {
  const std::string opaque_path = Child(field, "opaque");
  if (!config.opaque) {
    errors.push_back(Required(opaque_path));
    return;
  }
  if (stored) ValidateDriverName(config.opaque->driver, Child(opaque_path, "driver"), errors);
  ValidateRawExtension(config.opaque->parameters, Child(opaque_path, "parameters"),
                       stored ? -1 : kOpaqueParametersMaxLength, errors);
}

void ValidateDeviceConfigurationDeclarative(const DeviceConfiguration& config,
                                            const std::string& field, FieldErrors& errors) {
  if (!config.opaque) return;
  ValidateDriverNameDeclarative(config.opaque->driver, Child(Child(field, "opaque"), "driver"),
                                errors);
}

}  // namespace dra::api::validation
