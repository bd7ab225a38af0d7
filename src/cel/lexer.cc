#include "cel/lexer.h"

#include <cerrno>
#include <charconv>
#include <cstdlib>

#include "cel/utf8.h"
#include "dra/json/go_text.h"
#include "dra/json/value.h"

namespace dra::cel {
namespace {

bool IsDigit(char c) { return c >= '0' && c <= '9'; }
bool IsHex(char c) { return IsDigit(c) || (c >= 'a' && c <= 'f') || (c >= 'A' && c <= 'F'); }
bool IsIdentStart(char c) { return c == '_' || (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z'); }
bool IsIdentChar(char c) { return IsIdentStart(c) || IsDigit(c); }
int HexValue(char c) {
  if (IsDigit(c)) return c - '0';
  return (c | 0x20) - 'a' + 10;
}

}  // namespace

std::string TokenDisplay(const Token& token) {
  if (token.kind == Tok::kEof) return "'<EOF>'";
  return "'" + std::string(token.text) + "'";
}

void Lexer::Error(std::size_t at, const std::string& message) {
  issues_->Add(static_cast<std::int32_t>(at), "Syntax error: " + message);
}

Token Lexer::Make(Tok kind, std::size_t start) {
  Token t;
  t.kind = kind;
  t.offset = static_cast<std::int32_t>(start);
  t.text = text_.substr(start, pos_ - start);
  return t;
}

void Lexer::SkipSpaceAndComments() {
  while (pos_ < text_.size()) {
    char c = text_[pos_];
    if (c == ' ' || c == '\t' || c == '\n' || c == '\r' || c == '\f') {
      ++pos_;
    } else if (c == '/' && pos_ + 1 < text_.size() && text_[pos_ + 1] == '/') {
      while (pos_ < text_.size() && text_[pos_] != '\n') ++pos_;
    } else {
      return;
    }
  }
}

// The lexer's one switch over the next character: each case is a few
// lines, and the cases read best side by side, as in cel-spec's grammar.
// NOLINTNEXTLINE(readability-function-size): the reason is above.
Token Lexer::Next() {
  for (;;) {
    SkipSpaceAndComments();
    std::size_t start = pos_;
    if (pos_ >= text_.size()) return Make(Tok::kEof, start);
    char c = text_[pos_];
    char n = pos_ + 1 < text_.size() ? text_[pos_ + 1] : '\0';
    auto two = [&](Tok kind) {
      pos_ += 2;
      return Make(kind, start);
    };
    auto one = [&](Tok kind) {
      pos_ += 1;
      return Make(kind, start);
    };
    switch (c) {
      case '(':
        return one(Tok::kLParen);
      case ')':
        return one(Tok::kRParen);
      case '[':
        return one(Tok::kLBracket);
      case ']':
        return one(Tok::kRBracket);
      case '{':
        return one(Tok::kLBrace);
      case '}':
        return one(Tok::kRBrace);
      case ',':
        return one(Tok::kComma);
      case ':':
        return one(Tok::kColon);
      case '?':
        return one(Tok::kQuestion);
      case '+':
        return one(Tok::kPlus);
      case '-':
        return one(Tok::kMinus);
      case '*':
        return one(Tok::kStar);
      case '/':
        return one(Tok::kSlash);
      case '%':
        return one(Tok::kPercent);
      case '!':
        return n == '=' ? two(Tok::kNe) : one(Tok::kNot);
      case '=':
        if (n == '=') return two(Tok::kEq);
        break;
      case '<':
        return n == '=' ? two(Tok::kLe) : one(Tok::kLt);
      case '>':
        return n == '=' ? two(Tok::kGe) : one(Tok::kGt);
      case '&':
        if (n == '&') return two(Tok::kAnd);
        break;
      case '|':
        if (n == '|') return two(Tok::kOr);
        break;
      case '.':
        if (IsDigit(n)) return LexNumber(start);
        return one(Tok::kDot);
      case '"':
      case '\'':
        return LexString(start, false, false);
      default:
        break;
    }
    if (IsDigit(c)) return LexNumber(start);
    if (IsIdentStart(c)) {
      // String prefixes: r, b and their combinations, in either case.
      std::size_t p = pos_;
      bool raw = false, bytes = false;
      while (p < text_.size() && p - pos_ < 2) {
        char lc = static_cast<char>(text_[p] | 0x20);
        if (lc == 'r' && !raw) {
          raw = true;
        } else if (lc == 'b' && !bytes) {
          bytes = true;
        } else {
          break;
        }
        ++p;
      }
      if ((raw || bytes) && p < text_.size() && (text_[p] == '"' || text_[p] == '\'')) {
        pos_ = p;
        return LexString(start, raw, bytes);
      }
      while (pos_ < text_.size() && IsIdentChar(text_[pos_])) ++pos_;
      Token t = Make(Tok::kIdent, start);
      if (t.text == "true") {
        t.kind = Tok::kTrue;
      } else if (t.text == "false") {
        t.kind = Tok::kFalse;
      } else if (t.text == "null") {
        t.kind = Tok::kNull;
      } else if (t.text == "in") {
        t.kind = Tok::kIn;
      } else {
        t.value = std::string(t.text);
      }
      return t;
    }
    // Unrecognized character: report it (as one code point) and go on.
    std::size_t width = Utf8SequenceLength(text_.substr(pos_));
    Error(start, "token recognition error at: '" + std::string(text_.substr(pos_, width)) + "'");
    pos_ += width;
  }
}

Token Lexer::LexNumber(std::size_t start) {
  bool is_float = false;
  bool hex = false;
  if (text_[pos_] == '0' && pos_ + 1 < text_.size() && (text_[pos_ + 1] | 0x20) == 'x' &&
      pos_ + 2 < text_.size() && IsHex(text_[pos_ + 2])) {
    hex = true;
    pos_ += 2;
    while (pos_ < text_.size() && IsHex(text_[pos_])) ++pos_;
  } else {
    while (pos_ < text_.size() && IsDigit(text_[pos_])) ++pos_;
    if (pos_ + 1 < text_.size() && text_[pos_] == '.' && IsDigit(text_[pos_ + 1])) {
      is_float = true;
      ++pos_;
      while (pos_ < text_.size() && IsDigit(text_[pos_])) ++pos_;
    }
    if (pos_ < text_.size() && (text_[pos_] | 0x20) == 'e') {
      std::size_t p = pos_ + 1;
      if (p < text_.size() && (text_[p] == '+' || text_[p] == '-')) ++p;
      if (p < text_.size() && IsDigit(text_[p])) {
        is_float = true;
        pos_ = p;
        while (pos_ < text_.size() && IsDigit(text_[pos_])) ++pos_;
      }
    }
  }
  if (is_float) {
    Token t = Make(Tok::kDouble, start);
    std::string s(t.text);
    t.double_value = std::strtod(s.c_str(), nullptr);  // overflow gives +Inf, as in Go
    return t;
  }
  bool is_uint = pos_ < text_.size() && (text_[pos_] | 0x20) == 'u';
  std::size_t digits_end = pos_;
  if (is_uint) ++pos_;
  Token t = Make(is_uint ? Tok::kUint : Tok::kInt, start);
  std::string_view digits = text_.substr(start + (hex ? 2 : 0), digits_end - start - (hex ? 2 : 0));
  std::uint64_t v = 0;
  auto r = std::from_chars(digits.data(), digits.data() + digits.size(), v, hex ? 16 : 10);
  if (r.ec != std::errc() || (!is_uint && v > static_cast<std::uint64_t>(INT64_MAX) + 1)) {
    // The parser reports the out-of-range literal with its own wording.
    t.kind = is_uint ? Tok::kUint : Tok::kInt;
    t.out_of_range = true;
    return t;
  }
  t.uint_value = v;
  return t;
}

bool Lexer::DecodeEscape(bool bytes, std::string* out) {
  // pos_ is just past the backslash.
  if (pos_ >= text_.size()) return false;
  char c = text_[pos_++];
  auto hex_digits = [&](int count, std::uint32_t* v) {
    *v = 0;
    for (int i = 0; i < count; ++i) {
      if (pos_ >= text_.size() || !IsHex(text_[pos_])) return false;
      *v = *v * 16 + static_cast<std::uint32_t>(HexValue(text_[pos_++]));
    }
    return true;
  };
  auto emit = [&](std::uint32_t v, bool is_byte) {
    if (bytes && is_byte) {
      out->push_back(static_cast<char>(v));
    } else {
      json::AppendUtf8Rune(*out, static_cast<char32_t>(v));
    }
  };
  switch (c) {
    case 'a':
      out->push_back('\a');
      return true;
    case 'b':
      out->push_back('\b');
      return true;
    case 'f':
      out->push_back('\f');
      return true;
    case 'n':
      out->push_back('\n');
      return true;
    case 'r':
      out->push_back('\r');
      return true;
    case 't':
      out->push_back('\t');
      return true;
    case 'v':
      out->push_back('\v');
      return true;
    case '\\':
    case '\'':
    case '"':
    case '`':
    case '?':
      out->push_back(c);
      return true;
    case 'x':
    case 'X': {
      std::uint32_t v;
      if (!hex_digits(2, &v)) return false;
      emit(v, true);
      return true;
    }
    case 'u':
    case 'U': {
      std::uint32_t v;
      if (!hex_digits(c == 'u' ? 4 : 8, &v)) return false;
      if (v > 0x10FFFF || (v >= 0xD800 && v <= 0xDFFF)) return false;
      emit(v, false);
      return true;
    }
    default:
      break;
  }
  if (c >= '0' && c <= '3') {
    std::uint32_t v = static_cast<std::uint32_t>(c - '0');
    for (int i = 0; i < 2; ++i) {
      if (pos_ >= text_.size() || text_[pos_] < '0' || text_[pos_] > '7') return false;
      v = v * 8 + static_cast<std::uint32_t>(text_[pos_++] - '0');
    }
    emit(v, true);
    return true;
  }
  return false;
}

Token Lexer::LexString(std::size_t start, bool raw, bool bytes) {
  char quote = text_[pos_];
  bool triple = pos_ + 2 < text_.size() && text_[pos_ + 1] == quote && text_[pos_ + 2] == quote;
  pos_ += triple ? 3 : 1;
  std::string value;
  for (;;) {
    if (pos_ >= text_.size() || (!triple && (text_[pos_] == '\n' || text_[pos_] == '\r'))) {
      Error(start,
            "token recognition error at: '" + std::string(text_.substr(start, pos_ - start)) + "'");
      Token t = Make(Tok::kError, start);
      return t;
    }
    char c = text_[pos_];
    if (c == quote) {
      if (!triple) {
        ++pos_;
        break;
      }
      if (pos_ + 2 < text_.size() && text_[pos_ + 1] == quote && text_[pos_ + 2] == quote) {
        pos_ += 3;
        break;
      }
    }
    if (c == '\\' && raw) {
      // Raw strings keep backslashes but a backslash still protects the quote.
      value.push_back(c);
      ++pos_;
      if (pos_ < text_.size() && (text_[pos_] == quote || text_[pos_] == '\\')) {
        value.push_back(text_[pos_++]);
      }
      continue;
    }
    if (c == '\\') {
      ++pos_;
      if (!DecodeEscape(bytes, &value)) {
        std::size_t end = std::min(pos_ + 1, text_.size());
        Error(start, "token recognition error at: '" +
                         std::string(text_.substr(start, end - start)) + "'");
        // Skip the rest of the literal so that lexing resumes after it.
        while (pos_ < text_.size() && text_[pos_] != quote) ++pos_;
        if (pos_ < text_.size()) ++pos_;
        return Make(Tok::kError, start);
      }
      continue;
    }
    value.push_back(c);
    ++pos_;
  }
  Token t = Make(bytes ? Tok::kBytes : Tok::kString, start);
  t.value = std::move(value);
  return t;
}

}  // namespace dra::cel
