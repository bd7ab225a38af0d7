// Strict RFC 8259 parser producing the Value tree with raw spans, literal
// number text, duplicate keys and positions. It is iterative: nesting costs
// heap (the frame stack), never C++ stack, so max_depth can be large.
// Children are collected on shared scratch stacks and moved into an
// exactly-sized vector when their container closes, so a document costs one
// allocation per non-empty container and per long string, none per character.
// Error wording follows Go's encoding/json scanner.
#include <array>
#include <cstdint>
#include <cstring>
#include <string>
#include <utility>
#include <vector>

#include "dra/json/go_text.h"
#include "dra/json/json_stream.h"
#include "dra/json/value.h"

namespace dra::json {
namespace {

// Bytes that end a run of plain string content.
constexpr std::array<bool, 256> kStringStop = [] {
  std::array<bool, 256> t{};
  for (int c = 0; c < 0x20; ++c) t[c] = true;
  t['"'] = true;
  t['\\'] = true;
  for (int c = 0x80; c < 0x100; ++c) t[c] = true;
  return t;
}();

int HexValue(char c) {
  if (c >= '0' && c <= '9') return c - '0';
  if (c >= 'a' && c <= 'f') return c - 'a' + 10;
  if (c >= 'A' && c <= 'F') return c - 'A' + 10;
  return -1;
}

class JsonParser {
 public:
  JsonParser(std::string_view text, const ParseLimits& limits)
      : begin_(text.data()),
        p_(text.data()),
        end_(text.data() + text.size()),
        line_start_(text.data()),
        limits_(limits) {}

  Result<Value> Parse();

  // Stream mode (JsonStream): parsing starts at `offset`, which is on line
  // `line` starting at `line_start`, and stops after the first value instead
  // of rejecting what follows it.
  void StartAt(std::size_t offset, std::size_t line, std::size_t line_start) {
    stream_ = true;
    p_ = begin_ + offset;
    line_ = line;
    line_start_ = begin_ + line_start;
  }
  std::size_t offset() const { return static_cast<std::size_t>(p_ - begin_); }
  std::size_t line() const { return line_; }
  std::size_t line_start() const { return static_cast<std::size_t>(line_start_ - begin_); }

 private:
  struct Frame {
    bool object;
    // Where this container's Value lives: 0 = root_, else 1 + index into
    // items_ (arrays' children) or members_ (objects' children).
    bool in_member;
    std::size_t slot;
    std::size_t first_child;
  };

  Position Here() const {
    return {static_cast<std::uint32_t>(line_), static_cast<std::uint32_t>(p_ - line_start_ + 1)};
  }

  // Records the error at the current position; always returns false.
  bool Fail(std::string_view what) {
    Position pos = Here();
    error_ = "line " + std::to_string(pos.line) + ", column " + std::to_string(pos.column) + ": " +
             std::string(what);
    return false;
  }
  // The offending byte; at the end of the input Go's scanner is fed a space,
  // so where a space is not allowed either the error names ' '.
  bool FailChar(std::string_view context, bool space_allowed = true) {
    if (p_ >= end_ && space_allowed) return Fail("unexpected end of JSON input");
    const unsigned char c = p_ < end_ ? static_cast<unsigned char>(*p_) : ' ';
    return Fail("invalid character " + GoQuoteChar(c) + " " + std::string(context));
  }

  void SkipSpace() {
    while (p_ < end_) {
      char c = *p_;
      if (c == ' ' || c == '\t' || c == '\r') {
        ++p_;
      } else if (c == '\n') {
        ++p_;
        ++line_;
        line_start_ = p_;
      } else {
        break;
      }
    }
  }

  Value& Slot(const Frame& f) {
    if (f.slot == 0) return root_;
    return f.in_member ? members_[f.slot - 1].value : items_[f.slot - 1];
  }

  bool CountValue() {
    if (++values_ > limits_.max_values) {
      return Fail("too many values (more than " + std::to_string(limits_.max_values) + ")");
    }
    return true;
  }

  bool ParseString(std::string& out);
  bool ParseEscape(std::string& out);
  bool ParseNumber(Value& v);
  bool ParseLiteral(std::string_view word);
  bool ParseKey();
  void CloseContainer();
  bool ParseDocument();

