// The JSON API behind the dashboard (docs/SERVE.md): documents built from
// one DashboardState. Object names and attribute values are data, never
// markup: the page puts them in text nodes, and JSON strings escape <, >
// and & as Go's encoding/json does.
#pragma once

#include <cstdint>
#include <string>

#include "api/codec/time_format.h"
#include "cli/serve/dashboard_state.h"

namespace dra::cli::serve {

// GET /api/summary: totals, per class, pool and node, claims, waiting pods,
// health.
std::string SummaryJson(const DashboardState& state, std::int64_t now);

// GET /api/devices?node=N (or pool=DRIVER/POOL, or reach=1 for devices that
// are not node-local): the devices with state, holders, partitions and
// capacity. At most `limit` devices; "truncated" says when more matched.
std::string DevicesJson(const DashboardState& state, const std::string& node,
                        const std::string& pool, bool not_node_local, std::size_t limit);

// GET /api/search?q=TEXT: nodes, pools, devices (name or uuid), pods and
// claims whose name contains TEXT (case-insensitive), at most `limit`.
std::string SearchJson(const DashboardState& state, const std::string& query, std::size_t limit);

// "2026-12-03T10:00:00Z" (metav1.Time's text).
inline std::string Rfc3339(std::int64_t unix_seconds) {
  return api::codec::FormatRfc3339(api::Time::FromUnix(unix_seconds));
}

}  // namespace dra::cli::serve
