// The JSON API behind the dashboard (docs/SERVE.md): documents built from
// one DashboardState. Object names and attribute values are data, never
// markup: the page puts them in text nodes, and JSON strings escape <, >
// and & as Go's encoding/json does.
#pragma once

#include <cstdint>
#include <functional>
#include <string>
#include <string_view>

#include "api/codec/time_format.h"
#include "cli/serve/dashboard_state.h"

namespace dra::cli::serve {

// GET /api/summary: totals, per class, pool and node, claims, waiting pods,
// health; given to `sink` in pieces of about 64 KiB (1.3 MB in all on 5,000
// nodes), so that it can be coded as it is written.
void WriteSummaryJson(const DashboardState& state, std::int64_t now,
                      const std::function<void(std::string_view)>& sink);

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
