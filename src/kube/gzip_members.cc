#include "kube/gzip_members.h"

#include <array>

namespace dra::kube {
namespace {
// windowBits 15 plus 16: the gzip wrapper only (not zlib's, not raw).
constexpr int kGzipWindowBits = 15 + 16;
constexpr std::size_t kPiece = std::size_t{64} << 10;
}  // namespace

GzipMembers::GzipMembers() {
  ready_ = inflateInit2(&z_, kGzipWindowBits) == Z_OK;
  if (!ready_) error_ = "cannot start a gzip decoder";
}

GzipMembers::~GzipMembers() {
  if (ready_) inflateEnd(&z_);
}

bool GzipMembers::Feed(std::string_view in, const std::function<bool(std::string_view)>& out) {
  if (!ready_ || stopped_ || !error_.empty()) return false;
  std::array<unsigned char, kPiece> buffer;
  // zlib's input pointer is not const-qualified; it never writes through it.
  z_.next_in = reinterpret_cast<Bytef*>(const_cast<char*>(in.data()));
  z_.avail_in = static_cast<uInt>(in.size());
  // Until the input is used up and zlib holds no more output (a buffer it
  // filled may have left some behind).
  bool filled = false;
  while (z_.avail_in > 0 || filled) {
    if (z_.avail_in > 0) inside_ = true;
    z_.next_out = buffer.data();
    z_.avail_out = static_cast<uInt>(buffer.size());
    const int rc = inflate(&z_, Z_NO_FLUSH);
    const std::size_t produced = buffer.size() - z_.avail_out;
    filled = z_.avail_out == 0;
    if (rc == Z_BUF_ERROR && produced == 0) break;  // it needs more input
    if (rc != Z_OK && rc != Z_STREAM_END && rc != Z_BUF_ERROR) {
      error_ = z_.msg != nullptr ? std::string(z_.msg)
                                 : "corrupt gzip data (zlib error " + std::to_string(rc) + ")";
      return false;
    }
    if (produced > 0 &&
        !out(std::string_view(reinterpret_cast<const char*>(buffer.data()), produced))) {
      stopped_ = true;
      return false;
    }
    if (rc == Z_STREAM_END) {  // this member is whole; another may follow
      inside_ = false;
      filled = false;  // nothing is held back at a member's end
      inflateReset(&z_);
    }
  }
  return true;
}

}  // namespace dra::kube
