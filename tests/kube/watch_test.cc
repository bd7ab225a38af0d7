// Watch() and the informer over HTTP, against the scripted server.
#include "dra/kube/watch.h"

#include <gtest/gtest.h>

#include <chrono>
#include <string>
#include <thread>
#include <vector>

#include "dra/kube/informer.h"
#include "kube/fake_server.h"
#include "kube/gzip_member.h"

namespace dra::kube {
namespace {

using testing::FakeRequest;
using testing::FakeResponse;
using testing::FakeServer;
using testing::GzipMember;

ObjectClient ObjectsFor(const FakeServer& server) {
  RestConfig config;
  config.server = server.url();
  config.qps = -1;
  auto c = Client::New(config);
  EXPECT_TRUE(c.ok());
  return ObjectClient(std::move(c).value());
}

const char kAdded[] =
    "{\"type\":\"ADDED\",\"object\":{\"kind\":\"ResourceSlice\",\"metadata\":{\"name\":\"s1\","
    "\"resourceVersion\":\"11\"}}}\n";
const char kGone[] =
    "{\"type\":\"ERROR\",\"object\":{\"kind\":\"Status\",\"apiVersion\":\"v1\",\"metadata\":{},"
    "\"status\":\"Failure\",\"message\":\"too old resource version: 5 (10)\",\"reason\":"
    "\"Expired\",\"code\":410}}\n";

TEST(WatchTest, StreamsEventsSplitAcrossChunks) {
  std::string stream = std::string(kAdded) + kAdded;
  FakeServer server([&](const FakeRequest&) {
    FakeResponse r;
    r.headers = {{"Content-Type", "application/json"}};
    r.chunks = {stream.substr(0, 7), stream.substr(7, 60), stream.substr(67)};
    return r;
  });
  ObjectClient objects = ObjectsFor(server);
  ListOptions o;
  o.resource_version = "10";
  o.allow_watch_bookmarks = true;
  o.timeout_seconds = 333;
  std::vector<std::string> names;
  ApiStatus st = Watch(objects, ResourceSlices(api::ApiVersion::kV1), "", o, [&](WatchEvent&& e) {
    names.push_back(e.type + " " + e.object.Find("metadata")->Find("name")->text);
    return true;
  });
  ASSERT_TRUE(st.ok()) << st.error().message;
  EXPECT_EQ(names, (std::vector<std::string>{"ADDED s1", "ADDED s1"}));
  ASSERT_EQ(server.requests().size(), 1u);
  EXPECT_EQ(server.requests()[0].target,
            "/apis/resource.k8s.io/v1/resourceslices?allowWatchBookmarks=true&"
            "resourceVersion=10&timeout=5m33s&timeoutSeconds=333&watch=true");
}

// kube-apiserver v1.37 (WatchListCompression) gzips a watch-list answer
// for a client that accepts gzip, one member per flush.
TEST(WatchTest, GzipStreamOfManyMembers) {
  const std::string bookmark =
      "{\"type\":\"BOOKMARK\",\"object\":{\"kind\":\"ResourceSlice\",\"metadata\":{"
      "\"resourceVersion\":\"12\",\"annotations\":{\"k8s.io/initial-events-end\":\"true\"}}}}\n";
  FakeServer server([&](const FakeRequest&) {
    FakeResponse r;
    r.headers = {{"Content-Type", "application/json"}, {"Content-Encoding", "gzip"}};
    const std::string one = GzipMember(kAdded), two = GzipMember(bookmark);
    r.chunks = {one.substr(0, 9), one.substr(9) + two.substr(0, 4), two.substr(4),
                GzipMember(kAdded)};
    return r;
  });
  ObjectClient objects = ObjectsFor(server);
  ListOptions o;
  o.send_initial_events = true;
  o.resource_version_match = "NotOlderThan";
  o.allow_watch_bookmarks = true;
  std::vector<std::string> types;
  ApiStatus st = Watch(objects, ResourceSlices(api::ApiVersion::kV1), "", o, [&](WatchEvent&& e) {
    types.push_back(e.type);
    return true;
  });
  ASSERT_TRUE(st.ok()) << st.error().message;
  EXPECT_EQ(types, (std::vector<std::string>{"ADDED", "BOOKMARK", "ADDED"}));
  ASSERT_EQ(server.requests().size(), 1u);
  EXPECT_EQ(server.requests()[0].Header("accept-encoding"), "gzip");
  EXPECT_EQ(server.requests()[0].target,
            "/apis/resource.k8s.io/v1/resourceslices?allowWatchBookmarks=true&"
            "resourceVersionMatch=NotOlderThan&sendInitialEvents=true&watch=true");
}

TEST(WatchTest, CorruptGzipStreamIsAnError) {
  FakeServer server([&](const FakeRequest&) {
    FakeResponse r;
    r.headers = {{"Content-Type", "application/json"}, {"Content-Encoding", "gzip"}};
    r.chunks = {kAdded};  // says gzip, is not
    return r;
  });
  ObjectClient objects = ObjectsFor(server);
  ApiStatus st = Watch(objects, ResourceSlices(api::ApiVersion::kV1), "", ListOptions{},
                       [&](WatchEvent&&) { return true; });
  ASSERT_FALSE(st.ok());
  EXPECT_NE(st.error().message.find("is not valid gzip"), std::string::npos) << st.error().message;
}

TEST(WatchTest, ErrorEventEndsTheWatchAsGone) {
  FakeServer server([&](const FakeRequest&) {
    FakeResponse r;
    r.headers = {{"Content-Type", "application/json"}};
    r.chunks = {kAdded, kGone};
    return r;
  });
  ObjectClient objects = ObjectsFor(server);
  int events = 0;
  ApiStatus st = Watch(objects, ResourceSlices(api::ApiVersion::kV1), "", {}, [&](WatchEvent&&) {
    ++events;
    return true;
  });
  ASSERT_FALSE(st.ok());
  EXPECT_TRUE(st.error().IsGone());
  EXPECT_EQ(st.error().message, "too old resource version: 5 (10)");
  EXPECT_EQ(events, 1);
}

TEST(WatchTest, StreamEndingInsideAnEventIsAnError) {
  FakeServer server([&](const FakeRequest&) {
    FakeResponse r;
    r.headers = {{"Content-Type", "application/json"}};
    r.chunks = {std::string(kAdded).substr(0, 20)};
    return r;
  });
  ObjectClient objects = ObjectsFor(server);
  ApiStatus st = Watch(objects, ResourceSlices(api::ApiVersion::kV1), "", {},
                       [&](WatchEvent&&) { return true; });
  ASSERT_FALSE(st.ok());
  EXPECT_NE(st.error().message.find("watch stream ended inside an event"), std::string::npos)
      << st.error().message;
}

// Starts `informer`, which must sync with "s0" and then watch "s1" arrive.
void SeesS0ThenS1(Informer<json::Value>& informer) {
  informer.Start();
  ASSERT_TRUE(informer.WaitForSync(std::chrono::seconds(5)));
  for (int i = 0; i < 500 && informer.Get("s1") == nullptr; ++i) {
    std::this_thread::sleep_for(std::chrono::milliseconds(5));
  }
  EXPECT_NE(informer.Get("s0"), nullptr);
  EXPECT_NE(informer.Get("s1"), nullptr);
}

InformerOptions ListOnly() {
  InformerOptions o;
  o.watch_list = false;
  return o;
}

TEST(WatchTest, InformerListsOverHttp) {
  FakeServer server([&](const FakeRequest& req) {
    FakeResponse r;
    r.headers = {{"Content-Type", "application/json"}};
    if (req.target.find("watch=true") == std::string::npos) {
      r.body =
          "{\"kind\":\"ResourceSliceList\",\"apiVersion\":\"resource.k8s.io/v1\",\"metadata\":{"
          "\"resourceVersion\":\"10\"},\"items\":[{\"metadata\":{\"name\":\"s0\","
          "\"resourceVersion\":\"9\"}}]}";
      return r;
    }
    r.chunks = {kAdded};
    r.chunk_delay_ms = 10;
    return r;
  });
  Informer<json::Value> informer(
      NewApiListerWatcher(ObjectsFor(server), ResourceSlices(api::ApiVersion::kV1), "", "",
                          "spec.driver=gpu.example.com"),
      nullptr, {}, ListOnly());
  SeesS0ThenS1(informer);
  informer.Stop();
  std::vector<FakeRequest> reqs = server.requests();
  ASSERT_GE(reqs.size(), 2u);
  EXPECT_EQ(reqs[0].target,
            "/apis/resource.k8s.io/v1/resourceslices?fieldSelector=spec.driver%3Dgpu.example.com&"
            "limit=500&resourceVersion=0");
  EXPECT_NE(reqs[1].target.find("resourceVersion=10&"), std::string::npos) << reqs[1].target;
}

// The first list streamed by a gzip watch-list, which then goes on as the
// watch; no list request at all.
TEST(WatchTest, InformerWatchListOverHttp) {
  const std::string s0 =
      "{\"type\":\"ADDED\",\"object\":{\"kind\":\"ResourceSlice\",\"metadata\":{\"name\":"
      "\"s0\",\"resourceVersion\":\"9\"}}}\n";
  const std::string end =
      "{\"type\":\"BOOKMARK\",\"object\":{\"kind\":\"ResourceSlice\",\"metadata\":{"
      "\"resourceVersion\":\"10\",\"annotations\":{\"k8s.io/initial-events-end\":\"true\"}}}}\n";
  FakeServer server([&](const FakeRequest& req) {
    FakeResponse r;
    if (req.target.find("sendInitialEvents=true") == std::string::npos) {
      return testing::StatusResponse(500, "InternalError", "only watch-lists here");
    }
    r.headers = {{"Content-Type", "application/json"}, {"Content-Encoding", "gzip"}};
    r.chunks = {GzipMember(s0) + GzipMember(end), GzipMember(kAdded)};
    r.chunk_delay_ms = 10;
    return r;
  });
  Informer<json::Value> informer(
      NewApiListerWatcher(ObjectsFor(server), ResourceSlices(api::ApiVersion::kV1), "", "",
                          "spec.driver=gpu.example.com"),
      nullptr);
  SeesS0ThenS1(informer);
  EXPECT_EQ(informer.LastSyncResourceVersion(), "11");
  InformerStats stats = informer.Stats();
  informer.Stop();
  EXPECT_EQ(stats.streamed_lists, 1u);
  std::vector<FakeRequest> reqs = server.requests();
  ASSERT_GE(reqs.size(), 1u);
  EXPECT_EQ(reqs[0].target.substr(0, reqs[0].target.find("&timeout=")),
            "/apis/resource.k8s.io/v1/resourceslices?allowWatchBookmarks=true&"
            "fieldSelector=spec.driver%3Dgpu.example.com&resourceVersionMatch=NotOlderThan&"
            "sendInitialEvents=true");
}

}  // namespace
}  // namespace dra::kube
