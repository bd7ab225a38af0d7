// InformerCore: a reflector thread (list, watch, relist, backoff) that keeps
// the cache and queues notifications, and a dispatch thread that hands them
// to the handlers in order and runs the resync timer.
#include "dra/kube/informer.h"

#include <algorithm>
#include <deque>
#include <functional>
#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <thread>

#include "dra/util/mutex.h"
#include "dra/util/random.h"
#include "kube/keyed_objects.h"
#include "kube/wire.h"

namespace dra::kube {
namespace {

using Clock = std::chrono::steady_clock;
using internal::ErasedObject;

// A drained notification queue that held more than this is made anew.
constexpr std::size_t kQueueKeptSize = 1024;

const json::Value* Member(const json::Value& v, std::string_view key) {
  return v.is_object() ? v.Find(key) : nullptr;
}

std::string ResourceVersionOf(const json::Value& object) {
  const json::Value* meta = Member(object, "metadata");
  return meta != nullptr ? wire::StringAt(*meta, "resourceVersion") : std::string();
}

bool IsTooLargeResourceVersion(const ApiError& e) {
  if (e.kind != ErrorKind::kServer) return false;
  for (const StatusCause& c : e.causes) {
    if (c.type == "ResourceVersionTooLarge" || c.message == "Too large resource version") {
      return true;
    }
  }
  return e.reason == "Timeout" && e.message.find("Too large resource version") != std::string::npos;
}

// wait.Backoff{Duration: initial, Factor: 2, Jitter: 1, Cap: cap} with
// DelayWithReset(reset): each delay is the current step jittered to [d, 2d).
class Backoff {
 public:
  Backoff(const InformerOptions& o, util::SplitMix64& rng)
      : initial_(o.backoff_initial), cap_(o.backoff_cap), reset_(o.backoff_reset), rng_(rng) {}

  Clock::duration Next() {
    Clock::time_point now = Clock::now();
    if (now - last_ > reset_) step_ = initial_;
    last_ = now;
    Clock::duration d = step_;
    step_ = std::min<Clock::duration>(step_ * 2, cap_);
    return d + std::chrono::duration_cast<Clock::duration>(d * rng_.NextDouble());
  }

 private:
  Clock::duration initial_, cap_, reset_;
  Clock::duration step_{initial_};
  Clock::time_point last_ = Clock::now();
  util::SplitMix64& rng_;
};

}  // namespace

std::string ObjectKey(const json::Value& object) {
  const json::Value* meta = Member(object, "metadata");
  if (meta == nullptr) return {};
  std::string name = wire::StringAt(*meta, "name");
  if (name.empty()) return {};
  std::string ns = wire::StringAt(*meta, "namespace");
  return ns.empty() ? name : ns + "/" + name;
}

namespace internal {

// 48 bytes: a first list queues one per object (20,000 claims), so the
// rare error is held apart (in place it made each one 320 bytes).
struct Notification {
  enum class Kind : std::uint8_t { kAdd, kUpdate, kDelete, kError, kSynced };
  Kind kind;
  bool flag = false;  // kAdd: in initial list; kDelete: final state unknown
  ErasedObject old_obj;
  ErasedObject obj;
  std::unique_ptr<ApiError> error;  // kError only
};
static_assert(sizeof(Notification) <= 48);

struct InformerCore::State {
  std::shared_ptr<ListerWatcher> source;
  ErasedHandlers handlers;
  InformerOptions options;

  mutable SharedMutex cache_mu;
  // A list builds a new cache and the old one goes whole.
  std::unique_ptr<KeyedObjects> index DRA_GUARDED_BY(cache_mu) = std::make_unique<KeyedObjects>();

  Mutex mu;
  CondVar cv;
  std::deque<Notification> queue DRA_GUARDED_BY(mu);
  // The most notifications queued since the queue was last made anew: a
  // deque keeps the index of its blocks at the largest size it had (a first
  // list of 20,000 objects left 0.2 MiB), so a queue that held many is
  // replaced once it drains.
  std::size_t queue_high DRA_GUARDED_BY(mu) = 0;
  bool started DRA_GUARDED_BY(mu) = false;
  bool synced DRA_GUARDED_BY(mu) = false;
  std::string last_rv DRA_GUARDED_BY(mu);
  bool last_rv_unavailable DRA_GUARDED_BY(mu) = false;
  InformerStats stats DRA_GUARDED_BY(mu);
  mutable CondVar sync_cv;

