// The NVML driver as an extension (dra/driver/extension.h), named "nvml".
#pragma once

#include <memory>

#include "dra/driver/extension.h"

namespace dra::driver::nvml {

std::unique_ptr<DriverExtension> NewNvmlDriverExtension();

}  // namespace dra::driver::nvml
