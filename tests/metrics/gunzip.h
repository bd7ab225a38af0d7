// Decodes a gzip body in tests, with zlib's own decoder: an independent
// check of what the server codes.
#pragma once

#include <zlib.h>

#include <optional>
#include <string>
#include <string_view>

namespace dra::metrics {

// The text of one gzip member; nullopt when `data` is not exactly one.
inline std::optional<std::string> Gunzip(std::string_view data) {
  z_stream z{};
  if (inflateInit2(&z, 15 + 16) != Z_OK) return std::nullopt;
  z.next_in = reinterpret_cast<Bytef*>(const_cast<char*>(data.data()));
  z.avail_in = static_cast<uInt>(data.size());
  std::string out;
  int rc = Z_OK;
  char buf[1 << 16];
  while (rc == Z_OK) {
    z.next_out = reinterpret_cast<Bytef*>(buf);
    z.avail_out = sizeof buf;
    rc = inflate(&z, Z_NO_FLUSH);
    out.append(buf, sizeof buf - z.avail_out);
  }
  const bool whole = rc == Z_STREAM_END && z.avail_in == 0;
  inflateEnd(&z);
  if (!whole) return std::nullopt;
  return out;
}

}  // namespace dra::metrics