  std::atomic<bool> stop{false};
  std::thread reflector;
  std::thread dispatcher;
  util::SplitMix64 rng{util::RandomSeed()};
  bool listed_once = false;  // reflector thread only

  // Sleeps for `d` or until Stop(); false when stopped.
  bool Sleep(Clock::duration d) {
    MutexLock lock(mu);
    const auto deadline = std::chrono::steady_clock::now() + d;
    while (!stop.load()) {
      if (cv.WaitUntil(mu, deadline) == std::cv_status::timeout) break;
    }
    return !stop.load();
  }
  void Push(Notification n) {
    {
      MutexLock lock(mu);
      queue.push_back(std::move(n));
      queue_high = std::max(queue_high, queue.size());
    }
    cv.NotifyAll();
  }
  void Report(ApiError e) {
    Notification n{Notification::Kind::kError, false, nullptr, nullptr,
                   std::make_unique<ApiError>(std::move(e))};
    Push(std::move(n));
  }
  template <class F>
  void Count(F f) {
    MutexLock lock(mu);
    f(stats);
  }

  // Transforms `object`; a failure is reported and gives nullptr.
  ErasedObject Transform(json::Value&& object, const std::string& key) {
    ApiResult<ErasedObject> r = handlers.transform(std::move(object));
    if (r.ok() && *r != nullptr) return std::move(r).value();
    Count([](InformerStats& s) { ++s.transform_errors; });
    ApiError e = r.ok() ? ApiError::Protocol("transform returned no object") : r.error();
    e.message = options.name + " " + key + ": " + e.message;
    Report(std::move(e));
    return nullptr;
  }

  using Keyed = std::vector<std::pair<std::string, ErasedObject>>;
  // How a watch-list ended.
  enum class Streamed : std::uint8_t {
    kWatched,  // the cache was replaced and the stream then ended: watch on
    kEnded,    // the cache was replaced and the watch then failed: the cycle ends
    kRetry,    // try again (the delay, if any, already slept)
    kList,     // the server did not stream the objects: list them
    kStopped,
  };
  // What a watch that failed leads to.
  enum class AfterWatch : std::uint8_t {
    kRewatch,  // watch again (the backoff delay slept)
    kRelist,   // the cycle ends (the failure reported unless 410)
    kStopped,
  };

  // A watch-list's initial events so far.
  struct InitialEvents {
    Keyed objects;       // transformed
    std::string rv;      // of the last event other than ADDED
    bool ended = false;  // the initial-events-end bookmark came
  };

