// Informers: a local, continuously updated cache of one kind of object (one
// resource type, optionally one namespace and selectors), kept by listing and
// then watching the API as client-go's reflector and shared informer do, with
// handlers told of every change.
//
// Behaviour (client-go tools/cache/reflector.go and shared_informer.go at
// v0.37.2, whose WatchListClient feature is on by default):
//  * Each cycle starts with a watch-list (KEP-3157) when both the options and
//    the source allow it: one watch with sendInitialEvents=true,
//    resourceVersionMatch=NotOlderThan, allowWatchBookmarks and the last
//    resourceVersion seen ("" at first: a consistent snapshot). The server
//    streams the objects as ADDED events and marks their end with a bookmark
//    annotated "k8s.io/initial-events-end": "true"; the objects, transformed
//    as they arrive, replace the cache at that bookmark, and the same stream
//    goes on as the watch below. Only one event's document is held at a time
//    (a list holds its whole response). A watch-list that fails with a
//    refused connection or 429 is tried again after the backoff delay; one
//    that fails with 410 Expired (or "too large resource version") again at
//    once from ""; any other failure, or a stream that ends before that
//    bookmark (servers without the WatchList feature), falls back to a list.
//    (client-go tries a stream that ended early again at once.)
//  * A list asks for resourceVersion "0" (the apiserver's watch cache) at
//    first, page_size items per request; later lists ask for the last
//    resourceVersion seen, in one request. A list that fails with 410
//    Expired (or "too large resource version") is repeated at once with
//    resourceVersion "" (a consistent read).
//  * Then a watch from the list's resourceVersion with allowWatchBookmarks and
//    timeoutSeconds random in [min_watch_timeout, 2*min_watch_timeout). Each
//    event updates the cache and the last resourceVersion (bookmarks only the
//    latter). A watch the server ends is re-established from the last
//    resourceVersion without listing; one that ended in under a second with
//    no event counts as an error.
//  * A watch that fails (410 Expired, or any other error) ends the cycle: after
//    the backoff delay the next one (a watch-list, else a list) starts from
//    the last resourceVersion. A refused connection or 429 backs off and
//    re-watches without listing.
//  * Backoff between cycles: initial 800 ms, doubled each time up to 30 s,
//    each delay jittered to [d, 2d); reset after 2 minutes without one.
//  * A list (or a watch-list's initial events) replaces the cache: objects
//    already known are delivered as updates, new ones as adds, and known ones
//    missing from the list as deletes with final_state_unknown (client-go's
//    DeletedFinalStateUnknown, holding the last state seen).
#pragma once

#include <atomic>
#include <chrono>
#include <cstdint>
#include <functional>
#include <memory>
#include <string>
#include <string_view>
#include <type_traits>
#include <utility>
#include <vector>

#include "dra/json/value.h"
#include "dra/kube/api_error.h"
#include "dra/kube/resource_client.h"
#include "dra/kube/watch.h"

