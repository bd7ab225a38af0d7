// The Kubernetes IP, CIDR and URL CEL libraries (k8s.io/apiserver pkg/cel/library
// ip.go, cidr.go, urls.go).
// Addresses follow Go's net/netip rules (and its error texts), URLs Go's
// net/url ParseRequestURI, since upstream is built on those.
#include <array>
#include <cstdint>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "cel/runtime.h"
#include "dra/api/field_error.h"

namespace dra::cel {
namespace {

using K = ValueKind;

// ---------------------------------------------------------------------------
// Addresses.

struct Addr {
  std::array<std::uint8_t, 16> bytes{};
  bool v4 = false;
  bool has_zone = false;
  std::size_t size() const { return v4 ? 4 : 16; }
  std::string Payload() const {
    return std::string(reinterpret_cast<const char*>(bytes.data()), size());
  }
  bool Is4In6() const {
    if (v4) return false;
    for (int i = 0; i < 10; ++i) {
      if (bytes[i] != 0) return false;
    }
    return bytes[10] == 0xff && bytes[11] == 0xff;
  }
};

Addr FromPayload(std::string_view p) {
  Addr a;
  a.v4 = p.size() == 4;
  for (std::size_t i = 0; i < a.size(); ++i) a.bytes[i] = static_cast<std::uint8_t>(p[i]);
  return a;
}

// Sets *error to Go's ParseAddr message and returns false on failure.
class AddrParser {
 public:
  explicit AddrParser(std::string_view in) : in_(in) {}

  bool Parse(Addr* out, std::string* error) {
    error_ = error;
    if (in_.empty()) return Fail("unable to parse IP");
    for (char c : in_) {
      if (c == '.') {
        out->v4 = true;
        return ParseV4Fields(0, in_.size(), out->bytes.data());
      }
      if (c == ':') return ParseV6(out);
      if (c == '%') return Fail("missing IPv6 address");
    }
    return Fail("unable to parse IP");
  }

 private:
  bool Fail(std::string_view msg, std::string_view at = {}, bool with_at = false) {
    *error_ = "ParseAddr(" + api::GoQuote(in_) + "): " + std::string(msg);
    if (with_at) *error_ += " (at " + api::GoQuote(at) + ")";
    return false;
  }

  bool ParseV4Fields(std::size_t begin, std::size_t end, std::uint8_t* fields) {
    int value = 0, digits = 0, pos = 0;
    for (std::size_t i = begin; i < end; ++i) {
      char c = in_[i];
      if (c >= '0' && c <= '9') {
        if (digits == 1 && value == 0) return Fail("IPv4 field has octet with leading zero");
        value = value * 10 + (c - '0');
        ++digits;
        if (value > 255) return Fail("IPv4 field has value >255");
      } else if (c == '.') {
        if (i == begin || i == end - 1 || in_[i - 1] == '.') {
          return Fail("IPv4 field must have at least one digit", in_.substr(i, end - i), true);
        }
        if (pos == 3) return Fail("IPv4 address too long");
        fields[pos++] = static_cast<std::uint8_t>(value);
        value = 0;
        digits = 0;
      } else {
        return Fail("unexpected character", in_.substr(i, end - i), true);
      }
    }
    if (pos < 3) return Fail("IPv4 address too short");
    fields[3] = static_cast<std::uint8_t>(value);
    return true;
  }

  static int HexValue(char c) {
    if (c >= '0' && c <= '9') return c - '0';
    if (c >= 'a' && c <= 'f') return c - 'a' + 10;
    if (c >= 'A' && c <= 'F') return c - 'A' + 10;
    return -1;
  }

