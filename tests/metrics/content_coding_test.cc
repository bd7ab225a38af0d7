// Accept-Encoding negotiation and gzip coding of the HTTP server's answers.
#include "metrics/content_coding.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <memory>
#include <random>
#include <string>
#include <vector>

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

TEST(GzipWriter, PiecesMakeOneMemberThatReadsBackInPieces) {
  std::mt19937 rng(9);
  std::string text;
  while (text.size() < (3u << 20)) {
    text += "dra_pod_device_info{pod=\"p-" + std::to_string(rng() % 100000) + "\"} 1\n";
  }
  std::string random(2 << 20, '\0');
  for (char& c : random) c = static_cast<char>(rng());
  for (const std::string& data : {std::string(), std::string("a"), text, random}) {
    SCOPED_TRACE(data.size());
    GzipWriter writer(1);
    // Pieces of every size from none to past zlib's 1 MiB input limit.
    for (std::size_t at = 0, step = 0; at < data.size(); at += step) {
      step = std::min<std::size_t>(data.size() - at,
                                   (rng() % 4 == 0) ? (1u << 20) + 7 : rng() % 70000);
      writer.Write(std::string_view(data).substr(at, step));
      if (rng() % 8 == 0) writer.Write({});
    }
    EXPECT_EQ(writer.plain_size(), data.size());
    auto coded = std::make_shared<const std::string>(writer.Finish());
    EXPECT_EQ(Gunzip(*coded), data);  // zlib's own decoder, whole
    GunzipReader reader(coded);
    std::string back;
    std::vector<char> piece(100000);
    while (true) {
      const std::size_t want = 1 + rng() % piece.size();
      std::optional<std::size_t> n = reader.Read(piece.data(), want);
      ASSERT_TRUE(n.has_value());
      if (*n == 0) break;
      ASSERT_LE(*n, want);
      back.append(piece.data(), *n);
    }
    EXPECT_TRUE(back == data);
    EXPECT_EQ(reader.Read(piece.data(), 10), std::optional<std::size_t>(0));  // stays ended
  }
}

TEST(GunzipReader, CorruptOrTruncatedMembersAreErrors) {
  std::string text(200000, 'x');
  for (std::size_t i = 0; i < text.size(); i += 7) text[i] = static_cast<char>('a' + i % 26);
  const std::string coded = *Gzip(text, 1);
  auto read_all = [](std::string member) -> std::optional<std::string> {
    GunzipReader reader(std::make_shared<const std::string>(std::move(member)));
    std::string out;
    char piece[4096];
    while (true) {
      std::optional<std::size_t> n = reader.Read(piece, sizeof piece);
      if (!n) return std::nullopt;
      if (*n == 0) return out;
      out.append(piece, *n);
    }
  };
  EXPECT_EQ(read_all(coded), text);
  EXPECT_EQ(read_all(coded.substr(0, coded.size() / 2)), std::nullopt);  // truncated
  EXPECT_EQ(read_all(coded.substr(0, coded.size() - 4)), std::nullopt);  // no length
  std::string flipped = coded;
  flipped[coded.size() - 6] ^= 0x55;  // the CRC
  EXPECT_EQ(read_all(flipped), std::nullopt);
  EXPECT_EQ(read_all("not gzip at all"), std::nullopt);
  EXPECT_EQ(read_all(""), std::nullopt);
}

}  // namespace
}  // namespace dra::metrics
