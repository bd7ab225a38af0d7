// The transport against a scripted loopback server: client-go's retry rules
// (Retry-After on 429 and 5xx for every verb, none without it, bounded),
// request shape (headers, sorted query, timeout parameter), bad answers
// (garbage, too large, cut off), slow servers, refused connections, watch
// streams that end mid-event, warnings, and many requests at once from many
// threads over the shared transport.
#include "dra/kube/client.h"

#include <gtest/gtest.h>

#include <atomic>
#include <chrono>
#include <condition_variable>
#include <latch>
#include <mutex>
#include <optional>
#include <string>
#include <thread>
#include <vector>

#include "dra/kube/resource_client.h"
#include "dra/kube/watch.h"
#include "kube/fake_server.h"

namespace dra::kube {
namespace {

using testing::FakeRequest;
using testing::FakeResponse;
using testing::FakeServer;

std::shared_ptr<Client> ClientFor(const FakeServer& server, RestConfig config = {},
                                  ClientLimits limits = {}) {
  config.server = server.url();
  if (config.qps == 5) config.qps = -1;
  auto c = Client::New(config, limits);
  EXPECT_TRUE(c.ok()) << c.error();
  return *c;
}

constexpr char kNotFound[] =
    R"({"kind":"Status","apiVersion":"v1","metadata":{},"status":"Failure","message":"deviceclasses.resource.k8s.io \"x\" not found","reason":"NotFound","details":{"name":"x","group":"resource.k8s.io","kind":"deviceclasses"},"code":404})";

TEST(ClientTest, RetriesTooManyRequestsWithRetryAfterOnEveryVerb) {
  std::atomic<int> calls{0};
  FakeServer server([&](const FakeRequest&) {
    FakeResponse r;
    if (++calls <= 2) {
      r.status = 429;
      r.headers = {{"Retry-After", "0"}, {"Content-Type", "text/plain"}};
      r.body = "Too many requests, please try again later.";
      return r;
    }
    r.status = 201;
    r.body = R"({"kind":"DeviceClass","metadata":{"name":"c"}})";
    return r;
  });
  ObjectClient objects(ClientFor(server));
  auto created = objects.Create(DeviceClasses(api::ApiVersion::kV1), "",
                                *json::ParseJson(R"({"metadata":{"name":"c"}})"));
  ASSERT_TRUE(created.ok()) << KubectlErrorText(created.error());
  EXPECT_EQ(calls.load(), 3);
}

TEST(ClientTest, NoRetryWithoutRetryAfterAndRetriesAreBounded) {
  std::atomic<int> calls{0};
  FakeServer server([&](const FakeRequest& req) {
    ++calls;
    FakeResponse r;
    r.status = 503;
    if (req.target.find("bounded") != std::string::npos) r.headers = {{"Retry-After", "0"}};
    r.headers.push_back({"Content-Type", "text/plain"});
    r.body = "overloaded";
    return r;
  });
  ClientLimits limits;
  limits.max_retries = 3;
  auto client = ClientFor(server, {}, limits);
  HttpRequest once;
  once.path = "/api/v1/nodes";
  once.verb = "list";
  once.resource = "nodes";
  auto r = client->Do(once);
  ASSERT_FALSE(r.ok());
  EXPECT_EQ(calls.load(), 1);
  EXPECT_EQ(r.error().reason, "ServiceUnavailable");
  EXPECT_EQ(KubectlErrorText(r.error()),
            "Error from server (ServiceUnavailable): the server is currently unable to handle the "
            "request (get nodes)");
  calls = 0;
  HttpRequest bounded = once;
  bounded.path = "/api/v1/bounded";
  r = client->Do(bounded);
  ASSERT_FALSE(r.ok());
  EXPECT_EQ(calls.load(), 4);  // the first attempt and three retries
}

