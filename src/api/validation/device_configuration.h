// Opaque device configuration in classes, claims and allocation results.
#pragma once

#include <string>

#include "dra/api/field_error.h"
#include "dra/api/resource.h"

namespace dra::api::validation {

// Hand-written rules at `field` (the configuration entry): `opaque` is
// required and its parameters must be a JSON object. `stored` means the
// configuration is unchanged from the stored object: the parameters size
// limit is waived and, because declarative validation skips unchanged data,
// the driver is checked here with the hand-written texts instead.
void ValidateDeviceConfiguration(const DeviceConfiguration& config, const std::string& field,
                                 bool stored, FieldErrors& errors);

// Declarative rules: the opaque driver name.
void ValidateDeviceConfigurationDeclarative(const DeviceConfiguration& config,
                                            const std::string& field, FieldErrors& errors);

}  // namespace dra::api::validation
