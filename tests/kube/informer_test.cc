#include "dra/kube/informer.h"

#include <gtest/gtest.h>

#include <chrono>
#include <condition_variable>
#include <deque>
#include <mutex>
#include <optional>
#include <string>
#include <thread>
#include <vector>

namespace dra::kube {
namespace {

using namespace std::chrono_literals;

json::Value Obj(const std::string& name, const std::string& rv, const std::string& ns = "") {
  std::string text = "{\"metadata\":{\"name\":\"" + name + "\",";
  if (!ns.empty()) text += "\"namespace\":\"" + ns + "\",";
  text += "\"resourceVersion\":\"" + rv + "\"}}";
  Result<json::Value> v = json::ParseJson(text);
  return std::move(v).value();
}

WatchEvent Event(std::string type, const std::string& name, const std::string& rv) {
  return {std::move(type), Obj(name, rv), {}};
}

// A bookmark at `rv`; `initial_events_end`: the one that ends a watch-list's
// initial events.
WatchEvent Bookmark(const std::string& rv, bool initial_events_end) {
  std::string text = "{\"metadata\":{\"resourceVersion\":\"" + rv + "\"";
  if (initial_events_end) text += ",\"annotations\":{\"k8s.io/initial-events-end\":\"true\"}";
  return {"BOOKMARK", json::ParseJson(text + "}}").value(), {}};
}

ApiError Gone() {
  ApiError e;
  e.code = 410;
  e.reason = "Expired";
  e.message = "too old resource version";
  return e;
}

// A scripted source. Lists pop scripted answers; watches consume actions:
// an event to deliver, or the end of that watch with a status. With no action
// pending a watch blocks until one is queued or it is cancelled.
class FakeListerWatcher : public ListerWatcher {
 public:
  struct Action {
    std::optional<WatchEvent> event;
    std::optional<ApiStatus> end;
  };

  void QueueList(ApiResult<ObjectList> r) {
    std::lock_guard l(mu_);
    lists_.push_back(std::move(r));
  }
  void QueueEvent(WatchEvent e) {
    std::lock_guard l(mu_);
    actions_.push_back({std::move(e), std::nullopt});
    cv_.notify_all();
  }
  void QueueEnd(ApiStatus st) {
    std::lock_guard l(mu_);
    actions_.push_back({std::nullopt, std::move(st)});
    cv_.notify_all();
  }
  std::vector<ListOptions> list_calls() {
    std::lock_guard l(mu_);
    return list_calls_;
  }
  std::vector<ListOptions> watch_calls() {
    std::lock_guard l(mu_);
    return watch_calls_;
  }
  std::vector<std::chrono::steady_clock::time_point> list_times() {
    std::lock_guard l(mu_);
    return list_times_;
  }

  // Whether the informer may start with a watch-list (the fake then streams
  // whatever events are queued, as the API would the initial ones).
  bool watch_list = false;
  bool SupportsWatchList() const override { return watch_list; }

  ApiResult<ObjectList> List(const ListOptions& options) override {
    std::lock_guard l(mu_);
    list_calls_.push_back(options);
    list_times_.push_back(std::chrono::steady_clock::now());
    if (lists_.empty()) return ApiError::Transport("no list scripted");
    ApiResult<ObjectList> r = std::move(lists_.front());
    lists_.pop_front();
    return r;
  }

  ApiStatus Watch(const ListOptions& options, const std::function<bool(WatchEvent&&)>& on_event,
                  const std::atomic<bool>* cancel) override {
    std::unique_lock l(mu_);
    watch_calls_.push_back(options);
    while (true) {
      cv_.wait_for(l, 5ms, [&] { return !actions_.empty() || cancel->load(); });
      if (cancel->load()) return ApiError::Cancelled();
      if (actions_.empty()) continue;
      Action a = std::move(actions_.front());
      actions_.pop_front();
      if (a.end) return *a.end;
      l.unlock();
      bool more = on_event(std::move(*a.event));
      l.lock();
      if (!more) return Done{};
    }
  }