TEST(ClientTest, RequestShape) {
  FakeServer server([](const FakeRequest&) {
    FakeResponse r;
    r.body = R"({"kind":"NodeList","metadata":{"resourceVersion":"7"},"items":[]})";
    return r;
  });
  RestConfig config;
  config.timeout = std::chrono::seconds(30);
  config.bearer_token = "secret";  // never sent over plain HTTP
  config.impersonate_user = "alice";
  config.impersonate_groups = {"g1", "g2"};
  ObjectClient objects(ClientFor(server, config));
  ListOptions options;
  options.label_selector = "app=x";
  options.field_selector = "spec.nodeName=n1";
  options.limit = 10;
  ASSERT_TRUE(objects.ListPage(Nodes(), "", options).ok());
  // A get carries the client's timeout (a list without timeoutSeconds does not).
  ASSERT_TRUE(objects.Get(Nodes(), "", "n1").ok());
  auto reqs = server.requests();
  ASSERT_EQ(reqs.size(), 2u);
  EXPECT_EQ(reqs[1].target, "/api/v1/nodes/n1?timeout=30s");
  EXPECT_EQ(reqs[0].method, "GET");
  EXPECT_EQ(reqs[0].target,
            "/api/v1/nodes?fieldSelector=spec.nodeName%3Dn1&labelSelector=app%3Dx&limit=10");
  EXPECT_EQ(reqs[0].Header("Accept"), "application/json");
  EXPECT_EQ(reqs[0].Header("Authorization"), "");
  EXPECT_EQ(reqs[0].Header("Impersonate-User"), "alice");
  EXPECT_EQ(reqs[0].Header("User-Agent").substr(0, 4), "dra/");
}

TEST(ClientTest, ServerStatusAndGarbage) {
  FakeServer server([](const FakeRequest& req) {
    FakeResponse r;
    if (req.target.find("/x") != std::string::npos) {
      r.status = 404;
      r.body = kNotFound;
    } else {
      r.body = "{not json";
    }
    return r;
  });
  ObjectClient objects(ClientFor(server));
  auto missing = objects.Get(DeviceClasses(api::ApiVersion::kV1), "", "x");
  ASSERT_FALSE(missing.ok());
  EXPECT_EQ(KubectlErrorText(missing.error()),
            "Error from server (NotFound): deviceclasses.resource.k8s.io \"x\" not found");
  auto garbage = objects.Get(DeviceClasses(api::ApiVersion::kV1), "", "y");
  ASSERT_FALSE(garbage.ok());
  EXPECT_EQ(garbage.error().kind, ErrorKind::kProtocol);
  EXPECT_NE(garbage.error().message.find("is not JSON"), std::string::npos)
      << garbage.error().message;
}

TEST(ClientTest, AnswerLargerThanTheLimitIsRefused) {
  FakeServer server([](const FakeRequest&) {
    FakeResponse r;
    r.body = "[" + std::string(100000, ' ') + "]";
    return r;
  });
  ClientLimits limits;
  limits.max_response_bytes = 4096;
  auto client = ClientFor(server, {}, limits);
  HttpRequest req;
  req.path = "/api/v1/nodes";
  auto r = client->Do(req);
  ASSERT_FALSE(r.ok());
  EXPECT_EQ(r.error().kind, ErrorKind::kProtocol);
  EXPECT_NE(r.error().message.find("exceeds 4096 bytes"), std::string::npos) << r.error().message;
}

TEST(ClientTest, SlowServerTimesOut) {
  FakeServer server([](const FakeRequest&) {
    FakeResponse r;
    r.delay_ms = 10000;
    r.body = "{}";
    return r;
  });
  RestConfig config;
  config.timeout = std::chrono::milliseconds(300);
  auto client = ClientFor(server, config);
  HttpRequest req;
  req.path = "/api/v1/nodes";
  auto start = std::chrono::steady_clock::now();
  auto r = client->Do(req);
  ASSERT_FALSE(r.ok());
  // Well below the server's delay: the limit ended the request.
  EXPECT_LT(std::chrono::steady_clock::now() - start, std::chrono::seconds(5));
  EXPECT_EQ(r.error().kind, ErrorKind::kTransport);
  EXPECT_NE(KubectlErrorText(r.error()).find("Unable to connect to the server: "),
            std::string::npos);
}

