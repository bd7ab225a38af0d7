#include "kube/kubeconfig_internal.h"

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cctype>
#include <cerrno>
#include <cstring>
#include <vector>

namespace dra::kube::internal {

std::string ErrnoText(int err) {
  std::string text = std::strerror(err);
  // Go's errno table is glibc's text with a lower-case first letter.
  if (!text.empty() && std::isupper(static_cast<unsigned char>(text[0])) &&
      !(text.size() > 1 && std::isupper(static_cast<unsigned char>(text[1])))) {
    text[0] = static_cast<char>(std::tolower(static_cast<unsigned char>(text[0])));
  }
  return text;
}

Result<std::string> ReadFileBounded(const std::string& path, std::size_t max_bytes) {
  int fd = ::open(path.c_str(), O_RDONLY | O_CLOEXEC);
  if (fd < 0) return Error{"open " + path + ": " + ErrnoText(errno), ErrnoCode(errno)};
  std::string out;
  char buf[65536];
  for (;;) {
    ssize_t n = ::read(fd, buf, sizeof buf);
    if (n < 0) {
      if (errno == EINTR) continue;
      int err = errno;
      ::close(fd);
      return Error{"read " + path + ": " + ErrnoText(err), ErrnoCode(err)};
    }
    if (n == 0) break;
    if (out.size() + static_cast<std::size_t>(n) > max_bytes) {
      ::close(fd);
      return Error{"read " + path + ": file is larger than " + std::to_string(max_bytes) +
                   " bytes"};
    }
    out.append(buf, static_cast<std::size_t>(n));
  }
  ::close(fd);
  return out;
}

std::string StatError(const std::string& path, bool* exists, bool* is_dir) {
  struct stat st;
  if (::stat(path.c_str(), &st) == 0) {
    *exists = true;
    if (is_dir != nullptr) *is_dir = S_ISDIR(st.st_mode);
    return "";
  }
  int err = errno;
  *exists = !(err == ENOENT || err == ENOTDIR);
  if (is_dir != nullptr) *is_dir = false;
  return "stat " + path + ": " + ErrnoText(err);
}

std::string CleanPath(std::string_view path) {
  if (path.empty()) return ".";
  bool rooted = path[0] == '/';
  std::vector<std::string_view> parts;
  std::size_t i = 0;
  while (i < path.size()) {
    std::size_t j = path.find('/', i);
    if (j == std::string_view::npos) j = path.size();
    std::string_view part = path.substr(i, j - i);
    i = j + 1;
    if (part.empty() || part == ".") continue;
    if (part == "..") {
      if (!parts.empty() && parts.back() != "..") {
        parts.pop_back();
      } else if (!rooted) {
        parts.push_back(part);
      }
      continue;
    }
    parts.push_back(part);
  }
  std::string out = rooted ? "/" : "";
  for (std::size_t k = 0; k < parts.size(); ++k) {
    if (k > 0) out += '/';
    out += parts[k];
  }
  if (out.empty()) return ".";
  return out;
}

std::string DirName(std::string_view path) {
  std::size_t slash = path.rfind('/');
  if (slash == std::string_view::npos) return ".";
  return CleanPath(path.substr(0, slash + 1));
}

std::string AbsPath(std::string_view path) {
  if (!path.empty() && path[0] == '/') return CleanPath(path);
  std::vector<char> buf(4096);
  if (::getcwd(buf.data(), buf.size()) == nullptr) return CleanPath(path);
  return JoinPath(buf.data(), path);
}

std::string JoinPath(std::string_view base, std::string_view rel) {
  if (base.empty()) return CleanPath(rel);
  if (rel.empty()) return CleanPath(base);
  std::string joined(base);
  joined += '/';
  joined += rel;
  return CleanPath(joined);
}

namespace {

int Base64Value(unsigned char c) {
  if (c >= 'A' && c <= 'Z') return c - 'A';
  if (c >= 'a' && c <= 'z') return c - 'a' + 26;
  if (c >= '0' && c <= '9') return c - '0' + 52;
  if (c == '+') return 62;
  if (c == '/') return 63;
  return -1;
}

}  // namespace

Result<std::string> DecodeBase64(std::string_view text) {
  // Collect the significant characters with their input offsets (Go reports
  // the offset in the original input, newlines included).
  std::string out;
  out.reserve(text.size() / 4 * 3);
  int quantum[4];
  std::size_t offsets[4];
  int n = 0;
  std::size_t i = 0;
  auto illegal = [](std::size_t at) {
    return Error{"illegal base64 data at input byte " + std::to_string(at)};
  };
  while (i < text.size()) {
    unsigned char c = static_cast<unsigned char>(text[i]);
    if (c == '\r' || c == '\n') {
      ++i;
      continue;
    }
    if (c == '=') {
      // Padding: only in the last quantum, after at least two characters.
      if (n < 2) return illegal(i);
      ++i;
      if (n == 2) {
        while (i < text.size() && (text[i] == '\r' || text[i] == '\n')) ++i;
        if (i >= text.size() || text[i] != '=') return illegal(i);
        ++i;
      }
      while (i < text.size() && (text[i] == '\r' || text[i] == '\n')) ++i;
      if (i < text.size()) return illegal(i);
      std::uint32_t v = (static_cast<std::uint32_t>(quantum[0]) << 18) |
                        (static_cast<std::uint32_t>(quantum[1]) << 12);
      if (n == 3) v |= static_cast<std::uint32_t>(quantum[2]) << 6;
      out += static_cast<char>((v >> 16) & 0xff);
      if (n == 3) out += static_cast<char>((v >> 8) & 0xff);
      return out;
    }
    int v = Base64Value(c);
    if (v < 0) return illegal(i);
    offsets[n] = i;
    quantum[n++] = v;
    ++i;
    if (n == 4) {
      std::uint32_t w = (static_cast<std::uint32_t>(quantum[0]) << 18) |
                        (static_cast<std::uint32_t>(quantum[1]) << 12) |
                        (static_cast<std::uint32_t>(quantum[2]) << 6) |
                        static_cast<std::uint32_t>(quantum[3]);
      out += static_cast<char>((w >> 16) & 0xff);
      out += static_cast<char>((w >> 8) & 0xff);
      out += static_cast<char>(w & 0xff);
      n = 0;
    }
  }
  if (n != 0) return illegal(offsets[0]);
  return out;
}

std::string EncodeBase64(std::string_view bytes) {
  static constexpr char kAlphabet[] =
      "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/";
  std::string out;
  out.reserve((bytes.size() + 2) / 3 * 4);
  std::size_t i = 0;
  for (; i + 3 <= bytes.size(); i += 3) {
    std::uint32_t v = (static_cast<std::uint8_t>(bytes[i]) << 16) |
                      (static_cast<std::uint8_t>(bytes[i + 1]) << 8) |
                      static_cast<std::uint8_t>(bytes[i + 2]);
    out += kAlphabet[(v >> 18) & 63];
    out += kAlphabet[(v >> 12) & 63];
    out += kAlphabet[(v >> 6) & 63];
    out += kAlphabet[v & 63];
  }
  std::size_t rest = bytes.size() - i;
  if (rest > 0) {
    std::uint32_t v = static_cast<std::uint8_t>(bytes[i]) << 16;
    if (rest == 2) v |= static_cast<std::uint8_t>(bytes[i + 1]) << 8;
    out += kAlphabet[(v >> 18) & 63];
    out += kAlphabet[(v >> 12) & 63];
    out += rest == 2 ? kAlphabet[(v >> 6) & 63] : '=';
    out += '=';
  }
  return out;
}

std::string_view TrimSpace(std::string_view s) {
  auto space = [](char c) {
    return c == ' ' || c == '\t' || c == '\n' || c == '\r' || c == '\v' || c == '\f';
  };
  while (!s.empty() && space(s.front())) s.remove_prefix(1);
  while (!s.empty() && space(s.back())) s.remove_suffix(1);
  return s;
}

}  // namespace dra::kube::internal
