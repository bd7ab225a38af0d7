// YAML output as kubectl -o yaml produces it: sigs.k8s.io/yaml's JSONToYAML,
// which reads the JSON with go-yaml v2 (numbers resolve to int/uint/float,
// duplicate keys keep the last value) and writes it back with go-yaml v2's
// encoder and libyaml-derived emitter. The emitter logic below is a port of
// the parts of go-yaml v2's emitterc.go that this output uses (block
// mappings and sequences, `{}`/`[]` for empty ones, the four scalar styles,
// folding at 80 columns), so the byte-level choices are the same: which
// strings are quoted and how, literal blocks with their chomping and indent
// indicators, `? ` for keys over 128 bytes, and line folding of long
// scalars. Numbers are re-printed as go-yaml does (floats with %g, e.g.
// 1000000.5 becomes 1.0000005e+06), keys are sorted with go-yaml's key
// order (digit runs compare numerically, non-letters before letters).
//
// Known differences from go-yaml: unicode.IsLetter/IsDigit in the key order
// are exact for ASCII and Latin-1 and approximated above (most code points
// are treated as letters, punctuation and symbol blocks as non-letters);
// with a non-transitive order (only for contrived keys) the sort algorithm
// may place keys differently than Go's pdqsort.
#include <cstdint>
#include <string>
#include <unordered_map>
#include <vector>

#include "dra/json/value.h"

