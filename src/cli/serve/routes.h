// dra serve's HTTP routes: the dashboard's page and assets, its JSON API,
// the live event stream, /metrics and /healthz.
#pragma once

#include <map>
#include <string>

#include "cli/serve/cluster_source.h"
#include "cli/serve/state_publisher.h"
#include "dra/metrics/http_server.h"
#include "dra/metrics/registry.h"

namespace dra::cli::serve {

// REQUIRES: the three outlive the server the routes are given to.
std::map<std::string, metrics::HttpHandler> ServeRoutes(StatePublisher& states,
                                                        metrics::Registry& registry,
                                                        ClusterSource& source);

}  // namespace dra::cli::serve
