// Content codings of the HTTP server's answers (RFC 9110 section 8.4.1):
// which ones a client takes, and gzip itself.
//
// The server chooses the coding rather than leaving it to cpp-httplib, which
// (0.11) picks brotli at its slowest quality whenever "br" appears in
// Accept-Encoding, as every browser's and curl's --compressed does: 20 s for
// the 4.6 MB /metrics of a 5,000-node cluster. gzip at level 1 adds about
// 15 ms to it and sends 7% of the bytes.
//
// Thread-safety: free functions without shared state; a GzipWriter or
// GunzipReader belongs to one thread at a time.
#pragma once

#include <cstddef>
#include <memory>
#include <optional>
#include <string>
#include <string_view>

namespace dra::metrics {

// Whether an Accept-Encoding value (RFC 9110 section 12.5.3) lets an answer
// be gzip-coded: "gzip" or "x-gzip" with a weight above 0, or "*" with one
// when gzip is not listed. Elements that do not parse are skipped, as if
// absent; an empty or absent value takes no coding.
bool AcceptsGzip(std::string_view accept_encoding);

// Whether answers of `content_type` are worth compressing: text (not an
// event stream, whose events must go out as they are written), JSON,
// JavaScript and SVG.
bool CompressibleType(std::string_view content_type);

// `data` as one gzip member (RFC 1952) at zlib `level` (1 fastest, 9 best);
// nullopt when zlib fails (it cannot allocate its state).
std::optional<std::string> Gzip(std::string_view data, int level);

// One gzip member written a piece at a time, so that a long text need not
// be held whole before it is coded. Throws std::bad_alloc when zlib cannot
// allocate its state.
class GzipWriter {
 public:
  explicit GzipWriter(int level);
  ~GzipWriter();
  GzipWriter(const GzipWriter&) = delete;
  GzipWriter& operator=(const GzipWriter&) = delete;
  void Write(std::string_view piece);
  // The member; the writer takes no more pieces.
  std::string Finish();
  std::size_t plain_size() const { return plain_size_; }  // bytes written

 private:
  void Deflate(std::string_view piece, bool finish);
  struct Stream;
  std::unique_ptr<Stream> z_;
  std::string out_;
  std::size_t plain_size_ = 0;
};

// A gzip member inflated a piece at a time, from its start.
class GunzipReader {
 public:
  explicit GunzipReader(std::shared_ptr<const std::string> coded);
  ~GunzipReader();
  GunzipReader(const GunzipReader&) = delete;
  GunzipReader& operator=(const GunzipReader&) = delete;
  // Up to `n` more bytes into `out`: how many, 0 at the end; nullopt when the
  // member is corrupt or zlib fails.
  std::optional<std::size_t> Read(char* out, std::size_t n);

 private:
  struct Stream;
  std::unique_ptr<Stream> z_;
  std::shared_ptr<const std::string> coded_;
  bool ended_ = false;
};

}  // namespace dra::metrics
