// Go's time.Duration.String() for the durations the client sends (the
// `timeout` query parameter: "30s", "5m0s", "1h0m0s", "1.5s", "500ms").
#pragma once

#include <chrono>
#include <string>

namespace dra::kube {

std::string FormatGoDuration(std::chrono::milliseconds d);

}  // namespace dra::kube
