// Tokens of the CEL grammar. The lexer decodes literals (escapes, numeric
// bases) as it goes, so the parser only sees values.
#pragma once

#include <cstdint>
#include <string>
#include <string_view>

#include "cel/source.h"

namespace dra::cel {

enum class Tok : std::uint8_t {
  kEof,
  kIdent,
  kInt,
  kUint,
  kDouble,
  kString,
  kBytes,
  kTrue,
  kFalse,
  kNull,
  kIn,
  kLParen,
  kRParen,
  kLBracket,
  kRBracket,
  kLBrace,
  kRBrace,
  kDot,
  kComma,
  kColon,
  kQuestion,
  kPlus,
  kMinus,
  kStar,
  kSlash,
  kPercent,
  kNot,
  kEq,
  kNe,
  kLt,
  kLe,
  kGt,
  kGe,
  kAnd,
  kOr,
  kError,  // unrecognized input (already reported)
};

struct Token {
  Tok kind = Tok::kEof;
  std::int32_t offset = 0;
  std::string_view text;  // raw source text of the token
  std::string value;      // identifier name or decoded string/bytes
  std::int64_t int_value = 0;
  std::uint64_t uint_value = 0;
  double double_value = 0;
  bool out_of_range = false;  // an integer literal beyond 64 bits
};

class Lexer {
 public:
  // Lexical errors go to `issues` as cel-go's "Syntax error: ..." messages.
  Lexer(std::string_view text, Issues* issues) : text_(text), issues_(issues) {}

  Token Next();

 private:
  void SkipSpaceAndComments();
  Token LexNumber(std::size_t start);
  Token LexString(std::size_t start, bool raw, bool bytes);
  // Decodes one escape sequence at text_[pos_] (after the backslash).
  bool DecodeEscape(bool bytes, std::string* out);
  Token Make(Tok kind, std::size_t start);
  void Error(std::size_t at, const std::string& message);

  std::string_view text_;
  Issues* issues_;
  std::size_t pos_ = 0;
};

// How ANTLR (and so cel-go) names a token in messages: '<EOF>' or the quoted text.
std::string TokenDisplay(const Token& token);

}  // namespace dra::cel
