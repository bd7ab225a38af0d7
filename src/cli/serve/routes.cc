// The routes, and the checks of their query strings.
#include "cli/serve/routes.h"

#include <charconv>
#include <cstdint>
#include <ctime>
#include <functional>
#include <memory>
#include <optional>
#include <set>
#include <string>
#include <utility>

#include "cli/serve/api_json.h"
#include "cli/serve/assets.h"
#include "dra/json/build.h"
#include "dra/util/mutex.h"

namespace dra::cli::serve {
namespace {

constexpr const char* kJson = "application/json";
constexpr std::size_t kMaxParam = 512;

std::int64_t Now() { return static_cast<std::int64_t>(std::time(nullptr)); }

metrics::HttpAnswer JsonAnswer(int status, std::string body) {
  metrics::HttpAnswer a{status, kJson, std::move(body), {}, {}, {}};
  a.headers.emplace_back("Cache-Control", "no-store");
  a.headers.emplace_back("X-Content-Type-Options", "nosniff");
  return a;
}

// A cached text, sent without a copy.
metrics::HttpAnswer JsonAnswer(int status, std::shared_ptr<const std::string> body) {
  metrics::HttpAnswer a = JsonAnswer(status, std::string());
  a.shared_body = std::move(body);
  return a;
}

metrics::HttpAnswer JsonError(int status, const std::string& message) {
  json::Value v = json::Value::Object();
  json::Put(v, "error", json::Str(message));
  return JsonAnswer(status, json::ToJson(v) + "\n");
}

// The request's parameters must be among `allowed`, each at most once and
// short; the message says which is wrong.
std::optional<std::string> CheckParams(const metrics::HttpRequest& r,
                                       const std::set<std::string>& allowed) {
  std::set<std::string> seen;
  for (const auto& [name, value] : r.params) {
    if (!allowed.contains(name)) {
      std::string list;
      for (const std::string& a : allowed) list += (list.empty() ? "" : ", ") + a;
      return "unknown query parameter \"" + name.substr(0, 64) + "\" (" + r.path + " takes " +
             (list.empty() ? "none" : list) + ")";
    }
    if (!seen.insert(name).second) return "query parameter \"" + name + "\" given twice";
    if (value.size() > kMaxParam) {
      return "query parameter \"" + name + "\" is longer than " + std::to_string(kMaxParam) +
             " bytes";
    }
  }
  return std::nullopt;
}

// "limit": 1..max, default `fallback`.
std::optional<std::size_t> Limit(const metrics::HttpRequest& r, std::size_t fallback,
                                 std::size_t max, std::string& error) {
  std::string text = r.Param("limit");
  if (text.empty()) return fallback;
  std::size_t v = 0;
  auto [end, ec] = std::from_chars(text.data(), text.data() + text.size(), v);
  if (ec != std::errc() || end != text.data() + text.size() || v < 1 || v > max) {
    error = "query parameter \"limit\": \"" + text + "\" is not a number from 1 to " +
            std::to_string(max);
    return std::nullopt;
  }
  return v;
}

metrics::HttpAnswer NotReady() {
  return JsonError(503, "the cluster's state is not known yet (the informers are listing)");
}

// Server-sent events: "state" with the generation whenever a new state is
// published, a comment every 15 s so proxies keep the stream open.
metrics::HttpStream EventStream(StatePublisher& states) {
  struct Progress {
    std::uint64_t sent = 0;
    bool started = false;
    std::chrono::steady_clock::time_point last_write = std::chrono::steady_clock::now();
  };
  auto progress = std::make_shared<Progress>();
  return [&states, progress]() -> std::optional<std::string> {
    if (states.closed()) return std::nullopt;
    std::string out;
    if (!progress->started) {
      progress->started = true;
      out = "retry: 2000\n\n";
    }
    std::shared_ptr<const DashboardState> s =
        out.empty() ? states.WaitForNewer(progress->sent, std::chrono::milliseconds(1000))
                    : states.Current();
    if (s != nullptr && s->generation != progress->sent) {
      progress->sent = s->generation;
      out += "event: state\ndata: {\"generation\":" + std::to_string(s->generation) +
             ",\"computedAt\":\"" + Rfc3339(s->computed_at) + "\"}\n\n";
    }
    const auto now = std::chrono::steady_clock::now();
    if (out.empty() && now - progress->last_write > std::chrono::seconds(15))
      out = ": keepalive\n\n";
    if (!out.empty()) progress->last_write = now;
    return out;
  };
}

// A document written once per state and second for the requests being
// answered together: those that come while it is written or sent (many open
// pages, each fetching the summary on each state event) share it instead of
// each writing megabytes anew. It is held gzip-coded, as it was written
// (52 KB for a summary of 1.3 MB on 5,000 nodes), and not kept once the
// last of them is sent: the next second's requests write it anew anyway.
class CodedPerState {
 public:
  struct Coded {
    std::string member;  // one gzip member
    std::size_t plain_size = 0;
  };
  std::shared_ptr<const Coded> Get(std::uint64_t generation, std::int64_t second,
                                   const std::function<void(const metrics::PieceSink&)>& write) {
    MutexLock lock(mu_);
    while (true) {
      std::shared_ptr<const Coded> coded = coded_.lock();
      if (coded != nullptr && generation_ == generation && second_ == second) return coded;
      if (!writing_) break;
      written_.Wait(mu_);  // another request writes it: likely the one wanted
    }
    writing_ = true;
    lock.Unlock();
    auto coded = std::make_shared<Coded>();
    try {
      metrics::HttpAnswer a = metrics::GzipCodedAnswer(kJson, write);
      coded->member = std::move(a.body);
      coded->plain_size = a.gzip_of.value_or(0);
    } catch (...) {
      lock.Lock();
      writing_ = false;
      written_.NotifyAll();
      throw;
    }
    lock.Lock();
    writing_ = false;
    generation_ = generation;
    second_ = second;
    coded_ = coded;
    written_.NotifyAll();
    return coded;
  }