  bool ParseV6(Addr* out) {
    std::string_view s = in_;
    std::size_t zone_at = s.find('%');
    std::size_t zone_len = 0;
    if (zone_at != std::string_view::npos) {
      zone_len = s.size() - zone_at - 1;
      if (zone_len == 0) return Fail("zone must be a non-empty string");
      s = s.substr(0, zone_at);
      out->has_zone = true;
    }
    std::uint8_t* ip = out->bytes.data();
    int ellipsis = -1;
    int i = 0;
    if (s.size() >= 2 && s[0] == ':' && s[1] == ':') {
      ellipsis = 0;
      s.remove_prefix(2);
      if (s.empty()) return true;
    }
    while (i < 16) {
      std::size_t off = 0;
      std::uint32_t acc = 0;
      for (; off < s.size(); ++off) {
        int h = HexValue(s[off]);
        if (h < 0) break;
        acc = (acc << 4) + static_cast<std::uint32_t>(h);
        if (off > 3) return Fail("each group must have 4 or less digits", s, true);
        if (acc > 0xffff) return Fail("IPv6 field has value >=2^16", s, true);
      }
      if (off == 0) return Fail("each colon-separated field must have at least one digit", s, true);
      if (off < s.size() && s[off] == '.') {
        if (ellipsis < 0 && i != 12) {
          return Fail("embedded IPv4 address must replace the final 2 fields of the address", s,
                      true);
        }
        if (i + 4 > 16) {
          return Fail("too many hex fields to fit an embedded IPv4 at the end of the address", s,
                      true);
        }
        std::size_t end = in_.size() - (out->has_zone ? zone_len + 1 : 0);
        if (!ParseV4Fields(end - s.size(), end, ip + i)) return false;
        s = {};
        i += 4;
        break;
      }
      ip[i] = static_cast<std::uint8_t>(acc >> 8);
      ip[i + 1] = static_cast<std::uint8_t>(acc);
      i += 2;
      s.remove_prefix(off);
      if (s.empty()) break;
      if (s[0] != ':') return Fail("unexpected character, want colon", s, true);
      if (s.size() == 1) return Fail("colon must be followed by more characters", s, true);
      s.remove_prefix(1);
      if (s[0] == ':') {
        if (ellipsis >= 0) return Fail("multiple :: in address", s, true);
        ellipsis = i;
        s.remove_prefix(1);
        if (s.empty()) break;
      }
    }
    if (!s.empty()) return Fail("trailing garbage after address", s, true);
    if (i < 16) {
      if (ellipsis < 0) return Fail("address string too short");
      int n = 16 - i;
      for (int j = i - 1; j >= ellipsis; --j) ip[j + n] = ip[j];
      for (int j = ellipsis + n - 1; j >= ellipsis; --j) ip[j] = 0;
    } else if (ellipsis >= 0) {
      return Fail("the :: must expand to at least one field of zeros");
    }
    return true;
  }

