// Accept-Encoding negotiation and gzip coding of the HTTP server's answers.
#include "metrics/content_coding.h"

#include <gtest/gtest.h>

#include <random>
#include <string>

#include "metrics/gunzip.h"

namespace dra::metrics {
namespace {

TEST(AcceptsGzip, ListedCodingsAndWeights) {
  // What clients send: browsers, curl --compressed, Prometheus, Go's http.
  EXPECT_TRUE(AcceptsGzip("gzip, deflate, br, zstd"));
  EXPECT_TRUE(AcceptsGzip("deflate, gzip, br, zstd"));
  EXPECT_TRUE(AcceptsGzip("gzip"));
  EXPECT_TRUE(AcceptsGzip("GZIP"));
  EXPECT_TRUE(AcceptsGzip("x-gzip"));
  EXPECT_TRUE(AcceptsGzip(" br ,\tgzip ; q=0.5 "));
  EXPECT_TRUE(AcceptsGzip("gzip;q=1.000"));
  EXPECT_TRUE(AcceptsGzip("gzip;Q=0.001"));
  // Not listed, or refused.
  EXPECT_FALSE(AcceptsGzip(""));
  EXPECT_FALSE(AcceptsGzip("identity"));
  EXPECT_FALSE(AcceptsGzip("br"));
  EXPECT_FALSE(AcceptsGzip("br, deflate, zstd"));
  EXPECT_FALSE(AcceptsGzip("gzip;q=0"));
  EXPECT_FALSE(AcceptsGzip("gzip;q=0.000, br"));
  EXPECT_FALSE(AcceptsGzip("gzips, agzip"));
  // The highest weight of a coding listed twice counts.
  EXPECT_TRUE(AcceptsGzip("gzip;q=0, gzip;q=0.2"));
  // "*" stands for codings not listed.
  EXPECT_TRUE(AcceptsGzip("*"));
  EXPECT_TRUE(AcceptsGzip("br, *;q=0.1"));
  EXPECT_FALSE(AcceptsGzip("*;q=0"));
  EXPECT_FALSE(AcceptsGzip("gzip;q=0, *"));
  EXPECT_TRUE(AcceptsGzip("gzip, *;q=0"));
}

TEST(AcceptsGzip, ElementsThatDoNotParseAreSkipped) {
  EXPECT_FALSE(AcceptsGzip("gzip;q=2"));
  EXPECT_FALSE(AcceptsGzip("gzip;q=1.5"));
  EXPECT_FALSE(AcceptsGzip("gzip;q=0.5555"));
  EXPECT_FALSE(AcceptsGzip("gzip;q="));
  EXPECT_FALSE(AcceptsGzip("gzip;q"));
  EXPECT_FALSE(AcceptsGzip("gzip;level=1"));
  EXPECT_FALSE(AcceptsGzip("\"gzip\""));
  EXPECT_FALSE(AcceptsGzip(",,;,"));
  EXPECT_TRUE(AcceptsGzip("gzip;q=x, gzip"));
  EXPECT_TRUE(AcceptsGzip(";q=1, gzip"));
  EXPECT_TRUE(AcceptsGzip(std::string(100000, ',') + "gzip"));
}

TEST(CompressibleType, TextAndJsonButNotEventStreams) {
  EXPECT_TRUE(CompressibleType("text/plain; version=0.0.4; charset=utf-8"));
  EXPECT_TRUE(CompressibleType("text/html; charset=utf-8"));
  EXPECT_TRUE(CompressibleType("text/css"));
  EXPECT_TRUE(CompressibleType("application/json"));
  EXPECT_TRUE(CompressibleType("Application/JSON; charset=utf-8"));
  EXPECT_TRUE(CompressibleType("application/javascript"));
  EXPECT_TRUE(CompressibleType("image/svg+xml"));
  EXPECT_FALSE(CompressibleType("text/event-stream"));
  EXPECT_FALSE(CompressibleType("text/event-stream; charset=utf-8"));
  EXPECT_FALSE(CompressibleType("image/png"));
  EXPECT_FALSE(CompressibleType("application/octet-stream"));
  EXPECT_FALSE(CompressibleType("text/"));
  EXPECT_FALSE(CompressibleType(""));
}

TEST(Gzip, ZlibDecodesWhatItCodes) {
  std::mt19937 rng(7);
  std::string random(3 << 20, '\0');  // past the 1 MiB pieces given to zlib
  for (char& c : random) c = static_cast<char>(rng());
  std::string text;
  while (text.size() < (5u << 20))
    text += "dra_devices{driver=\"gpu.example.com\",state=\"free\"} 8\n";
  for (const std::string& data : {std::string(), std::string("a"), text, random}) {
    for (int level : {1, 6, 9}) {
      std::optional<std::string> coded = Gzip(data, level);
      ASSERT_TRUE(coded.has_value());
      ASSERT_GE(coded->size(), 18u);  // header and trailer
      EXPECT_EQ(static_cast<unsigned char>((*coded)[0]), 0x1f);
      EXPECT_EQ(static_cast<unsigned char>((*coded)[1]), 0x8b);
      std::optional<std::string> decoded = Gunzip(*coded);
      ASSERT_TRUE(decoded.has_value());
      EXPECT_TRUE(*decoded == data) << "size " << data.size() << " level " << level;
    }
  }
  EXPECT_LT(Gzip(text, 1)->size(), text.size() / 20);
  // Levels outside zlib's range are taken as the nearest one.
  EXPECT_EQ(Gunzip(*Gzip(text, 0)), text);
  EXPECT_EQ(Gunzip(*Gzip(text, 42)), text);
}

}  // namespace
}  // namespace dra::metrics
