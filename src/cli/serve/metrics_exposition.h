// dra serve's /metrics: the DashboardState as Prometheus gauges, with
// bounded label sets (no per-device series unless asked for), and the
// server's own health. docs/SERVE.md lists every family.
#pragma once

#include <functional>
#include <memory>

#include "cli/serve/dashboard_state.h"
#include "dra/metrics/registry.h"

namespace dra::cli::serve {

using CurrentState = std::function<std::shared_ptr<const DashboardState>()>;

// Registers the families on `registry`, and a collector that sets them
// from `current()` before each exposition (nothing while it returns null).
// `per_device` adds dra_device_state, one series per device.
void RegisterStateMetrics(metrics::Registry& registry, CurrentState current, bool per_device);

}  // namespace dra::cli::serve