// client-go retries a GET whose connection broke before any answer, but not
// an answer cut short (transformResponse: "unexpected error when reading
// response body").
TEST(ClientTest, BrokenConnectionBeforeAnAnswerIsRetried) {
  std::atomic<int> calls{0};
  FakeServer server([&](const FakeRequest& req) {
    FakeResponse r;
    r.body = R"({"kind":"Node","metadata":{"name":"n1"}})";
    ++calls;
    if (req.target.find("/n1") != std::string::npos && calls == 1) r.close_without_answer = true;
    if (req.target.find("/cut") != std::string::npos) r.cut_after_body_bytes = 5;
    return r;
  });
  ObjectClient objects(ClientFor(server));
  auto r = objects.Get(Nodes(), "", "n1");
  ASSERT_TRUE(r.ok()) << KubectlErrorText(r.error());
  EXPECT_EQ(calls.load(), 2);
  calls = 0;
  auto cut = objects.Get(Nodes(), "", "cut");
  ASSERT_FALSE(cut.ok());
  EXPECT_EQ(calls.load(), 1);
  EXPECT_NE(cut.error().message.find("unexpected error when reading response body. Please retry."),
            std::string::npos)
      << cut.error().message;
}

// --request-timeout bounds all attempts and Retry-After waits together.
TEST(ClientTest, TimeoutCoversRetries) {
  std::atomic<int> calls{0};
  FakeServer server([&](const FakeRequest&) {
    ++calls;
    FakeResponse r;
    r.status = 503;
    r.headers = {{"Retry-After", "1"}};
    r.body = "{}";
    return r;
  });
  RestConfig config;
  config.timeout = std::chrono::milliseconds(1500);
  auto client = ClientFor(server, config);
  HttpRequest req;
  req.path = "/api/v1/nodes/n1";
  auto start = std::chrono::steady_clock::now();
  auto r = client->Do(req);
  ASSERT_FALSE(r.ok());
  // Without one deadline, ten 1 s retries would take over 10 s.
  EXPECT_LT(std::chrono::steady_clock::now() - start, std::chrono::seconds(5));
  EXPECT_GE(calls.load(), 1);
  EXPECT_LE(calls.load(), 2);  // a wait that would pass the deadline is not started
  EXPECT_NE(r.error().message.find("timed out"), std::string::npos) << r.error().message;
}

// Names are checked before anything is sent (client-go's texts): an empty
// name would otherwise address the whole collection.
TEST(ClientTest, BadNamesNeverReachTheServer) {
  FakeServer server([](const FakeRequest&) { return FakeResponse{}; });
  ObjectClient objects(ClientFor(server));
  auto empty = objects.Delete(ResourceClaims(api::ApiVersion::kV1), "ns", "");
  ASSERT_FALSE(empty.ok());
  EXPECT_EQ(empty.error().message, "resource name may not be empty");
  auto dots = objects.Delete(Pods(), "ns", "..");
  ASSERT_FALSE(dots.ok());
  EXPECT_EQ(dots.error().message, "invalid resource name \"..\": [may not be '..']");
  auto slash = objects.Get(Pods(), "a/b", "p");
  ASSERT_FALSE(slash.ok());
  EXPECT_EQ(slash.error().message, "invalid namespace \"a/b\": [may not contain '/']");
  EXPECT_TRUE(server.requests().empty());
  // Other characters are escaped as Go escapes a path.
  (void)objects.Get(Pods(), "ns", "a b?c");
  ASSERT_EQ(server.requests().size(), 1u);
  EXPECT_EQ(server.requests()[0].target, "/api/v1/namespaces/ns/pods/a%20b%3Fc");
}

TEST(ClientTest, ConflictWithoutReasonIsAConflict) {
  FakeServer server([](const FakeRequest&) {
    FakeResponse r;
    r.status = 409;
    r.body = R"({"kind":"Status","apiVersion":"v1","status":"Failure","message":"x","code":409})";
    return r;
  });
  HttpRequest req;
  req.method = "PUT";
  req.path = "/api/v1/nodes/n1";
  auto r = ClientFor(server)->Do(req);
  ASSERT_FALSE(r.ok());
  EXPECT_TRUE(r.error().IsConflict());
  EXPECT_FALSE(r.error().IsNotFound());
}

TEST(ClientTest, ConnectionRefusedAsKubectlPrintsIt) {
  int port;
  {
    FakeServer server([](const FakeRequest&) { return FakeResponse{}; });
    port = server.port();
  }  // closed: nothing listens there now
  RestConfig config;
  config.server = "http://127.0.0.1:" + std::to_string(port);
  auto client = Client::New(config);
  ASSERT_TRUE(client.ok());
  HttpRequest req;
  req.path = "/api";
  auto r = (*client)->Do(req);
  ASSERT_FALSE(r.ok());
  EXPECT_EQ(KubectlErrorText(r.error()),
            "The connection to the server 127.0.0.1:" + std::to_string(port) +
                " was refused - did you specify the right host or port?");
}