  std::string_view in_;
  std::string* error_ = nullptr;
};

std::string AddrString(const Addr& a) {
  std::string out;
  if (a.v4) {
    for (int i = 0; i < 4; ++i) {
      if (i) out += '.';
      out += std::to_string(a.bytes[i]);
    }
    return out;
  }
  std::uint16_t groups[8];
  for (int i = 0; i < 8; ++i)
    groups[i] = static_cast<std::uint16_t>(a.bytes[2 * i] << 8 | a.bytes[2 * i + 1]);
  // The longest run of two or more zero groups (the first on a tie) becomes "::".
  int best = -1, best_len = 1;
  for (int i = 0; i < 8;) {
    if (groups[i] != 0) {
      ++i;
      continue;
    }
    int j = i;
    while (j < 8 && groups[j] == 0) ++j;
    if (j - i > best_len) {
      best = i;
      best_len = j - i;
    }
    i = j;
  }
  static const char kHex[] = "0123456789abcdef";
  for (int i = 0; i < 8; ++i) {
    if (i == best) {
      out += "::";
      i += best_len - 1;
      continue;
    }
    if (i > 0 && i != best + best_len) out += ':';
    std::uint16_t g = groups[i];
    bool started = false;
    for (int shift = 12; shift >= 0; shift -= 4) {
      int d = (g >> shift) & 15;
      if (d || started || shift == 0) {
        out += kHex[d];
        started = true;
      }
    }
  }
  return out;
}

// Kubernetes' ip() acceptance: Go ParseAddr, then no zone, no IPv4-mapped IPv6.
bool ParseIP(std::string_view s, Addr* out, std::string* error) {
  std::string detail;
  if (!AddrParser(s).Parse(out, &detail)) {
    *error =
        "IP Address " + api::GoQuote(s) + " parse error during conversion from string: " + detail;
    return false;
  }
  if (out->has_zone) {
    *error = "IP address " + api::GoQuote(s) + " with zone value is not allowed";
    return false;
  }
  if (out->Is4In6()) {
    *error = "IPv4-mapped IPv6 address " + api::GoQuote(s) + " is not allowed";
    return false;
  }
  return true;
}

struct Prefix {
  Addr addr;
  int bits = 0;
  std::string Payload() const { return addr.Payload() + static_cast<char>(bits); }
};

Prefix PrefixFromPayload(std::string_view p) {
  Prefix r;
  r.addr = FromPayload(p.substr(0, p.size() - 1));
  r.bits = static_cast<unsigned char>(p.back());
  return r;
}

Addr Mask(const Addr& a, int bits) {
  Addr m = a;
  for (std::size_t i = 0; i < m.size(); ++i) {
    int keep = bits - static_cast<int>(i) * 8;
    if (keep >= 8) continue;
    m.bytes[i] = keep <= 0 ? 0 : static_cast<std::uint8_t>(m.bytes[i] & (0xff << (8 - keep)));
  }
  return m;
}

bool SameAddr(const Addr& a, const Addr& b) { return a.v4 == b.v4 && a.bytes == b.bytes; }

// Go's netip.ParsePrefix (error text "netip.ParsePrefix(...): ...").
bool ParsePrefixGo(std::string_view s, Prefix* out, std::string* error) {
  auto fail = [&](const std::string& msg) {
    *error = "netip.ParsePrefix(" + api::GoQuote(s) + "): " + msg;
    return false;
  };
  std::size_t slash = s.rfind('/');
  if (slash == std::string_view::npos) return fail("no '/'");
  std::string detail;
  if (!AddrParser(s.substr(0, slash)).Parse(&out->addr, &detail)) return fail(detail);
  if (!out->addr.v4 && out->addr.has_zone) return fail("IPv6 zones cannot be present in a prefix");
  std::string_view bits = s.substr(slash + 1);
  bool ok = !bits.empty() && bits.size() <= 9 && (bits.size() == 1 || bits[0] != '0');
  int value = 0;
  for (char c : bits) {
    if (c < '0' || c > '9') ok = false;
    if (ok) value = value * 10 + (c - '0');
  }
  if (!ok) return fail("bad bits after slash: " + api::GoQuote(bits));
  if (value > (out->addr.v4 ? 32 : 128)) return fail("prefix length out of range");
  out->bits = value;
  return true;
}

bool ParseCIDR(std::string_view s, Prefix* out, std::string* error) {
  std::string detail;
  if (!ParsePrefixGo(s, out, &detail)) {
    *error = "network address parse error during conversion from string: " + detail;
    return false;
  }
  if (out->addr.Is4In6()) {
    *error = "IPv4-mapped IPv6 address " + api::GoQuote(s) + " is not allowed";
    return false;
  }
  return true;
}

constexpr std::string_view kCIDRPrefix =
    "network address parse error during conversion from string: ";

Value MakeIP(std::string_view s) {
  Addr a;
  std::string error;
  if (!ParseIP(s, &a, &error)) return Value::Error(error);
  return Value::Opaque(K::kIP, a.Payload());
}

Value MakeCIDR(std::string_view s) {
  Prefix p;
  std::string error;
  if (!ParseCIDR(s, &p, &error)) return Value::Error(std::string(kCIDRPrefix) + error);
  return Value::Opaque(K::kCIDR, p.Payload());
}

Value IPOf(EvalContext&, const Value* a, std::size_t) {
  if (a[0].kind() != K::kString) return NoSuchOverload();
  return MakeIP(a[0].str());
}

Value IsIP(EvalContext&, const Value* a, std::size_t) {
  if (a[0].kind() != K::kString) return NoSuchOverload();
  Addr addr;
  std::string error;
  return Value::Bool(ParseIP(a[0].str(), &addr, &error));
}

Value IsCanonical(EvalContext&, const Value* a, std::size_t) {
  if (a[0].kind() != K::kString) return NoSuchOverload();
  Addr addr;
  std::string error;
  if (!ParseIP(a[0].str(), &addr, &error)) return Value::Error(error);
  return Value::Bool(AddrString(addr) == a[0].str());
}

enum class IPTest {
  kUnspecified,
  kLoopback,
  kLinkLocalMulticast,
  kLinkLocalUnicast,
  kGlobalUnicast
};

bool Test(const Addr& a, IPTest t) {
  const auto& b = a.bytes;
  bool zero = true;
  for (std::size_t i = 0; i < a.size(); ++i) zero = zero && b[i] == 0;
  bool loopback = a.v4 ? b[0] == 127 : b[15] == 1;
  for (int i = 0; !a.v4 && i < 15; ++i) loopback = loopback && b[i] == 0;
  bool multicast = a.v4 ? (b[0] & 0xf0) == 0xe0 : b[0] == 0xff;
  bool ll_unicast = a.v4 ? b[0] == 169 && b[1] == 254 : b[0] == 0xfe && (b[1] & 0xc0) == 0x80;
  switch (t) {
    case IPTest::kUnspecified:
      return zero;
    case IPTest::kLoopback:
      return loopback;
    case IPTest::kLinkLocalMulticast:
      return a.v4 ? b[0] == 224 && b[1] == 0 && b[2] == 0 : b[0] == 0xff && (b[1] & 0x0f) == 0x02;
    case IPTest::kLinkLocalUnicast:
      return ll_unicast;
    case IPTest::kGlobalUnicast: {
      bool broadcast = a.v4 && b[0] == 255 && b[1] == 255 && b[2] == 255 && b[3] == 255;
      return !zero && !broadcast && !loopback && !multicast && !ll_unicast;
    }
  }
  return false;
}

template <IPTest T>
Value IPPredicate(EvalContext&, const Value* a, std::size_t) {
  if (a[0].kind() != K::kIP) return NoSuchOverload();
  return Value::Bool(Test(FromPayload(a[0].str()), T));
}

Value Family(EvalContext&, const Value* a, std::size_t) {
  if (a[0].kind() != K::kIP) return NoSuchOverload();
  return Value::Int(a[0].str().size() == 4 ? 4 : 6);
}

Value CIDROf(EvalContext&, const Value* a, std::size_t) {
  if (a[0].kind() != K::kString) return NoSuchOverload();
  return MakeCIDR(a[0].str());
}

Value IsCIDR(EvalContext&, const Value* a, std::size_t) {
  if (a[0].kind() != K::kString) return NoSuchOverload();
  Prefix p;
  std::string error;
  return Value::Bool(ParseCIDR(a[0].str(), &p, &error));
}

Value ContainsIP(EvalContext&, const Value* a, std::size_t) {
  if (a[0].kind() != K::kCIDR) return NoSuchOverload();
  Value ip = a[1].kind() == K::kString ? MakeIP(a[1].str()) : a[1];
  if (ip.is_error()) return ip;
  if (ip.kind() != K::kIP) return NoSuchOverload();
  Prefix p = PrefixFromPayload(a[0].str());
  Addr addr = FromPayload(ip.str());
  return Value::Bool(addr.v4 == p.addr.v4 && SameAddr(Mask(addr, p.bits), Mask(p.addr, p.bits)));
}

// Upstream's rule: the receiver's masked network must equal the argument's
// address (unmasked) under the receiver's prefix length, and the argument's
// prefix must be at least as long.
Value ContainsCIDR(EvalContext&, const Value* a, std::size_t) {
  if (a[0].kind() != K::kCIDR) return NoSuchOverload();
  Value other = a[1].kind() == K::kString ? MakeCIDR(a[1].str()) : a[1];
  if (other.is_error()) return other;
  if (other.kind() != K::kCIDR) return NoSuchOverload();
  Prefix p = PrefixFromPayload(a[0].str());
  Prefix q = PrefixFromPayload(other.str());
  return Value::Bool(SameAddr(Mask(p.addr, p.bits), q.addr) && p.bits <= q.bits);
}

Value CIDRAddress(EvalContext&, const Value* a, std::size_t) {
  if (a[0].kind() != K::kCIDR) return NoSuchOverload();
  return Value::Opaque(K::kIP, PrefixFromPayload(a[0].str()).addr.Payload());
}

Value Masked(EvalContext&, const Value* a, std::size_t) {
  if (a[0].kind() != K::kCIDR) return NoSuchOverload();
  Prefix p = PrefixFromPayload(a[0].str());
  p.addr = Mask(p.addr, p.bits);
  return Value::Opaque(K::kCIDR, p.Payload());
}

Value PrefixLength(EvalContext&, const Value* a, std::size_t) {
  if (a[0].kind() != K::kCIDR) return NoSuchOverload();
  return Value::Int(PrefixFromPayload(a[0].str()).bits);
}

// ---------------------------------------------------------------------------
// URLs: Go's url.ParseRequestURI (an absolute URI or an absolute path; no
// fragment splitting), with its error texts.

struct URL {
  std::string scheme;
  std::string host;      // unescaped
  std::string raw_path;  // as written
  std::string path;      // unescaped
  std::string raw_query;
};

int Unhex(char c) {
  if (c >= '0' && c <= '9') return c - '0';
  if (c >= 'a' && c <= 'f') return c - 'a' + 10;
  if (c >= 'A' && c <= 'F') return c - 'A' + 10;
  return -1;
}

bool IsAlnum(char c) {
  return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9');
}

enum class Mode { kPath, kHost, kQueryComponent };

// Characters Go's url package escapes in a host name (kHost) or a path.
bool ShouldEscape(char c, Mode mode) {
  if (IsAlnum(c) || c == '-' || c == '_' || c == '.' || c == '~') return false;
  if (mode == Mode::kHost &&
      std::string_view("!$&'()*+,;=:[]<>\"").find(c) != std::string_view::npos)
    return false;
  if (std::string_view("$&+,/:;=?@").find(c) != std::string_view::npos) {
    if (mode == Mode::kPath) return c == '?';
    if (mode == Mode::kQueryComponent) return true;
  }
  return true;
}

bool Unescape(std::string_view s, Mode mode, std::string* out, std::string* error) {
  out->clear();
  for (std::size_t i = 0; i < s.size(); ++i) {
    char c = s[i];
    if (c == '%') {
      if (i + 2 >= s.size() || Unhex(s[i + 1]) < 0 || Unhex(s[i + 2]) < 0) {
        *error = "invalid URL escape " + api::GoQuote(s.substr(i, 3));
        return false;
      }
      if (mode == Mode::kHost && Unhex(s[i + 1]) < 8 && s.substr(i, 3) != "%25") {
        *error = "invalid URL escape " + api::GoQuote(s.substr(i, 3));
        return false;
      }
      *out += static_cast<char>(Unhex(s[i + 1]) << 4 | Unhex(s[i + 2]));
      i += 2;
    } else if (c == '+' && mode == Mode::kQueryComponent) {
      *out += ' ';
    } else {
      if (mode == Mode::kHost && static_cast<unsigned char>(c) < 0x80 && ShouldEscape(c, mode)) {
        *error = "invalid character " + api::GoQuote(std::string_view(&s[i], 1)) + " in host name";
        return false;
      }
      *out += c;
    }
  }
  return true;
}

std::string EscapePath(std::string_view s) {
  static const char kHex[] = "0123456789ABCDEF";
  std::string out;
  for (char c : s) {
    if (ShouldEscape(c, Mode::kPath)) {
      auto u = static_cast<unsigned char>(c);
      out += '%';
      out += kHex[u >> 4];
      out += kHex[u & 15];
    } else {
      out += c;
    }
  }
  return out;
}

bool ValidPort(std::string_view colon_port) {
  if (colon_port.empty()) return true;
  if (colon_port[0] != ':') return false;
  for (char c : colon_port.substr(1)) {
    if (c < '0' || c > '9') return false;
  }
  return true;
}

bool ParseHost(std::string_view host, std::string* out, std::string* error) {
  std::size_t colon = std::string_view::npos;
  if (!host.empty() && host[0] == '[') {
    std::size_t close = host.rfind(']');
    if (close == std::string_view::npos) {
      *error = "missing ']' in host";
      return false;
    }
    colon = close + 1;
  } else {
    colon = host.rfind(':');
  }
  if (colon != std::string_view::npos && colon <= host.size() && !ValidPort(host.substr(colon))) {
    *error = "invalid port " + api::GoQuote(host.substr(colon)) + " after host";
    return false;
  }
  return Unescape(host, Mode::kHost, out, error);
}

bool ValidUserinfo(std::string_view s) {
  for (char c : s) {
    if (!IsAlnum(c) && std::string_view("-._:~!$&'()*+,;=%@").find(c) == std::string_view::npos)
      return false;
  }
  return true;
}

bool ParseRequestURI(std::string_view raw, URL* u, std::string* error) {
  auto fail = [&](const std::string& msg) {
    *error = "parse " + api::GoQuote(raw) + ": " + msg;
    return false;
  };
  for (char c : raw) {
    if (static_cast<unsigned char>(c) < 0x20 || c == 0x7f)
      return fail("net/url: invalid control character in URL");
  }
  if (raw.empty()) return fail("empty url");
  if (raw == "*") {
    u->path = u->raw_path = "*";
    return true;
  }
  std::string_view rest = raw;
  for (std::size_t i = 0; i < raw.size(); ++i) {
    char c = raw[i];
    if ((c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z')) continue;
    if ((c >= '0' && c <= '9') || c == '+' || c == '-' || c == '.') {
      if (i == 0) break;
      continue;
    }
    if (c == ':') {
      if (i == 0) return fail("missing protocol scheme");
      for (char s : raw.substr(0, i)) {
        u->scheme += static_cast<char>(s >= 'A' && s <= 'Z' ? s - 'A' + 'a' : s);
      }
      rest = raw.substr(i + 1);
    }
    break;
  }
  std::size_t question = rest.find('?');
  if (question != std::string_view::npos) {
    if (question + 1 != rest.size()) u->raw_query = std::string(rest.substr(question + 1));
    rest = rest.substr(0, question);
  }
  if (rest.empty() || rest[0] != '/') {
    if (!u->scheme.empty()) return true;  // opaque
    return fail("invalid URI for request");
  }
  if (!u->scheme.empty() && rest.substr(0, 2) == "//") {
    std::string_view authority = rest.substr(2);
    rest = {};
    if (std::size_t slash = authority.find('/'); slash != std::string_view::npos) {
      rest = authority.substr(slash);
      authority = authority.substr(0, slash);
    }
    std::size_t at = authority.rfind('@');
    std::string_view host = at == std::string_view::npos ? authority : authority.substr(at + 1);
    std::string detail;
    if (!ParseHost(host, &u->host, &detail)) return fail(detail);
    if (at != std::string_view::npos) {
      if (!ValidUserinfo(authority.substr(0, at))) return fail("net/url: invalid userinfo");
    }
  }
  std::string detail;
  if (!Unescape(rest, Mode::kPath, &u->path, &detail)) return fail(detail);
  u->raw_path = std::string(rest);
  return true;
}

bool ValidEncodedPath(std::string_view s) {
  for (char c : s) {
    if (std::string_view("!$&'()*+,;=:@[]%").find(c) != std::string_view::npos) continue;
    if (ShouldEscape(c, Mode::kPath)) return false;
  }
  return true;
}

std::string EscapedPath(const URL& u) {
  if (u.path == "*") return "*";
  if (!u.raw_path.empty() && ValidEncodedPath(u.raw_path)) return u.raw_path;
  return EscapePath(u.path);
}

std::pair<std::string_view, std::string_view> SplitHostPort(std::string_view host) {
  std::string_view port;
  std::size_t colon = host.rfind(':');
  if (colon != std::string_view::npos && ValidPort(host.substr(colon))) {
    port = host.substr(colon + 1);
    host = host.substr(0, colon);
  }
  if (host.size() >= 2 && host.front() == '[' && host.back() == ']') {
    host = host.substr(1, host.size() - 2);
  }
  return {host, port};
}

Value URLOf(EvalContext&, const Value* a, std::size_t) {
  if (a[0].kind() != K::kString) return NoSuchOverload();
  URL u;
  std::string error;
  if (!ParseRequestURI(a[0].str(), &u, &error)) {
    return Value::Error("URL parse error during conversion from string: " + error);
  }
  return Value::Opaque(K::kURL, std::string(a[0].str()));
}

Value IsURL(EvalContext&, const Value* a, std::size_t) {
  if (a[0].kind() != K::kString) return NoSuchOverload();
  URL u;
  std::string error;
  return Value::Bool(ParseRequestURI(a[0].str(), &u, &error));
}

enum class URLPart { kScheme, kHost, kHostname, kPort, kEscapedPath };

template <URLPart P>
Value URLAccessor(EvalContext&, const Value* a, std::size_t) {
  if (a[0].kind() != K::kURL) return NoSuchOverload();
  URL u;
  std::string error;
  if (!ParseRequestURI(a[0].str(), &u, &error)) return Value::Error(error);
  switch (P) {
    case URLPart::kScheme:
      return Value::String(u.scheme);
    case URLPart::kHost:
      return Value::String(u.host);
    case URLPart::kHostname:
      return Value::String(std::string(SplitHostPort(u.host).first));
    case URLPart::kPort:
      return Value::String(std::string(SplitHostPort(u.host).second));
    case URLPart::kEscapedPath:
      return Value::String(EscapedPath(u));
  }
  return NoSuchOverload();
}

// Go's url.ParseQuery, dropping the pairs it reports as errors.
Value GetQuery(EvalContext&, const Value* a, std::size_t) {
  if (a[0].kind() != K::kURL) return NoSuchOverload();
  URL u;
  std::string error;
  if (!ParseRequestURI(a[0].str(), &u, &error)) return Value::Error(error);
  std::vector<std::pair<std::string, std::vector<Value>>> entries;
  std::string_view q = u.raw_query;
  while (!q.empty()) {
    std::size_t amp = q.find('&');
    std::string_view pair = q.substr(0, amp);
    q = amp == std::string_view::npos ? std::string_view() : q.substr(amp + 1);
    if (pair.find(';') != std::string_view::npos || pair.empty()) continue;
    std::size_t eq = pair.find('=');
    std::string key, value;
    if (!Unescape(pair.substr(0, eq), Mode::kQueryComponent, &key, &error)) continue;
    if (eq != std::string_view::npos &&
        !Unescape(pair.substr(eq + 1), Mode::kQueryComponent, &value, &error))
      continue;
    auto it = entries.begin();
    while (it != entries.end() && it->first != key) ++it;
    if (it == entries.end()) it = entries.insert(entries.end(), {key, {}});
    it->second.push_back(Value::String(std::move(value)));
  }
  std::vector<std::pair<Value, Value>> map;
  map.reserve(entries.size());
  for (auto& [k, v] : entries) map.emplace_back(Value::String(k), Value::List(std::move(v)));
  return Value::Map(std::move(map));
}

std::uint64_t ArgStringCost(const Value* a, std::size_t) {
  return a[0].kind() == K::kString ? StringCostFactor(a[0].str().size(), 10) : 1;
}

std::uint64_t CanonicalCost(const Value* a, std::size_t n) { return 2 * ArgStringCost(a, n); }

constexpr Function kNet[] = {
    {"ip", false, 1, IPOf, ArgStringCost, true},
    {"isIP", false, 1, IsIP, ArgStringCost, true},
    {"ip.isCanonical", false, 1, IsCanonical, CanonicalCost, true},
    {"family", true, 1, Family, nullptr, true},
    {"isUnspecified", true, 1, IPPredicate<IPTest::kUnspecified>, nullptr, true},
    {"isLoopback", true, 1, IPPredicate<IPTest::kLoopback>, nullptr, true},
    {"isLinkLocalMulticast", true, 1, IPPredicate<IPTest::kLinkLocalMulticast>, nullptr, true},
    {"isLinkLocalUnicast", true, 1, IPPredicate<IPTest::kLinkLocalUnicast>, nullptr, true},
    {"isGlobalUnicast", true, 1, IPPredicate<IPTest::kGlobalUnicast>, nullptr, true},
    {"cidr", false, 1, CIDROf, ArgStringCost, true},
    {"isCIDR", false, 1, IsCIDR, ArgStringCost, true},
    {"containsIP", true, 2, ContainsIP, nullptr, true},
    {"containsCIDR", true, 2, ContainsCIDR, nullptr, true},
    {"ip", true, 1, CIDRAddress, nullptr, true},
    {"masked", true, 1, Masked, nullptr, true},
    {"prefixLength", true, 1, PrefixLength, nullptr, true},
    {"url", false, 1, URLOf, ArgStringCost, true},
    {"isURL", false, 1, IsURL, nullptr, true},
    {"getScheme", true, 1, URLAccessor<URLPart::kScheme>, nullptr, true},
    {"getHost", true, 1, URLAccessor<URLPart::kHost>, nullptr, true},
    {"getHostname", true, 1, URLAccessor<URLPart::kHostname>, nullptr, true},
    {"getPort", true, 1, URLAccessor<URLPart::kPort>, nullptr, true},
    {"getEscapedPath", true, 1, URLAccessor<URLPart::kEscapedPath>, nullptr, true},
    {"getQuery", true, 1, GetQuery, nullptr, true},
};

}  // namespace

Value NetToString(const Value& v) {
  if (v.kind() == K::kIP) return Value::String(AddrString(FromPayload(v.str())));
  if (v.kind() == K::kCIDR) {
    Prefix p = PrefixFromPayload(v.str());
    return Value::String(AddrString(p.addr) + "/" + std::to_string(p.bits));
  }
  return NoSuchOverload();
}

FunctionTable NetFunctions() { return {std::begin(kNet), std::end(kNet)}; }

}  // namespace dra::cel