 private:
  Mutex mu_;
  CondVar written_;
  bool writing_ DRA_GUARDED_BY(mu_) = false;
  std::uint64_t generation_ DRA_GUARDED_BY(mu_) = 0;
  std::int64_t second_ DRA_GUARDED_BY(mu_) = -1;
  std::weak_ptr<const Coded> coded_ DRA_GUARDED_BY(mu_);
};

// /metrics: the registry's text, written for each scrape rather than kept
// (keeping it would hold megabytes between scrapes that come every 15 s or
// more), and gzip-coded as it is written: a scrape holds 0.3 MB instead of
// 4.6 on 5,000 nodes, whether or not its client takes gzip.
metrics::HttpHandler MetricsHandler(metrics::Registry& registry) {
  return [&registry] { return metrics::ExpositionAnswer(registry); };
}

// The JSON API and the event stream.
void AddApiRoutes(StatePublisher& states, std::map<std::string, metrics::HttpHandler>& routes) {
  // The summary says how old the state is, so it is kept per second.
  routes["/api/summary"] =
      [&states, cache = std::make_shared<CodedPerState>()](const metrics::HttpRequest& r) {
        if (auto bad = CheckParams(r, {})) return JsonError(400, *bad);
        auto s = states.Current();
        if (s == nullptr) return NotReady();
        const std::int64_t now = Now();
        std::shared_ptr<const CodedPerState::Coded> coded =
            cache->Get(s->generation, now,
                       [&](const metrics::PieceSink& sink) { WriteSummaryJson(*s, now, sink); });
        metrics::HttpAnswer a =
            JsonAnswer(200, std::shared_ptr<const std::string>(coded, &coded->member));
        a.gzip_of = coded->plain_size;
        return a;
      };
  routes["/api/devices"] = [&states](const metrics::HttpRequest& r) {
    if (auto bad = CheckParams(r, {"node", "pool", "notNodeLocal", "limit"})) {
      return JsonError(400, *bad);
    }
    std::string error;
    auto limit = Limit(r, 5000, 100000, error);
    if (!limit) return JsonError(400, error);
    const std::string node = r.Param("node");
    const std::string pool = r.Param("pool");
    const std::string reach = r.Param("notNodeLocal");
    if (!reach.empty() && reach != "true") {
      return JsonError(400, "query parameter \"notNodeLocal\": only \"true\" is allowed");
    }
    const int given = (node.empty() ? 0 : 1) + (pool.empty() ? 0 : 1) + (reach.empty() ? 0 : 1);
    if (given != 1) {
      return JsonError(400, "give exactly one of node=NAME, pool=DRIVER/POOL, notNodeLocal=true");
    }
    auto s = states.Current();
    if (s == nullptr) return NotReady();
    return JsonAnswer(200, DevicesJson(*s, node, pool, !reach.empty(), *limit));
  };
  routes["/api/search"] = [&states](const metrics::HttpRequest& r) {
    if (auto bad = CheckParams(r, {"q", "limit"})) return JsonError(400, *bad);
    std::string error;
    auto limit = Limit(r, 50, 1000, error);
    if (!limit) return JsonError(400, error);
    auto s = states.Current();
    if (s == nullptr) return NotReady();
    return JsonAnswer(200, SearchJson(*s, r.Param("q"), *limit));
  };
  routes["/api/events"] = [&states](const metrics::HttpRequest& r) {
    if (auto bad = CheckParams(r, {})) return JsonError(400, *bad);
    metrics::HttpAnswer a{200, "text/event-stream", {}, {}, EventStream(states), {}};
    a.headers.emplace_back("Cache-Control", "no-store");
    return a;
  };
}

}  // namespace

std::map<std::string, metrics::HttpHandler> ServeRoutes(StatePublisher& states,
                                                        metrics::Registry& registry,
                                                        ClusterSource& source) {
  std::map<std::string, metrics::HttpHandler> routes;
  for (const Asset& asset : DashboardAssets()) {
    routes[std::string(asset.path)] = [asset] {
      metrics::HttpAnswer a{200, std::string(asset.content_type), std::string(asset.body), {}, {},
                            {}};
      // Only dra's own scripts and styles run; nothing from the cluster can.
      a.headers.emplace_back("Content-Security-Policy",
                             "default-src 'none'; script-src 'self'; style-src 'self'; "
                             "img-src 'self' data:; connect-src 'self'; frame-ancestors 'none'; "
                             "base-uri 'none'; form-action 'none'");
      a.headers.emplace_back("X-Content-Type-Options", "nosniff");
      a.headers.emplace_back("Cache-Control", "no-cache");
      return a;
    };
  }
  routes["/metrics"] = MetricsHandler(registry);
  routes["/healthz"] = [&states, &source] {
    if (states.Current() == nullptr || !source.Synced()) {
      return metrics::HttpAnswer{503, "text/plain; charset=utf-8", "syncing\n", {}, {}, {}};
    }
    return metrics::HttpAnswer{200, "text/plain; charset=utf-8", "ok\n", {}, {}, {}};
  };
  AddApiRoutes(states, routes);
  return routes;
}

}  // namespace dra::cli::serve