namespace dra::json {
namespace {

constexpr int kBestIndent = 2;
constexpr int kBestWidth = 80;

int Width(unsigned char b) {
  if ((b & 0x80) == 0x00) return 1;
  if ((b & 0xE0) == 0xC0) return 2;
  if ((b & 0xF0) == 0xE0) return 3;
  if ((b & 0xF8) == 0xF0) return 4;
  return 0;
}

unsigned char At(std::string_view v, std::size_t i) {
  return i < v.size() ? static_cast<unsigned char>(v[i]) : 0;
}

bool IsSpace(std::string_view v, std::size_t i) { return At(v, i) == ' '; }
bool IsBlank(std::string_view v, std::size_t i) { return At(v, i) == ' ' || At(v, i) == '\t'; }

bool IsBreak(std::string_view v, std::size_t i) {
  unsigned char b = At(v, i);
  return b == '\r' || b == '\n' || (b == 0xC2 && At(v, i + 1) == 0x85) ||
         (b == 0xE2 && At(v, i + 1) == 0x80 && (At(v, i + 2) == 0xA8 || At(v, i + 2) == 0xA9));
}

bool IsBlankz(std::string_view v, std::size_t i) {
  return IsBlank(v, i) || IsBreak(v, i) || At(v, i) == 0;
}

// go-yaml's is_printable, byte pattern for byte pattern (tab, CR and 4-byte
// characters count as non-printable there).
bool IsPrintable(std::string_view v, std::size_t i) {
  unsigned char b = At(v, i);
  unsigned char b1 = At(v, i + 1);
  unsigned char b2 = At(v, i + 2);
  return b == 0x0A || (b >= 0x20 && b <= 0x7E) || (b == 0xC2 && b1 >= 0xA0) ||
         (b > 0xC2 && b < 0xED) || (b == 0xED && b1 < 0xA0) || b == 0xEE ||
         (b == 0xEF && !(b1 == 0xBB && b2 == 0xBF) && !(b1 == 0xBF && (b2 == 0xBE || b2 == 0xBF)));
}

bool IsValidUtf8(std::string_view s) {
  for (std::size_t i = 0; i < s.size();) {
    DecodedRune r = DecodeUtf8Rune(s.substr(i));
    if (r.rune == 0xFFFD && r.size == 1) return false;
    i += r.size;
  }
  return true;
}

std::vector<char32_t> Runes(std::string_view s) {
  std::vector<char32_t> out;
  out.reserve(s.size());
  for (std::size_t i = 0; i < s.size();) {
    DecodedRune r = DecodeUtf8Rune(s.substr(i));
    out.push_back(r.rune);
    i += r.size;
  }
  return out;
}

bool IsDigitRune(char32_t r) { return r >= '0' && r <= '9'; }

// unicode.IsLetter: exact below U+0100, approximate above.
bool IsLetterRune(char32_t r) {
  if (r < 0x80) return (r >= 'a' && r <= 'z') || (r >= 'A' && r <= 'Z');
  if (r < 0x100) {
    return r == 0xAA || r == 0xB5 || r == 0xBA || (r >= 0xC0 && r != 0xD7 && r != 0xF7);
  }
  if (r >= 0x2B9 && r <= 0x36F) return r <= 0x2C1 || (r >= 0x2C6 && r <= 0x2D1) || r == 0x2EC;
  if (r >= 0x2000 && r <= 0x2BFF) return false;  // punctuation, symbols, arrows...
  if (r >= 0x3000 && r <= 0x303F) return false;  // CJK punctuation
  if (r >= 0xD800 && r <= 0xF8FF) return false;  // surrogates, private use
  if (r >= 0xFE00 && r <= 0xFE6F) return false;  // variation selectors, CJK compat forms
  if (r == 0xFEFF) return false;                 // byte order mark
  if (r >= 0xFF00 && r <= 0xFF20) return false;  // fullwidth punctuation and digits
  if (r >= 0xFFF0 && r <= 0xFFFF) return false;
  if (r >= 0x1F000 && r <= 0x1FAFF) return false;  // emoji and pictographs
  if (r >= 0xE0000) return false;
  return true;
}

// go-yaml v2's keyList.Less for two string keys.
bool KeyLess(const std::vector<char32_t>& a, const std::vector<char32_t>& b) {
  const std::size_t n = std::min(a.size(), b.size());
  for (std::size_t i = 0; i < n; ++i) {
    if (a[i] == b[i]) continue;
    const bool al = IsLetterRune(a[i]);
    const bool bl = IsLetterRune(b[i]);
    if (al && bl) return a[i] < b[i];
    if (al || bl) return bl;
    // Go's int64 arithmetic wraps; so does this, through uint64.
    std::uint64_t an = 0;
    std::uint64_t bn = 0;
    if (a[i] == '0' || b[i] == '0') {
      for (std::size_t j = i; j-- > 0 && IsDigitRune(a[j]);) {
        if (a[j] != '0') {
          an = 1;
          bn = 1;
          break;
        }
      }
    }
    std::size_t ai = i;
    for (; ai < a.size() && IsDigitRune(a[ai]); ++ai) an = an * 10 + (a[ai] - '0');
    std::size_t bi = i;
    for (; bi < b.size() && IsDigitRune(b[bi]); ++bi) bn = bn * 10 + (b[bi] - '0');
    if (an != bn) return static_cast<std::int64_t>(an) < static_cast<std::int64_t>(bn);
    if (ai != bi) return ai < bi;
    return a[i] < b[i];
  }
  return a.size() < b.size();
}

// The members go-yaml would see after reading the JSON back (last duplicate
// wins), in its key order. A bounds-safe merge sort: the order is not
// guaranteed to be a strict weak ordering for every input.
std::vector<const Member*> SortedMembers(const Value& v) {
  std::vector<const Member*> unique;
  std::unordered_map<std::string_view, std::size_t> index;
  unique.reserve(v.members.size());
  for (const Member& m : v.members) {
    auto [it, inserted] = index.emplace(m.key, unique.size());
    if (inserted) {
      unique.push_back(&m);
    } else {
      unique[it->second] = &m;
    }
  }
  std::vector<std::vector<char32_t>> runes;
  runes.reserve(unique.size());
  for (const Member* m : unique) runes.push_back(Runes(m->key));
  std::vector<std::size_t> order(unique.size());
  for (std::size_t i = 0; i < order.size(); ++i) order[i] = i;
  std::vector<std::size_t> tmp(order.size());
  for (std::size_t width = 1; width < order.size(); width *= 2) {
    for (std::size_t lo = 0; lo < order.size(); lo += 2 * width) {
      std::size_t mid = std::min(lo + width, order.size());
      std::size_t hi = std::min(lo + 2 * width, order.size());
      std::size_t i = lo;
      std::size_t j = mid;
      std::size_t k = lo;
      while (i < mid && j < hi) {
        tmp[k++] = KeyLess(runes[order[j]], runes[order[i]]) ? order[j++] : order[i++];
      }
      while (i < mid) tmp[k++] = order[i++];
      while (j < hi) tmp[k++] = order[j++];
    }
    order.swap(tmp);
  }
  std::vector<const Member*> out;
  out.reserve(order.size());
  for (std::size_t i : order) out.push_back(unique[i]);
  return out;
}

// go-yaml's encodeBase64: 70-character lines, each ending in a newline when
// there is more than one.
std::string EncodeBase64(std::string_view s) {
  static constexpr char kAlphabet[] =
      "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/";
  std::string enc;
  for (std::size_t i = 0; i < s.size(); i += 3) {
    std::uint32_t n = static_cast<std::uint32_t>(static_cast<unsigned char>(s[i])) << 16;
    if (i + 1 < s.size())
      n |= static_cast<std::uint32_t>(static_cast<unsigned char>(s[i + 1])) << 8;
    if (i + 2 < s.size()) n |= static_cast<unsigned char>(s[i + 2]);
    enc.push_back(kAlphabet[n >> 18 & 63]);
    enc.push_back(kAlphabet[n >> 12 & 63]);
    enc.push_back(i + 1 < s.size() ? kAlphabet[n >> 6 & 63] : '=');
    enc.push_back(i + 2 < s.size() ? kAlphabet[n & 63] : '=');
  }
  constexpr std::size_t kLineLen = 70;
  const std::size_t lines = enc.size() / kLineLen + 1;
  std::string out;
  for (std::size_t i = 0; i < enc.size(); i += kLineLen) {
    out.append(enc, i, kLineLen);
    if (lines > 1) out.push_back('\n');
  }
  return out;
}

// ^[-+]?[0-9][0-9_]*(?::[0-5]?[0-9])+(?:\.[0-9_]*)?$
bool IsBase60Float(std::string_view s) {
  std::size_t i = 0;
  auto digit = [&](std::size_t k) { return k < s.size() && s[k] >= '0' && s[k] <= '9'; };
  if (i < s.size() && (s[i] == '+' || s[i] == '-')) ++i;
  if (!digit(i)) return false;
  ++i;
  while (digit(i) || (i < s.size() && s[i] == '_')) ++i;
  bool groups = false;
  while (i < s.size() && s[i] == ':') {
    ++i;
    if (digit(i) && s[i] <= '5' && digit(i + 1)) {
      i += 2;
    } else if (digit(i)) {
      ++i;
    } else {
      return false;
    }
    groups = true;
  }
  if (!groups) return false;
  if (i < s.size() && s[i] == '.') {
    ++i;
    while (digit(i) || (i < s.size() && s[i] == '_')) ++i;
  }
  return i == s.size();
}

enum class Style { kPlain, kSingleQuoted, kDoubleQuoted, kLiteral };

// A scalar event as go-yaml's encoder produces it.
struct Scalar {
  std::string value;
  Style style = Style::kPlain;
  bool binary = false;  // tagged !!binary (not implicit)
};

// encoder.stringv
Scalar StringScalar(std::string_view s) {
  Scalar out;
  bool can_use_plain = true;
  if (!IsValidUtf8(s)) {
    out.binary = true;
    out.value = EncodeBase64(s);
  } else {
    out.value = std::string(s);
    Result<YamlScalar> r = ResolveYamlScalar("", s);
    can_use_plain = r->type == YamlScalarType::kString && !IsBase60Float(s);
  }
  if (out.value.find('\n') != std::string::npos) {
    out.style = Style::kLiteral;
  } else if (can_use_plain) {
    out.style = Style::kPlain;
  } else {
    out.style = Style::kDoubleQuoted;
  }
  return out;
}

Scalar PlainScalar(std::string s) {
  Scalar out;
  out.value = std::move(s);
  return out;
}

// The scalar go-yaml writes for a JSON scalar after reading it back.
Scalar ScalarFor(const Value& v) {
  switch (v.kind) {
    case Kind::kNull:
      return PlainScalar("null");
    case Kind::kBool:
      return PlainScalar(v.boolean ? "true" : "false");
    case Kind::kString:
      return StringScalar(v.text);
    case Kind::kNumber: {
      Result<YamlScalar> r = ResolveYamlScalar("", v.text);
      switch (r->type) {
        case YamlScalarType::kNull:
          return PlainScalar("null");
        case YamlScalarType::kBool:
          return PlainScalar(r->boolean ? "true" : "false");
        case YamlScalarType::kInt:
          return PlainScalar(std::to_string(r->int_value));
        case YamlScalarType::kUint:
          return PlainScalar(std::to_string(r->uint_value));
        case YamlScalarType::kFloat: {
          std::string f = FormatGoFloatG(r->float_value, 64);
          if (f == "+Inf") f = ".inf";
          if (f == "-Inf") f = "-.inf";
          if (f == "NaN") f = ".nan";
          return PlainScalar(std::move(f));
        }
        case YamlScalarType::kTimestamp:
        case YamlScalarType::kString:
          break;
      }
      return StringScalar(v.text);
    }
    case Kind::kArray:
    case Kind::kObject:
      break;
  }
  return PlainScalar("");
}

// yaml_emitter_analyze_scalar's verdict.
struct Analysis {
  bool multiline = false;
  bool flow_plain_allowed = false;
  bool block_plain_allowed = true;
  bool single_quoted_allowed = true;
  bool block_allowed = false;
};

// One pass over the scalar with the flags go-yaml's emitter computes in
// yaml_emitter_analyze_scalar (emitterc.go); kept in one function, in the
// same order, so that it can be compared with that function line by line.
// NOLINTNEXTLINE(readability-function-size): the reason is above.
Analysis Analyze(std::string_view v) {
  Analysis a;
  if (v.empty()) return a;
  bool block_indicators = false;
  bool flow_indicators = false;
  bool line_breaks = false;
  bool special_characters = false;
  bool leading_space = false;
  bool leading_break = false;
  bool trailing_space = false;
  bool trailing_break = false;
  bool break_space = false;
  bool space_break = false;
  bool previous_space = false;
  bool previous_break = false;
  if (v.size() >= 3 && (v.substr(0, 3) == "---" || v.substr(0, 3) == "...")) {
    block_indicators = true;
    flow_indicators = true;
  }
  bool preceded_by_whitespace = true;
  for (std::size_t i = 0, w = 0; i < v.size(); i += w) {
    w = static_cast<std::size_t>(Width(At(v, i)));
    const bool followed_by_whitespace = i + w >= v.size() || IsBlank(v, i + w);
    const char c = v[i];
    if (i == 0) {
      switch (c) {
        case '#':
        case ',':
        case '[':
        case ']':
        case '{':
        case '}':
        case '&':
        case '*':
        case '!':
        case '|':
        case '>':
        case '\'':
        case '"':
        case '%':
        case '@':
        case '`':
          flow_indicators = true;
          block_indicators = true;
          break;
        case '?':
        case ':':
          flow_indicators = true;
          if (followed_by_whitespace) block_indicators = true;
          break;
        case '-':
          if (followed_by_whitespace) {
            flow_indicators = true;
            block_indicators = true;
          }
          break;
        default:
          break;
      }
    } else {
      switch (c) {
        case ',':
        case '?':
        case '[':
        case ']':
        case '{':
        case '}':
          flow_indicators = true;
          break;
        case ':':
          flow_indicators = true;
          if (followed_by_whitespace) block_indicators = true;
          break;
        case '#':
          if (preceded_by_whitespace) {
            flow_indicators = true;
            block_indicators = true;
          }
          break;
        default:
          break;
      }
    }
    if (!IsPrintable(v, i)) special_characters = true;
    if (IsSpace(v, i)) {
      if (i == 0) leading_space = true;
      if (i + w == v.size()) trailing_space = true;
      if (previous_break) break_space = true;
      previous_space = true;
      previous_break = false;
    } else if (IsBreak(v, i)) {
      line_breaks = true;
      if (i == 0) leading_break = true;
      if (i + w == v.size()) trailing_break = true;
      if (previous_space) space_break = true;
      previous_space = false;
      previous_break = true;
    } else {
      previous_space = false;
      previous_break = false;
    }
    preceded_by_whitespace = IsBlankz(v, i);
  }
  a.multiline = line_breaks;
  a.flow_plain_allowed = true;
  a.block_plain_allowed = true;
  a.single_quoted_allowed = true;
  a.block_allowed = true;
  if (leading_space || leading_break || trailing_space || trailing_break) {
    a.flow_plain_allowed = false;
    a.block_plain_allowed = false;
  }
  if (trailing_space) a.block_allowed = false;
  if (break_space) {
    a.flow_plain_allowed = false;
    a.block_plain_allowed = false;
    a.single_quoted_allowed = false;
  }
  if (space_break || special_characters) {
    a.flow_plain_allowed = false;
    a.block_plain_allowed = false;
    a.single_quoted_allowed = false;
    a.block_allowed = false;
  }
  if (line_breaks) {
    a.flow_plain_allowed = false;
    a.block_plain_allowed = false;
  }
  if (flow_indicators) a.flow_plain_allowed = false;
  if (block_indicators) a.block_plain_allowed = false;
  return a;
}

class Emitter {
 public:
  std::string Emit(const Value& root) {
    EmitNode(root, false, false);
    WriteIndent();  // document end
    return std::move(out_);
  }

