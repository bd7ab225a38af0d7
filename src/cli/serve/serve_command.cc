// `dra serve`: follows a cluster (or reads manifests) and serves its
// devices as Prometheus metrics, a JSON API and a live dashboard.
#include <malloc.h>
#include <pthread.h>

#include <CLI/CLI.hpp>
#include <atomic>
#include <csignal>
#include <iostream>
#include <memory>
#include <string>
#include <thread>
#include <vector>

#include "cli/commands.h"
#include "cli/kube_flags.h"
#include "cli/manifest_flags.h"
#include "cli/serve/cluster_source.h"
#include "cli/serve/dashboard_state.h"
#include "cli/serve/kept_objects.h"
#include "cli/serve/metrics_exposition.h"
#include "cli/serve/routes.h"
#include "cli/serve/state_publisher.h"
#include "cli/serve/waiting_explainer.h"
#include "dra/metrics/http_server.h"
#include "dra/metrics/registry.h"
#include "dra/scheduler/cluster.h"

namespace dra::cli {
namespace {

struct ServeFlags {
  std::string listen = "127.0.0.1:8080";
  std::vector<std::string> files;
  bool recursive = false;
  std::string feature_gates;
  bool device_metrics = false;
  int max_streams = 64;
  kube::ConfigFlags kube;
};

// -f: the manifests; else the live cluster. Errors are printed.
std::unique_ptr<serve::ClusterSource> OpenSource(const ServeFlags& flags, api::FeatureGates& gates,
                                                 int& rc) {
  ManifestFlags manifests;
  manifests.files = flags.files;
  manifests.recursive = flags.recursive;
  manifests.feature_gates = flags.feature_gates;
  manifests.namespace_ = flags.kube.namespace_.value_or("default");
  api::ManifestOptions options;
  if ((rc = manifests.Prepare(options, gates)) != 0) return nullptr;
  if (!flags.files.empty()) {
    api::ManifestSet set = api::ReadManifests(flags.files, options);
    Result<scheduler::Cluster> cluster =
        scheduler::ClusterFromManifests(std::move(set), manifests.namespace_);
    if (!cluster.ok()) {
      std::cerr << "error: " << cluster.error() << "\n";
      rc = 2;
      return nullptr;
    }
    scheduler::AddMissingNodes(*cluster);
    std::string origin;
    for (const std::string& f : flags.files) origin += (origin.empty() ? "" : ", ") + f;
    return serve::NewManifestSource(serve::KeepCluster(std::move(*cluster)), origin);
  }
  auto live = serve::StartLiveSource(flags.kube);
  if (!live.ok()) {
    std::cerr << live.error() << "\n";
    rc = 1;
    return nullptr;
  }
  return std::move(*live);
}

// Recomputes the state after each change of the objects or of the waiting
// pods' explanations, at most once per 200 ms (a flood of events costs one
// computation per period), and every 30 s regardless. The explanations come
// from `explainer` (live clusters, where they change), or are computed once
// here (manifests). A state is computed only between explanations: the one
// in progress is hurried first (on 5,000 nodes it is over within half a
// second), so that the memory each needs is never needed at once.
void ComputeLoop(serve::ClusterSource& source, serve::StatePublisher& states,
                 serve::WaitingExplainer* explainer, const api::FeatureGates& gates,
                 metrics::Family& durations, const std::atomic<bool>& stop) {
  while (!stop && !source.Synced()) {
    source.WaitForChange(source.Version(), std::chrono::milliseconds(100));
  }
  // The first lists' documents are freed by now: give them back before the
  // first state and explanation are computed, rather than add those to them.
  malloc_trim(0);
  std::vector<serve::PendingPod> fixed;
  double fixed_seconds = 0;
  if (explainer == nullptr && !stop) {
    const auto start = std::chrono::steady_clock::now();
    fixed = serve::ExplainWaiting(
        serve::Unpack(source.Snapshot().objects, serve::ExplainerUnpackOptions()), gates);
    fixed_seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  }
  constexpr auto kMinInterval = std::chrono::milliseconds(200);
  while (!stop) {
    if (explainer != nullptr) explainer->Hurry();
    const auto started = std::chrono::steady_clock::now();
    const std::uint64_t seen = source.Version();
    serve::SourceSnapshot snapshot = source.Snapshot();
    std::shared_ptr<const serve::Explained> explained =
        explainer != nullptr ? explainer->Latest() : nullptr;
    serve::StateSizes sizes;
    if (std::shared_ptr<const serve::DashboardState> last = states.Current()) {
      sizes = serve::SizesOf(*last);
    }
    serve::DashboardState state =
        serve::ComputeState(snapshot, explained != nullptr ? explained->pods : fixed, sizes);
    state.pending_seconds = explained != nullptr ? explained->seconds : fixed_seconds;
    state.origin = source.Origin();
    durations.Observe({}, state.compute_seconds);
    states.Publish(std::move(state));
    // Give back what the computation freed (the objects it decoded), before
    // the explainer begins on its own.
    malloc_trim(0);
    if (explainer != nullptr) explainer->Offer(std::move(snapshot.objects), seen);
    snapshot = {};
    const std::uint64_t explained_generation = explained != nullptr ? explained->generation : 0;
    auto changed = [&] {
      return source.Version() != seen ||
             (explainer != nullptr && explainer->Latest()->generation != explained_generation);
    };
    const auto deadline = started + std::chrono::seconds(30);
    auto trimmed = std::chrono::steady_clock::now();
    while (!stop && !changed() && std::chrono::steady_clock::now() < deadline) {
      source.WaitForChange(seen, std::chrono::milliseconds(250));
      // And what requests freed (documents written for a state, a scrape's
      // series), every few seconds between states.
      if (std::chrono::steady_clock::now() - trimmed > std::chrono::seconds(5)) {
        malloc_trim(0);
        trimmed = std::chrono::steady_clock::now();
      }
    }
    // A lone change is computed at once; a flood, once per interval.
    const auto next = started + kMinInterval;
    if (!stop && std::chrono::steady_clock::now() < next) std::this_thread::sleep_until(next);
  }
}

int Run(const ServeFlags& flags) {
  // Blocked before any thread starts, so sigwait below is their only receiver.
  sigset_t signals;
  sigemptyset(&signals);
  sigaddset(&signals, SIGTERM);
  sigaddset(&signals, SIGINT);
  pthread_sigmask(SIG_BLOCK, &signals, nullptr);
  signal(SIGPIPE, SIG_IGN);

  // Memory goes back to the system when freed: large blocks (decoded
  // objects, exposition texts, JSON documents) are mapped apart from the heap
  // and unmapped when freed (a fixed threshold; glibc's default one rises
  // after each large free), the heap's top is trimmed past 1 MiB, and the
  // request threads share two arenas instead of keeping one each.
  mallopt(M_MMAP_THRESHOLD, 128 * 1024);
  mallopt(M_TRIM_THRESHOLD, 1024 * 1024);
  mallopt(M_ARENA_MAX, 2);

  int rc = 0;
  api::FeatureGates gates;
  std::unique_ptr<serve::ClusterSource> source = OpenSource(flags, gates, rc);
  if (source == nullptr) return rc;

  serve::StatePublisher states;
  metrics::Registry registry;
  metrics::Family& durations = registry.Histogram(
      "dra_serve_compute_duration_seconds", "Time to compute the state from the cluster's objects");
  serve::RegisterStateMetrics(
      registry, [&states] { return states.Current(); }, flags.device_metrics);
  metrics::HttpServerOptions http;
  http.max_streams = flags.max_streams;
  http.threads = flags.max_streams + 16;
  // Scrapes and summaries of large clusters are megabytes each.
  http.trim_after_bytes = 1 << 20;
  auto server =
      metrics::HttpServer::Start(flags.listen, serve::ServeRoutes(states, registry, *source), http);
  if (!server.ok()) {
    std::cerr << "error: " << server.error() << "\n";
    source->Stop();
    return 1;
  }
  const std::string host = flags.listen.substr(0, flags.listen.rfind(':'));
  std::cerr << "dra serve: " << source->Origin() << " on http://"
            << (host.empty() ? "0.0.0.0" : host) << ":" << (*server)->port() << "/\n";

  std::atomic<bool> stop{false};
  std::unique_ptr<serve::WaitingExplainer> explainer;
  if (flags.files.empty()) {
    explainer = std::make_unique<serve::WaitingExplainer>(gates, std::chrono::seconds(30));
  }
  std::thread compute(
      [&] { ComputeLoop(*source, states, explainer.get(), gates, durations, stop); });
  int received = 0;
  sigwait(&signals, &received);
  std::cerr << "dra serve: " << (received == SIGTERM ? "SIGTERM" : "SIGINT") << ", shutting down\n";
  stop = true;
  states.Close();
  source->Stop();
  compute.join();
  if (explainer != nullptr) explainer->Stop();
  (*server)->Stop();
  return 0;
}

}  // namespace

void AddServeCommand(CLI::App& app, int& exit_code) {
  auto flags = std::make_shared<ServeFlags>();
  CLI::App* cmd = app.add_subcommand(
      "serve",
      "Serve a cluster's devices: Prometheus metrics at /metrics, a live dashboard at /, and "
      "its JSON API under /api/; follows a live cluster (kubectl's flags, or in-cluster "
      "configuration inside a pod) or shows manifests (-f, e.g. a dra snapshot directory)");
  cmd->add_option("--listen", flags->listen,
                  "Address to listen on: HOST:PORT, :PORT for every interface, port 0 for any");
  cmd->add_option("-f,--filename", flags->files,
                  "Manifest files or directories to serve instead of a live cluster");
  cmd->add_flag("-R,--recursive", flags->recursive, "Read directories given with -f recursively");
  cmd->add_option("--feature-gates", flags->feature_gates,
                  "Kubernetes feature gates (A=true,B=false) for the explanations; defaults are "
                  "Kubernetes 1.37's");
  cmd->add_flag("--device-metrics", flags->device_metrics,
                "Add dra_device_state, one series per device (for small clusters)");
  cmd->add_option("--max-streams", flags->max_streams,
                  "Live dashboard connections served at once; more are refused with 503")
      ->check(CLI::Range(1, 1024));
  RegisterKubeFlags(*cmd, flags->kube);
  cmd->callback([flags, &exit_code] { exit_code = Run(*flags); });
}

}  // namespace dra::cli
