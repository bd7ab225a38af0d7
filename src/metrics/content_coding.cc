#include "metrics/content_coding.h"

#include <zlib.h>

#include <algorithm>
#include <climits>
#include <cstddef>
#include <memory>
#include <new>
#include <stdexcept>

namespace dra::metrics {
namespace {

constexpr std::string_view kSpace = " \t";

std::string_view Trim(std::string_view s) {
  const auto begin = s.find_first_not_of(kSpace);
  if (begin == std::string_view::npos) return {};
  return s.substr(begin, s.find_last_not_of(kSpace) - begin + 1);
}

bool EqualsIgnoringCase(std::string_view a, std::string_view b) {
  return a.size() == b.size() && std::equal(a.begin(), a.end(), b.begin(), [](char x, char y) {
           auto lower = [](char c) { return c >= 'A' && c <= 'Z' ? static_cast<char>(c + 32) : c; };
           return lower(x) == lower(y);
         });
}

// The weight of a qvalue ("0", "0.5", "1.000"), in thousandths; -1 when it
// is not one (RFC 9110 section 12.4.2).
int Weight(std::string_view q) {
  if (q.empty() || (q[0] != '0' && q[0] != '1')) return -1;
  int thousandths = q[0] == '1' ? 1000 : 0;
  if (q.size() == 1) return thousandths;
  if (q[1] != '.' || q.size() > 5) return -1;
  int scale = 100;
  for (char c : q.substr(2)) {
    if (c < '0' || c > '9') return -1;
    if (q[0] == '1' && c != '0') return -1;
    thousandths += (c - '0') * scale;
    scale /= 10;
  }
  return thousandths;
}

// One element of the list: its coding and weight (1000 without one); false
// when it does not parse.
bool ParseElement(std::string_view element, std::string_view& coding, int& weight) {
  const auto semicolon = element.find(';');
  coding = Trim(element.substr(0, semicolon));
  weight = 1000;
  if (coding.empty() || coding.find_first_of(" \t\"=") != std::string_view::npos) return false;
  if (semicolon == std::string_view::npos) return true;
  std::string_view param = Trim(element.substr(semicolon + 1));
  const auto equals = param.find('=');
  if (equals == std::string_view::npos) return false;
  if (!EqualsIgnoringCase(Trim(param.substr(0, equals)), "q")) return false;
  weight = Weight(Trim(param.substr(equals + 1)));
  return weight >= 0;
}

}  // namespace

bool AcceptsGzip(std::string_view accept_encoding) {
  int gzip = -1;  // the weight given to gzip, -1 while not listed
  int any = -1;   // the weight given to "*"
  while (!accept_encoding.empty()) {
    const auto comma = accept_encoding.find(',');
    std::string_view element = accept_encoding.substr(0, comma);
    accept_encoding =
        comma == std::string_view::npos ? std::string_view() : accept_encoding.substr(comma + 1);
    std::string_view coding;
    int weight = 0;
    if (!ParseElement(element, coding, weight)) continue;
    if (EqualsIgnoringCase(coding, "gzip") || EqualsIgnoringCase(coding, "x-gzip")) {
      gzip = std::max(gzip, weight);
    } else if (coding == "*") {
      any = std::max(any, weight);
    }
  }
  return gzip >= 0 ? gzip > 0 : any > 0;
}

bool CompressibleType(std::string_view content_type) {
  std::string_view type = Trim(content_type.substr(0, content_type.find(';')));
  if (type.size() > 5 && EqualsIgnoringCase(type.substr(0, 5), "text/")) {
    return !EqualsIgnoringCase(type, "text/event-stream");
  }
  return EqualsIgnoringCase(type, "application/json") ||
         EqualsIgnoringCase(type, "application/javascript") ||
         EqualsIgnoringCase(type, "image/svg+xml");
}

std::optional<std::string> Gzip(std::string_view data, int level) {
  try {
    GzipWriter writer(level);
    writer.Write(data);
    return writer.Finish();
  } catch (const std::bad_alloc&) {
    return std::nullopt;
  } catch (const std::runtime_error&) {
    return std::nullopt;
  }
}

struct GzipWriter::Stream {
  z_stream z{};
};

GzipWriter::GzipWriter(int level) : z_(std::make_unique<Stream>()) {
  if (deflateInit2(&z_->z, std::clamp(level, 1, 9), Z_DEFLATED, 15 + 16, 8, Z_DEFAULT_STRATEGY) !=
      Z_OK) {
    throw std::bad_alloc();
  }
}

GzipWriter::~GzipWriter() { deflateEnd(&z_->z); }

void GzipWriter::Write(std::string_view piece) {
  plain_size_ += piece.size();
  Deflate(piece, false);
}

std::string GzipWriter::Finish() {
  Deflate({}, true);
  out_.shrink_to_fit();
  return std::move(out_);
}

void GzipWriter::Deflate(std::string_view piece, bool finish) {
  constexpr std::size_t kPiece = std::size_t{1} << 20;  // fits zlib's uInt counts
  constexpr std::size_t kRoom = 64 * 1024;
  z_stream& z = z_->z;
  while (true) {
    if (z.avail_in == 0 && !piece.empty()) {
      const std::size_t part = std::min(piece.size(), kPiece);
      z.next_in = reinterpret_cast<Bytef*>(const_cast<char*>(piece.data()));
      z.avail_in = static_cast<uInt>(part);
      piece.remove_prefix(part);
    }
    const std::size_t before = out_.size();
    out_.resize(before + kRoom);
    z.next_out = reinterpret_cast<Bytef*>(out_.data() + before);
    z.avail_out = static_cast<uInt>(kRoom);
    const bool last = finish && piece.empty() && z.avail_in == 0;
    const int rc = deflate(&z, last ? Z_FINISH : Z_NO_FLUSH);
    out_.resize(before + kRoom - z.avail_out);
    if (rc == Z_STREAM_END) return;
    if (rc != Z_OK && rc != Z_BUF_ERROR) throw std::runtime_error("gzip: deflate failed");
    // Done with this piece once zlib took all of it and had room to spare.
    if (!last && piece.empty() && z.avail_in == 0 && z.avail_out > 0) return;
  }
}

struct GunzipReader::Stream {
  z_stream z{};
};

GunzipReader::GunzipReader(std::shared_ptr<const std::string> coded)
    : z_(std::make_unique<Stream>()), coded_(std::move(coded)) {
  if (coded_->size() > UINT_MAX) throw std::length_error("gunzip: member over 4 GiB");
  if (inflateInit2(&z_->z, 15 + 16) != Z_OK) throw std::bad_alloc();
  z_->z.next_in = reinterpret_cast<Bytef*>(const_cast<char*>(coded_->data()));
  z_->z.avail_in = static_cast<uInt>(coded_->size());
}

GunzipReader::~GunzipReader() { inflateEnd(&z_->z); }

std::optional<std::size_t> GunzipReader::Read(char* out, std::size_t n) {
  if (ended_ || n == 0) return 0;
  z_stream& z = z_->z;
  z.next_out = reinterpret_cast<Bytef*>(out);
  z.avail_out = static_cast<uInt>(std::min<std::size_t>(n, std::size_t{1} << 30));
  const uInt room = z.avail_out;
  const int rc = inflate(&z, Z_NO_FLUSH);
  if (rc == Z_STREAM_END) {
    ended_ = true;
  } else if (rc != Z_OK) {
    return std::nullopt;  // corrupt, or the member ended early (Z_BUF_ERROR)
  }
  return static_cast<std::size_t>(room - z.avail_out);
}

}  // namespace dra::metrics
