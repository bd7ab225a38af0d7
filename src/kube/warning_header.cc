#include "kube/warning_header.h"

#include <cctype>
#include <string>

namespace dra::kube {
namespace {

void SkipSpaces(std::string_view s, std::size_t& i) {
  while (i < s.size() && (s[i] == ' ' || s[i] == '\t')) ++i;
}

// A quoted-string starting at s[i] == '"'; backslash escapes the next byte.
bool ReadQuoted(std::string_view s, std::size_t& i, std::string& out) {
  if (i >= s.size() || s[i] != '"') return false;
  ++i;
  while (i < s.size()) {
    char c = s[i++];
    if (c == '"') return true;
    if (c == '\\') {
      if (i >= s.size()) return false;
      c = s[i++];
    }
    out += c;
  }
  return false;
}

}  // namespace

std::vector<std::string> ParseWarningHeader(std::string_view s) {
  std::vector<std::string> out;
  std::size_t i = 0;
  while (i < s.size()) {
    SkipSpaces(s, i);
    if (i >= s.size()) break;
    // warn-code: three digits.
    if (i + 3 > s.size() || std::isdigit(static_cast<unsigned char>(s[i])) == 0 ||
        std::isdigit(static_cast<unsigned char>(s[i + 1])) == 0 ||
        std::isdigit(static_cast<unsigned char>(s[i + 2])) == 0) {
      return out;  // malformed: the rest cannot be delimited reliably
    }
    std::string_view code = s.substr(i, 3);
    i += 3;
    if (i >= s.size() || s[i] != ' ') return out;
    SkipSpaces(s, i);
    // warn-agent: a token up to the next space.
    while (i < s.size() && s[i] != ' ') ++i;
    SkipSpaces(s, i);
    std::string text;
    if (!ReadQuoted(s, i, text)) return out;
    SkipSpaces(s, i);
    if (i < s.size() && s[i] == '"') {
      std::string date;
      if (!ReadQuoted(s, i, date)) return out;
      SkipSpaces(s, i);
    }
    if (code == "299") out.push_back(std::move(text));
    if (i < s.size()) {
      if (s[i] != ',') return out;
      ++i;
    }
  }
  return out;
}

}  // namespace dra::kube