 private:
  void Put(char c) {
    out_.push_back(c);
    ++column_;
  }
  void PutBreak() {
    out_.push_back('\n');
    column_ = 0;
  }
  // Copies one character; the column counts characters, not bytes.
  void Write(std::string_view v, std::size_t& i) {
    std::size_t w = static_cast<std::size_t>(Width(At(v, i)));
    out_.append(v.substr(i, w));
    ++column_;
    i += w;
  }
  void WriteAll(std::string_view s) {
    for (std::size_t i = 0; i < s.size();) Write(s, i);
  }
  void WriteBreak(std::string_view v, std::size_t& i) {
    if (v[i] == '\n') {
      PutBreak();
      ++i;
    } else {
      Write(v, i);
      column_ = 0;
    }
  }

  void IncreaseIndent(bool flow, bool indentless) {
    indents_.push_back(indent_);
    if (indent_ < 0) {
      indent_ = flow ? kBestIndent : 0;
    } else if (!indentless) {
      indent_ += kBestIndent;
    }
  }
  void PopIndent() {
    indent_ = indents_.back();
    indents_.pop_back();
  }

  void WriteIndent() {
    int indent = indent_ < 0 ? 0 : indent_;
    if (!indention_ || column_ > indent || (column_ == indent && !whitespace_)) PutBreak();
    while (column_ < indent) Put(' ');
    whitespace_ = true;
    indention_ = true;
  }

