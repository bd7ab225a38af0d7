#include "cel/semver.h"

#include <algorithm>
#include <cctype>

namespace dra::cel {
namespace {

bool AllDigits(std::string_view s) {
  return !s.empty() && std::all_of(s.begin(), s.end(), [](char c) { return c >= '0' && c <= '9'; });
}

bool IsIdentifierChar(char c) {
  return (c >= '0' && c <= '9') || (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || c == '-';
}

std::vector<std::string_view> SplitDots(std::string_view s) {
  std::vector<std::string_view> parts;
  std::size_t start = 0;
  for (;;) {
    std::size_t dot = s.find('.', start);
    parts.push_back(s.substr(start, dot == std::string_view::npos ? dot : dot - start));
    if (dot == std::string_view::npos) return parts;
    start = dot + 1;
  }
}

Result<std::uint64_t> ParseNumber(std::string_view s, std::string_view what) {
  if (!AllDigits(s)) {
    return Error{"Invalid character(s) found in " + std::string(what) + " \"" + std::string(s) +
                 "\""};
  }
  if (s.size() > 1 && s[0] == '0') {
    return Error{std::string(1, static_cast<char>(std::toupper(what[0]))) +
                 std::string(what.substr(1)) + " number must not contain leading zeroes \"" +
                 std::string(s) + "\""};
  }
  std::uint64_t v = 0;
  for (char c : s) {
    std::uint64_t next = v * 10 + static_cast<std::uint64_t>(c - '0');
    if (v > (UINT64_MAX - 9) / 10)
      return Error{"Invalid character(s) found in " + std::string(what)};
    v = next;
  }
  return v;
}

}  // namespace

Result<Semver> ParseSemver(std::string_view s) {
  if (s.empty()) return Error{"Version string empty"};
  // Major.Minor.Patch[-pre][+build]
  std::size_t plus = s.find('+');
  std::string_view build;
  if (plus != std::string_view::npos) {
    build = s.substr(plus + 1);
    s = s.substr(0, plus);
    if (build.empty()) return Error{"Build meta data is empty"};
    for (std::string_view part : SplitDots(build)) {
      if (part.empty()) return Error{"Build meta data can not be empty \"\""};
      if (!std::all_of(part.begin(), part.end(), IsIdentifierChar)) {
        return Error{"Invalid character(s) found in build meta data \"" + std::string(part) + "\""};
      }
    }
  }
  std::size_t dash = s.find('-');
  std::string_view pre;
  bool has_pre = dash != std::string_view::npos;
  if (has_pre) {
    pre = s.substr(dash + 1);
    s = s.substr(0, dash);
  }
  std::vector<std::string_view> parts = SplitDots(s);
  if (parts.size() != 3) return Error{"No Major.Minor.Patch elements found"};
  Semver v;
  auto major = ParseNumber(parts[0], "major number");
  if (!major) return major.failure();
  auto minor = ParseNumber(parts[1], "minor number");
  if (!minor) return minor.failure();
  auto patch = ParseNumber(parts[2], "patch number");
  if (!patch) return patch.failure();
  v.major = *major;
  v.minor = *minor;
  v.patch = *patch;
  if (has_pre) {
    if (pre.empty()) return Error{"Prerelease is empty"};
    for (std::string_view part : SplitDots(pre)) {
      if (part.empty()) return Error{"Prerelease meta data can not be empty \"\""};
      if (!std::all_of(part.begin(), part.end(), IsIdentifierChar)) {
        return Error{"Invalid character(s) found in prerelease \"" + std::string(part) + "\""};
      }
      if (AllDigits(part) && part.size() > 1 && part[0] == '0') {
        return Error{"Numeric PreRelease version must not contain leading zeroes \"" +
                     std::string(part) + "\""};
      }
      v.pre_release.emplace_back(part);
    }
  }
  return v;
}

Result<Semver> ParseSemverNormalized(std::string_view text) {
  std::string s(text);
  if (!s.empty() && s[0] == 'v') s.erase(0, 1);
  // Split off pre-release/build metadata before padding.
  std::size_t meta = s.find_first_of("-+");
  std::string core = s.substr(0, meta);
  std::string rest = meta == std::string::npos ? "" : s.substr(meta);
  std::vector<std::string_view> parts = SplitDots(core);
  if (parts.size() < 3) {
    if (!rest.empty()) return Error{"No Major.Minor.Patch elements found"};
  }
  std::string normalized;
  for (std::size_t i = 0; i < std::max<std::size_t>(parts.size(), 3); ++i) {
    std::string part = i < parts.size() ? std::string(parts[i]) : "0";
    if (i < 3) {
      std::size_t nz = part.find_first_not_of('0');
      part = nz == std::string::npos ? (part.empty() ? part : "0") : part.substr(nz);
    }
    if (i > 0) normalized += '.';
    normalized += part;
  }
  return ParseSemver(normalized + rest);
}

int CompareSemver(const Semver& a, const Semver& b) {
  auto cmp = [](std::uint64_t x, std::uint64_t y) { return x < y ? -1 : x > y ? 1 : 0; };
  if (int c = cmp(a.major, b.major)) return c;
  if (int c = cmp(a.minor, b.minor)) return c;
  if (int c = cmp(a.patch, b.patch)) return c;
  if (a.pre_release.empty() || b.pre_release.empty()) {
    if (a.pre_release.empty() && b.pre_release.empty()) return 0;
    return a.pre_release.empty() ? 1 : -1;  // a release ranks above its pre-releases
  }
  std::size_t n = std::min(a.pre_release.size(), b.pre_release.size());
  for (std::size_t i = 0; i < n; ++i) {
    const std::string& x = a.pre_release[i];
    const std::string& y = b.pre_release[i];
    bool xn = AllDigits(x), yn = AllDigits(y);
    if (xn && yn) {
      if (x.size() != y.size()) return x.size() < y.size() ? -1 : 1;
      if (int c = x.compare(y)) return c < 0 ? -1 : 1;
    } else if (xn != yn) {
      return xn ? -1 : 1;  // numeric identifiers rank below alphanumeric ones
    } else if (int c = x.compare(y)) {
      return c < 0 ? -1 : 1;
    }
  }
  return cmp(a.pre_release.size(), b.pre_release.size());
}

}  // namespace dra::cel
