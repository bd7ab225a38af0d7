#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "dra/kube/watch.h"

namespace dra::kube {
namespace {

const char kStream[] =
    "{\"type\":\"ADDED\",\"object\":{\"kind\":\"ResourceSlice\",\"metadata\":{\"name\":\"a\","
    "\"resourceVersion\":\"11\"},\"spec\":{\"s\":\"}{\\\"][\",\"n\":[1,2,{\"x\":null}]}}}\n"
    "{\"type\":\"MODIFIED\",\"object\":{\"metadata\":{\"name\":\"a\",\"resourceVersion\":\"12\"}}}"
    "\r\n  \t"
    "{\"type\":\"BOOKMARK\",\"object\":{\"metadata\":{\"resourceVersion\":\"13\"}}}"
    "{\"type\":\"DELETED\",\"object\":{\"metadata\":{\"name\":\"a\",\"resourceVersion\":\"14\"}}}"
    "\n";

std::string RvOf(const WatchEvent& e) {
  return e.object.Find("metadata")->Find("resourceVersion")->text;
}

std::vector<WatchEvent> DecodeAll(const std::vector<std::string_view>& pieces,
                                  ApiStatus* status = nullptr, WatchDecoderLimits limits = {}) {
  WatchDecoder decoder(limits);
  std::vector<WatchEvent> events;
  auto collect = [&](WatchEvent&& e) {
    events.push_back(std::move(e));
    return true;
  };
  for (std::string_view p : pieces) {
    ApiStatus st = decoder.Feed(p, collect);
    if (!st.ok()) {
      if (status != nullptr) *status = st;
      return events;
    }
  }
  ApiStatus st = decoder.Finish();
  if (status != nullptr) *status = st;
  return events;
}

void ExpectStreamEvents(const std::vector<WatchEvent>& events) {
  ASSERT_EQ(events.size(), 4u);
  EXPECT_EQ(events[0].type, "ADDED");
  EXPECT_EQ(events[1].type, "MODIFIED");
  EXPECT_EQ(events[2].type, "BOOKMARK");
  EXPECT_EQ(events[3].type, "DELETED");
  EXPECT_EQ(RvOf(events[0]), "11");
  EXPECT_EQ(RvOf(events[3]), "14");
  EXPECT_EQ(events[0].object.Find("spec")->Find("s")->text, "}{\"][");
}

TEST(WatchDecoderTest, WholeStream) {
  ApiStatus st = Done{};
  ExpectStreamEvents(DecodeAll({kStream}, &st));
  EXPECT_TRUE(st.ok()) << st.error().message;
}

TEST(WatchDecoderTest, SplitAtEveryBytePosition) {
  std::string_view s(kStream);
  for (std::size_t i = 0; i <= s.size(); ++i) {
    for (std::size_t j = i; j <= s.size(); j += 7) {
      ApiStatus st = Done{};
      std::vector<WatchEvent> events =
          DecodeAll({s.substr(0, i), s.substr(i, j - i), s.substr(j)}, &st);
      ASSERT_TRUE(st.ok()) << "split " << i << "," << j << ": " << st.error().message;
      ExpectStreamEvents(events);
    }
  }
}

TEST(WatchDecoderTest, ByteAtATime) {
  std::string_view s(kStream);
  std::vector<std::string_view> pieces;
  for (std::size_t i = 0; i < s.size(); ++i) pieces.push_back(s.substr(i, 1));
  ApiStatus st = Done{};
  ExpectStreamEvents(DecodeAll(pieces, &st));
  EXPECT_TRUE(st.ok());
}

TEST(WatchDecoderTest, KeepsText) {
  WatchDecoderLimits limits;
  limits.keep_text = true;
  std::vector<WatchEvent> events = DecodeAll({kStream}, nullptr, limits);
  ASSERT_EQ(events.size(), 4u);
  EXPECT_EQ(events[1].document,
            "{\"type\":\"MODIFIED\",\"object\":{\"metadata\":{\"name\":\"a\",\"resourceVersion\":"
            "\"12\"}}}");
  const json::Value& meta = *events[1].object.Find("metadata");
  EXPECT_EQ(events[1].document.substr(meta.raw_begin, meta.raw_end - meta.raw_begin),
            "{\"name\":\"a\",\"resourceVersion\":\"12\"}");
}

TEST(WatchDecoderTest, GarbageNamesByteOffset) {
  ApiStatus st = Done{};
  DecodeAll({"  xyz"}, &st);
  ASSERT_FALSE(st.ok());
  EXPECT_EQ(st.error().kind, ErrorKind::kProtocol);
  EXPECT_NE(st.error().message.find("invalid character 'x' at byte offset 2"), std::string::npos)
      << st.error().message;

  std::string first = "{\"type\":\"ADDED\",\"object\":{}}\n";
  std::vector<WatchEvent> events = DecodeAll({first, "]"}, &st);
  EXPECT_EQ(events.size(), 1u);
  ASSERT_FALSE(st.ok());
  EXPECT_NE(st.error().message.find("byte offset " + std::to_string(first.size())),
            std::string::npos)
      << st.error().message;
}

TEST(WatchDecoderTest, MismatchedBracketAndBadJson) {
  ApiStatus st = Done{};
  DecodeAll({"{\"type\":\"ADDED\",\"object\":[}"}, &st);
  ASSERT_FALSE(st.ok());
  EXPECT_NE(st.error().message.find("mismatched"), std::string::npos) << st.error().message;

  DecodeAll({"\n{\"type\":\"ADDED\",\"object\":{\"a\":tru}}"}, &st);
  ASSERT_FALSE(st.ok());
  EXPECT_NE(st.error().message.find("event at byte offset 1: line 1"), std::string::npos)
      << st.error().message;
}

TEST(WatchDecoderTest, InvalidEnvelope) {
  ApiStatus st = Done{};
  DecodeAll({"{\"object\":{}}"}, &st);
  ASSERT_FALSE(st.ok());
  EXPECT_NE(st.error().message.find("no \"type\""), std::string::npos);
  DecodeAll({"{\"type\":\"CHANGED\",\"object\":{}}"}, &st);
  ASSERT_FALSE(st.ok());
  EXPECT_NE(st.error().message.find("invalid event type \"CHANGED\""), std::string::npos);
  DecodeAll({"{\"type\":\"ADDED\"}"}, &st);
  ASSERT_FALSE(st.ok());
  EXPECT_NE(st.error().message.find("no \"object\""), std::string::npos);
}

TEST(WatchDecoderTest, OversizedEventIsAnErrorBeforeItEnds) {
  WatchDecoderLimits limits;
  limits.max_event_bytes = 64;
  WatchDecoder decoder(limits);
  std::string big = "{\"type\":\"ADDED\",\"object\":{\"data\":\"" + std::string(100, 'x');
  int calls = 0;
  ApiStatus st = decoder.Feed(big, [&](WatchEvent&&) { return ++calls > 0; });
  ASSERT_FALSE(st.ok());
  EXPECT_NE(st.error().message.find("larger than the limit of 64 bytes"), std::string::npos)
      << st.error().message;
  // The decoder stays failed.
  EXPECT_FALSE(decoder.Feed("\"}}", [&](WatchEvent&&) { return true; }).ok());
  EXPECT_EQ(calls, 0);

  // Exactly at the limit is fine.
  std::string exact = "{\"type\":\"ADDED\",\"object\":{}}";
  limits.max_event_bytes = exact.size();
  EXPECT_EQ(DecodeAll({exact.substr(0, 5), exact.substr(5)}, &st, limits).size(), 1u);
  EXPECT_TRUE(st.ok());
}

TEST(WatchDecoderTest, DeepNestingIsAnError) {
  WatchDecoderLimits limits;
  limits.max_depth = 10;
  ApiStatus st = Done{};
  DecodeAll({"{\"type\":\"ADDED\",\"object\":" + std::string(20, '[')}, &st, limits);
  ASSERT_FALSE(st.ok());
  EXPECT_NE(st.error().message.find("nested deeper than 10"), std::string::npos);
}

TEST(WatchDecoderTest, EndInsideEvent) {
  ApiStatus st = Done{};
  std::string_view s(kStream);
  std::vector<WatchEvent> events = DecodeAll({s.substr(0, s.size() - 10)}, &st);
  EXPECT_EQ(events.size(), 3u);
  ASSERT_FALSE(st.ok());
  EXPECT_NE(st.error().message.find("watch stream ended inside an event"), std::string::npos);
}

TEST(WatchDecoderTest, StopsWhenHandlerSaysSo) {
  WatchDecoder decoder;
  int seen = 0;
  ApiStatus st = decoder.Feed(kStream, [&](WatchEvent&&) { return ++seen < 2; });
  EXPECT_TRUE(st.ok());
  EXPECT_TRUE(decoder.stopped());
  EXPECT_EQ(seen, 2);
  EXPECT_TRUE(decoder.Finish().ok());
}

TEST(WatchDecoderTest, ErrorEventBecomesApiError) {
  const char* stream =
      "{\"type\":\"ERROR\",\"object\":{\"kind\":\"Status\",\"apiVersion\":\"v1\",\"metadata\":{},"
      "\"status\":\"Failure\",\"message\":\"too old resource version: 5 (10)\",\"reason\":"
      "\"Expired\",\"code\":410}}\n";
  std::vector<WatchEvent> events = DecodeAll({stream});
  ASSERT_EQ(events.size(), 1u);
  EXPECT_EQ(events[0].type, "ERROR");
  ApiError e = StatusToApiError(events[0].object);
  EXPECT_TRUE(e.IsGone());
  EXPECT_EQ(e.code, 410);
  EXPECT_EQ(e.reason, "Expired");
  EXPECT_EQ(e.message, "too old resource version: 5 (10)");

  Result<json::Value> not_status = json::ParseJson("{\"kind\":\"Pod\"}");
  ASSERT_TRUE(not_status.ok());
  EXPECT_EQ(StatusToApiError(*not_status).kind, ErrorKind::kProtocol);

  Result<json::Value> too_large = json::ParseJson(
      "{\"kind\":\"Status\",\"code\":504,\"reason\":\"Timeout\",\"details\":{\"causes\":[{"
      "\"reason\":\"ResourceVersionTooLarge\",\"message\":\"Too large resource version\"}],"
      "\"retryAfterSeconds\":1}}");
  ASSERT_TRUE(too_large.ok());
  ApiError t = StatusToApiError(*too_large);
  ASSERT_EQ(t.causes.size(), 1u);
  EXPECT_EQ(t.causes[0].type, "ResourceVersionTooLarge");
  EXPECT_EQ(t.retry_after_seconds, 1);
}

TEST(WatchQueryTest, AsClientGoSendsThem) {
  ListOptions o;
  o.resource_version = "10";
  o.allow_watch_bookmarks = true;
  o.timeout_seconds = 333;
  o.field_selector = "spec.driver=gpu.example.com,spec.nodeName=node1";
  o.limit = 500;  // never sent on a watch
  std::vector<std::pair<std::string, std::string>> q = WatchQuery(o);
  std::vector<std::pair<std::string, std::string>> want = {
      {"watch", "true"},
      {"allowWatchBookmarks", "true"},
      {"fieldSelector", "spec.driver=gpu.example.com,spec.nodeName=node1"},
      {"resourceVersion", "10"},
      {"timeout", "5m33s"},
      {"timeoutSeconds", "333"}};
  EXPECT_EQ(q, want);
  ListOptions empty;
  empty.resource_version = "";
  EXPECT_EQ(WatchQuery(empty).size(), 1u);
}

}  // namespace
}  // namespace dra::kube