  void WriteIndicator(std::string_view indicator, bool need_whitespace, bool is_whitespace,
                      bool is_indention) {
    if (need_whitespace && !whitespace_) Put(' ');
    WriteAll(indicator);
    whitespace_ = is_whitespace;
    indention_ = indention_ && is_indention;
  }

  void EmitNode(const Value& v, bool mapping, bool simple_key) {
    mapping_context_ = mapping;
    simple_key_context_ = simple_key;
    if (v.kind == Kind::kArray) {
      if (flow_level_ > 0 || v.items.empty()) {
        EmitEmptyFlow("[", "]");
      } else {
        EmitBlockSequence(v);
      }
    } else if (v.kind == Kind::kObject) {
      if (flow_level_ > 0 || v.members.empty()) {
        EmitEmptyFlow("{", "}");
      } else {
        EmitBlockMapping(v);
      }
    } else {
      EmitScalar(ScalarFor(v));
    }
  }

  // Only empty collections are written in flow style.
  void EmitEmptyFlow(std::string_view open, std::string_view close) {
    WriteIndicator(open, true, true, false);
    IncreaseIndent(true, false);
    PopIndent();
    WriteIndicator(close, false, false, false);
  }

  void EmitBlockSequence(const Value& v) {
    IncreaseIndent(false, mapping_context_ && !indention_);
    for (const Value& item : v.items) {
      WriteIndent();
      WriteIndicator("-", true, false, true);
      EmitNode(item, false, false);
    }
    PopIndent();
  }