TEST(ClientTest, BadServerUrls) {
  for (const char* bad : {"127.0.0.1:6443", "ftp://h:1", "https://", "https://h:99999"}) {
    RestConfig config;
    config.server = bad;
    EXPECT_FALSE(Client::New(config).ok()) << bad;
  }
}

TEST(ClientTest, WarningsReportedOncePerText) {
  FakeServer server([](const FakeRequest&) {
    FakeResponse r;
    r.headers = {
        {"Warning",
         R"(299 - "resource.k8s.io/v1beta1 ResourceSlice is deprecated in v1.35+, unavailable in v1.38+")"},
        {"Warning", R"(299 - "second")"},
        // Control characters (a terminal escape) and empty texts are dropped.
        {"Warning", "299 - \"\x1b]0;owned\x07\""},
        {"Warning", R"(299 - "")"}};
    r.body = "{}";
    return r;
  });
  auto client = ClientFor(server);
  std::vector<std::string> seen;
  client->SetWarningHandler([&](const std::string& w) { seen.push_back(w); });
  HttpRequest req;
  req.path = "/apis/resource.k8s.io/v1beta1/resourceslices";
  ASSERT_TRUE(client->Do(req).ok());
  ASSERT_TRUE(client->Do(req).ok());
  EXPECT_EQ(seen, (std::vector<std::string>{
                      "resource.k8s.io/v1beta1 ResourceSlice is deprecated in v1.35+, "
                      "unavailable in v1.38+",
                      "second"}));
}

TEST(ClientTest, WatchStreamCutInsideAnEvent) {
  FakeServer server([](const FakeRequest&) {
    FakeResponse r;
    r.chunks = {
        R"({"type":"ADDED","object":{"kind":"Node","metadata":{"name":"a","resourceVersion":"2"}}})"
        "\n",
        R"({"type":"MODIFIED","object":{"kind":"No)"};
    r.cut_after_body_bytes = 0;  // no terminating chunk: the connection just ends
    return r;
  });
  ObjectClient objects(ClientFor(server));
  std::vector<std::string> types;
  ApiStatus s = Watch(objects, Nodes(), "", ListOptions{}, [&](WatchEvent&& e) {
    types.push_back(e.type);
    return true;
  });
  EXPECT_EQ(types, std::vector<std::string>{"ADDED"});
  ASSERT_FALSE(s.ok());
}

TEST(ClientTest, WatchCancelledPromptly) {
  FakeServer server([](const FakeRequest&) {
    FakeResponse r;
    for (int i = 0; i < 100; ++i) r.chunks.push_back("\n");
    r.chunk_delay_ms = 100;
    return r;
  });
  ObjectClient objects(ClientFor(server));
  std::atomic<bool> cancel{false};
  std::thread stopper([&] {
    std::this_thread::sleep_for(std::chrono::milliseconds(300));
    cancel = true;
  });
  auto start = std::chrono::steady_clock::now();
  ApiStatus s = Watch(
      objects, Nodes(), "", ListOptions{}, [](WatchEvent&&) { return true; }, &cancel);
  stopper.join();
  ASSERT_FALSE(s.ok());
  EXPECT_EQ(s.error().kind, ErrorKind::kCancelled);
  // Well before the 10 s stream would have ended by itself.
  EXPECT_LT(std::chrono::steady_clock::now() - start, std::chrono::seconds(6));
}

