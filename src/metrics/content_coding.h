// Content codings of the HTTP server's answers (RFC 9110 section 8.4.1):
// which ones a client takes, and gzip itself.
//
// The server chooses the coding rather than leaving it to cpp-httplib, which
// (0.11) picks brotli at its slowest quality whenever "br" appears in
// Accept-Encoding, as every browser's and curl's --compressed does: 20 s for
// the 4.6 MB /metrics of a 5,000-node cluster. gzip at level 1 adds about
// 15 ms to it and sends 7% of the bytes.
//
// Thread-safety: free functions without shared state.
#pragma once

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

}  // namespace dra::metrics
