// The two ClusterSources: manifests (fixed) and informers (live).
#include "cli/serve/cluster_source.h"

#include <algorithm>
#include <atomic>
#include <ctime>
#include <functional>
#include <tuple>
#include <utility>

#include "cli/live_cluster.h"
#include "dra/kube/resource_client.h"
#include "dra/util/mutex.h"

namespace dra::cli::serve {
namespace {

std::int64_t UnixNow() { return static_cast<std::int64_t>(std::time(nullptr)); }

class ManifestSource final : public ClusterSource {
 public:
  ManifestSource(KeptCluster objects, std::string origin)
      : objects_(std::move(objects)), origin_(std::move(origin)) {}
  SourceSnapshot Snapshot() override { return SourceSnapshot{objects_, {}, 0, {}}; }
  std::uint64_t Version() const override { return 1; }
  std::uint64_t WaitForChange(std::uint64_t seen, std::chrono::milliseconds timeout) override {
    MutexLock lock(mu_);
    const auto deadline = std::chrono::steady_clock::now() + timeout;
    while (seen == 1 && !stopped_) {
      if (cv_.WaitUntil(mu_, deadline) == std::cv_status::timeout) break;
    }
    return 1;
  }
  bool Synced() const override { return true; }
  void Stop() override {
    MutexLock lock(mu_);
    stopped_ = true;
    cv_.NotifyAll();
  }
  std::string Origin() const override { return origin_; }

 private:
  const KeptCluster objects_;
  const std::string origin_;
  Mutex mu_;
  CondVar cv_;
  bool stopped_ DRA_GUARDED_BY(mu_) = false;
};

// One informer, whatever its type: what the source needs of it.
struct TrackedInformer {
  std::string resource;
  std::function<bool()> synced;
  std::function<kube::InformerStats()> stats;
  std::function<void()> start;
  std::function<void()> stop;
  std::function<void(KeptCluster&)> copy_into;
  // The health check's memory (LiveSource::mu_).
  kube::InformerStats last;
  bool failing = false;
};

// The successes and failures an informer has counted.
std::uint64_t Failures(const kube::InformerStats& s) { return s.list_errors + s.watch_errors; }
std::tuple<std::uint64_t, std::uint64_t, std::uint64_t> Successes(const kube::InformerStats& s) {
  return {s.lists, s.events, s.watches - s.watch_errors};
}

class LiveSource final : public ClusterSource {
 public:
  LiveSource(kube::TypedClient typed, std::string server)
      : typed_(std::move(typed)), server_(std::move(server)) {}
  ~LiveSource() override { Stop(); }

  // Keeps the objects of `type` in `member`.
  void Add(const kube::ResourceType& type, std::vector<KeptPtr> KeptCluster::*member) {
    using T = KeptObject;
    auto source =
        std::shared_ptr<kube::ListerWatcher>(kube::NewApiListerWatcher(typed_.objects(), type, ""));
    kube::TypedClient typed = typed_;
    auto compressor = std::make_shared<kube::TextCompressor>();
    auto transform = [typed, compressor, kind = type.kind](
                         json::Value&& tree) -> kube::ApiResult<std::shared_ptr<const T>> {
      // managedFields is most of a stored object and nothing dra shows: drop
      // it before decoding.
      if (tree.is_object()) {
        for (json::Member& m : tree.members) {
          if (m.key != "metadata" || !m.value.is_object()) continue;
          std::erase_if(m.value.members,
                        [](const json::Member& f) { return f.key == "managedFields"; });
        }
      }
      kube::ApiResult<api::Object> o = typed.Decode(tree);
      if (!o.ok()) return o.error();
      if (api::KindOf(*o) != kind) return kube::ApiError::Protocol("unexpected kind");
      Result<KeptPtr> kept = Keep(std::move(*o), *compressor);
      if (!kept.ok()) return kube::ApiError::Protocol(kept.error());
      return std::move(*kept);
    };
    kube::InformerHandlers<T> handlers;
    handlers.on_add = [this](const std::shared_ptr<const T>&, bool) { Changed(); };
    handlers.on_update = [this](const std::shared_ptr<const T>&, const std::shared_ptr<const T>&) {
      Changed();
    };
    handlers.on_delete = [this](const std::shared_ptr<const T>&, bool) { Changed(); };
    const std::string resource = type.QualifiedResource();
    handlers.on_error = [this, resource](const kube::ApiError& error) {
      MutexLock lock(mu_);
      last_error_ = resource + ": " + error.message;
    };
    kube::InformerOptions options;
    options.name = resource;
    auto informer =
        std::make_shared<kube::Informer<T>>(source, transform, std::move(handlers), options);
    TrackedInformer t;
    t.resource = resource;
    t.synced = [informer] { return informer->HasSynced(); };
    t.stats = [informer] { return informer->Stats(); };
    t.start = [informer] { informer->Start(); };
    t.stop = [informer] { informer->Stop(); };
    t.copy_into = [informer, member](KeptCluster& objects) {
      objects.*member = informer->Snapshot();
    };
    informers_.push_back(std::move(t));
  }

  void StartAll() {
    for (TrackedInformer& t : informers_) t.start();
  }

