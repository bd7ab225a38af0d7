#include "kube/warning_header.h"

#include <cctype>
#include <string>

#include "dra/json/value.h"

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

// Valid UTF-8 without control characters (C0, DEL, C1), as apimachinery's
// ParseWarningHeader requires of a warning's text: a server cannot write
// terminal escape sequences to the user's screen.
bool PrintableText(std::string_view text) {
  while (!text.empty()) {
    json::DecodedRune r = json::DecodeUtf8Rune(text);
    if (r.rune == 0xFFFD && text.substr(0, 3) != "\xEF\xBF\xBD") return false;
    if (r.rune < 0x20 || (r.rune >= 0x7F && r.rune < 0xA0)) return false;
    text.remove_prefix(r.size);
  }
  return true;
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
    // Anything but a comma after the warning makes it malformed, and it is
    // dropped with the rest ("unexpected token after warn-date").
    if (i < s.size() && s[i] != ',') return out;
    if (!PrintableText(text)) return out;  // the rest of the header is not trusted either
    if (code == "299" && !text.empty()) out.push_back(std::move(text));
    if (i < s.size()) ++i;
  }
  return out;
}

}  // namespace dra::kube
