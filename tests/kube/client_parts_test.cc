// The small parts of the transport: query encoding as Go's url.Values.Encode,
// durations as Go's time.Duration.String, Warning headers as client-go's
// rest/warnings.go parses them, and the token bucket.
#include <gtest/gtest.h>

#include <chrono>

#include "dra/kube/client.h"
#include "kube/go_duration.h"
#include "kube/rate_limiter.h"
#include "kube/warning_header.h"

namespace dra::kube {
namespace {

TEST(EncodeQuery, SortedAndEscapedAsGo) {
  // The example of a slice informer's watch request client-go sends.
  EXPECT_EQ(EncodeQuery({{"watch", "true"},
                         {"fieldSelector", "spec.driver=gpu.example.com,spec.nodeName=n1"},
                         {"allowWatchBookmarks", "true"},
                         {"resourceVersion", "5"},
                         {"timeoutSeconds", "300"},
                         {"timeout", "5m0s"}}),
            "allowWatchBookmarks=true&fieldSelector=spec.driver%3Dgpu.example.com%2Cspec."
            "nodeName%3Dn1&resourceVersion=5&timeout=5m0s&timeoutSeconds=300&watch=true");
  EXPECT_EQ(EncodeQuery({{"labelSelector", "a in (x, y)"}}), "labelSelector=a+in+%28x%2C+y%29");
}

TEST(GoDuration, FormatsAsGo) {
  using std::chrono::milliseconds;
  EXPECT_EQ(FormatGoDuration(milliseconds(0)), "0s");
  EXPECT_EQ(FormatGoDuration(milliseconds(500)), "500ms");
  EXPECT_EQ(FormatGoDuration(milliseconds(1500)), "1.5s");
  EXPECT_EQ(FormatGoDuration(milliseconds(30'000)), "30s");
  EXPECT_EQ(FormatGoDuration(milliseconds(300'000)), "5m0s");
  EXPECT_EQ(FormatGoDuration(milliseconds(333'000)), "5m33s");
  EXPECT_EQ(FormatGoDuration(milliseconds(3'600'000)), "1h0m0s");
  EXPECT_EQ(FormatGoDuration(milliseconds(3'661'250)), "1h1m1.25s");
}

TEST(WarningHeader, ParsesCode299Only) {
  using V = std::vector<std::string>;
  EXPECT_EQ(
      ParseWarningHeader(
          R"(299 - "resource.k8s.io/v1beta1 ResourceSlice is deprecated in v1.35+, unavailable in v1.38+")"),
      V{"resource.k8s.io/v1beta1 ResourceSlice is deprecated in v1.35+, unavailable in v1.38+"});
  EXPECT_EQ(
      ParseWarningHeader(R"(299 - "a \"q\" b", 299 agent "c" "Mon, 01 Jan 2026 00:00:00 GMT")"),
      (V{"a \"q\" b", "c"}));
  EXPECT_EQ(ParseWarningHeader(R"(199 - "misc")"), V{});
  EXPECT_EQ(ParseWarningHeader("garbage"), V{});
  EXPECT_EQ(ParseWarningHeader(R"(299 - "unterminated)"), V{});
}

TEST(RateLimiter, BurstThenQps) {
  RateLimiter limiter(100, 3);
  auto start = std::chrono::steady_clock::now();
  for (int i = 0; i < 3; ++i) EXPECT_EQ(limiter.Wait().count(), 0);
  // The fourth token comes after about 10 ms at 100 QPS.
  EXPECT_GT(limiter.Wait().count(), 0);
  EXPECT_GE(std::chrono::steady_clock::now() - start, std::chrono::milliseconds(5));
}

}  // namespace
}  // namespace dra::kube