  SourceSnapshot Snapshot() override {
    CheckHealth();
    SourceSnapshot out;
    for (TrackedInformer& t : informers_) t.copy_into(out.objects);
    MutexLock lock(mu_);
    for (const TrackedInformer& t : informers_) {
      out.health.push_back(ResourceHealth{t.resource, t.synced(), t.last});
    }
    out.stale_since = stale_since_;
    if (stale_since_ != 0) out.stale_reason = last_error_;
    return out;
  }

  std::uint64_t Version() const override { return version_.load(); }

  std::uint64_t WaitForChange(std::uint64_t seen, std::chrono::milliseconds timeout) override {
    const auto deadline = std::chrono::steady_clock::now() + timeout;
    while (true) {
      {
        MutexLock lock(mu_);
        // Wake at least every 250 ms to look at the informers' health.
        auto until =
            std::min(deadline, std::chrono::steady_clock::now() + std::chrono::milliseconds(250));
        while (version_.load() == seen && !stopped_) {
          if (cv_.WaitUntil(mu_, until) == std::cv_status::timeout) break;
        }
        if (stopped_) return version_.load();
      }
      CheckHealth();
      if (version_.load() != seen || std::chrono::steady_clock::now() >= deadline) {
        return version_.load();
      }
    }
  }

  bool Synced() const override {
    return std::all_of(informers_.begin(), informers_.end(),
                       [](const TrackedInformer& t) { return t.synced(); });
  }

  void Stop() override {
    {
      MutexLock lock(mu_);
      if (stopped_) return;
      stopped_ = true;
      cv_.NotifyAll();
    }
    for (TrackedInformer& t : informers_) t.stop();
  }

  std::string Origin() const override { return server_; }

 private:
  void Changed() {
    version_.fetch_add(1);
    cv_.NotifyAll();
  }

  // An informer is failing from the check that sees its error counts grow
  // with no success beside them, until one that sees a success (a list, an
  // event or a watch that did not fail). The source is stale while any is.
  void CheckHealth() {
    bool changed = false;
    {
      MutexLock lock(mu_);
      bool any_failing = false;
      for (TrackedInformer& t : informers_) {
        kube::InformerStats now = t.stats();
        const bool succeeded = Successes(now) != Successes(t.last);
        const bool failed = Failures(now) != Failures(t.last);
        if (succeeded) {
          t.failing = false;
        } else if (failed) {
          t.failing = true;
        }
        t.last = now;
        any_failing = any_failing || t.failing;
      }
      if (any_failing && stale_since_ == 0) {
        stale_since_ = UnixNow();
        changed = true;
      } else if (!any_failing && stale_since_ != 0) {
        stale_since_ = 0;
        changed = true;
      }
    }
    if (changed) Changed();
  }

  kube::TypedClient typed_;
  const std::string server_;
  // Filled before StartAll, read-only after (the health fields under mu_).
  std::vector<TrackedInformer> informers_;
  std::atomic<std::uint64_t> version_{1};
  Mutex mu_;
  CondVar cv_;
  bool stopped_ DRA_GUARDED_BY(mu_) = false;
  std::int64_t stale_since_ DRA_GUARDED_BY(mu_) = 0;
  std::string last_error_ DRA_GUARDED_BY(mu_);
};

}  // namespace

std::unique_ptr<ClusterSource> NewManifestSource(KeptCluster objects, std::string origin) {
  return std::make_unique<ManifestSource>(std::move(objects), std::move(origin));
}

Result<std::unique_ptr<ClusterSource>> StartLiveSource(const kube::ConfigFlags& flags) {
  Result<LiveReader> reader = ConnectLiveReader(flags);
  if (!reader.ok()) return reader.failure();
  kube::TypedClient typed = reader->client;
  // One small list first, so that an unreachable server or missing
  // permissions fail the start in kubectl's words instead of retrying.
  kube::ListOptions one;
  one.limit = 1;
  for (const kube::ResourceType& type : {kube::Nodes(), kube::ResourceSlices(typed.version()),
                                         kube::ResourceClaims(typed.version())}) {
    kube::ApiResult<kube::ObjectList> probe = typed.objects().ListPage(type, "", one);
    if (!probe.ok()) return probe.failure();
  }
  kube::ApiResult<kube::ObjectList> rules =
      typed.objects().ListPage(kube::DeviceTaintRules(typed.version()), "", one);
  const bool serves_rules = rules.ok() || !rules.error().IsNotFound();

  auto source = std::make_unique<LiveSource>(typed, reader->server);
  const api::ApiVersion v = typed.version();
  source->Add(kube::Nodes(), &KeptCluster::nodes);
  source->Add(kube::Pods(), &KeptCluster::pods);
  source->Add(kube::ResourceClaims(v), &KeptCluster::claims);
  source->Add(kube::ResourceClaimTemplates(v), &KeptCluster::templates);
  source->Add(kube::DeviceClasses(v), &KeptCluster::classes);
  source->Add(kube::ResourceSlices(v), &KeptCluster::slices);
  if (serves_rules) {
    source->Add(kube::DeviceTaintRules(v), &KeptCluster::taint_rules);
  }
  source->StartAll();
  return std::unique_ptr<ClusterSource>(std::move(source));
}

}  // namespace dra::cli::serve
