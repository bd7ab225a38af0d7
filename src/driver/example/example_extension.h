// The example driver as an extension (dra/driver/extension.h), named
// "example": `dra driver example` and the simulations' GPUs.
#pragma once

#include <memory>

#include "dra/driver/extension.h"

namespace dra::driver::example {

std::unique_ptr<DriverExtension> NewExampleDriverExtension();

}  // namespace dra::driver::example
