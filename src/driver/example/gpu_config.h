// The opaque device configuration of kubernetes-sigs/dra-example-driver:
// group gpu.resource.example.com, version v1alpha1, kind GpuConfig.
#pragma once

#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

#include "dra/util/result.h"

namespace dra::driver::example {

inline constexpr std::string_view kGpuConfigApiVersion = "gpu.resource.example.com/v1alpha1";

struct GpuConfig {
  std::string strategy = "TimeSlicing";  // or "SpacePartitioning"
  std::string interval = "Default";      // TimeSlicing: Default, Short, Medium, Long
  std::int64_t partition_count = 1;      // SpacePartitioning: >= 0
  bool operator==(const GpuConfig&) const = default;
};

// Decodes one `parameters` object strictly: unknown or duplicate fields,
// wrong types, unknown strategies or intervals, a negative partition count
// and mixing the two sub-configs are errors naming the field.
Result<GpuConfig> ParseGpuConfig(std::string_view json);

// The effective config of a request: the last of `configs` (precedence order,
// later wins), or the default when there is none.
Result<GpuConfig> EffectiveGpuConfig(const std::vector<std::string>& configs);

}  // namespace dra::driver::example