  void RunReflector();
  Streamed WatchList(Backoff& backoff);
  void TakeInitial(WatchEvent&& event, InitialEvents& initial);
  Streamed WatchListFailed(const ApiStatus& st, Backoff& backoff);
  AfterWatch WatchFailed(const ApiError& e, Backoff& backoff);
  bool List();
  void WatchLoop(Backoff& backoff);
  // Handles one event of a watch past its initial events (and the
  // resourceVersion it carries).
  void Watched(WatchEvent&& event);
  bool HandleEvent(WatchEvent&& event);
  // The cache becomes `fresh` (transformed objects; a key may repeat, the
  // last one counts; nullptr: a failed transform, what was known is kept),
  // listed at resourceVersion `rv` (`streamed`: by a watch-list). The list
  // is counted and `rv` recorded under the lock that queues its
  // notifications, so whoever sees the informer synced sees both.
  void Replace(Keyed&& fresh, bool initial, std::string rv, bool streamed);
  // Adds the objects of a listed page to `out`, transformed.
  void TransformInto(std::vector<json::Value>&& items, Keyed& out);
  void RunDispatcher();
  void Dispatch(Notification& n);
};

void InformerCore::State::RunReflector() {
  Backoff backoff(options, rng);
  const bool watch_list = options.watch_list && source->SupportsWatchList();
  while (!stop.load()) {
    Streamed streamed = watch_list ? WatchList(backoff) : Streamed::kList;
    if (streamed == Streamed::kStopped) break;
    if (streamed == Streamed::kRetry) continue;
    if (streamed == Streamed::kWatched || (streamed == Streamed::kList && List())) {
      WatchLoop(backoff);
    }
    if (stop.load() || !Sleep(backoff.Next())) break;
  }
}

InformerCore::State::Streamed InformerCore::State::WatchList(Backoff& backoff) {
  ListOptions lo;
  {
    MutexLock lock(mu);
    lo.resource_version = last_rv_unavailable ? "" : last_rv;
    ++stats.watches;
  }
  lo.resource_version_match = "NotOlderThan";
  lo.send_initial_events = true;
  lo.allow_watch_bookmarks = true;
  double min_s = std::chrono::duration<double>(options.min_watch_timeout).count();
  lo.timeout_seconds = static_cast<std::int64_t>(min_s + rng.NextDouble() * min_s);
  InitialEvents initial;
  ApiStatus st = source->Watch(
      lo,
      [&](WatchEvent&& event) {
        if (initial.ended) {
          Watched(std::move(event));
        } else {
          TakeInitial(std::move(event), initial);
        }
        return !stop.load();
      },
      &stop);
  if (stop.load()) return Streamed::kStopped;
  if (!initial.ended) return WatchListFailed(st, backoff);
  // The stream went on as the watch: it ends as WatchLoop's watches do.
  if (st.ok()) return Streamed::kWatched;
  switch (WatchFailed(st.error(), backoff)) {
    case AfterWatch::kRewatch:
      return Streamed::kWatched;
    case AfterWatch::kRelist:
      return Streamed::kEnded;
    case AfterWatch::kStopped:
      break;
  }
  return Streamed::kStopped;
}

void InformerCore::State::TakeInitial(WatchEvent&& event, InitialEvents& initial) {
  Count([](InformerStats& s) { ++s.events; });
  if (event.type != "ADDED") initial.rv = ResourceVersionOf(event.object);
  if (event.type == "BOOKMARK") {
    Count([](InformerStats& s) { ++s.bookmarks; });
    const json::Value* meta = Member(event.object, "metadata");
    const json::Value* notes = meta != nullptr ? Member(*meta, "annotations") : nullptr;
    if (notes == nullptr || wire::StringAt(*notes, "k8s.io/initial-events-end") != "true") return;
    const bool first = !listed_once;
    listed_once = true;
    Replace(std::move(initial.objects), first, std::move(initial.rv), true);
    initial.objects = Keyed();
    initial.ended = true;
    return;
  }
  std::string key = ObjectKey(event.object);
  if (key.empty()) {
    Report(ApiError::Protocol(options.name + ": " + event.type +
                              " watch event for an object without metadata.name"));
    return;
  }
  if (event.type == "DELETED") {
    // Not expected before the bookmark; rare enough for a scan.
    std::erase_if(initial.objects, [&](const auto& kv) { return kv.first == key; });
  } else {
    ErasedObject obj = Transform(std::move(event.object), key);
    initial.objects.emplace_back(std::move(key), std::move(obj));
  }
}

InformerCore::State::Streamed InformerCore::State::WatchListFailed(const ApiStatus& st,
                                                                   Backoff& backoff) {
  if (st.ok()) return Streamed::kList;  // ended before the initial-events-end bookmark
  const ApiError& e = st.error();
  if (e.kind == ErrorKind::kCancelled) return Streamed::kStopped;
  if (e.connection_refused || e.IsTooManyRequests()) {
    Count([](InformerStats& s) { ++s.watch_errors; });
    return Sleep(backoff.Next()) ? Streamed::kRetry : Streamed::kStopped;
  }
  if (e.IsGone() || IsTooLargeResourceVersion(e)) {
    MutexLock lock(mu);
    last_rv_unavailable = true;
    return Streamed::kRetry;
  }
  return Streamed::kList;
}

bool InformerCore::State::List() {
  ListOptions lo;
  {
    MutexLock lock(mu);
    lo.resource_version = last_rv_unavailable ? "" : last_rv.empty() ? "0" : last_rv;
  }
  // Pages for "0" and "" (the watch cache ignores the limit for "0"); one
  // request at a later resourceVersion, so that the watch cache serves it.
  auto limit_for = [&](const std::string& rv) {
    return rv.empty() || rv == "0" ? options.page_size : 0;
  };
  lo.limit = limit_for(*lo.resource_version);
  ApiResult<ObjectList> list = source->List(lo);
  if (!list.ok() && (list.error().IsGone() || IsTooLargeResourceVersion(list.error()))) {
    {
      MutexLock lock(mu);
      last_rv_unavailable = true;
    }
    lo.resource_version = "";
    lo.limit = limit_for("");
    list = source->List(lo);
  }
  if (stop.load()) return false;
  if (!list.ok()) {
    Count([](InformerStats& s) { ++s.list_errors; });
    ApiError e = list.error();
    e.message = "failed to list " + options.name + ": " + e.message;
    Report(std::move(e));
    return false;
  }
  Keyed fresh;
  TransformInto(std::move(list->items), fresh);
  list->items = {};
  bool initial = !listed_once;
  listed_once = true;
  Replace(std::move(fresh), initial, std::move(list->resource_version), false);
  return true;
}

void InformerCore::State::TransformInto(std::vector<json::Value>&& items, Keyed& out) {
  out.reserve(out.size() + items.size());
  for (json::Value& item : items) {
    std::string key = ObjectKey(item);
    if (key.empty()) {
      Report(ApiError::Protocol(options.name + ": listed object without metadata.name"));
      continue;
    }
    ErasedObject obj = Transform(std::move(item), key);
    item = json::Value();  // its document goes as soon as it is transformed
    out.emplace_back(std::move(key), std::move(obj));
  }
}

void InformerCore::State::Replace(Keyed&& fresh, bool initial, std::string rv, bool streamed) {
  std::vector<Notification> out;
  {
    WriterLock lock(cache_mu);
    auto next_index = std::make_unique<KeyedObjects>();
    KeyedObjects& next = *next_index;
    const KeyedObjects& cache = *index;
    next.Reserve(fresh.size());
    // At most one for each object listed or known, and the end of the list.
    out.reserve(fresh.size() + cache.size() + 1);
    for (auto& [key, obj] : fresh) {
      const ErasedObject* old = cache.Find(key);
      if (obj == nullptr) {  // transform failed: keep what was known
        if (old != nullptr && next.Find(key) == nullptr) next.Put(key, *old);
        continue;
      }
      ErasedObject known = next.Put(key, obj);  // an earlier entry of the same key
      if (old != nullptr) {
        out.push_back({Notification::Kind::kUpdate, false, *old, obj, {}});
      } else if (known != nullptr) {
        out.push_back({Notification::Kind::kUpdate, false, std::move(known), obj, {}});
      } else {
        out.push_back({Notification::Kind::kAdd, initial, nullptr, obj, {}});
      }
    }
    cache.ForEach([&](std::string_view key, const ErasedObject& obj) {
      if (next.Find(key) == nullptr)
        out.push_back({Notification::Kind::kDelete, true, nullptr, obj, {}});
    });
    index.swap(next_index);
  }
  if (initial) out.push_back({Notification::Kind::kSynced, false, nullptr, nullptr, {}});
  {
    MutexLock lock(mu);
    last_rv_unavailable = false;
    last_rv = std::move(rv);
    ++stats.lists;
    if (streamed) ++stats.streamed_lists;
    for (Notification& n : out) queue.push_back(std::move(n));
    queue_high = std::max(queue_high, queue.size());
  }
  cv.NotifyAll();
}

bool InformerCore::State::HandleEvent(WatchEvent&& event) {
  Count([](InformerStats& s) { ++s.events; });
  if (event.type == "BOOKMARK") {
    Count([](InformerStats& s) { ++s.bookmarks; });
    return true;
  }
  std::string key = ObjectKey(event.object);
  if (key.empty()) {
    Report(ApiError::Protocol(options.name + ": " + event.type +
                              " watch event for an object without metadata.name"));
    return true;
  }
  ErasedObject obj = Transform(std::move(event.object), key);
  Notification n{Notification::Kind::kAdd, false, nullptr, nullptr, {}};
  {
    WriterLock lock(cache_mu);
    KeyedObjects& cache = *index;
    if (event.type == "DELETED") {
      ErasedObject old = cache.Erase(key);
      if (old == nullptr) return true;  // never known: nothing to tell
      n = {Notification::Kind::kDelete, false, nullptr, obj != nullptr ? obj : std::move(old), {}};
    } else {
      if (obj == nullptr) return true;
      ErasedObject old = cache.Put(key, obj);
      if (old != nullptr) {
        n = {Notification::Kind::kUpdate, false, std::move(old), obj, {}};
      } else {
        n = {Notification::Kind::kAdd, false, nullptr, obj, {}};
      }
    }
  }
  Push(std::move(n));
  return true;
}

void InformerCore::State::Watched(WatchEvent&& event) {
  std::string rv = ResourceVersionOf(event.object);
  HandleEvent(std::move(event));
  MutexLock lock(mu);
  last_rv = std::move(rv);
}

void InformerCore::State::WatchLoop(Backoff& backoff) {
  while (!stop.load()) {
    ListOptions lo;
    {
      MutexLock lock(mu);
      lo.resource_version = last_rv;
      ++stats.watches;
    }
    double min_s = std::chrono::duration<double>(options.min_watch_timeout).count();
    lo.timeout_seconds = static_cast<std::int64_t>(min_s + rng.NextDouble() * min_s);
    lo.allow_watch_bookmarks = true;
    // Watching from "" or "0" starts with synthetic ADDED events in no
    // resourceVersion order: the resourceVersion is recorded only after the
    // first other event.
    bool propagate = !(lo.resource_version->empty() || *lo.resource_version == "0");
    std::uint64_t received = 0;
    Clock::time_point start = Clock::now();
    ApiStatus st = source->Watch(
        lo,
        [&](WatchEvent&& event) {
          ++received;
          if (event.type != "ADDED") propagate = true;
          std::string rv = ResourceVersionOf(event.object);
          HandleEvent(std::move(event));
          if (propagate) {
            MutexLock lock(mu);
            last_rv = std::move(rv);
          }
          return !stop.load();
        },
        &stop);
    if (stop.load()) return;
    if (st.ok()) {
      if (received == 0 && Clock::now() - start < options.very_short_watch) {
        Count([](InformerStats& s) { ++s.watch_errors; });
        Report(ApiError::Protocol("very short watch: " + options.name +
                                  ": unexpected watch close - watch lasted less than a second "
                                  "and no items received"));
        return;
      }
      continue;
    }
    if (WatchFailed(st.error(), backoff) != AfterWatch::kRewatch) return;
  }
}

InformerCore::State::AfterWatch InformerCore::State::WatchFailed(const ApiError& e,
                                                                 Backoff& backoff) {
  if (e.kind == ErrorKind::kCancelled) return AfterWatch::kStopped;
  Count([](InformerStats& s) { ++s.watch_errors; });
  if (e.connection_refused || e.IsTooManyRequests()) {
    return Sleep(backoff.Next()) ? AfterWatch::kRewatch : AfterWatch::kStopped;
  }
  if (!e.IsGone()) {
    ApiError reported = e;
    reported.message = "watch of " + options.name + " ended: " + reported.message;
    Report(std::move(reported));
  }
  return AfterWatch::kRelist;
}

void InformerCore::State::Dispatch(Notification& n) {
  switch (n.kind) {
    case Notification::Kind::kAdd:
      if (handlers.on_add) handlers.on_add(n.obj, n.flag);
      break;
    case Notification::Kind::kUpdate:
      if (handlers.on_update) handlers.on_update(n.old_obj, n.obj);
      break;
    case Notification::Kind::kDelete:
      if (handlers.on_delete) handlers.on_delete(n.obj, n.flag);
      break;
    case Notification::Kind::kError:
      if (handlers.on_error) handlers.on_error(*n.error);
      break;
    case Notification::Kind::kSynced: {
      {
        MutexLock lock(mu);
        synced = true;
      }
      sync_cv.NotifyAll();
      break;
    }
  }
}

void InformerCore::State::RunDispatcher() {
  const bool resync = options.resync_period.count() > 0;
  Clock::time_point next_resync = Clock::now() + options.resync_period;
  MutexLock lock(mu);
  while (!stop.load()) {
    if (queue.empty()) {
      if (resync) {
        while (!stop.load() && queue.empty()) {
          if (cv.WaitUntil(mu, next_resync) == std::cv_status::timeout) break;
        }
      } else {
        while (!stop.load() && queue.empty()) cv.Wait(mu);
      }
      if (stop.load()) break;
    }
    if (queue.empty()) {  // the resync timer fired with nothing pending
      next_resync = Clock::now() + options.resync_period;
      if (!synced || !handlers.on_update) continue;
      lock.Unlock();
      std::vector<ErasedObject> all;
      {
        ReaderLock cache_lock(cache_mu);
        all = index->Objects();
      }
      for (const ErasedObject& o : all) {
        if (stop.load()) break;
        handlers.on_update(o, o);
      }
      lock.Lock();
      continue;
    }
    Notification n = std::move(queue.front());
    queue.pop_front();
    if (queue.empty() && queue_high > kQueueKeptSize) {
      std::deque<Notification>().swap(queue);
      queue_high = 0;
    }
    lock.Unlock();
    Dispatch(n);
    lock.Lock();
  }
}

InformerCore::InformerCore(std::shared_ptr<ListerWatcher> source, ErasedHandlers handlers,
                           InformerOptions options)
    : state_(std::make_unique<State>()) {
  state_->source = std::move(source);
  state_->handlers = std::move(handlers);
  state_->options = std::move(options);
}

InformerCore::~InformerCore() { Stop(); }

void InformerCore::Start() {
  MutexLock lock(state_->mu);
  if (state_->started || state_->stop.load()) return;
  state_->started = true;
  State* s = state_.get();
  s->reflector = std::thread([s] { s->RunReflector(); });
  s->dispatcher = std::thread([s] { s->RunDispatcher(); });
}

void InformerCore::Stop() {
  {
    MutexLock lock(state_->mu);
    state_->stop.store(true);
  }
  state_->cv.NotifyAll();
  state_->sync_cv.NotifyAll();
  if (state_->reflector.joinable()) state_->reflector.join();
  if (state_->dispatcher.joinable()) state_->dispatcher.join();
}

bool InformerCore::HasSynced() const {
  MutexLock lock(state_->mu);
  return state_->synced;
}

bool InformerCore::WaitForSync(std::chrono::milliseconds timeout) const {
  MutexLock lock(state_->mu);
  const auto deadline = std::chrono::steady_clock::now() + timeout;
  while (!state_->synced && !state_->stop.load()) {
    if (state_->sync_cv.WaitUntil(state_->mu, deadline) == std::cv_status::timeout) break;
  }
  return state_->synced;
}

std::vector<ErasedObject> InformerCore::Snapshot() const {
  ReaderLock lock(state_->cache_mu);
  return state_->index->Objects();
}

ErasedObject InformerCore::Get(std::string_view key) const {
  ReaderLock lock(state_->cache_mu);
  const ErasedObject* found = state_->index->Find(key);
  return found != nullptr ? *found : nullptr;
}

std::string InformerCore::LastSyncResourceVersion() const {
  MutexLock lock(state_->mu);
  return state_->last_rv;
}

InformerStats InformerCore::Stats() const {
  MutexLock lock(state_->mu);
  return state_->stats;
}

}  // namespace internal

}  // namespace dra::kube
