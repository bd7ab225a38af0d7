// JSON output with Go encoding/json's rules: HTML-safe string escaping, compact
// form, and json.MarshalIndent's layout for the indented form.
#include <array>
#include <string>

#include "dra/json/value.h"

namespace dra::json {
namespace {

// Bytes Go writes unchanged inside a string (its htmlSafeSet, ASCII only).
constexpr std::array<bool, 256> kSafe = [] {
  std::array<bool, 256> t{};
  for (int c = 0x20; c < 0x80; ++c) t[c] = true;
  t['"'] = false;
  t['\\'] = false;
  t['<'] = false;
  t['>'] = false;
  t['&'] = false;
  return t;
}();

constexpr char kHex[] = "0123456789abcdef";

void WriteCompact(const Value& v, std::string& out) {
  switch (v.kind) {
    case Kind::kNull:
      out += "null";
      return;
    case Kind::kBool:
      out += v.boolean ? "true" : "false";
      return;
    case Kind::kNumber:
      out += v.text;
      return;
    case Kind::kString:
      AppendGoJsonString(out, v.text);
      return;
    case Kind::kArray: {
      out.push_back('[');
      bool first = true;
      for (const Value& item : v.items) {
        if (!first) out.push_back(',');
        first = false;
        WriteCompact(item, out);
      }
      out.push_back(']');
      return;
    }
    case Kind::kObject: {
      out.push_back('{');
      bool first = true;
      for (const Member& m : v.members) {
        if (!first) out.push_back(',');
        first = false;
        AppendGoJsonString(out, m.key);
        out.push_back(':');
        WriteCompact(m.value, out);
      }
      out.push_back('}');
      return;
    }
  }
}

void NewLine(std::string& out, int indent, int depth) {
  out.push_back('\n');
  out.append(static_cast<std::size_t>(indent) * static_cast<std::size_t>(depth), ' ');
}

void WriteIndented(const Value& v, int indent, int depth, std::string& out) {
  if (v.kind == Kind::kArray && !v.items.empty()) {
    out.push_back('[');
    bool first = true;
    for (const Value& item : v.items) {
      if (!first) out.push_back(',');
      first = false;
      NewLine(out, indent, depth + 1);
      WriteIndented(item, indent, depth + 1, out);
    }
    NewLine(out, indent, depth);
    out.push_back(']');
  } else if (v.kind == Kind::kObject && !v.members.empty()) {
    out.push_back('{');
    bool first = true;
    for (const Member& m : v.members) {
      if (!first) out.push_back(',');
      first = false;
      NewLine(out, indent, depth + 1);
      AppendGoJsonString(out, m.key);
      out += ": ";
      WriteIndented(m.value, indent, depth + 1, out);
    }
    NewLine(out, indent, depth);
    out.push_back('}');
  } else {
    WriteCompact(v, out);
  }
}

}  // namespace

void AppendGoJsonString(std::string& out, std::string_view s) {
  out.reserve(out.size() + s.size() + 2);
  out.push_back('"');
  std::size_t run = 0;  // start of bytes not yet copied
  std::size_t i = 0;
  while (i < s.size()) {
    const auto b = static_cast<unsigned char>(s[i]);
    if (kSafe[b]) {
      ++i;
      continue;
    }
    if (b < 0x80) {
      out.append(s, run, i - run);
      out.push_back('\\');
      switch (b) {
        case '"':
        case '\\':
          out.push_back(static_cast<char>(b));
          break;
        case '\b':
          out.push_back('b');
          break;
        case '\f':
          out.push_back('f');
          break;
        case '\n':
          out.push_back('n');
          break;
        case '\r':
          out.push_back('r');
          break;
        case '\t':
          out.push_back('t');
          break;
        default:
          // Other control bytes and the HTML characters <, >, &.
          out += "u00";
          out.push_back(kHex[b >> 4]);
          out.push_back(kHex[b & 0xF]);
      }
      run = ++i;
      continue;
    }
    DecodedRune r = DecodeUtf8Rune(s.substr(i));
    if (r.rune == 0xFFFD && r.size == 1) {
      out.append(s, run, i - run);
      out += "\\ufffd";
      run = ++i;
      continue;
    }
    if (r.rune == 0x2028 || r.rune == 0x2029) {
      out.append(s, run, i - run);
      out += "\\u202";
      out.push_back(kHex[r.rune & 0xF]);
      i += r.size;
      run = i;
      continue;
    }
    i += r.size;
  }
  out.append(s, run, i - run);
  out.push_back('"');
}

void WriteJson(const Value& v, std::string& out) { WriteCompact(v, out); }

std::string ToJson(const Value& v) {
  std::string out;
  WriteCompact(v, out);
  return out;
}

std::string ToIndentedJson(const Value& v, int indent) {
  std::string out;
  WriteIndented(v, indent, 0, out);
  return out;
}

}  // namespace dra::json
