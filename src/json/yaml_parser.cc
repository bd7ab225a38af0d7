// YAML → Value conversion matching sigs.k8s.io/yaml's YAMLToJSON over go-yaml
// v2. yaml-cpp does the parsing and reports events; the handler below builds
// the tree with an explicit stack and applies go-yaml v2's rules: scalar
// resolution, merge keys (applied in place, sequences of maps in reverse),
// alias expansion with go-yaml's "excessive aliasing" budget, and
// sigs.k8s.io/yaml's key conversion. Object members are sorted by key, as the
// JSON that YAMLToJSON produces is (json.Marshal of a map); duplicates are
// kept, in the order go-yaml applies them, so the last one is the one Go
// keeps.
//
// Stack safety: yaml-cpp's parser recurses once per nesting level, guarded by
// its DepthGuard<500> (yaml-cpp >= 0.7; including depthguard.h below makes
// that a build requirement). The handler rejects a collection nested deeper
// than min(limits.max_depth, 498) when it starts, before yaml-cpp recurses
// into it, so neither recursion nor the guard's less precise error is ever
// reached for valid limits. A separate textual pre-scan is therefore not
// needed: the events arrive as the parser descends.
//
// yaml-cpp accepts some input libyaml rejects or reads it differently; the
// handler checks the source text around the event marks to restore go-yaml's
// behaviour: a block-mapping key without ':' (yaml-cpp gives it a null
// value), an unterminated quoted scalar at the end of the stream, anchor
// names beyond [0-9A-Za-z_-], a tagged empty node at the end of the stream
// (yaml-cpp drops the tag), content after a document's root without "---",
// and the escapes \N and \_ (yaml-cpp emits a bare 0x85 / 0xA0 byte).
//
// Conversion errors (a bad key, a tag that does not fit, NaN) are reported
// when the document ends, so a syntax error later in the document wins as it
// does in go-yaml, which parses a whole document before decoding it; after
// the first one the handler only tracks nesting. Limit errors (depth, value
// count, aliasing) stop the parse at once.
//
// Aliases and anchored nodes are kept as placeholders while the document is
// built (a Value with raw_begin = anchor id, raw_end = 0) and copied in when
// the document ends. Each anchor is stored once, so nested anchors cost
// linear memory, and every expansion is paid for up front from the alias
// budget and limits.max_values before anything is copied.
#include <yaml-cpp/depthguard.h>
#include <yaml-cpp/eventhandler.h>
#include <yaml-cpp/exceptions.h>
#include <yaml-cpp/mark.h>
#include <yaml-cpp/parser.h>

#include <algorithm>
#include <cstdint>
#include <istream>
#include <streambuf>
#include <string>
#include <utility>
#include <vector>

#include "dra/json/value.h"