  const char* const begin_;
  const char* p_;
  const char* const end_;
  std::size_t line_ = 1;
  const char* line_start_;
  const ParseLimits& limits_;
  std::size_t values_ = 0;
  std::string error_;
  bool stream_ = false;

  Value root_;
  std::vector<Frame> frames_;
  std::vector<Value> items_;
  std::vector<Member> members_;
};

bool JsonParser::ParseString(std::string& out) {
  ++p_;  // opening quote
  const char* run = p_;
  for (;;) {
    while (p_ < end_ && !kStringStop[static_cast<unsigned char>(*p_)]) ++p_;
    if (p_ >= end_) return Fail("unexpected end of JSON input");
    auto c = static_cast<unsigned char>(*p_);
    if (c == '"') {
      out.append(run, static_cast<std::size_t>(p_ - run));
      ++p_;
      return true;
    }
    if (c == '\\') {
      out.append(run, static_cast<std::size_t>(p_ - run));
      if (!ParseEscape(out)) return false;
      run = p_;
      continue;
    }
    if (c < 0x20) return FailChar("in string literal");
    DecodedRune r = DecodeUtf8Rune(std::string_view(p_, static_cast<std::size_t>(end_ - p_)));
    if (r.rune == 0xFFFD && r.size == 1) return Fail("invalid UTF-8 in string literal");
    p_ += r.size;
  }
}

bool JsonParser::ParseEscape(std::string& out) {
  ++p_;  // backslash
  if (p_ >= end_) return FailChar("in string escape code", false);
  char c = *p_++;
  switch (c) {
    case '"':
    case '\\':
    case '/':
      out.push_back(c);
      return true;
    case 'b':
      out.push_back('\b');
      return true;
    case 'f':
      out.push_back('\f');
      return true;
    case 'n':
      out.push_back('\n');
      return true;
    case 'r':
      out.push_back('\r');
      return true;
    case 't':
      out.push_back('\t');
      return true;
    case 'u':
      break;
    default:
      --p_;
      return FailChar("in string escape code");
  }
  // p_ is after "\u": four hex digits.
  auto read_hex4 = [this](char32_t* r) {
    *r = 0;
    for (int i = 0; i < 4; ++i, ++p_) {
      int h = p_ < end_ ? HexValue(*p_) : -1;
      if (h < 0) return FailChar("in \\u hexadecimal character escape", false);
      *r = *r << 4 | static_cast<char32_t>(h);
    }
    return true;
  };
  char32_t r;
  if (!read_hex4(&r)) return false;
  if (r >= 0xD800 && r < 0xE000) {
    // A high surrogate followed by an escaped low surrogate is one rune; any
    // other surrogate becomes U+FFFD and a following escape is read on its
    // own, as Go's decoder does.
    if (r < 0xDC00 && end_ - p_ >= 6 && p_[0] == '\\' && p_[1] == 'u') {
      char32_t r2 = 0;
      bool hex = true;
      for (int i = 2; i < 6; ++i) {
        int h = HexValue(p_[i]);
        hex = hex && h >= 0;
        r2 = r2 << 4 | static_cast<char32_t>(h & 0xF);
      }
      if (hex && r2 >= 0xDC00 && r2 < 0xE000) {
        p_ += 6;
        AppendUtf8Rune(out, 0x10000 + ((r - 0xD800) << 10) + (r2 - 0xDC00));
        return true;
      }
    }
    r = 0xFFFD;
  }
  AppendUtf8Rune(out, r);
  return true;
}

bool JsonParser::ParseNumber(Value& v) {
  const char* start = p_;
  if (*p_ == '-') {
    ++p_;
    if (p_ >= end_ || *p_ < '0' || *p_ > '9') return FailChar("in numeric literal", false);
  }
  if (*p_ == '0') {
    ++p_;
  } else {
    while (p_ < end_ && *p_ >= '0' && *p_ <= '9') ++p_;
  }
  if (p_ < end_ && *p_ == '.') {
    ++p_;
    if (p_ >= end_ || *p_ < '0' || *p_ > '9') {
      return FailChar("after decimal point in numeric literal", false);
    }
    while (p_ < end_ && *p_ >= '0' && *p_ <= '9') ++p_;
  }
  if (p_ < end_ && (*p_ == 'e' || *p_ == 'E')) {
    ++p_;
    if (p_ < end_ && (*p_ == '+' || *p_ == '-')) ++p_;
    if (p_ >= end_ || *p_ < '0' || *p_ > '9') {
      return FailChar("in exponent of numeric literal", false);
    }
    while (p_ < end_ && *p_ >= '0' && *p_ <= '9') ++p_;
  }
  v.kind = Kind::kNumber;
  v.text.assign(start, static_cast<std::size_t>(p_ - start));
  return true;
}

bool JsonParser::ParseLiteral(std::string_view word) {
  ++p_;
  for (std::size_t i = 1; i < word.size(); ++i, ++p_) {
    if (p_ >= end_ || *p_ != word[i]) {
      return FailChar("in literal " + std::string(word) + " (expecting " +
                          GoQuoteChar(static_cast<unsigned char>(word[i])) + ")",
                      false);
    }
  }
  return true;
}

// At the '"' of a member name: reads `"key" :` and leaves p_ at the value.
bool JsonParser::ParseKey() {
  Member& m = members_.emplace_back();
  m.key_pos = Here();
  if (!ParseString(m.key)) return false;
  SkipSpace();
  if (p_ >= end_ || *p_ != ':') return FailChar("after object key");
  ++p_;
  SkipSpace();
  return true;
}

void JsonParser::CloseContainer() {
  Frame f = frames_.back();
  frames_.pop_back();
  ++p_;  // closing bracket
  Value& v = Slot(f);
  v.raw_end = static_cast<std::size_t>(p_ - begin_);
  if (f.object) {
    auto first = members_.begin() + static_cast<std::ptrdiff_t>(f.first_child);
    v.members.reserve(static_cast<std::size_t>(members_.end() - first));
    v.members.assign(std::make_move_iterator(first), std::make_move_iterator(members_.end()));
    members_.erase(first, members_.end());
  } else {
    auto first = items_.begin() + static_cast<std::ptrdiff_t>(f.first_child);
    v.items.reserve(static_cast<std::size_t>(items_.end() - first));
    v.items.assign(std::make_move_iterator(first), std::make_move_iterator(items_.end()));
    items_.erase(first, items_.end());
  }
}

// Longer than most functions on purpose: one loop over an explicit stack
// (never recursion, so nesting depth cannot overflow the C++ stack), whose
// states are easier to check side by side than spread over helpers.
// NOLINTNEXTLINE(readability-function-size): the reason is above.
bool JsonParser::ParseDocument() {
  SkipSpace();
  // Each iteration parses one value into its slot (the root, a new array
  // item, or the member whose key was just read), then consumes the
  // separators and closing brackets that follow it.
  for (;;) {
    Value* v;
    Frame where{false, false, 0, 0};
    if (frames_.empty()) {
      v = &root_;
    } else if (frames_.back().object) {
      v = &members_.back().value;
      where = {false, true, members_.size(), 0};
    } else {
      v = &items_.emplace_back();
      where = {false, false, items_.size(), 0};
    }
    if (p_ >= end_) return Fail("unexpected end of JSON input");
    if (!CountValue()) return false;
    v->pos = Here();
    v->raw_begin = static_cast<std::size_t>(p_ - begin_);
    const char c = *p_;
    bool ok = true;
    switch (c) {
      case '{':
      case '[': {
        if (frames_.size() >= limits_.max_depth) {
          return Fail("exceeded max depth of " + std::to_string(limits_.max_depth));
        }
        v->kind = c == '{' ? Kind::kObject : Kind::kArray;
        where.object = c == '{';
        where.first_child = c == '{' ? members_.size() : items_.size();
        frames_.push_back(where);
        ++p_;
        SkipSpace();
        // `v` may dangle from here on (ParseKey grows members_).
        if (c == '{') {
          if (p_ < end_ && *p_ == '"') {
            if (!ParseKey()) return false;
            continue;
          }
          if (p_ >= end_ || *p_ != '}') {
            return FailChar("looking for beginning of object key string");
          }
        } else if (p_ >= end_ || *p_ != ']') {
          continue;
        }
        CloseContainer();
        break;
      }
      case '"':
        v->kind = Kind::kString;
        ok = ParseString(v->text);
        break;
      case 't':
        ok = ParseLiteral("true");
        v->kind = Kind::kBool;
        v->boolean = true;
        break;
      case 'f':
        ok = ParseLiteral("false");
        v->kind = Kind::kBool;
        break;
      case 'n':
        ok = ParseLiteral("null");
        break;
      default:
        if (c != '-' && (c < '0' || c > '9')) return FailChar("looking for beginning of value");
        ok = ParseNumber(*v);
    }
    if (!ok) return false;
    if (c != '{' && c != '[') v->raw_end = static_cast<std::size_t>(p_ - begin_);
    // After a complete value: separators and closing brackets.
    for (;;) {
      SkipSpace();
      if (frames_.empty()) {
        if (p_ < end_ && !stream_) return FailChar("after top-level value");
        return true;
      }
      const bool object = frames_.back().object;
      if (p_ >= end_) return Fail("unexpected end of JSON input");
      if (*p_ == ',') {
        ++p_;
        SkipSpace();
        if (object) {
          if (p_ >= end_ || *p_ != '"') {
            return FailChar("looking for beginning of object key string");
          }
          if (!ParseKey()) return false;
        }
        break;
      }
      if (*p_ == (object ? '}' : ']')) {
        CloseContainer();
        continue;
      }
      return FailChar(object ? "after object key:value pair" : "after array element");
    }
  }
}

Result<Value> JsonParser::Parse() {
  if (!ParseDocument()) return Error{std::move(error_)};
  return std::move(root_);
}

}  // namespace

Result<Value> ParseJson(std::string_view text, const ParseLimits& limits) {
  JsonParser parser(text, limits);
  return parser.Parse();
}

JsonStream::JsonStream(std::string_view text, const ParseLimits& limits)
    : text_(text), limits_(limits) {}

bool JsonStream::AtEnd() {
  while (offset_ < text_.size()) {
    char c = text_[offset_];
    if (c == '\n') {
      ++line_;
      line_start_ = offset_ + 1;
    } else if (c != ' ' && c != '\t' && c != '\r') {
      return false;
    }
    ++offset_;
  }
  return true;
}

Result<Value> JsonStream::Next() {
  JsonParser parser(text_, limits_);
  parser.StartAt(offset_, line_, line_start_);
  Result<Value> value = parser.Parse();
  if (value.ok()) {
    offset_ = parser.offset();
    line_ = parser.line();
    line_start_ = parser.line_start();
  }
  return value;
}

Position JsonStream::position() const {
  return {static_cast<std::uint32_t>(line_), static_cast<std::uint32_t>(offset_ - line_start_ + 1)};
}

std::string GoQuoteChar(unsigned char c) {
  if (c == '\'') return "'\\''";
  if (c == '"') return "'\"'";
  std::string s = "'";
  switch (c) {
    case '\a':
      s += "\\a";
      break;
    case '\b':
      s += "\\b";
      break;
    case '\f':
      s += "\\f";
      break;
    case '\n':
      s += "\\n";
      break;
    case '\r':
      s += "\\r";
      break;
    case '\t':
      s += "\\t";
      break;
    case '\v':
      s += "\\v";
      break;
    case '\\':
      s += "\\\\";
      break;
    default: {
      static constexpr char kHex[] = "0123456789abcdef";
      if (c < 0x20 || c == 0x7F) {
        s += "\\x";
        s.push_back(kHex[c >> 4]);
        s.push_back(kHex[c & 0xF]);
      } else if (c < 0x80) {
        s.push_back(static_cast<char>(c));
      } else if (c < 0xA1 || c == 0xAD) {
        // Go converts the byte to the rune U+00XX; these are not printable.
        s += "\\u00";
        s.push_back(kHex[c >> 4]);
        s.push_back(kHex[c & 0xF]);
      } else {
        AppendUtf8Rune(s, c);
      }
    }
  }
  s += "'";
  return s;
}

}  // namespace dra::json
