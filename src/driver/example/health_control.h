// The health control file of `dra driver example`: lets a user (or a test)
// mark simulated GPUs unhealthy while the driver runs.
//
// Format, one GPU per line, '#' starts a comment:
//   gpu-1 unhealthy xid-79     # reason optional; a label value, default "unhealthy"
//   gpu-2 healthy
// GPUs not listed are healthy; a missing file means all are healthy.
#pragma once

#include <map>
#include <set>
#include <string>
#include <string_view>

#include "dra/util/result.h"

namespace dra::driver::example {

// GPU name -> reason, for the GPUs the file marks unhealthy. Errors name the
// line ("line 3: unknown GPU \"gpu-9\"").
Result<std::map<std::string, std::string>> ParseHealthControl(std::string_view text,
                                                              const std::set<std::string>& gpus);

}  // namespace dra::driver::example