  void EmitBlockMapping(const Value& v) {
    IncreaseIndent(false, false);
    for (const Member* m : SortedMembers(v)) {
      WriteIndent();
      Scalar key = StringScalar(m->key);
      if (IsSimpleKey(key)) {
        simple_key_context_ = true;
        mapping_context_ = true;
        EmitScalar(key);
        WriteIndicator(":", false, false, false);
      } else {
        WriteIndicator("?", true, false, true);
        simple_key_context_ = false;
        mapping_context_ = true;
        EmitScalar(key);
        WriteIndent();
        WriteIndicator(":", true, false, true);
      }
      EmitNode(m->value, true, false);
    }
    PopIndent();
  }

  static bool IsSimpleKey(const Scalar& key) {
    if (Analyze(key.value).multiline) return false;
    std::size_t length = key.value.size() + (key.binary ? 8 : 0);  // "!!" + "binary"
    return length <= 128;
  }

  // yaml_emitter_select_scalar_style, then the writer for the chosen style.
  void EmitScalar(const Scalar& s) {
    const Analysis a = Analyze(s.value);
    Style style = s.style;
    if (simple_key_context_ && a.multiline) style = Style::kDoubleQuoted;
    if (style == Style::kPlain) {
      if ((flow_level_ > 0 && !a.flow_plain_allowed) ||
          (flow_level_ == 0 && !a.block_plain_allowed)) {
        style = Style::kSingleQuoted;
      }
      if (s.value.empty() && (flow_level_ > 0 || simple_key_context_)) {
        style = Style::kSingleQuoted;
      }
    }
    if (style == Style::kSingleQuoted && !a.single_quoted_allowed) style = Style::kDoubleQuoted;
    if (style == Style::kLiteral && (!a.block_allowed || flow_level_ > 0 || simple_key_context_)) {
      style = Style::kDoubleQuoted;
    }
    if (s.binary) {
      if (!whitespace_) Put(' ');
      WriteAll("!!binary");
      whitespace_ = false;
      indention_ = false;
    }
    IncreaseIndent(true, false);
    const bool allow_breaks = !simple_key_context_;
    switch (style) {
      case Style::kPlain:
        WritePlain(s.value, allow_breaks);
        break;
      case Style::kSingleQuoted:
        WriteSingleQuoted(s.value, allow_breaks);
        break;
      case Style::kDoubleQuoted:
        WriteDoubleQuoted(s.value, allow_breaks);
        break;
      case Style::kLiteral:
        WriteLiteral(s.value);
        break;
    }
    PopIndent();
  }

