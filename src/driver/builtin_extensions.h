// The drivers that ship with dra, as extensions (dra/driver/extension.h).
// builtin_extensions.cc is the one file of the SDK that names them; the
// registry adds what it returns on first use.
#pragma once

#include <memory>
#include <vector>

#include "dra/driver/extension.h"

namespace dra::driver {

std::vector<std::unique_ptr<DriverExtension>> BuiltinDriverExtensions();

}  // namespace dra::driver