TEST(ClientTest, ConcurrentRequestsEachGetTheirOwnAnswer) {
  FakeServer server([](const FakeRequest& req) {
    FakeResponse r;
    r.delay_ms = 5;  // keeps several in flight at once
    r.body = R"({"target":")" + req.target + R"("})";
    return r;
  });
  auto client = ClientFor(server);
  constexpr int kThreads = 64;
  std::vector<std::optional<ApiResult<HttpResponse>>> results(kThreads);
  std::latch start(kThreads);
  std::vector<std::thread> threads;
  threads.reserve(kThreads);
  for (int i = 0; i < kThreads; ++i) {
    threads.emplace_back([&, i] {
      HttpRequest req;
      req.path = "/api/v1/namespaces/ns-" + std::to_string(i);
      start.arrive_and_wait();
      results[i].emplace(client->Do(req));
    });
  }
  for (std::thread& t : threads) t.join();
  for (int i = 0; i < kThreads; ++i) {
    ASSERT_TRUE(results[i]->ok()) << i << ": " << results[i]->error().message;
    EXPECT_EQ((*results[i])->body,
              R"({"target":"/api/v1/namespaces/ns-)" + std::to_string(i) + R"("})");
  }
  // HTTP/1.1 (no TLS, so no HTTP/2): a connection per request in flight, but
  // never more than 16 however many are in flight.
  EXPECT_EQ(client->LastHttpVersion(), "1.1");
  EXPECT_GE(client->ConnectionsOpened(), 1u);
  EXPECT_LE(client->ConnectionsOpened(), 16u);
  EXPECT_EQ(server.requests().size(), static_cast<std::size_t>(kThreads));
}

// A server that holds every request until released, so that a test can fill
// the client's 16 connections and queue more behind them.
class HoldingServer {
 public:
  HoldingServer()
      : server_([this](const FakeRequest&) {
          std::unique_lock lock(mu_);
          ++held_;
          cv_.notify_all();
          cv_.wait(lock, [&] { return released_; });
          FakeResponse r;
          r.body = "{}";
          return r;
        }) {}
  ~HoldingServer() { Release(); }
  void WaitHeld(int n) {
    std::unique_lock lock(mu_);
    cv_.wait(lock, [&] { return held_ >= n; });
  }
  void Release() {
    std::lock_guard lock(mu_);
    released_ = true;
    cv_.notify_all();
  }
  FakeServer& server() { return server_; }

 private:
  std::mutex mu_;
  std::condition_variable cv_;
  int held_ = 0;
  bool released_ = false;
  FakeServer server_;  // last: its threads stop before the state they use goes
};

TEST(ClientTest, RequestWaitingForAConnectionCanBeCancelled) {
  HoldingServer holding;
  auto client = ClientFor(holding.server());
  std::vector<std::thread> busy;
  busy.reserve(16);
  std::atomic<int> busy_ok{0};
  for (int i = 0; i < 16; ++i) {
    busy.emplace_back([&] {
      HttpRequest req;
      req.path = "/api";
      if (client->Do(req).ok()) ++busy_ok;
    });
  }
  holding.WaitHeld(16);  // every connection the client may open is taken
  std::atomic<bool> cancel{false};
  std::optional<ApiResult<HttpResponse>> waiting;
  std::thread waiter([&] {
    HttpRequest req;
    req.path = "/apis";
    req.cancel = &cancel;
    waiting.emplace(client->Do(req));
  });
  cancel = true;
  waiter.join();
  ASSERT_FALSE(waiting->ok());
  EXPECT_EQ(waiting->error().kind, ErrorKind::kCancelled);
  holding.Release();
  for (std::thread& t : busy) t.join();
  EXPECT_EQ(busy_ok, 16);
  for (const FakeRequest& r : holding.server().requests()) EXPECT_EQ(r.target, "/api");
}

TEST(ClientTest, TimeoutCoversTheWaitForAConnection) {
  HoldingServer holding;
  RestConfig config;
  config.timeout = std::chrono::milliseconds(500);
  auto client = ClientFor(holding.server(), config);
  const std::string expected =
      "the request to 127.0.0.1:" + std::to_string(holding.server().port()) + " timed out";
  std::vector<std::optional<ApiResult<HttpResponse>>> results(17);
  std::vector<std::thread> threads;
  threads.reserve(17);
  for (int i = 0; i < 17; ++i) {
    threads.emplace_back([&, i] {
      HttpRequest req;
      req.path = "/api";
      results[i].emplace(client->Do(req));
    });
  }
  for (std::thread& t : threads) t.join();
  holding.Release();
  // Those that reached the server and the one (at least) that never got a
  // connection end alike.
  for (const auto& r : results) {
    ASSERT_FALSE(r->ok());
    EXPECT_EQ(r->error().message.substr(0, expected.size()), expected) << r->error().message;
  }
}

}  // namespace
}  // namespace dra::kube
