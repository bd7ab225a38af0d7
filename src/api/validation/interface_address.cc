#include "api/validation/interface_address.h"

#include <array>
#include <cstdint>
#include <optional>

namespace dra::api::validation {
namespace {

// An address in Go's 16-byte form; IPv4 is stored IPv4-mapped.
using Address = std::array<std::uint8_t, 16>;

// Go's parsers give up on numbers reaching this value.
constexpr int kBig = 0xFFFFFF;

struct Number {
  int value = 0;
  std::size_t length = 0;  // characters consumed
  bool ok = false;         // at least one digit and below kBig
};

int DigitValue(char c, int base) {
  if (c >= '0' && c <= '9') return c - '0';
  if (base == 16 && c >= 'a' && c <= 'f') return c - 'a' + 10;
  if (base == 16 && c >= 'A' && c <= 'F') return c - 'A' + 10;
  return -1;
}

Number NumberPrefix(std::string_view s, int base) {
  Number n;
  for (; n.length < s.size(); ++n.length) {
    const int digit = DigitValue(s[n.length], base);
    if (digit < 0) break;
    n.value = n.value * base + digit;
    if (n.value >= kBig) return {kBig, n.length, false};
  }
  n.ok = n.length > 0;
  return n;
}

std::optional<Address> ParseIPv4(std::string_view s) {
  Address ip{};
  ip[10] = ip[11] = 0xff;
  for (int i = 0; i < 4; ++i) {
    if (s.empty()) return std::nullopt;
    if (i > 0) {
      if (s[0] != '.') return std::nullopt;
      s.remove_prefix(1);
    }
    // Leading zeros are accepted and read as decimal (the "sloppy" parser).
    const Number octet = NumberPrefix(s, 10);
    if (!octet.ok || octet.value > 0xff) return std::nullopt;
    s.remove_prefix(octet.length);
    ip[12 + i] = static_cast<std::uint8_t>(octet.value);
  }
  if (!s.empty()) return std::nullopt;
  return ip;
}

std::optional<Address> ParseIPv6(std::string_view s) {
  Address ip{};
  int ellipsis = -1;  // byte offset of "::"
  if (s.size() >= 2 && s[0] == ':' && s[1] == ':') {
    ellipsis = 0;
    s.remove_prefix(2);
    if (s.empty()) return ip;
  }
  int i = 0;
  while (i < 16) {
    const Number group = NumberPrefix(s, 16);
    if (!group.ok || group.value > 0xffff) return std::nullopt;
    if (group.length < s.size() && s[group.length] == '.') {
      // A trailing embedded IPv4 address fills the last four bytes.
      if ((ellipsis < 0 && i != 12) || i + 4 > 16) return std::nullopt;
      std::optional<Address> v4 = ParseIPv4(s);
      if (!v4) return std::nullopt;
      for (int k = 0; k < 4; ++k) ip[i + k] = (*v4)[12 + k];
      s = {};
      i += 4;
      break;
    }
    ip[i] = static_cast<std::uint8_t>(group.value >> 8);
    ip[i + 1] = static_cast<std::uint8_t>(group.value);
    i += 2;
    s.remove_prefix(group.length);
    if (s.empty()) break;
    if (s[0] != ':' || s.size() == 1) return std::nullopt;
    s.remove_prefix(1);
    if (s[0] == ':') {
      if (ellipsis >= 0) return std::nullopt;
      ellipsis = i;
      s.remove_prefix(1);
      if (s.empty()) break;
    }
  }
  if (!s.empty()) return std::nullopt;
  if (i < 16) {
    if (ellipsis < 0) return std::nullopt;
    const int shift = 16 - i;
    for (int j = i - 1; j >= ellipsis; --j) ip[j + shift] = ip[j];
    for (int j = ellipsis + shift - 1; j >= ellipsis; --j) ip[j] = 0;
  } else if (ellipsis >= 0) {
    return std::nullopt;  // "::" must stand for at least one group
  }
  return ip;
}

bool IsIPv4(const Address& ip) {
  for (int i = 0; i < 10; ++i) {
    if (ip[i] != 0) return false;
  }
  return ip[10] == 0xff && ip[11] == 0xff;
}

// Go's net.IP.String: dotted quad for IPv4, RFC 5952 text for IPv6 (the
// first longest run of two or more zero groups becomes "::").
std::string Format(const Address& ip) {
  std::string out;
  if (IsIPv4(ip)) {
    for (int i = 12; i < 16; ++i) {
      if (i > 12) out += '.';
      out += std::to_string(ip[i]);
    }
    return out;
  }
  auto group = [&ip](int g) { return (ip[2 * g] << 8) | ip[2 * g + 1]; };
  int zero_start = -1;
  int zero_end = -1;
  for (int g = 0; g < 8; ++g) {
    int end = g;
    while (end < 8 && group(end) == 0) ++end;
    if (end - g >= 2 && end - g > zero_end - zero_start) {
      zero_start = g;
      zero_end = end;
    }
  }
  static constexpr char kHex[] = "0123456789abcdef";
  for (int g = 0; g < 8; ++g) {
    if (g == zero_start) {
      out += "::";
      g = zero_end;
      if (g >= 8) break;
    } else if (g > 0) {
      out += ':';
    }
    const int value = group(g);
    bool started = false;
    for (int shift = 12; shift >= 0; shift -= 4) {
      const int nibble = (value >> shift) & 0xf;
      if (nibble != 0 || started || shift == 0) {
        out += kHex[nibble];
        started = true;
      }
    }
  }
  return out;
}

}  // namespace

void ValidateInterfaceAddress(std::string_view value, const std::string& field,
                              FieldErrors& errors) {
  const std::size_t slash = value.find('/');
  std::optional<Address> ip;
  int bits = 32;
  Number prefix;
  if (slash != std::string_view::npos) {
    const std::string_view address = value.substr(0, slash);
    ip = ParseIPv4(address);
    if (!ip) {
      bits = 128;
      ip = ParseIPv6(address);
    }
    prefix = NumberPrefix(value.substr(slash + 1), 10);
  }
  if (!ip || !prefix.ok || prefix.length != value.size() - slash - 1 || prefix.value > bits) {
    errors.push_back(InvalidString(
        field, value,
        "must be a valid address in CIDR form, (e.g. 10.9.8.7/24 or 2001:db8::1/64)"));
    return;
  }
  int length = prefix.value;
  // "::ffff:192.168.0.1/120" is the IPv4 address with a 24-bit prefix. A
  // mapped address with a shorter prefix yields a negative length, as
  // upstream's arithmetic does.
  if (IsIPv4(*ip) && length > 32) length -= 96;
  const std::string canonical = Format(*ip) + "/" + std::to_string(length);
  if (value != canonical) {
    errors.push_back(
        InvalidString(field, value, "must be in canonical form (" + GoQuote(canonical) + ")"));
  }
}

}  // namespace dra::api::validation
