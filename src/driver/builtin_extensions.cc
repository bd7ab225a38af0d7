#include "driver/builtin_extensions.h"

#include "driver/example/example_extension.h"
#include "driver/nvml/nvml_extension.h"

namespace dra::driver {

std::vector<std::unique_ptr<DriverExtension>> BuiltinDriverExtensions() {
  std::vector<std::unique_ptr<DriverExtension>> out;
  out.push_back(example::NewExampleDriverExtension());
  out.push_back(nvml::NewNvmlDriverExtension());
  return out;
}

}  // namespace dra::driver
