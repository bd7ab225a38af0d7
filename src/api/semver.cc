// IsValidSemver: a hand-written matcher equivalent to the full-string match of
// ^(0|[1-9]\d*)\.(0|[1-9]\d*)\.(0|[1-9]\d*)(-(0|[1-9]\d*|\d*[a-zA-Z-][0-9a-zA-Z-]*)(\.(0|[1-9]\d*|\d*[a-zA-Z-][0-9a-zA-Z-]*))*)?(\+[0-9a-zA-Z-]+(\.[0-9a-zA-Z-]+)*)?$
// (semverRe in k8s.io/kubernetes/pkg/apis/resource/validation/validation.go).
// Identifiers cannot contain '.' or '+', so a single left-to-right pass decides.
#include <algorithm>
#include <cstddef>
#include <string_view>

#include "dra/api/quantity.h"

namespace dra::api {
namespace {

bool IsDigit(char c) { return c >= '0' && c <= '9'; }

bool IsIdentifierChar(char c) {
  return IsDigit(c) || (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || c == '-';
}

// "0" or digits without a leading zero.
bool IsNumericIdentifier(std::string_view s) {
  if (s.empty()) return false;
  for (char c : s) {
    if (!IsDigit(c)) return false;
  }
  return s.size() == 1 || s[0] != '0';
}

// A pre-release identifier: numeric without a leading zero, or alphanumeric with a letter or '-'.
bool IsPreReleaseIdentifier(std::string_view s) {
  if (s.empty()) return false;
  bool numeric = true;
  for (char c : s) {
    if (!IsIdentifierChar(c)) return false;
    numeric = numeric && IsDigit(c);
  }
  return !numeric || IsNumericIdentifier(s);
}

bool IsBuildIdentifier(std::string_view s) {
  if (s.empty()) return false;
  for (char c : s) {
    if (!IsIdentifierChar(c)) return false;
  }
  return true;
}

// Splits off the text up to the first of stop_chars (or the end), advancing text past it.
std::string_view TakeUntil(std::string_view& text, std::string_view stop_chars) {
  const std::size_t end = std::min(text.find_first_of(stop_chars), text.size());
  const std::string_view taken = text.substr(0, end);
  text.remove_prefix(end);
  return taken;
}

// Consumes '.'-separated identifiers up to the first of stop_chars.
template <class IsIdentifier>
bool ConsumeDottedIdentifiers(std::string_view& text, std::string_view stop_chars,
                              IsIdentifier is_identifier) {
  const std::string_view dotted = TakeUntil(text, stop_chars);
  std::size_t start = 0;
  while (true) {
    const std::size_t dot = dotted.find('.', start);
    if (!is_identifier(dotted.substr(start, dot - start))) return false;
    if (dot == std::string_view::npos) return true;
    start = dot + 1;
  }
}

}  // namespace

bool IsValidSemver(std::string_view text) {
  for (int part = 0; part < 3; ++part) {
    const std::string_view number = TakeUntil(text, part < 2 ? "." : "-+");
    if (!IsNumericIdentifier(number)) return false;
    if (part < 2) {
      if (text.empty()) return false;
      text.remove_prefix(1);  // the '.'
    }
  }
  if (!text.empty() && text[0] == '-') {
    text.remove_prefix(1);
    if (!ConsumeDottedIdentifiers(text, "+", IsPreReleaseIdentifier)) return false;
  }
  if (!text.empty() && text[0] == '+') {
    text.remove_prefix(1);
    if (!ConsumeDottedIdentifiers(text, "", IsBuildIdentifier)) return false;
  }
  return text.empty();
}

}  // namespace dra::api