 private:
  std::mutex mu_;
  std::condition_variable cv_;
  std::deque<ApiResult<ObjectList>> lists_;
  std::deque<Action> actions_;
  std::vector<ListOptions> list_calls_;
  std::vector<ListOptions> watch_calls_;
  std::vector<std::chrono::steady_clock::time_point> list_times_;
};

ObjectList List(const std::string& rv, std::vector<json::Value> items) {
  ObjectList l;
  l.resource_version = rv;
  l.items = std::move(items);
  return l;
}

std::string Name(const std::shared_ptr<const json::Value>& o) {
  return o->Find("metadata")->Find("name")->text;
}
std::string Rv(const std::shared_ptr<const json::Value>& o) {
  return o->Find("metadata")->Find("resourceVersion")->text;
}

// Records handler calls as text.
struct Recorder {
  std::mutex mu;
  std::vector<std::string> calls;
  std::vector<ApiError> errors;

  InformerHandlers<json::Value> Handlers() {
    InformerHandlers<json::Value> h;
    h.on_add = [this](const std::shared_ptr<const json::Value>& o, bool initial) {
      Add("add " + Name(o) + "@" + Rv(o) + (initial ? " initial" : ""));
    };
    h.on_update = [this](const std::shared_ptr<const json::Value>& a,
                         const std::shared_ptr<const json::Value>& b) {
      Add("update " + Name(a) + "@" + Rv(a) + "->" + Rv(b) + (a == b ? " resync" : ""));
    };
    h.on_delete = [this](const std::shared_ptr<const json::Value>& o, bool unknown) {
      Add("delete " + Name(o) + "@" + Rv(o) + (unknown ? " unknown" : ""));
    };
    h.on_error = [this](const ApiError& e) {
      std::lock_guard l(mu);
      errors.push_back(e);
    };
    return h;
  }
  void Add(std::string s) {
    std::lock_guard l(mu);
    calls.push_back(std::move(s));
  }
  std::vector<std::string> Calls() {
    std::lock_guard l(mu);
    return calls;
  }
  std::size_t ErrorCount() {
    std::lock_guard l(mu);
    return errors.size();
  }
};

template <class F>
bool WaitFor(F pred, std::chrono::milliseconds timeout = 5s) {
  auto end = std::chrono::steady_clock::now() + timeout;
  while (std::chrono::steady_clock::now() < end) {
    if (pred()) return true;
    std::this_thread::sleep_for(2ms);
  }
  return pred();
}

InformerOptions FastOptions() {
  InformerOptions o;
  o.name = "things";
  o.backoff_initial = 10ms;
  o.backoff_cap = 100ms;
  o.very_short_watch = 0ms;
  return o;
}

TEST(InformerTest, InitialListThenEvents) {
  auto source = std::make_shared<FakeListerWatcher>();
  source->QueueList(List("10", {Obj("a", "5"), Obj("b", "6")}));
  Recorder rec;
  Informer<json::Value> informer(source, nullptr, rec.Handlers(), FastOptions());
  EXPECT_FALSE(informer.HasSynced());
  informer.Start();
  ASSERT_TRUE(informer.WaitForSync(5s));
  source->QueueEvent(Event("ADDED", "c", "11"));
  source->QueueEvent(Event("MODIFIED", "a", "12"));
  source->QueueEvent(Event("DELETED", "b", "13"));
  source->QueueEvent(Event("DELETED", "never-seen", "14"));
  source->QueueEvent(
      {"BOOKMARK", json::ParseJson("{\"metadata\":{\"resourceVersion\":\"15\"}}").value(), {}});
  ASSERT_TRUE(WaitFor([&] { return informer.LastSyncResourceVersion() == "15"; }));
  ASSERT_TRUE(WaitFor([&] { return rec.Calls().size() == 5; }));
  EXPECT_EQ(rec.Calls(), (std::vector<std::string>{"add a@5 initial", "add b@6 initial", "add c@11",
                                                   "update a@5->12", "delete b@13"}));
  std::vector<ListOptions> lists = source->list_calls();
  ASSERT_EQ(lists.size(), 1u);
  EXPECT_EQ(lists[0].resource_version, "0");
  EXPECT_EQ(lists[0].limit, 500);
  std::vector<ListOptions> watches = source->watch_calls();
  ASSERT_EQ(watches.size(), 1u);
  EXPECT_EQ(watches[0].resource_version, "10");
  EXPECT_TRUE(watches[0].allow_watch_bookmarks);
  ASSERT_TRUE(watches[0].timeout_seconds.has_value());
  EXPECT_GE(*watches[0].timeout_seconds, 300);
  EXPECT_LT(*watches[0].timeout_seconds, 600);

  std::vector<std::shared_ptr<const json::Value>> all = informer.Snapshot();
  EXPECT_EQ(all.size(), 2u);
  ASSERT_NE(informer.Get("a"), nullptr);
  EXPECT_EQ(Rv(informer.Get("a")), "12");
  EXPECT_EQ(informer.Get("b"), nullptr);
  InformerStats stats = informer.Stats();
  EXPECT_EQ(stats.events, 5u);
  EXPECT_EQ(stats.bookmarks, 1u);
  EXPECT_EQ(stats.lists, 1u);
  informer.Stop();
}

// client-go v0.37.2's reflector starts with a watch-list (WatchListClient is
// on by default): the initial ADDED events fill the cache at the bookmark
// that ends them, and the same stream goes on as the watch.
TEST(InformerTest, WatchListStreamsTheInitialObjects) {
  auto source = std::make_shared<FakeListerWatcher>();
  source->watch_list = true;
  source->QueueEvent(Event("ADDED", "a", "5"));
  source->QueueEvent(Event("ADDED", "b", "6"));
  source->QueueEvent(Event("ADDED", "c", "7"));
  source->QueueEvent(Event("DELETED", "c", "8"));
  source->QueueEvent(Bookmark("9", false));  // a progress bookmark: not the end
  source->QueueEvent(Bookmark("10", true));
  source->QueueEvent(Event("MODIFIED", "a", "11"));
  Recorder rec;
  Informer<json::Value> informer(source, nullptr, rec.Handlers(), FastOptions());
  informer.Start();
  ASSERT_TRUE(informer.WaitForSync(5s));
  ASSERT_TRUE(WaitFor([&] { return informer.LastSyncResourceVersion() == "11"; }));
  ASSERT_TRUE(WaitFor([&] { return rec.Calls().size() == 3; }));
  EXPECT_EQ(rec.Calls(),
            (std::vector<std::string>{"add a@5 initial", "add b@6 initial", "update a@5->11"}));
  EXPECT_TRUE(source->list_calls().empty());
  std::vector<ListOptions> watches = source->watch_calls();
  ASSERT_EQ(watches.size(), 1u);
  EXPECT_EQ(watches[0].resource_version, "");
  EXPECT_EQ(watches[0].resource_version_match, "NotOlderThan");
  EXPECT_TRUE(watches[0].send_initial_events);
  EXPECT_TRUE(watches[0].allow_watch_bookmarks);
  ASSERT_TRUE(watches[0].timeout_seconds.has_value());
  EXPECT_GE(*watches[0].timeout_seconds, 300);
  EXPECT_LT(*watches[0].timeout_seconds, 600);
  InformerStats stats = informer.Stats();
  EXPECT_EQ(stats.lists, 1u);
  EXPECT_EQ(stats.streamed_lists, 1u);
  EXPECT_EQ(stats.bookmarks, 2u);
  EXPECT_EQ(stats.events, 7u);

  // The stream ends: a plain watch from the last resourceVersion follows.
  source->QueueEnd(Done{});
  ASSERT_TRUE(WaitFor([&] { return source->watch_calls().size() == 2; }));
  watches = source->watch_calls();
  EXPECT_EQ(watches[1].resource_version, "11");
  EXPECT_FALSE(watches[1].send_initial_events);
  EXPECT_EQ(watches[1].resource_version_match, "");
  EXPECT_TRUE(source->list_calls().empty());
  EXPECT_EQ(rec.ErrorCount(), 0u);
}

TEST(InformerTest, WatchListRefusedFallsBackToList) {
  auto source = std::make_shared<FakeListerWatcher>();
  source->watch_list = true;
  ApiError invalid;
  invalid.code = 422;
  invalid.reason = "Invalid";
  invalid.message =
      "sendInitialEvents is forbidden for watch unless the WatchList feature gate is enabled";
  source->QueueEnd(invalid);
  source->QueueList(List("10", {Obj("a", "5")}));
  Recorder rec;
  Informer<json::Value> informer(source, nullptr, rec.Handlers(), FastOptions());
  informer.Start();
  ASSERT_TRUE(informer.WaitForSync(5s));
  ASSERT_TRUE(WaitFor([&] { return source->watch_calls().size() == 2; }));
  EXPECT_EQ(rec.Calls(), (std::vector<std::string>{"add a@5 initial"}));
  ASSERT_EQ(source->list_calls().size(), 1u);
  EXPECT_EQ(source->list_calls()[0].resource_version, "0");
  std::vector<ListOptions> watches = source->watch_calls();
  EXPECT_TRUE(watches[0].send_initial_events);
  EXPECT_FALSE(watches[1].send_initial_events);
  EXPECT_EQ(watches[1].resource_version, "10");
  EXPECT_EQ(informer.Stats().streamed_lists, 0u);
  EXPECT_EQ(rec.ErrorCount(), 0u);  // falling back is not an error
}

// A server that ignores sendInitialEvents (before the WatchList feature)
// never sends the bookmark: what it streamed is dropped and a list follows.
TEST(InformerTest, WatchListEndedBeforeTheBookmarkFallsBackToList) {
  auto source = std::make_shared<FakeListerWatcher>();
  source->watch_list = true;
  source->QueueEvent(Event("ADDED", "stale", "3"));
  source->QueueEnd(Done{});
  source->QueueList(List("10", {Obj("a", "5")}));
  Recorder rec;
  Informer<json::Value> informer(source, nullptr, rec.Handlers(), FastOptions());
  informer.Start();
  ASSERT_TRUE(informer.WaitForSync(5s));
  EXPECT_EQ(rec.Calls(), (std::vector<std::string>{"add a@5 initial"}));
  EXPECT_EQ(informer.Get("stale"), nullptr);
  EXPECT_EQ(source->list_calls().size(), 1u);
}

// 410 on a watch-list from a known resourceVersion: again at once from "".
TEST(InformerTest, WatchListGoneStreamsAgainFromNothing) {
  auto source = std::make_shared<FakeListerWatcher>();
  source->watch_list = true;
  source->QueueEvent(Event("ADDED", "a", "5"));
  source->QueueEvent(Bookmark("10", true));
  source->QueueEnd(Gone());  // the watch that followed
  source->QueueEnd(Gone());  // the next watch-list, from "10"
  source->QueueEvent(Event("ADDED", "b", "25"));
  source->QueueEvent(Bookmark("30", true));
  Recorder rec;
  Informer<json::Value> informer(source, nullptr, rec.Handlers(), FastOptions());
  informer.Start();
  ASSERT_TRUE(WaitFor([&] { return informer.LastSyncResourceVersion() == "30"; }));
  ASSERT_TRUE(WaitFor([&] { return rec.Calls().size() == 3; }));
  EXPECT_EQ(rec.Calls(),
            (std::vector<std::string>{"add a@5 initial", "add b@25", "delete a@5 unknown"}));
  std::vector<ListOptions> watches = source->watch_calls();
  ASSERT_EQ(watches.size(), 3u);
  EXPECT_EQ(watches[0].resource_version, "");
  EXPECT_EQ(watches[1].resource_version, "10");
  EXPECT_EQ(watches[2].resource_version, "");
  for (const ListOptions& w : watches) EXPECT_TRUE(w.send_initial_events);
  EXPECT_TRUE(source->list_calls().empty());
  EXPECT_EQ(informer.Stats().streamed_lists, 2u);
  EXPECT_EQ(rec.ErrorCount(), 0u);
}

TEST(InformerTest, NamespacedKeys) {
  auto source = std::make_shared<FakeListerWatcher>();
  source->QueueList(List("1", {Obj("a", "1", "ns1"), Obj("a", "1", "ns2")}));
  Informer<json::Value> informer(source, nullptr, {}, FastOptions());
  informer.Start();
  ASSERT_TRUE(informer.WaitForSync(5s));
  EXPECT_NE(informer.Get("ns1/a"), nullptr);
  EXPECT_NE(informer.Get("ns2/a"), nullptr);
  EXPECT_EQ(informer.Get("a"), nullptr);
  EXPECT_EQ(ObjectKey(Obj("x", "1", "n")), "n/x");
  EXPECT_EQ(ObjectKey(Obj("x", "1")), "x");
}

TEST(InformerTest, WatchEndRewatchesFromLastResourceVersion) {
  auto source = std::make_shared<FakeListerWatcher>();
  source->QueueList(List("10", {}));
  Recorder rec;
  Informer<json::Value> informer(source, nullptr, rec.Handlers(), FastOptions());
  informer.Start();
  source->QueueEvent(Event("ADDED", "a", "11"));
  source->QueueEnd(Done{});
  ASSERT_TRUE(WaitFor([&] { return source->watch_calls().size() == 2; }));
  EXPECT_EQ(source->watch_calls()[1].resource_version, "11");
  EXPECT_EQ(source->list_calls().size(), 1u);
}

TEST(InformerTest, GoneRelistsFromLastResourceVersion) {
  auto source = std::make_shared<FakeListerWatcher>();
  source->QueueList(List("10", {Obj("a", "5"), Obj("b", "6")}));
  source->QueueList(List("20", {Obj("a", "18"), Obj("c", "19")}));
  Recorder rec;
  Informer<json::Value> informer(source, nullptr, rec.Handlers(), FastOptions());
  informer.Start();
  ASSERT_TRUE(informer.WaitForSync(5s));
  source->QueueEvent(Event("MODIFIED", "a", "12"));
  source->QueueEnd(Gone());
  ASSERT_TRUE(WaitFor([&] { return rec.Calls().size() == 6; }));
  EXPECT_EQ(rec.Calls(),
            (std::vector<std::string>{"add a@5 initial", "add b@6 initial", "update a@5->12",
                                      "update a@12->18", "add c@19", "delete b@6 unknown"}));
  std::vector<ListOptions> lists = source->list_calls();
  ASSERT_EQ(lists.size(), 2u);
  EXPECT_EQ(lists[1].resource_version, "12");
  EXPECT_EQ(lists[1].limit, 0);
  ASSERT_TRUE(WaitFor([&] { return source->watch_calls().size() == 2; }));
  EXPECT_EQ(source->watch_calls()[1].resource_version, "20");
  EXPECT_EQ(rec.ErrorCount(), 0u);  // 410 is routine
  EXPECT_EQ(informer.Stats().watch_errors, 1u);
  EXPECT_EQ(informer.Stats().lists, 2u);
}

TEST(InformerTest, ExpiredRelistRetriesWithConsistentRead) {
  auto source = std::make_shared<FakeListerWatcher>();
  source->QueueList(List("10", {Obj("a", "5")}));
  source->QueueList(Gone());
  source->QueueList(List("30", {Obj("a", "5")}));
  Informer<json::Value> informer(source, nullptr, {}, FastOptions());
  informer.Start();
  ASSERT_TRUE(informer.WaitForSync(5s));
  source->QueueEnd(Gone());
  ASSERT_TRUE(WaitFor([&] { return source->watch_calls().size() == 2; }));
  std::vector<ListOptions> lists = source->list_calls();
  ASSERT_EQ(lists.size(), 3u);
  EXPECT_EQ(lists[1].resource_version, "10");
  EXPECT_EQ(lists[2].resource_version, "");
  EXPECT_EQ(lists[2].limit, 500);
  EXPECT_EQ(source->watch_calls()[1].resource_version, "30");
}

TEST(InformerTest, ListErrorsBackOff) {
  auto source = std::make_shared<FakeListerWatcher>();
  for (int i = 0; i < 3; ++i) source->QueueList(ApiError::Transport("connection reset"));
  source->QueueList(List("10", {Obj("a", "1")}));
  Recorder rec;
  InformerOptions o = FastOptions();
  o.backoff_initial = 20ms;
  o.backoff_cap = 1s;
  Informer<json::Value> informer(source, nullptr, rec.Handlers(), o);
  informer.Start();
  ASSERT_TRUE(informer.WaitForSync(5s));
  std::vector<std::chrono::steady_clock::time_point> t = source->list_times();
  ASSERT_EQ(t.size(), 4u);
  // Delays of at least 20, 40 and 80 ms (each jittered upwards).
  EXPECT_GE(t[1] - t[0], 20ms);
  EXPECT_GE(t[2] - t[1], 40ms);
  EXPECT_GE(t[3] - t[2], 80ms);
  ASSERT_TRUE(WaitFor([&] { return rec.ErrorCount() == 3; }));
  EXPECT_NE(rec.errors[0].message.find("failed to list things: connection reset"),
            std::string::npos);
  EXPECT_EQ(informer.Stats().list_errors, 3u);
}

TEST(InformerTest, RefusedWatchRewatchesWithoutRelist) {
  auto source = std::make_shared<FakeListerWatcher>();
  source->QueueList(List("10", {}));
  Informer<json::Value> informer(source, nullptr, {}, FastOptions());
  informer.Start();
  ASSERT_TRUE(informer.WaitForSync(5s));
  source->QueueEnd(ApiError::Transport("connection refused", "127.0.0.1:6443", true));
  ApiError too_many;
  too_many.code = 429;
  source->QueueEnd(too_many);
  ASSERT_TRUE(WaitFor([&] { return source->watch_calls().size() == 3; }));
  EXPECT_EQ(source->list_calls().size(), 1u);
  EXPECT_EQ(source->watch_calls()[2].resource_version, "10");
}

TEST(InformerTest, OtherWatchErrorRelists) {
  auto source = std::make_shared<FakeListerWatcher>();
  source->QueueList(List("10", {}));
  source->QueueList(List("11", {}));
  Recorder rec;
  Informer<json::Value> informer(source, nullptr, rec.Handlers(), FastOptions());
  informer.Start();
  ASSERT_TRUE(informer.WaitForSync(5s));
  source->QueueEnd(ApiError::Protocol("watch stream ended inside an event"));
  ASSERT_TRUE(WaitFor([&] { return source->watch_calls().size() == 2; }));
  EXPECT_EQ(source->list_calls().size(), 2u);
  EXPECT_EQ(source->list_calls()[1].resource_version, "10");
  ASSERT_TRUE(WaitFor([&] { return rec.ErrorCount() == 1; }));
}

TEST(InformerTest, VeryShortWatchIsAnError) {
  auto source = std::make_shared<FakeListerWatcher>();
  source->QueueList(List("10", {}));
  source->QueueList(List("10", {}));
  InformerOptions o = FastOptions();
  o.very_short_watch = 1s;
  Recorder rec;
  Informer<json::Value> informer(source, nullptr, rec.Handlers(), o);
  informer.Start();
  ASSERT_TRUE(informer.WaitForSync(5s));
  source->QueueEnd(Done{});
  ASSERT_TRUE(WaitFor([&] { return source->list_calls().size() == 2; }));
  ASSERT_TRUE(WaitFor([&] { return rec.ErrorCount() == 1; }));
  EXPECT_NE(rec.errors[0].message.find("very short watch"), std::string::npos);
}

TEST(InformerTest, Resync) {
  auto source = std::make_shared<FakeListerWatcher>();
  source->QueueList(List("10", {Obj("a", "1"), Obj("b", "2")}));
  Recorder rec;
  InformerOptions o = FastOptions();
  o.resync_period = 30ms;
  Informer<json::Value> informer(source, nullptr, rec.Handlers(), o);
  informer.Start();
  ASSERT_TRUE(WaitFor([&] {
    int resyncs = 0;
    for (const std::string& c : rec.Calls()) resyncs += c.find(" resync") != std::string::npos;
    return resyncs >= 4;
  }));
  informer.Stop();
  EXPECT_EQ(source->list_calls().size(), 1u);  // no API traffic
}

// Whoever sees the informer synced sees the resourceVersion of its list and
// the list counted, whether listed or streamed (these were once recorded
// just after the sync could be seen). Many rounds, as the race is narrow.
TEST(InformerTest, SyncedInformerKnowsItsListsResourceVersion) {
  for (bool watch_list : {false, true}) {
    SCOPED_TRACE(watch_list ? "watch-list" : "list");
    for (int round = 0; round < 300; ++round) {
      auto source = std::make_shared<FakeListerWatcher>();
      source->watch_list = watch_list;
      if (watch_list) {
        source->QueueEvent(Event("ADDED", "a", "5"));
        source->QueueEvent(Bookmark("10", true));
      } else {
        source->QueueList(List("10", {Obj("a", "5")}));
      }
      Informer<json::Value> informer(source, nullptr, {}, FastOptions());
      informer.Start();
      ASSERT_TRUE(informer.WaitForSync(5s));
      ASSERT_EQ(informer.LastSyncResourceVersion(), "10") << "round " << round;
      InformerStats stats = informer.Stats();
      ASSERT_EQ(stats.lists, 1u) << "round " << round;
      ASSERT_EQ(stats.streamed_lists, watch_list ? 1u : 0u) << "round " << round;
      informer.Stop();
    }
  }
}

TEST(InformerTest, StopIsPrompt) {
  {
    auto source = std::make_shared<FakeListerWatcher>();
    source->QueueList(List("10", {}));
    Informer<json::Value> informer(source, nullptr, {}, FastOptions());
    informer.Start();
    ASSERT_TRUE(informer.WaitForSync(5s));
    ASSERT_TRUE(WaitFor([&] { return source->watch_calls().size() == 1; }));
    auto start = std::chrono::steady_clock::now();
    informer.Stop();
    // Not waiting for the watch's own timeout (minutes).
    EXPECT_LT(std::chrono::steady_clock::now() - start, 5s);
  }
  {
    // Stopping while backing off.
    auto source = std::make_shared<FakeListerWatcher>();
    InformerOptions o = FastOptions();
    o.backoff_initial = 60s;
    Informer<json::Value> informer(source, nullptr, {}, o);
    informer.Start();
    ASSERT_TRUE(WaitFor([&] { return source->list_calls().size() == 1; }));
    std::this_thread::sleep_for(20ms);
    auto start = std::chrono::steady_clock::now();
    informer.Stop();
    // Not waiting out the 60 s backoff.
    EXPECT_LT(std::chrono::steady_clock::now() - start, 5s);
    EXPECT_FALSE(informer.WaitForSync(10ms));
  }
}

struct Compact {
  std::string name;
  int rv;
};

TEST(InformerTest, TransformFailureSkipsTheObject) {
  auto source = std::make_shared<FakeListerWatcher>();
  source->QueueList(List("10", {Obj("a", "1"), Obj("bad", "2")}));
  std::vector<std::string> seen;
  std::mutex mu;
  std::size_t errors = 0;
  InformerHandlers<Compact> h;
  h.on_add = [&](const std::shared_ptr<const Compact>& c, bool) {
    std::lock_guard l(mu);
    seen.push_back(c->name + "@" + std::to_string(c->rv));
  };
  h.on_update = [&](const std::shared_ptr<const Compact>&,
                    const std::shared_ptr<const Compact>& c) {
    std::lock_guard l(mu);
    seen.push_back("update " + c->name + "@" + std::to_string(c->rv));
  };
  h.on_error = [&](const ApiError& e) {
    std::lock_guard l(mu);
    ++errors;
    EXPECT_NE(e.message.find("things bad: cannot decode bad"), std::string::npos) << e.message;
  };
  Informer<Compact>::Transform transform =
      [](json::Value&& v) -> ApiResult<std::shared_ptr<const Compact>> {
    std::string name = v.Find("metadata")->Find("name")->text;
    if (name == "bad") return ApiError::Protocol("cannot decode bad");
    return std::make_shared<const Compact>(
        Compact{name, std::stoi(v.Find("metadata")->Find("resourceVersion")->text)});
  };
  Informer<Compact> informer(source, transform, h, FastOptions());
  informer.Start();
  ASSERT_TRUE(informer.WaitForSync(5s));
  source->QueueEvent(Event("MODIFIED", "bad", "11"));
  source->QueueEvent(Event("MODIFIED", "a", "12"));
  ASSERT_TRUE(WaitFor([&] {
    std::lock_guard l(mu);
    return seen.size() == 2 && errors == 2;
  }));
  EXPECT_EQ(seen, (std::vector<std::string>{"a@1", "update a@12"}));
  EXPECT_EQ(informer.Snapshot().size(), 1u);
  EXPECT_EQ(informer.Get("a")->rv, 12);
  EXPECT_EQ(informer.Stats().transform_errors, 2u);
}

}  // namespace
}  // namespace dra::kube
