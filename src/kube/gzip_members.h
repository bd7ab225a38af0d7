// Decompresses a gzip stream made of one or more members, handing out the
// bytes as they arrive. RFC 1952 (section 2.2) defines a gzip file as a
// series of members; kube-apiserver's WatchListCompression feature (beta and
// on in v1.37) writes a watch-list answer that way, closing a member at each
// flush (perFlushGzipWriter in k8s.io/apiserver pkg/endpoints/handlers/
// watch.go). libcurl's own decoder stops after the first member, Go's
// gzip.Reader (client-go's) reads them all, and so does this.
//
// Memory is bounded: output goes out in pieces of at most 64 KiB, whatever
// the compression ratio.
//
// Thread-safety: none; one stream, one thread at a time.
#pragma once

#include <zlib.h>

#include <functional>
#include <string>
#include <string_view>

namespace dra::kube {

class GzipMembers {
 public:
  GzipMembers();
  ~GzipMembers();
  GzipMembers(const GzipMembers&) = delete;
  GzipMembers& operator=(const GzipMembers&) = delete;

  // Decompresses `in`, calling `out` with each piece. False when `out`
  // returned false (stopped() then says so) or the data is not gzip
  // (error() says why); nothing more may be fed after that.
  bool Feed(std::string_view in, const std::function<bool(std::string_view)>& out);

  bool stopped() const { return stopped_; }
  const std::string& error() const { return error_; }
  // Whether a member has begun and not yet ended (a stream that ends there
  // was cut short).
  bool inside_member() const { return inside_; }

 private:
  z_stream z_{};
  bool ready_ = false;
  bool inside_ = false;
  bool stopped_ = false;
  std::string error_;
};

}  // namespace dra::kube
