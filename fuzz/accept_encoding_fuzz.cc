// Feeds arbitrary bytes to the HTTP server's content-coding negotiation, and
// codes them as gzip: the answer must not change when a coding other than
// gzip is added to the list, and the gzip decoder of watch streams must give
// the bytes back.
#include <cstddef>
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>

#include "kube/gzip_members.h"
#include "metrics/content_coding.h"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  const std::string_view input(reinterpret_cast<const char*>(data), size);
  const bool gzip = dra::metrics::AcceptsGzip(input);
  // Elements are whole between commas: another one, before or after,
  // changes nothing.
  if (dra::metrics::AcceptsGzip(std::string(input) + ",br;q=1") != gzip) __builtin_trap();
  if (dra::metrics::AcceptsGzip("deflate, " + std::string(input)) != gzip) __builtin_trap();
  (void)dra::metrics::CompressibleType(input);

  std::optional<std::string> coded = dra::metrics::Gzip(input, 1 + static_cast<int>(size % 9));
  if (!coded) __builtin_trap();
  dra::kube::GzipMembers decoder;
  std::string decoded;
  const bool ok = decoder.Feed(*coded, [&](std::string_view piece) {
    decoded.append(piece);
    return true;
  });
  if (!ok || decoder.inside_member() || decoded != input) __builtin_trap();
  return 0;
}