namespace dra::json {
namespace {

// yaml-cpp 0.7 throws DeepRecursion when SingleDocParser::HandleNode is
// entered 500 times; a collection at nesting level N is handled at depth N
// and its children at N + 1.
constexpr std::uint32_t kYamlCppMaxNesting = 498;

constexpr std::string_view kBinaryTag = "tag:yaml.org,2002:binary";
constexpr std::string_view kMergeTag = "tag:yaml.org,2002:merge";

// Thrown from the event handler to abort yaml-cpp's parse; caught in
// ParseYaml. yaml-cpp reports its own errors by exception, so the handler has
// no other way to stop it.
struct ConvertError {
  Position pos;
  std::string message;
};

class ViewStreamBuf : public std::streambuf {
 public:
  explicit ViewStreamBuf(std::string_view s) {
    char* p = const_cast<char*>(s.data());  // read-only: no put area is set
    setg(p, p, p + s.size());
  }
};

Position ToPosition(const YAML::Mark& m) {
  if (m.is_null() || m.line < 0 || m.column < 0) return {};
  return {static_cast<std::uint32_t>(m.line + 1), static_cast<std::uint32_t>(m.column + 1)};
}

std::string FormatError(Position pos, std::string_view message) {
  if (pos.line == 0) pos = {1, 1};
  return "line " + std::to_string(pos.line) + ", column " + std::to_string(pos.column) + ": " +
         std::string(message);
}

// Which of go-yaml's reader checks (readerc.go, yaml_parser_update_buffer)
// rejects the sequence at the start of `s`, which DecodeUtf8Rune found
// invalid: a bad leading byte, a truncated sequence, a bad trailing byte, an
// overlong form, or else a surrogate or a code point above U+10FFFF.
std::string_view Utf8Problem(std::string_view s) {
  const auto b0 = static_cast<unsigned char>(s[0]);
  const std::size_t width = (b0 & 0xE0) == 0xC0   ? 2
                            : (b0 & 0xF0) == 0xE0 ? 3
                            : (b0 & 0xF8) == 0xF0 ? 4
                                                  : 0;
  if (width == 0) return "invalid leading UTF-8 octet";
  if (s.size() < width) return "incomplete UTF-8 octet sequence";
  for (std::size_t k = 1; k < width; ++k) {
    if ((static_cast<unsigned char>(s[k]) & 0xC0) != 0x80) return "invalid trailing UTF-8 octet";
  }
  const auto b1 = static_cast<unsigned char>(s[1]);
  if ((width == 2 && b0 < 0xC2) || (width == 3 && b0 == 0xE0 && b1 < 0xA0) ||
      (width == 4 && b0 == 0xF0 && b1 < 0x90)) {
    return "invalid length of a UTF-8 sequence";
  }
  return "invalid Unicode character";
}

// go-yaml's reader: valid UTF-8 of printable characters only.
Result<bool> CheckCharacters(std::string_view text) {
  std::uint32_t line = 1;
  std::size_t line_start = 0;
  std::size_t i = 0;
  auto fail = [&](std::string_view what) -> Result<bool> {
    return Error{FormatError({line, static_cast<std::uint32_t>(i - line_start + 1)}, what)};
  };
  if (text.substr(0, 3) == "\xEF\xBB\xBF") i = 3;
  while (i < text.size()) {
    const auto b = static_cast<unsigned char>(text[i]);
    if (b < 0x80) {
      if (b == '\n') {
        ++line;
        line_start = i + 1;
      } else if ((b < 0x20 && b != '\t' && b != '\r') || b == 0x7F) {
        return fail("control characters are not allowed");
      }
      ++i;
      continue;
    }
    const DecodedRune d = DecodeUtf8Rune(text.substr(i));
    if (d.rune == 0xFFFD && d.size == 1) return fail(Utf8Problem(text.substr(i)));
    const char32_t r = d.rune;
    if ((r >= 0x80 && r < 0xA0 && r != 0x85) || r == 0xFFFE || r == 0xFFFF) {
      return fail("control characters are not allowed");
    }
    i += d.size;
  }
  return true;
}

// Go's base64.StdEncoding.DecodeString: padding required, CR and LF ignored.
bool DecodeBase64(std::string_view in, std::string* out) {
  std::string clean;
  clean.reserve(in.size());
  for (char c : in) {
    if (c != '\r' && c != '\n') clean.push_back(c);
  }
  if (clean.size() % 4 != 0) return false;
  auto sextet = [](char c) -> int {
    if (c >= 'A' && c <= 'Z') return c - 'A';
    if (c >= 'a' && c <= 'z') return c - 'a' + 26;
    if (c >= '0' && c <= '9') return c - '0' + 52;
    if (c == '+') return 62;
    if (c == '/') return 63;
    return -1;
  };
  out->clear();
  for (std::size_t i = 0; i < clean.size(); i += 4) {
    const bool last = i + 4 == clean.size();
    int pad = 0;
    if (last && clean[i + 3] == '=') pad = clean[i + 2] == '=' ? 2 : 1;
    std::uint32_t bits = 0;
    for (int k = 0; k < 4; ++k) {
      int v = k >= 4 - pad ? 0 : sextet(clean[i + static_cast<std::size_t>(k)]);
      if (v < 0) return false;
      bits = bits << 6 | static_cast<std::uint32_t>(v);
    }
    out->push_back(static_cast<char>(bits >> 16));
    if (pad < 2) out->push_back(static_cast<char>(bits >> 8 & 0xFF));
    if (pad < 1) out->push_back(static_cast<char>(bits & 0xFF));
  }
  return true;
}

// go-yaml v2's allowedAliasRatio: alias-driven decodes may be 99% of a small
// document, falling to 10% for documents of 4,000,000 decode operations.
double AllowedAliasRatio(std::uint64_t decodes) {
  constexpr double kLow = 400000;
  constexpr double kHigh = 4000000;
  if (decodes <= kLow) return 0.99;
  if (decodes >= kHigh) return 0.10;
  return 0.99 - 0.89 * ((static_cast<double>(decodes) - kLow) / (kHigh - kLow));
}

bool IsPlaceholder(const Value& v) { return v.raw_begin != 0 && v.raw_end == 0; }

// yaml-cpp decodes the escapes \N and \_ to the bare bytes 0x85 and 0xA0;
// the input was valid UTF-8, so such a byte can only come from them.
void RepairEscapes(std::string& s) {
  bool clean = true;
  for (std::size_t i = 0; i < s.size() && clean;) {
    DecodedRune r = DecodeUtf8Rune(std::string_view(s).substr(i));
    clean = !(r.rune == 0xFFFD && r.size == 1);
    i += r.size;
  }
  if (clean) return;
  std::string out;
  out.reserve(s.size() + 8);
  for (std::size_t i = 0; i < s.size();) {
    DecodedRune r = DecodeUtf8Rune(std::string_view(s).substr(i));
    if (r.rune == 0xFFFD && r.size == 1) out.push_back('\xC2');
    out.append(s, i, r.size);
    i += r.size;
  }
  s = std::move(out);
}

// json.Marshal's handling of a !!binary value that is not UTF-8: each
// invalid byte becomes U+FFFD.
std::string ToValidUtf8(std::string_view s) {
  std::string out;
  out.reserve(s.size());
  for (std::size_t i = 0; i < s.size();) {
    DecodedRune r = DecodeUtf8Rune(s.substr(i));
    if (r.rune == 0xFFFD && r.size == 1) {
      out += "\xEF\xBF\xBD";
    } else {
      out.append(s, i, r.size);
    }
    i += r.size;
  }
  return out;
}

bool IsAnchorChar(char c) {
  return (c >= '0' && c <= '9') || (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || c == '_' ||
         c == '-';
}

// Node properties (&anchor, !tag) at the start of `s`, and what follows them.
struct Properties {
  std::string_view tag;  // as written, e.g. "!!str"
  std::size_t end = 0;   // offset of the node content
};

Properties ReadProperties(std::string_view s) {
  Properties p;
  std::size_t i = 0;
  for (;;) {
    if (i < s.size() && (s[i] == '&' || s[i] == '!')) {
      std::size_t start = i;
      if (s[i] == '!' && i + 1 < s.size() && s[i + 1] == '<') {
        while (i < s.size() && s[i] != '>') ++i;
        if (i < s.size()) ++i;
      } else {
        while (i < s.size() && s[i] != ' ' && s[i] != '\t' && s[i] != '\n' && s[i] != '\r') ++i;
      }
      if (s[start] == '!') p.tag = s.substr(start, i - start);
      while (i < s.size() && (s[i] == ' ' || s[i] == '\t')) ++i;
      continue;
    }
    break;
  }
  p.end = i;
  return p;
}

// The long form of a tag as written ("!!str" → "tag:yaml.org,2002:str").
std::string ExpandTag(std::string_view tag) {
  if (tag.substr(0, 2) == "!<") return std::string(tag.substr(2, tag.size() - 3));
  if (tag.substr(0, 2) == "!!") return "tag:yaml.org,2002:" + std::string(tag.substr(2));
  return std::string(tag);
}

// Whether only whitespace and comments remain in `s`.
bool OnlyCommentsLeft(std::string_view s) {
  for (std::size_t i = 0; i < s.size(); ++i) {
    char c = s[i];
    if (c == ' ' || c == '\t' || c == '\r' || c == '\n') continue;
    if (c != '#') return false;
    while (i < s.size() && s[i] != '\n') ++i;
  }
  return true;
}

// libyaml's checks of the quoted scalar starting at s[0] that yaml-cpp
// lacks: the closing quote, and no "\\/" escape (YAML 1.2 only). Returns the
// error, or "".
std::string_view CheckQuoted(std::string_view s) {
  const char q = s[0];
  for (std::size_t i = 1; i < s.size(); ++i) {
    if (q == '"' && s[i] == '\\') {
      if (i + 1 < s.size() && s[i + 1] == '/') return "found unknown escape character";
      ++i;
    } else if (s[i] == q) {
      if (q == '\'' && i + 1 < s.size() && s[i + 1] == '\'') {
        ++i;
      } else {
        return {};
      }
    }
  }
  return "found unexpected end of stream";
}

class Builder : public YAML::EventHandler {
 public:
  Builder(std::string_view text, const ParseLimits& limits)
      : text_(text),
        limits_(limits),
        max_nesting_(std::min<std::uint32_t>(limits.max_depth, kYamlCppMaxNesting)) {}

  std::vector<YamlDocument>& documents() { return documents_; }

  void OnDocumentStart(const YAML::Mark& mark) override {
    // yaml-cpp starts a new document wherever a root node ends ("[1] [2]",
    // or content after "..."); libyaml requires "---" before every document
    // but the first.
    if (started_++ > 0 && !StartsWith(mark, "---")) {
      throw ConvertError{ToPosition(mark), "did not find expected <document start>"};
    }
    anchors_.clear();
    frames_.clear();
    items_.clear();
    members_.clear();
    root_ = Value();
    root_empty_ = false;
    decodes_ = 1;  // the document node
    alias_decodes_ = 0;
    values_ = 0;
    depth_ = 0;
    skipping_ = false;
    pending_ = ConvertError{};
    doc_start_ = ToPosition(mark);
  }

  void OnDocumentEnd() override {
    if (skipping_) throw pending_;
    YamlDocument doc;
    doc.start = doc_start_;
    doc.empty = root_empty_;
    Materialize(root_);
    doc.root = std::move(root_);
    documents_.push_back(std::move(doc));
    anchors_.clear();
  }

  void OnAnchor(const YAML::Mark& mark, const std::string& name) override {
    for (char c : name) {
      if (!IsAnchorChar(c)) {
        throw ConvertError{ToPosition(mark),
                           "did not find expected alphabetic or numeric character"};
      }
    }
    anchors_.emplace_back().name = name;
  }

  void OnNull(const YAML::Mark& mark, YAML::anchor_t anchor) override {
    if (!skipping_ && !frames_.empty() && frames_.back().map && frames_.back().block &&
        frames_.back().has_key && mark.pos == frames_.back().key_mark) {
      // yaml-cpp's value for a block-mapping key that has no ':'.
      throw ConvertError{ToPosition(mark), "could not find expected ':'"};
    }
    if (mark.pos >= 0 && static_cast<std::size_t>(mark.pos) < text_.size()) {
      std::string_view rest = text_.substr(static_cast<std::size_t>(mark.pos));
      Properties props = ReadProperties(rest);
      if (!props.tag.empty() && OnlyCommentsLeft(rest.substr(props.end))) {
        // A tagged empty node at the end of the stream: yaml-cpp drops the tag.
        return OnScalar(mark, ExpandTag(props.tag), anchor, "");
      }
    }
    if (skipping_) return;
    ++decodes_;
    Position pos = ToPosition(mark);
    if (frames_.empty() && anchor == YAML::NullAnchor && !IsNullToken(mark)) root_empty_ = true;
    if (anchor != YAML::NullAnchor) {
      Anchor& a = AnchorFor(anchor);
      a.scalar = true;
      a.key_error = "unsupported map key of type: <nil>, key: <nil>";
      a.value.pos = pos;
      a.decodes = 1;
      a.values = 1;
      a.complete = true;
    }
    if (AtKey()) return Defer(pos, "unsupported map key of type: <nil>, key: <nil>");
    CountValue(pos);
    Value v;
    v.pos = pos;
    Deliver(std::move(v), 0);
  }

  void OnScalar(const YAML::Mark& mark, const std::string& tag, YAML::anchor_t anchor,
                const std::string& scalar) override {
    if (tag != "?" && mark.pos >= 0 && static_cast<std::size_t>(mark.pos) < text_.size()) {
      std::string_view rest = text_.substr(static_cast<std::size_t>(mark.pos));
      rest.remove_prefix(ReadProperties(rest).end);
      if (!rest.empty() && (rest[0] == '"' || rest[0] == '\'')) {
        std::string_view problem = CheckQuoted(rest);
        if (!problem.empty()) throw ConvertError{ToPosition(mark), std::string(problem)};
      }
    }
    CheckIndicatorTab(mark);
    if (skipping_) return;
    std::string text = scalar;
    RepairEscapes(text);
    ++decodes_;
    const Position pos = ToPosition(mark);
    if (AtKey() && ((tag == "?" && text == "<<") || tag == kMergeTag)) {
      // go-yaml does not decode the merge key itself.
      --decodes_;
      Frame& f = frames_.back();
      f.has_key = true;
      f.merge = true;
      f.key_pos = pos;
      f.key_mark = mark.pos;
      return;
    }
    YamlScalar s;
    std::string binary;
    bool is_binary = false;
    if (tag == "?") {
      s = *ResolveYamlScalar("", text);
    } else if (tag == kBinaryTag) {
      if (!DecodeBase64(text, &binary)) {
        return Defer(pos, "!!binary value contains invalid base64 data");
      }
      binary = ToValidUtf8(binary);
      is_binary = true;
    } else if (tag != "!") {
      Result<YamlScalar> r = ResolveYamlScalar(tag, text);
      if (!r.ok()) return Defer(pos, r.error());
      s = *r;
    }
    const std::string& str = is_binary ? binary : text;
    std::string key;
    std::string key_error;
    KeyFromScalar(s, str, &key, &key_error);
    if (anchor != YAML::NullAnchor) {
      Anchor& a = AnchorFor(anchor);
      a.scalar = true;
      a.key = key;
      a.key_error = key_error;
      a.value = ValueFromScalar(s, str, &a.value_error);
      a.value.pos = pos;
      a.decodes = 1;
      a.values = 1;
      a.complete = true;
    }
    if (AtKey()) {
      if (!key_error.empty()) return Defer(pos, key_error);
      SetKey(std::move(key), pos, mark.pos);
      return;
    }
    CountValue(pos);
    std::string value_error;
    Value v = ValueFromScalar(s, str, &value_error);
    if (!value_error.empty()) return Defer(pos, value_error);
    v.pos = pos;
    Deliver(std::move(v), 0);
  }

  void OnAlias(const YAML::Mark& mark, YAML::anchor_t anchor) override {
    CheckIndicatorTab(mark);
    if (skipping_) return;
    ++decodes_;
    const Position pos = ToPosition(mark);
    if (anchor == YAML::NullAnchor || anchor > anchors_.size()) {
      throw ConvertError{pos, "unknown anchor referenced"};
    }
    Anchor& a = anchors_[anchor - 1];
    if (!a.complete) return Defer(pos, "anchor '" + a.name + "' value contains itself");
    decodes_ += a.decodes;
    alias_decodes_ += a.decodes;
    if (alias_decodes_ > 100 && decodes_ > 1000 &&
        static_cast<double>(alias_decodes_) / static_cast<double>(decodes_) >
            AllowedAliasRatio(decodes_)) {
      throw ConvertError{pos, "document contains excessive aliasing"};
    }
    if (AtKey()) {
      if (!a.scalar) return Defer(pos, "invalid map key: " + KindName(a.value));
      if (!a.key_error.empty()) return Defer(pos, a.key_error);
      SetKey(a.key, pos, mark.pos);
      return;
    }
    if (!a.value_error.empty()) return Defer(pos, a.value_error);
    if (frames_.size() + a.height > limits_.max_depth) {
      throw ConvertError{pos, "exceeded max depth of " + std::to_string(limits_.max_depth)};
    }
    values_ += a.values - 1;
    CountValue(pos);
    // The copy's top node takes the alias's position; its children keep the
    // anchored node's.
    Deliver(Placeholder(anchor, pos), a.height);
  }

  void OnSequenceStart(const YAML::Mark& mark, const std::string&, YAML::anchor_t anchor,
                       YAML::EmitterStyle::value style) override {
    StartCollection(mark, anchor, false, style == YAML::EmitterStyle::Block);
  }
  void OnSequenceEnd() override {
    --depth_;
    if (!skipping_) EndCollection();
  }

  void OnMapStart(const YAML::Mark& mark, const std::string&, YAML::anchor_t anchor,
                  YAML::EmitterStyle::value style) override {
    StartCollection(mark, anchor, true, style == YAML::EmitterStyle::Block);
  }
  void OnMapEnd() override {
    --depth_;
    if (!skipping_) EndCollection();
  }

 private:
  struct Anchor {
    std::string name;
    bool complete = false;
    bool scalar = false;
    // The node, with placeholders for the anchors and aliases inside it.
    Value value;
    // Using the node as a key gives `key`, or the error `key_error`; using a
    // scalar as a value may fail too (NaN has no JSON form).
    std::string key;
    std::string key_error;
    std::string value_error;
    std::uint64_t decodes = 0;  // go-yaml decode operations for the node and its children
    std::uint64_t values = 0;   // values in its expansion
    std::uint32_t height = 0;   // collection levels in its expansion
  };

  struct Frame {
    bool map = false;
    Value value;  // kind and pos; children are on items_ / members_
    YAML::anchor_t anchor = YAML::NullAnchor;
    std::size_t first_child = 0;
    std::uint64_t decodes_start = 0;
    std::uint64_t values_start = 0;
    std::uint32_t height = 1;
    // A map's key waiting for its value.
    bool has_key = false;
    bool merge = false;
    std::string key;
    Position key_pos;
    int key_mark = -1;  // yaml-cpp's Mark::pos of the key
    bool block = false;
  };

  static std::string KindName(const Value& v) {
    return v.kind == Kind::kArray ? "a sequence" : "a mapping";
  }

  Anchor& AnchorFor(YAML::anchor_t id) {
    // yaml-cpp numbers a document's anchors 1, 2, ... in the order it reports
    // them through OnAnchor.
    while (anchors_.size() < id) anchors_.emplace_back();
    return anchors_[id - 1];
  }

  // libyaml does not skip a tab after a block "-" or "?" indicator (a token
  // may start there, and a tab cannot start one); yaml-cpp does.
  void CheckIndicatorTab(const YAML::Mark& mark) const {
    if (skipping_ || frames_.empty() || !frames_.back().block) return;
    if (frames_.back().map && frames_.back().has_key) return;
    bool tab = false;
    for (int i = mark.pos - 1; i >= 0 && static_cast<std::size_t>(i) < text_.size(); --i) {
      char c = text_[static_cast<std::size_t>(i)];
      if (c == '\t') {
        tab = true;
      } else if (c != ' ') {
        if (tab && (c == '-' || c == '?')) {
          throw ConvertError{ToPosition(mark), "found character that cannot start any token"};
        }
        return;
      }
    }
  }

  bool StartsWith(const YAML::Mark& mark, std::string_view prefix) const {
    if (mark.pos < 0 || static_cast<std::size_t>(mark.pos) >= text_.size()) return false;
    return text_.substr(static_cast<std::size_t>(mark.pos), prefix.size()) == prefix;
  }

  // Whether a root-level null at `mark` is written out (`~`, `null`...) rather
  // than an empty document.
  bool IsNullToken(const YAML::Mark& mark) const {
    for (std::string_view word : {"~", "null", "Null", "NULL"}) {
      if (StartsWith(mark, word)) return true;
    }
    return false;
  }

  // Records the document's first conversion error and stops building.
  void Defer(Position pos, std::string message) {
    pending_ = ConvertError{pos, std::move(message)};
    skipping_ = true;
  }

  bool AtKey() const { return !frames_.empty() && frames_.back().map && !frames_.back().has_key; }

  void SetKey(std::string key, Position pos, int mark_pos) {
    Frame& f = frames_.back();
    f.has_key = true;
    f.merge = false;
    f.key = std::move(key);
    f.key_pos = pos;
    f.key_mark = mark_pos;
  }

  void CountValue(Position pos) {
    if (++values_ > limits_.max_values) {
      throw ConvertError{pos,
                         "too many values (more than " + std::to_string(limits_.max_values) + ")"};
    }
  }

  // sigs.k8s.io/yaml's conversion of a decoded key to a JSON object key.
  static void KeyFromScalar(const YamlScalar& s, const std::string& text, std::string* key,
                            std::string* error) {
    switch (s.type) {
      case YamlScalarType::kNull:
        *error = "unsupported map key of type: <nil>, key: <nil>";
        return;
      case YamlScalarType::kBool:
        *key = s.boolean ? "true" : "false";
        return;
      case YamlScalarType::kInt:
        *key = std::to_string(s.int_value);
        return;
      case YamlScalarType::kUint: {
        static constexpr char kHex[] = "0123456789abcdef";
        std::string hex;
        for (std::uint64_t u = s.uint_value; u != 0; u >>= 4) hex.insert(hex.begin(), kHex[u & 15]);
        *error = "unsupported map key of type: uint64, key: 0x" + hex;
        return;
      }
      case YamlScalarType::kFloat: {
        std::string f = FormatGoFloatG(s.float_value, 32);
        if (f == "+Inf") f = ".inf";
        if (f == "-Inf") f = "-.inf";
        if (f == "NaN") f = ".nan";
        *key = std::move(f);
        return;
      }
      case YamlScalarType::kTimestamp:
      case YamlScalarType::kString:
        *key = text;
        return;
    }
  }

  static Value ValueFromScalar(const YamlScalar& s, const std::string& text, std::string* error) {
    switch (s.type) {
      case YamlScalarType::kNull:
        return Value();
      case YamlScalarType::kBool:
        return Value::Bool(s.boolean);
      case YamlScalarType::kInt:
        return Value::Number(std::to_string(s.int_value));
      case YamlScalarType::kUint:
        return Value::Number(std::to_string(s.uint_value));
      case YamlScalarType::kFloat: {
        Result<std::string> f = FormatGoJsonFloat(s.float_value);
        if (!f.ok()) {
          *error = f.error();
          return Value();
        }
        return Value::Number(std::move(*f));
      }
      case YamlScalarType::kTimestamp:
      case YamlScalarType::kString:
        break;
    }
    return Value::String(text);
  }

  static Value Placeholder(YAML::anchor_t id, Position pos) {
    Value v;
    v.raw_begin = id;
    v.pos = pos;
    return v;
  }

  void StartCollection(const YAML::Mark& mark, YAML::anchor_t anchor, bool map, bool block) {
    CheckIndicatorTab(mark);
    const Position pos = ToPosition(mark);
    if (++depth_ > max_nesting_) {
      throw ConvertError{pos, "exceeded max depth of " + std::to_string(max_nesting_)};
    }
    if (skipping_) return;
    ++decodes_;
    if (AtKey()) {
      return Defer(pos, std::string("invalid map key: ") + (map ? "a mapping" : "a sequence"));
    }
    CountValue(pos);
    Frame& f = frames_.emplace_back();
    f.map = map;
    f.block = block;
    f.value.kind = map ? Kind::kObject : Kind::kArray;
    f.value.pos = pos;
    f.anchor = anchor;
    f.first_child = map ? members_.size() : items_.size();
    f.decodes_start = decodes_ - 1;
    f.values_start = values_ - 1;
    if (anchor != YAML::NullAnchor) AnchorFor(anchor).complete = false;
  }

  void EndCollection() {
    Frame f = std::move(frames_.back());
    frames_.pop_back();
    Value v = std::move(f.value);
    if (f.map) {
      auto first = members_.begin() + static_cast<std::ptrdiff_t>(f.first_child);
      std::stable_sort(first, members_.end(),
                       [](const Member& a, const Member& b) { return a.key < b.key; });
      v.members.reserve(static_cast<std::size_t>(members_.end() - first));
      v.members.assign(std::make_move_iterator(first), std::make_move_iterator(members_.end()));
      members_.erase(first, members_.end());
    } else {
      auto first = items_.begin() + static_cast<std::ptrdiff_t>(f.first_child);
      v.items.reserve(static_cast<std::size_t>(items_.end() - first));
      v.items.assign(std::make_move_iterator(first), std::make_move_iterator(items_.end()));
      items_.erase(first, items_.end());
    }
    if (f.anchor == YAML::NullAnchor) {
      Deliver(std::move(v), f.height);
      return;
    }
    Anchor& a = AnchorFor(f.anchor);
    a.scalar = false;
    a.decodes = decodes_ - f.decodes_start;
    a.values = values_ - f.values_start;
    a.height = f.height;
    a.complete = true;
    Position pos = v.pos;
    a.value = std::move(v);
    Deliver(Placeholder(f.anchor, pos), f.height);
  }

  // Hands a finished node to its parent (or makes it the root).
  void Deliver(Value v, std::uint32_t height) {
    if (frames_.empty()) {
      root_ = std::move(v);
      return;
    }
    Frame& f = frames_.back();
    f.height = std::max(f.height, height + 1);
    if (!f.map) {
      items_.push_back(std::move(v));
      return;
    }
    f.has_key = false;
    if (f.merge) {
      Merge(std::move(v));
      return;
    }
    Member& m = members_.emplace_back();
    m.key = std::move(f.key);
    m.key_pos = f.key_pos;
    m.value = std::move(v);
  }

  // go-yaml v2's merge: the value of `<<` is a map, an alias of a map, or a
  // sequence of those (applied last to first, so earlier ones win). Its
  // members are applied at this point of the map.
  void Merge(Value v) {
    auto mergeable = [&](const Value& m) {
      return IsPlaceholder(m) ? anchors_[m.raw_begin - 1].value.kind == Kind::kObject
                              : m.kind == Kind::kObject;
    };
    auto merge_one = [&](Value& m) {
      if (IsPlaceholder(m)) {
        const Value& target = anchors_[m.raw_begin - 1].value;
        members_.insert(members_.end(), target.members.begin(), target.members.end());
      } else {
        members_.insert(members_.end(), std::make_move_iterator(m.members.begin()),
                        std::make_move_iterator(m.members.end()));
      }
    };
    constexpr std::string_view kWantMap = "map merge requires map or sequence of maps as the value";
    if (v.kind == Kind::kArray && !IsPlaceholder(v)) {
      for (const Value& item : v.items) {
        if (!mergeable(item)) return Defer(item.pos, std::string(kWantMap));
      }
      // go-yaml iterates the sequence's children without decoding the
      // sequence node itself.
      --decodes_;
      for (auto it = v.items.rbegin(); it != v.items.rend(); ++it) merge_one(*it);
    } else {
      if (!mergeable(v)) return Defer(v.pos, std::string(kWantMap));
      merge_one(v);
    }
  }

  // Replaces placeholders with copies of their anchors' nodes.
  void Materialize(Value& v) {
    if (IsPlaceholder(v)) {
      Position pos = v.pos;
      v = anchors_[v.raw_begin - 1].value;
      v.pos = pos;
    }
    for (Value& item : v.items) Materialize(item);
    for (Member& m : v.members) Materialize(m.value);
  }

  std::string_view text_;
  const ParseLimits& limits_;
  const std::uint32_t max_nesting_;
  std::vector<YamlDocument> documents_;
  int started_ = 0;  // documents started

  std::vector<Anchor> anchors_;
  std::vector<Frame> frames_;
  std::vector<Value> items_;
  std::vector<Member> members_;
  Value root_;
  bool root_empty_ = false;
  std::uint64_t decodes_ = 0;
  std::uint64_t alias_decodes_ = 0;
  std::uint64_t values_ = 0;
  std::uint32_t depth_ = 0;  // collections open, also while skipping
  bool skipping_ = false;
  ConvertError pending_;
  Position doc_start_;
};

}  // namespace

Result<std::vector<YamlDocument>> ParseYaml(std::string_view text, const ParseLimits& limits) {
  Result<bool> chars = CheckCharacters(text);
  if (!chars.ok()) return chars.failure();
  Builder builder(text, limits);
  try {
    ViewStreamBuf buf(text);
    std::istream in(&buf);
    YAML::Parser parser(in);
    while (parser.HandleNextDocument(builder)) {
    }
  } catch (const ConvertError& e) {
    return Error{FormatError(e.pos, e.message)};
  } catch (const YAML::DeepRecursion& e) {
    return Error{FormatError(ToPosition(e.mark),
                             "exceeded max depth of " + std::to_string(kYamlCppMaxNesting))};
  } catch (const YAML::Exception& e) {
    return Error{FormatError(ToPosition(e.mark), e.msg)};
  }
  std::vector<YamlDocument>& docs = builder.documents();
  if (docs.empty()) {
    YamlDocument doc;
    doc.empty = true;
    doc.start = {1, 1};
    docs.push_back(std::move(doc));
  }
  return std::move(docs);
}

}  // namespace dra::json
