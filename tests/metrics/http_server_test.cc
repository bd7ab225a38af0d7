// HttpServer on loopback: routes, 404, 405, HEAD, address parsing, stop.
#include "dra/metrics/http_server.h"

#include <arpa/inet.h>
#include <gtest/gtest.h>
#include <sys/socket.h>
#include <unistd.h>

#include <atomic>
#include <chrono>
#include <map>
#include <memory>
#include <optional>
#include <string>
#include <thread>
#include <utility>
#include <vector>

#include "dra/metrics/registry.h"
#include "metrics/gunzip.h"

namespace dra::metrics {
namespace {

// One HTTP/1.0-style exchange; returns the whole answer.
std::string Exchange(int port, const std::string& request) {
  int fd = socket(AF_INET, SOCK_STREAM, 0);
  sockaddr_in addr{};
  addr.sin_family = AF_INET;
  addr.sin_port = htons(static_cast<uint16_t>(port));
  addr.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
  if (connect(fd, reinterpret_cast<sockaddr*>(&addr), sizeof addr) != 0) {
    close(fd);
    return "connect failed";
  }
  (void)!write(fd, request.data(), request.size());
  std::string out;
  char buf[4096];
  for (ssize_t n; (n = read(fd, buf, sizeof buf)) > 0;) out.append(buf, static_cast<size_t>(n));
  close(fd);
  return out;
}

std::string Get(int port, const std::string& method, const std::string& path) {
  return Exchange(port, method + " " + path + " HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n");
}

TEST(HttpServer, ServesRoutesOnly) {
  int calls = 0;
  auto server = HttpServer::Start(
      "127.0.0.1:0",
      {{"/metrics", [&] { return HttpAnswer{200, "text/plain", "m 1\n", {}, {}, {}}; }},
       {"/healthz", [&] {
          ++calls;
          return HttpAnswer{503, "text/plain", "not yet\n", {}, {}, {}};
        }}});
  ASSERT_TRUE(server.ok()) << server.error();
  int port = (*server)->port();
  ASSERT_GT(port, 0);
  std::string metrics = Get(port, "GET", "/metrics");
  EXPECT_EQ(metrics.rfind("HTTP/1.1 200", 0), 0u) << metrics;
  EXPECT_NE(metrics.find("\r\n\r\nm 1\n"), std::string::npos) << metrics;
  EXPECT_EQ(Get(port, "GET", "/healthz").rfind("HTTP/1.1 503", 0), 0u);
  EXPECT_EQ(calls, 1);
  EXPECT_EQ(Get(port, "GET", "/other").rfind("HTTP/1.1 404", 0), 0u);
  std::string post = Exchange(
      port, "POST /metrics HTTP/1.1\r\nHost: x\r\nContent-Length: 0\r\nConnection: close\r\n\r\n");
  EXPECT_EQ(post.rfind("HTTP/1.1 405", 0), 0u) << post;
  std::string head = Get(port, "HEAD", "/metrics");
  EXPECT_EQ(head.rfind("HTTP/1.1 200", 0), 0u) << head;
  EXPECT_EQ(head.find("m 1"), std::string::npos) << head;
  EXPECT_EQ(Exchange(port, "garbage\r\n\r\n").rfind("HTTP/1.1 400", 0), 0u);
  (*server)->Stop();
  EXPECT_EQ(Get(port, "GET", "/metrics"), "connect failed");
}

// The headers of an answer ("" when none) and its body.
std::pair<std::string, std::string> Split(const std::string& answer) {
  const auto end = answer.find("\r\n\r\n");
  if (end == std::string::npos) return {"", ""};
  return {answer.substr(0, end + 2), answer.substr(end + 4)};
}

std::string GetWith(int port, const std::string& path, const std::string& accept_encoding) {
  return Exchange(port, "GET " + path + " HTTP/1.1\r\nHost: x\r\nAccept-Encoding: " +
                            accept_encoding + "\r\nConnection: close\r\n\r\n");
}

TEST(HttpServer, CodesLargeTextAsGzipForClientsThatTakeIt) {
  std::string text;
  while (text.size() < 200000)
    text += "dra_devices{node=\"node-" + std::to_string(text.size()) + "\"} 1\n";
  // /text's body is its own, or (shared_text) a text the handler keeps.
  bool shared_text = false;
  auto kept = std::make_shared<const std::string>(text);
  std::map<std::string, HttpHandler> routes = {
      {"/text",
       [&] {
         HttpAnswer a{200, "text/plain; version=0.0.4", shared_text ? "" : text, {}, {}, {}};
         if (shared_text) a.shared_body = kept;
         return a;
       }},
      {"/json",
       [&] {
         return HttpAnswer{200, "application/json", "[" + text.substr(1000) + "]", {}, {}, {}};
       }},
      {"/small", [] { return HttpAnswer{200, "text/plain", "tiny\n", {}, {}, {}}; }},
      {"/png", [&] { return HttpAnswer{200, "image/png", text, {}, {}, {}}; }},
      {"/coded",
       [&] {
         return HttpAnswer{200, "text/plain", text, {{"Content-Encoding", "identity"}}, {}, {}};
       }},
  };
  // The same answers when large bodies are sent from a holder freed after
  // sending (trim_after_bytes), which also serves ranges of them.
  HttpServerOptions trimming;
  trimming.trim_after_bytes = 1000;
  for (const auto& [options, shared] :
       std::vector<std::pair<HttpServerOptions, bool>>{{HttpServerOptions{}, false},
                                                       {trimming, false},
                                                       {HttpServerOptions{}, true},
                                                       {trimming, true}}) {
    SCOPED_TRACE(std::to_string(options.trim_after_bytes) + (shared ? " shared" : ""));
    shared_text = shared;
    auto server = HttpServer::Start("127.0.0.1:0", routes, options);
    ASSERT_TRUE(server.ok()) << server.error();
    const int port = (*server)->port();
    // A browser's header: gzip, though brotli is listed first.
    for (const char* accept : {"br, gzip, deflate, zstd", "gzip", "*"}) {
      SCOPED_TRACE(accept);
      auto [headers, body] = Split(GetWith(port, "/text", accept));
      EXPECT_NE(headers.find("\r\nContent-Encoding: gzip\r\n"), std::string::npos) << headers;
      EXPECT_NE(headers.find("\r\nVary: Accept-Encoding\r\n"), std::string::npos) << headers;
      EXPECT_NE(headers.find("\r\nContent-Type: text/plain; version=0.0.4\r\n"), std::string::npos);
      EXPECT_LT(body.size(), text.size() / 5);
      EXPECT_EQ(Gunzip(body), text);
    }
    {
      auto [headers, body] = Split(GetWith(port, "/json", "gzip"));
      EXPECT_NE(headers.find("\r\nContent-Encoding: gzip\r\n"), std::string::npos) << headers;
      EXPECT_EQ(Gunzip(body), "[" + text.substr(1000) + "]");
    }
    // No coding the client did not ask for, none where it gains little, and
    // none over a handler's own.
    for (const auto& [path, accept] :
         std::vector<std::pair<std::string, std::string>>{{"/text", "br"},
                                                          {"/text", "gzip;q=0, br"},
                                                          {"/text", "identity"},
                                                          {"/small", "gzip"},
                                                          {"/png", "gzip"},
                                                          {"/coded", "gzip"}}) {
      SCOPED_TRACE(path + " " + accept);
      auto [headers, body] = Split(GetWith(port, path, accept));
      EXPECT_EQ(headers.find("Content-Encoding: gzip"), std::string::npos) << headers;
      EXPECT_EQ(headers.find("Content-Encoding: br"), std::string::npos) << headers;
      EXPECT_EQ(body, path == "/small" ? "tiny\n" : text);
    }
    // HEAD gives the coded answer's headers, without its body.
    std::string head = Exchange(port,
                                "HEAD /text HTTP/1.1\r\nHost: x\r\nAccept-Encoding: gzip\r\n"
                                "Connection: close\r\n\r\n");
    EXPECT_NE(head.find("\r\nContent-Encoding: gzip\r\n"), std::string::npos) << head;
    EXPECT_EQ(Split(head).second, "");
    {
      auto [headers, body] =
          Split(Exchange(port,
                         "GET /text HTTP/1.1\r\nHost: x\r\nRange: bytes=10-19\r\n"
                         "Connection: close\r\n\r\n"));
      EXPECT_NE(headers.find("\r\nContent-Range: bytes 10-19/" + std::to_string(text.size())),
                std::string::npos)
          << headers;
      EXPECT_EQ(body, text.substr(10, 10));
    }
    // Ranges past the end, or up to beyond it, are checked against the
    // body's length, in both modes.
    {
      std::string past = Exchange(
          port,
          "GET /text HTTP/1.1\r\nHost: x\r\nRange: bytes=" + std::to_string(text.size() + 100) +
              "-" + std::to_string(text.size() + 199) + "\r\nConnection: close\r\n\r\n");
      EXPECT_EQ(past.rfind("HTTP/1.1 416", 0), 0u) << past.substr(0, 200);
      auto [headers, body] = Split(Exchange(port,
                                            "GET /text HTTP/1.1\r\nHost: x\r\nRange: bytes=0-"
                                            "99999999\r\nConnection: close\r\n\r\n"));
      EXPECT_EQ(body, text) << headers;
    }
    {
      auto [headers, body] = Split(GetWith(port, "/text", "identity"));
      EXPECT_NE(headers.find("\r\nContent-Length: " + std::to_string(text.size()) + "\r\n"),
                std::string::npos)
          << headers;
      // One Content-Type, the handler's.
      const std::size_t type = headers.find("\r\nContent-Type: ");
      EXPECT_NE(type, std::string::npos) << headers;
      EXPECT_EQ(headers.find("\r\nContent-Type: ", type + 1), std::string::npos) << headers;
      EXPECT_EQ(body, text);
    }
    (*server)->Stop();
  }
  // The shared text is the handler's still, whole.
  EXPECT_EQ(*kept, text);

  // Level 0 turns coding off.
  HttpServerOptions off;
  off.gzip_level = 0;
  auto plain = HttpServer::Start("127.0.0.1:0", routes, off);
  ASSERT_TRUE(plain.ok()) << plain.error();
  auto [headers, body] = Split(GetWith((*plain)->port(), "/text", "gzip, br"));
  EXPECT_EQ(headers.find("Content-Encoding"), std::string::npos) << headers;
  EXPECT_EQ(body, text);
}

TEST(HttpServer, ExpositionHeldGzipCodedIsSentToEveryClient) {
  Registry registry;
  registry.Written("dra_devices", "Devices", Type::kGauge, {"node"}, [](SampleWriter& w) {
    for (int i = 0; i < 30000; ++i) w.Write({"node-" + std::to_string(i)}, i % 9);
  });
  const std::string text = registry.Expose();
  ASSERT_GT(text.size(), 500000u);
  for (int level : {1, 0}) {
    SCOPED_TRACE(level);
    HttpServerOptions options;
    options.gzip_level = level;
    // Also held by the route and shared by its answers (a cached answer).
    HttpAnswer once = ExpositionAnswer(registry);
    auto held = std::make_shared<const std::string>(once.body);
    auto server = HttpServer::Start("127.0.0.1:0",
                                    {{"/metrics", [&] { return ExpositionAnswer(registry); }},
                                     {"/held",
                                      [&] {
                                        HttpAnswer a;
                                        a.content_type = once.content_type;
                                        a.shared_body = held;
                                        a.gzip_of = once.gzip_of;
                                        return a;
                                      }}},
                                    options);
    ASSERT_TRUE(server.ok()) << server.error();
    const int port = (*server)->port();
    for (const std::string path : {"/metrics", "/held"}) {
      SCOPED_TRACE(path);
      {
        auto [headers, body] = Split(GetWith(port, path, "identity"));
        EXPECT_EQ(headers.find("Content-Encoding"), std::string::npos) << headers;
        EXPECT_NE(headers.find("\r\nContent-Length: " + std::to_string(text.size()) + "\r\n"),
                  std::string::npos)
            << headers;
        EXPECT_NE(headers.find("\r\nContent-Type: text/plain; version=0.0.4"), std::string::npos);
        EXPECT_TRUE(body == text) << body.size() << " of " << text.size();
      }
      {
        auto [headers, body] = Split(GetWith(port, path, "gzip"));
        EXPECT_EQ(headers.find("Content-Encoding: gzip") != std::string::npos, level > 0)
            << headers;
        EXPECT_TRUE((level > 0 ? Gunzip(body).value_or("") : body) == text);
        if (level > 0) {
          EXPECT_LT(body.size(), text.size() / 5);
        }
      }
      std::string head = Get(port, "HEAD", path);
      EXPECT_NE(head.find("\r\nContent-Length: " + std::to_string(text.size()) + "\r\n"),
                std::string::npos)
          << head;
      EXPECT_EQ(Split(head).second, "");
      auto [headers, body] =
          Split(Exchange(port, "GET " + path +
                                   " HTTP/1.1\r\nHost: x\r\nRange: bytes=100000-100099\r\n"
                                   "Connection: close\r\n\r\n"));
      EXPECT_EQ(body, text.substr(100000, 100)) << headers;
    }
    // Sent as often as asked: the held text is not given away.
    EXPECT_EQ(*held, once.body);
    (*server)->Stop();
  }
}

TEST(HttpServer, HandlersSeeTheQueryAndSetHeaders) {
  auto server = HttpServer::Start("127.0.0.1:0",
                                  {{"/q", [](const HttpRequest& r) {
                                      HttpAnswer a{200,
                                                   "text/plain",
                                                   r.method + " " + r.path + " q=" + r.Param("q") +
                                                       " n=" + r.Param("n") +
                                                       " count=" + std::to_string(r.params.size()),
                                                   {{"X-Test", "yes"}},
                                                   {},
                                                   {}};
                                      return a;
                                    }}});
  ASSERT_TRUE(server.ok()) << server.error();
  std::string got = Get((*server)->port(), "GET", "/q?q=a%20b&q=second&x=1");
  EXPECT_NE(got.find("\r\nX-Test: yes\r\n"), std::string::npos) << got;
  // Percent-decoded; the first of a repeated name; a missing one is "".
  EXPECT_NE(got.find("GET /q q=a b n= count=3"), std::string::npos) << got;
}

TEST(HttpServer, StreamsUntilTheStreamEndsAndLimitsOpenStreams) {
  std::atomic<bool> release{false};
  std::atomic<int> holding{0};  // streams of /held that have started
  auto server = HttpServer::Start(
      "127.0.0.1:0",
      {{"/finite",
        [] {
          auto left = std::make_shared<int>(3);
          HttpAnswer a{200, "text/event-stream", {}, {}, {}, {}};
          a.stream = [left]() -> std::optional<std::string> {
            if (*left == 0) return std::nullopt;
            return "data: " + std::to_string((*left)--) + "\n\n";
          };
          return a;
        }},
       {"/held",
        [&release, &holding] {
          HttpAnswer a{200, "text/event-stream", {}, {}, {}, {}};
          a.stream = [&release, &holding, started = false]() mutable -> std::optional<std::string> {
            if (!started) {
              started = true;
              ++holding;
            }
            if (release) return std::nullopt;
            std::this_thread::sleep_for(std::chrono::milliseconds(20));
            return std::string();
          };
          return a;
        }},
       {"/plain", [] { return HttpAnswer{200, "text/plain", "ok\n", {}, {}, {}}; }}},
      HttpServerOptions{4, 1});
  ASSERT_TRUE(server.ok()) << server.error();
  const int port = (*server)->port();
  std::string finite = Get(port, "GET", "/finite");
  EXPECT_EQ(finite.rfind("HTTP/1.1 200", 0), 0u) << finite;
  EXPECT_NE(finite.find("Transfer-Encoding: chunked"), std::string::npos) << finite;
  EXPECT_NE(finite.find("data: 3\n\n"), std::string::npos) << finite;
  EXPECT_NE(finite.find("data: 1\n\n"), std::string::npos) << finite;

  // One stream held open: a second is refused, other routes still answer.
  std::string held;
  std::thread holder([&] { held = Get(port, "GET", "/held"); });
  for (int i = 0; i < 500 && holding == 0; ++i) {
    std::this_thread::sleep_for(std::chrono::milliseconds(10));
  }
  if (holding != 1) {
    release = true;
    holder.join();
    FAIL() << "the held stream did not start: " << held;
  }
  std::string refused = Get(port, "GET", "/held");
  EXPECT_EQ(refused.rfind("HTTP/1.1 503", 0), 0u) << refused;
  EXPECT_NE(refused.find("Retry-After: 5"), std::string::npos) << refused;
  EXPECT_EQ(Get(port, "GET", "/plain").rfind("HTTP/1.1 200", 0), 0u);
  release = true;
  holder.join();
  EXPECT_EQ(held.rfind("HTTP/1.1 200", 0), 0u) << held;
  // The slot is given back once the first stream ended.
  release = false;
  std::thread again([&] { held = Get(port, "GET", "/held"); });
  for (int i = 0; i < 500 && holding == 1; ++i) {
    std::this_thread::sleep_for(std::chrono::milliseconds(10));
  }
  EXPECT_EQ(holding, 2);
  // Stop ends a stream in progress.
  (*server)->Stop();
  again.join();
  EXPECT_EQ(held.rfind("HTTP/1.1 200", 0), 0u) << held;
}

TEST(HttpServer, BusyPortAndBadAddressesAreErrors) {
  auto first = HttpServer::Start("127.0.0.1:0", {});
  ASSERT_TRUE(first.ok());
  std::string busy = "127.0.0.1:" + std::to_string((*first)->port());
  auto second = HttpServer::Start(busy, {});
  ASSERT_FALSE(second.ok());
  EXPECT_EQ(second.error(), "listen on " + busy + ": cannot bind (address in use or not local)");
  EXPECT_EQ(ParseListenAddress("8080").ok(), false);
  EXPECT_EQ(ParseListenAddress("x:99999").error(),
            "address x:99999: port 99999 is not a number from 0 to 65535");
  EXPECT_EQ(ParseListenAddress("::1:80").error(),
            "address ::1:80: an IPv6 host goes in brackets, [::1]:PORT");
  auto v6 = ParseListenAddress("[::1]:80");
  ASSERT_TRUE(v6.ok());
  EXPECT_EQ(v6->first, "::1");
  EXPECT_EQ(v6->second, 80);
  EXPECT_EQ(ParseListenAddress(":9").value(), std::make_pair(std::string(), 9));
}

}  // namespace
}  // namespace dra::metrics