namespace dra::kube {

// The source an informer lists and watches. The informer calls it from its
// own thread, one call at a time.
class ListerWatcher {
 public:
  virtual ~ListerWatcher() = default;
  // Every item. options.limit > 0: that many items per request (the pages
  // joined); 0: one request without a limit.
  virtual ApiResult<ObjectList> List(const ListOptions& options) = 0;
  // Whether Watch() honours send_initial_events as the API does (streams the
  // objects, then the initial-events-end bookmark). Sources that do not are
  // only listed (client-go's DoesClientNotSupportWatchListSemantics).
  virtual bool SupportsWatchList() const { return false; }
  // Streams events to `on_event` (ERROR events already turned into the
  // returned error) until the stream ends, on_event returns false, or
  // `cancel` becomes true (kCancelled); see Watch() in watch.h.
  virtual ApiStatus Watch(const ListOptions& options,
                          const std::function<bool(WatchEvent&&)>& on_event,
                          const std::atomic<bool>* cancel) = 0;
};

// A ListerWatcher over the API: `type` in `ns` ("" for all namespaces or a
// cluster-scoped type), with the selectors added to every request. Listed
// objects are given the kind and apiVersion of `type` (a list's items carry
// none), so that they read as watched objects do.
// Thread-safety: as safe as the ObjectClient's Client.
std::unique_ptr<ListerWatcher> NewApiListerWatcher(ObjectClient objects, ResourceType type,
                                                   std::string ns, std::string label_selector = {},
                                                   std::string field_selector = {});

// The cache key of an object: "namespace/name", or "name" without a
// namespace (client-go's MetaNamespaceKeyFunc); "" when it has no name.
std::string ObjectKey(const json::Value& object);

struct InformerOptions {
  std::string name;  // for error messages ("resourceslices.resource.k8s.io")
  // OnUpdate(obj, obj) for every cached object this often; zero disables.
  std::chrono::milliseconds resync_period{0};
  std::int64_t page_size = 500;
  // Start each cycle with a watch-list where the source supports it.
  bool watch_list = true;
  std::chrono::milliseconds min_watch_timeout{300'000};
  std::chrono::milliseconds backoff_initial{800};
  std::chrono::milliseconds backoff_cap{30'000};
  std::chrono::milliseconds backoff_reset{120'000};
  // A watch that ends sooner than this without any event is an error.
  std::chrono::milliseconds very_short_watch{1'000};
};

// Counters, for tests and benchmarks.
struct InformerStats {
  std::uint64_t lists = 0;           // successful lists (the first included), streamed ones too
  std::uint64_t streamed_lists = 0;  // of those, watch-lists
  std::uint64_t list_errors = 0;
  std::uint64_t watches = 0;       // watch requests started
  std::uint64_t watch_errors = 0;  // watches that ended with an error (410 included)
  std::uint64_t events = 0;        // watch events received (bookmarks included)
  std::uint64_t bookmarks = 0;
  std::uint64_t transform_errors = 0;  // objects skipped
};

namespace internal {

using ErasedObject = std::shared_ptr<const void>;

struct ErasedHandlers {
  std::function<ApiResult<ErasedObject>(json::Value&&)> transform;
  std::function<void(const ErasedObject&, bool)> on_add;
  std::function<void(const ErasedObject&, const ErasedObject&)> on_update;
  std::function<void(const ErasedObject&, bool)> on_delete;
  std::function<void(const ApiError&)> on_error;
};

// The type-independent informer; Informer<T> is a typed view of it, and its
// thread-safety contract (below) is this class's.
class InformerCore {
 public:
  InformerCore(std::shared_ptr<ListerWatcher> source, ErasedHandlers handlers,
               InformerOptions options);
  ~InformerCore();
  InformerCore(const InformerCore&) = delete;
  InformerCore& operator=(const InformerCore&) = delete;

  void Start();
  void Stop();
  bool HasSynced() const;
  bool WaitForSync(std::chrono::milliseconds timeout) const;
  std::vector<ErasedObject> Snapshot() const;
  ErasedObject Get(std::string_view key) const;
  std::string LastSyncResourceVersion() const;
  InformerStats Stats() const;

 private:
  struct State;
  std::unique_ptr<State> state_;
};

}  // namespace internal

// Called on the informer's dispatch thread, one call at a time, in the order
// the changes happened. Handlers must not modify the objects, and must not
// call Stop() of their informer. Any may be empty.
template <class T>
struct InformerHandlers {
  std::function<void(const std::shared_ptr<const T>& obj, bool in_initial_list)> on_add;
  std::function<void(const std::shared_ptr<const T>& old_obj,
                     const std::shared_ptr<const T>& new_obj)>
      on_update;
  // final_state_unknown: the object vanished while the informer was not
  // watching (found missing by a relist); `obj` is the last state it saw.
  std::function<void(const std::shared_ptr<const T>& obj, bool final_state_unknown)> on_delete;
  // Failures the informer recovers from by itself: list and watch errors
  // (410 Expired is not reported), objects the transform rejected (skipped).
  std::function<void(const ApiError& error)> on_error;
};

// An informer whose cache holds each object as T, made by `transform` from
// the object's JSON tree (for T = json::Value the transform may be empty: the
// tree itself). A transform failure skips that object (reported to on_error);
// on a relist the previous state of such an object is kept.
//
// Thread-safety: every method may be called from any thread. Start() runs two
// threads (list/watch, and handler dispatch) until Stop() or destruction.
// Objects returned are immutable and shared: they stay valid as long as the
// caller holds them, whatever the informer does meanwhile.
template <class T>
class Informer {
 public:
  using Transform = std::function<ApiResult<std::shared_ptr<const T>>(json::Value&&)>;

  Informer(std::shared_ptr<ListerWatcher> source, Transform transform,
           InformerHandlers<T> handlers = {}, InformerOptions options = {})
      : core_(std::move(source), Erase(std::move(transform), std::move(handlers)),
              std::move(options)) {}

  // Starts listing and watching. Calling it again does nothing.
  void Start() { core_.Start(); }
  // Stops both threads and waits for them: promptly while watching or
  // sleeping; a list request in flight is waited for. Pending handler calls
  // are dropped. Idempotent; also done by the destructor.
  void Stop() { core_.Stop(); }

  // True once the handlers have been given the first list.
  bool HasSynced() const { return core_.HasSynced(); }
  // Waits until HasSynced(), at most `timeout`; false on timeout or Stop().
  bool WaitForSync(std::chrono::milliseconds timeout) const { return core_.WaitForSync(timeout); }

  // Every cached object, copied under the cache's lock (a consistent set).
  // The cache is updated before the handlers are called, so it may be ahead of
  // what they have been told.
  std::vector<std::shared_ptr<const T>> Snapshot() const {
    std::vector<std::shared_ptr<const T>> out;
    for (internal::ErasedObject& o : core_.Snapshot()) {
      out.push_back(std::static_pointer_cast<const T>(std::move(o)));
    }
    return out;
  }
  // The object with key "namespace/name" (or "name"), or nullptr.
  std::shared_ptr<const T> Get(std::string_view key) const {
    return std::static_pointer_cast<const T>(core_.Get(key));
  }
  std::string LastSyncResourceVersion() const { return core_.LastSyncResourceVersion(); }
  InformerStats Stats() const { return core_.Stats(); }

 private:
  static internal::ErasedHandlers Erase(Transform transform, InformerHandlers<T> h) {
    internal::ErasedHandlers e;
    if (!transform) {
      if constexpr (std::is_same_v<T, json::Value>) {
        transform = [](json::Value&& v) -> ApiResult<std::shared_ptr<const T>> {
          return std::shared_ptr<const T>(std::make_shared<const json::Value>(std::move(v)));
        };
      }
    }
    e.transform = [t = std::move(transform)](json::Value&& v) -> ApiResult<internal::ErasedObject> {
      ApiResult<std::shared_ptr<const T>> r = t(std::move(v));
      if (!r.ok()) return r.error();
      return internal::ErasedObject(std::move(r).value());
    };
    auto cast = [](const internal::ErasedObject& o) {
      return std::static_pointer_cast<const T>(o);
    };
    if (h.on_add) {
      e.on_add = [f = std::move(h.on_add), cast](const internal::ErasedObject& o, bool initial) {
        f(cast(o), initial);
      };
    }
    if (h.on_update) {
      e.on_update = [f = std::move(h.on_update), cast](const internal::ErasedObject& a,
                                                       const internal::ErasedObject& b) {
        f(cast(a), cast(b));
      };
    }
    if (h.on_delete) {
      e.on_delete = [f = std::move(h.on_delete), cast](const internal::ErasedObject& o,
                                                       bool unknown) { f(cast(o), unknown); };
    }
    e.on_error = std::move(h.on_error);
    return e;
  }

  internal::InformerCore core_;
};

}  // namespace dra::kube