  void WritePlain(std::string_view v, bool allow_breaks) {
    if (!whitespace_) Put(' ');
    bool spaces = false;
    bool breaks = false;
    for (std::size_t i = 0; i < v.size();) {
      if (IsSpace(v, i)) {
        if (allow_breaks && !spaces && column_ > kBestWidth && !IsSpace(v, i + 1)) {
          WriteIndent();
          ++i;
        } else {
          Write(v, i);
        }
        spaces = true;
      } else if (IsBreak(v, i)) {
        if (!breaks && v[i] == '\n') PutBreak();
        WriteBreak(v, i);
        indention_ = true;
        breaks = true;
      } else {
        if (breaks) WriteIndent();
        Write(v, i);
        indention_ = false;
        spaces = false;
        breaks = false;
      }
    }
    whitespace_ = false;
    indention_ = false;
  }

  void WriteSingleQuoted(std::string_view v, bool allow_breaks) {
    WriteIndicator("'", true, false, false);
    bool spaces = false;
    bool breaks = false;
    for (std::size_t i = 0; i < v.size();) {
      if (IsSpace(v, i)) {
        if (allow_breaks && !spaces && column_ > kBestWidth && i > 0 && i < v.size() - 1 &&
            !IsSpace(v, i + 1)) {
          WriteIndent();
          ++i;
        } else {
          Write(v, i);
        }
        spaces = true;
      } else if (IsBreak(v, i)) {
        if (!breaks && v[i] == '\n') PutBreak();
        WriteBreak(v, i);
        indention_ = true;
        breaks = true;
      } else {
        if (breaks) WriteIndent();
        if (v[i] == '\'') Put('\'');
        Write(v, i);
        indention_ = false;
        spaces = false;
        breaks = false;
      }
    }
    WriteIndicator("'", false, false, false);
    whitespace_ = false;
    indention_ = false;
  }

