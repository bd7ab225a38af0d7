// cel-go's strings extension (version 2, as Kubernetes configures it) and the
// Kubernetes regex library (find, findAll). Indices count code points.
#include <algorithm>

#include "cel/regex_cache.h"
#include "cel/runtime.h"
#include "cel/utf8.h"

namespace dra::cel {
namespace {

using K = ValueKind;

Value OutOfRange(std::int64_t i) {
  return Value::Error("index out of range: " + std::to_string(i));
}

std::vector<std::string_view> CodePoints(std::string_view s) {
  std::vector<std::string_view> out;
  std::size_t pos = 0;
  while (pos < s.size()) {
    std::size_t start = pos;
    DecodeUtf8(s, &pos);
    out.push_back(s.substr(start, pos - start));
  }
  return out;
}

Value CharAt(EvalContext&, const Value* a, std::size_t) {
  if (a[0].kind() != K::kString || a[1].kind() != K::kInt) return NoSuchOverload();
  std::int64_t i = a[1].int_value();
  std::size_t n = CountCodePoints(a[0].str());
  if (i < 0 || static_cast<std::size_t>(i) > n) return OutOfRange(i);
  if (static_cast<std::size_t>(i) == n) return Value::String("");
  std::size_t start = CodePointOffset(a[0].str(), static_cast<std::size_t>(i));
  std::size_t len = Utf8SequenceLength(a[0].str().substr(start));
  return Value::String(std::string(a[0].str().substr(start, len)));
}

template <bool kLast>
Value IndexOf(EvalContext& ctx, const Value* a, std::size_t n) {
  if (a[0].kind() == K::kList && n == 2) return ListIndexOf(ctx, a, n, kLast);
  if (a[0].kind() != K::kString || a[1].kind() != K::kString) return NoSuchOverload();
  if (n == 3 && a[2].kind() != K::kInt) return NoSuchOverload();
  std::string_view s = a[0].str(), sub = a[1].str();
  std::int64_t size = static_cast<std::int64_t>(CountCodePoints(s));
  std::int64_t from = n == 3 ? a[2].int_value() : (kLast ? size : 0);
  if (from < 0 || from > size) return OutOfRange(from);
  if (sub.empty()) return Value::Int(from);
  std::size_t byte_from = CodePointOffset(s, static_cast<std::size_t>(from));
  std::size_t found;
  if (kLast) {
    // Matches starting at or before code point `from`.
    found = s.rfind(sub, byte_from);
  } else {
    found = s.find(sub, byte_from);
  }
  if (found == std::string_view::npos) return Value::Int(-1);
  return Value::Int(static_cast<std::int64_t>(CountCodePoints(s.substr(0, found))));
}

template <bool kUpper>
Value ChangeCase(EvalContext&, const Value* a, std::size_t) {
  if (a[0].kind() != K::kString) return NoSuchOverload();
  std::string s(a[0].str());
  for (char& c : s) {
    if (kUpper && c >= 'a' && c <= 'z') c = static_cast<char>(c - 32);
    if (!kUpper && c >= 'A' && c <= 'Z') c = static_cast<char>(c + 32);
  }
  return Value::String(std::move(s));
}

Value Replace(EvalContext&, const Value* a, std::size_t n) {
  if (!ArgsAre(a, 3, K::kString) || (n == 4 && a[3].kind() != K::kInt)) return NoSuchOverload();
  std::string_view s = a[0].str(), from = a[1].str(), to = a[2].str();
  std::int64_t limit = n == 4 ? a[3].int_value() : -1;
  std::string out;
  std::size_t pos = 0;
  std::int64_t done = 0;
  while (limit < 0 || done < limit) {
    if (from.empty()) {
      // Go inserts the replacement at every code-point boundary.
      out += to;
      ++done;
      if (pos >= s.size()) break;
      std::size_t len = Utf8SequenceLength(s.substr(pos));
      out += s.substr(pos, len);
      pos += len;
      continue;
    }
    std::size_t hit = s.find(from, pos);
    if (hit == std::string_view::npos) break;
    out += s.substr(pos, hit - pos);
    out += to;
    pos = hit + from.size();
    ++done;
  }
  if (pos < s.size()) out += s.substr(pos);
  return Value::String(std::move(out));
}

Value Split(EvalContext&, const Value* a, std::size_t n) {
  if (!ArgsAre(a, 2, K::kString) || (n == 3 && a[2].kind() != K::kInt)) return NoSuchOverload();
  std::string_view s = a[0].str(), sep = a[1].str();
  std::int64_t limit = n == 3 ? a[2].int_value() : -1;
  std::vector<Value> parts;
  if (limit == 0) return Value::List({});
  if (sep.empty()) {
    std::vector<std::string_view> cps = CodePoints(s);
    for (std::size_t i = 0; i < cps.size(); ++i) {
      if (limit > 0 && static_cast<std::int64_t>(parts.size()) == limit - 1) {
        parts.push_back(Value::String(std::string(s.substr(cps[i].data() - s.data()))));
        return Value::List(std::move(parts));
      }
      parts.push_back(Value::String(std::string(cps[i])));
    }
    return Value::List(std::move(parts));
  }
  std::size_t pos = 0;
  for (;;) {
    if (limit > 0 && static_cast<std::int64_t>(parts.size()) == limit - 1) break;
    std::size_t hit = s.find(sep, pos);
    if (hit == std::string_view::npos) break;
    parts.push_back(Value::String(std::string(s.substr(pos, hit - pos))));
    pos = hit + sep.size();
  }
  parts.push_back(Value::String(std::string(s.substr(pos))));
  return Value::List(std::move(parts));
}

Value Substring(EvalContext&, const Value* a, std::size_t n) {
  if (a[0].kind() != K::kString || a[1].kind() != K::kInt || (n == 3 && a[2].kind() != K::kInt)) {
    return NoSuchOverload();
  }
  std::string_view s = a[0].str();
  std::int64_t size = static_cast<std::int64_t>(CountCodePoints(s));
  std::int64_t start = a[1].int_value();
  std::int64_t end = n == 3 ? a[2].int_value() : size;
  if (start < 0 || start > size) return OutOfRange(start);
  if (end < 0 || end > size) return OutOfRange(end);
  if (start > end) {
    return Value::Error("invalid substring range. start: " + std::to_string(start) +
                        ", end: " + std::to_string(end));
  }
  std::size_t b = CodePointOffset(s, static_cast<std::size_t>(start));
  std::size_t e = CodePointOffset(s, static_cast<std::size_t>(end));
  return Value::String(std::string(s.substr(b, e - b)));
}

bool IsUnicodeSpace(char32_t c) {
  switch (c) {
    case '\t':
    case '\n':
    case '\v':
    case '\f':
    case '\r':
    case ' ':
    case 0x85:
    case 0xA0:
    case 0x1680:
    case 0x2028:
    case 0x2029:
    case 0x202F:
    case 0x205F:
    case 0x3000:
      return true;
    default:
      return c >= 0x2000 && c <= 0x200A;
  }
}

Value Trim(EvalContext&, const Value* a, std::size_t) {
  if (a[0].kind() != K::kString) return NoSuchOverload();
  std::string_view s = a[0].str();
  std::size_t begin = 0;
  while (begin < s.size()) {
    std::size_t p = begin;
    if (!IsUnicodeSpace(DecodeUtf8(s, &p))) break;
    begin = p;
  }
  std::size_t end = begin;
  std::size_t p = begin;
  while (p < s.size()) {
    char32_t c = DecodeUtf8(s, &p);
    if (!IsUnicodeSpace(c)) end = p;
  }
  return Value::String(std::string(s.substr(begin, end - begin)));
}

Value Join(EvalContext&, const Value* a, std::size_t n) {
  if (a[0].kind() != K::kList || (n == 2 && a[1].kind() != K::kString)) return NoSuchOverload();
  std::string out;
  std::size_t size = ListSize(a[0]);
  for (std::size_t i = 0; i < size; ++i) {
    Value e = ListAt(a[0], i);
    if (e.kind() != K::kString) return NoSuchOverload();
    if (i > 0 && n == 2) out += a[1].str();
    out += e.str();
  }
  return Value::String(std::move(out));
}

Value Quote(EvalContext&, const Value* a, std::size_t) {
  if (a[0].kind() != K::kString) return NoSuchOverload();
  std::string_view s = a[0].str();
  std::string out = "\"";
  std::size_t pos = 0;
  while (pos < s.size()) {
    std::size_t start = pos;
    char32_t c = DecodeUtf8(s, &pos);
    switch (c) {
      case '\a':
        out += "\\a";
        break;
      case '\b':
        out += "\\b";
        break;
      case '\f':
        out += "\\f";
        break;
      case '\n':
        out += "\\n";
        break;
      case '\r':
        out += "\\r";
        break;
      case '\t':
        out += "\\t";
        break;
      case '\v':
        out += "\\v";
        break;
      case '\\':
        out += "\\\\";
        break;
      case '"':
        out += "\\\"";
        break;
      default:
        if (c == 0xFFFD && pos - start != 3) {
          out += "\uFFFD";
        } else {
          out += s.substr(start, pos - start);
        }
    }
  }
  return Value::String(out + "\"");
}

const RE2* RegexOrError(const Value& pattern, Value* error) {
  std::string message;
  const RE2* re = CompiledRegex(pattern.str(), &message);
  if (!re) *error = Value::Error("Illegal regex: " + message);
  return re;
}

Value Find(EvalContext&, const Value* a, std::size_t) {
  if (!ArgsAre(a, 2, K::kString)) return NoSuchOverload();
  Value error;
  const RE2* re = RegexOrError(a[1], &error);
  if (!re) return error;
  re2::StringPiece text(a[0].str().data(), a[0].str().size());
  re2::StringPiece match;
  if (!re->Match(text, 0, text.size(), RE2::UNANCHORED, &match, 1)) return Value::String("");
  return Value::String(std::string(match.data(), match.size()));
}

Value FindAll(EvalContext&, const Value* a, std::size_t n) {
  if (!ArgsAre(a, 2, K::kString) || (n == 3 && a[2].kind() != K::kInt)) return NoSuchOverload();
  Value error;
  const RE2* re = RegexOrError(a[1], &error);
  if (!re) return error;
  std::int64_t limit = n == 3 ? a[2].int_value() : -1;
  std::vector<Value> out;
  re2::StringPiece text(a[0].str().data(), a[0].str().size());
  std::size_t pos = 0;
  std::ptrdiff_t previous_end = -1;
  while (pos <= text.size() && (limit < 0 || static_cast<std::int64_t>(out.size()) < limit)) {
    re2::StringPiece match;
    if (!re->Match(text, pos, text.size(), RE2::UNANCHORED, &match, 1)) break;
    std::size_t begin = static_cast<std::size_t>(match.data() - text.data());
    std::size_t end = begin + match.size();
    // As Go: an empty match right after the previous match is skipped.
    bool accept = !(match.empty() && static_cast<std::ptrdiff_t>(begin) == previous_end);
    if (accept) out.push_back(Value::String(std::string(match.data(), match.size())));
    if (end > pos && !match.empty()) {
      pos = end;
    } else {
      // Advance one code point past an empty match.
      pos = begin + (begin < text.size() ? Utf8SequenceLength(a[0].str().substr(begin)) : 1);
    }
    previous_end = static_cast<std::ptrdiff_t>(end);
  }
  if (limit == 0) out.clear();
  return Value::List(std::move(out));
}

std::uint64_t ReceiverTenth(const Value* a, std::size_t) {
  return a[0].kind() == K::kString ? StringCostFactor(a[0].str().size(), 10) : 1;
}
std::uint64_t ReceiverFifth(const Value* a, std::size_t) {
  return a[0].kind() == K::kString ? StringCostFactor(a[0].str().size(), 5) : 1;
}

constexpr Function kStrings[] = {
    {"charAt", true, 2, CharAt, ReceiverTenth, true},
    {"indexOf", true, 2, IndexOf<false>, ReceiverTenth, true},
    {"indexOf", true, 3, IndexOf<false>, ReceiverTenth, true},
    {"lastIndexOf", true, 2, IndexOf<true>, ReceiverTenth, true},
    {"lastIndexOf", true, 3, IndexOf<true>, ReceiverTenth, true},
    {"lowerAscii", true, 1, ChangeCase<false>, ReceiverTenth, true},
    {"upperAscii", true, 1, ChangeCase<true>, ReceiverTenth, true},
    {"replace", true, 3, Replace, ReceiverFifth, true},
    {"replace", true, 4, Replace, ReceiverFifth, true},
    {"split", true, 2, Split, ReceiverFifth, true},
    {"split", true, 3, Split, ReceiverFifth, true},
    {"substring", true, 2, Substring, ReceiverTenth, true},
    {"substring", true, 3, Substring, ReceiverTenth, true},
    {"trim", true, 1, Trim, ReceiverTenth, true},
    {"join", true, 1, Join, nullptr, true},
    {"join", true, 2, Join, nullptr, true},
    {"strings.quote", false, 1, Quote, nullptr, true},
    {"find", true, 2, Find, MatchesCost, true},
    {"findAll", true, 2, FindAll, MatchesCost, true},
    {"findAll", true, 3, FindAll, MatchesCost, true},
};

}  // namespace

FunctionTable StringFunctions() { return {std::begin(kStrings), std::end(kStrings)}; }

}  // namespace dra::cel