  // The escape of `c` after its backslash: a letter where YAML has one, else
  // x, u or U and its hexadecimal code.
  void WriteEscape(char32_t c) {
    static constexpr char kHex[] = "0123456789ABCDEF";
    switch (c) {
      case 0x00:
        Put('0');
        break;
      case 0x07:
        Put('a');
        break;
      case 0x08:
        Put('b');
        break;
      case 0x09:
        Put('t');
        break;
      case 0x0A:
        Put('n');
        break;
      case 0x0B:
        Put('v');
        break;
      case 0x0C:
        Put('f');
        break;
      case 0x0D:
        Put('r');
        break;
      case 0x1B:
        Put('e');
        break;
      case 0x22:
        Put('"');
        break;
      case 0x5C:
        Put('\\');
        break;
      case 0x85:
        Put('N');
        break;
      case 0xA0:
        Put('_');
        break;
      case 0x2028:
        Put('L');
        break;
      case 0x2029:
        Put('P');
        break;
      default: {
        int digits;
        if (c <= 0xFF) {
          Put('x');
          digits = 2;
        } else if (c <= 0xFFFF) {
          Put('u');
          digits = 4;
        } else {
          Put('U');
          digits = 8;
        }
        for (int k = (digits - 1) * 4; k >= 0; k -= 4) Put(kHex[(c >> k) & 0xF]);
      }
    }
  }

  void WriteDoubleQuoted(std::string_view v, bool allow_breaks) {
    // go-yaml's is_bom looks at the start of the value, whatever the index,
    // so a value starting with a BOM has every character escaped.
    const bool bom = v.substr(0, 3) == "\xEF\xBB\xBF";
    bool spaces = false;
    WriteIndicator("\"", true, false, false);
    for (std::size_t i = 0; i < v.size();) {
      if (!IsPrintable(v, i) || bom || IsBreak(v, i) || v[i] == '"' || v[i] == '\\') {
        std::size_t w = static_cast<std::size_t>(Width(At(v, i)));
        DecodedRune r = DecodeUtf8Rune(v.substr(i, w));
        char32_t c = r.rune;
        i += w;
        Put('\\');
        WriteEscape(c);
        spaces = false;
      } else if (IsSpace(v, i)) {
        if (allow_breaks && !spaces && column_ > kBestWidth && i > 0 && i < v.size() - 1) {
          WriteIndent();
          if (IsSpace(v, i + 1)) Put('\\');
          ++i;
        } else {
          Write(v, i);
        }
        spaces = true;
      } else {
        Write(v, i);
        spaces = false;
      }
    }
    WriteIndicator("\"", false, false, false);
    whitespace_ = false;
    indention_ = false;
  }

  void WriteBlockScalarHints(std::string_view v) {
    if (IsSpace(v, 0) || IsBreak(v, 0)) WriteIndicator("2", false, false, false);
    char chomp = 0;
    if (v.empty()) {
      chomp = '-';
    } else {
      std::size_t i = v.size() - 1;
      while ((At(v, i) & 0xC0) == 0x80) --i;
      if (!IsBreak(v, i)) {
        chomp = '-';
      } else if (i == 0) {
        chomp = '+';
      } else {
        --i;
        while ((At(v, i) & 0xC0) == 0x80) --i;
        if (IsBreak(v, i)) chomp = '+';
      }
    }
    if (chomp != 0) WriteIndicator(std::string_view(&chomp, 1), false, false, false);
  }

  void WriteLiteral(std::string_view v) {
    WriteIndicator("|", true, false, false);
    WriteBlockScalarHints(v);
    PutBreak();
    indention_ = true;
    whitespace_ = true;
    bool breaks = true;
    for (std::size_t i = 0; i < v.size();) {
      if (IsBreak(v, i)) {
        WriteBreak(v, i);
        indention_ = true;
        breaks = true;
      } else {
        if (breaks) WriteIndent();
        Write(v, i);
        indention_ = false;
        breaks = false;
      }
    }
  }

  std::string out_;
  int indent_ = -1;
  std::vector<int> indents_;
  int column_ = 0;
  bool whitespace_ = true;
  bool indention_ = true;
  // Stays 0: only empty collections are written in flow style, and nothing
  // is written inside them. Kept so the style rules read as go-yaml's.
  int flow_level_ = 0;
  bool mapping_context_ = false;
  bool simple_key_context_ = false;
};

}  // namespace

std::string ToYaml(const Value& v) {
  Emitter e;
  return e.Emit(v);
}

}  // namespace dra::json
