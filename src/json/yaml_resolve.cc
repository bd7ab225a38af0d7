// go-yaml v2's scalar resolution (resolve.go): YAML 1.1 null/bool words, Go's
// strconv integer and float syntax, and the timestamp check that keeps
// date-like scalars strings. Number parsing follows strconv.ParseInt,
// ParseUint and ParseFloat exactly, as the resolution depends on which of
// them accepts the text.
#include <charconv>
#include <cmath>
#include <cstdint>
#include <limits>
#include <string>

#include "dra/json/value.h"

namespace dra::json {
namespace {

constexpr std::string_view kTagPrefix = "tag:yaml.org,2002:";
constexpr std::string_view kStrTag = "tag:yaml.org,2002:str";
constexpr std::string_view kBoolTag = "tag:yaml.org,2002:bool";
constexpr std::string_view kIntTag = "tag:yaml.org,2002:int";
constexpr std::string_view kFloatTag = "tag:yaml.org,2002:float";
constexpr std::string_view kNullTag = "tag:yaml.org,2002:null";
constexpr std::string_view kTimestampTag = "tag:yaml.org,2002:timestamp";

char Lower(char c) { return static_cast<char>(c | 0x20); }
bool IsDigit(char c) { return c >= '0' && c <= '9'; }

// strconv.ParseUint(s, base, 64); base 0 takes Go's 0b/0o/0x/0 prefixes.
bool ParseUintGo(std::string_view s, int base, std::uint64_t* out) {
  if (s.empty()) return false;
  if (base == 0) {
    base = 10;
    if (s[0] == '0') {
      if (s.size() >= 3 && Lower(s[1]) == 'b') {
        base = 2;
        s.remove_prefix(2);
      } else if (s.size() >= 3 && Lower(s[1]) == 'o') {
        base = 8;
        s.remove_prefix(2);
      } else if (s.size() >= 3 && Lower(s[1]) == 'x') {
        base = 16;
        s.remove_prefix(2);
      } else {
        base = 8;
        s.remove_prefix(1);
      }
    }
  }
  std::uint64_t n = 0;
  const std::uint64_t max = std::numeric_limits<std::uint64_t>::max();
  const std::uint64_t cutoff = max / static_cast<std::uint64_t>(base) + 1;
  for (char c : s) {
    int d;
    if (IsDigit(c)) {
      d = c - '0';
    } else if (Lower(c) >= 'a' && Lower(c) <= 'z') {
      d = Lower(c) - 'a' + 10;
    } else {
      return false;
    }
    if (d >= base) return false;
    if (n >= cutoff) return false;
    n *= static_cast<std::uint64_t>(base);
    std::uint64_t n1 = n + static_cast<std::uint64_t>(d);
    if (n1 < n) return false;
    n = n1;
  }
  *out = n;
  return true;
}

// strconv.ParseInt(s, base, 64).
bool ParseIntGo(std::string_view s, int base, std::int64_t* out) {
  if (s.empty()) return false;
  bool neg = false;
  if (s[0] == '+') {
    s.remove_prefix(1);
  } else if (s[0] == '-') {
    neg = true;
    s.remove_prefix(1);
  }
  std::uint64_t un;
  if (!ParseUintGo(s, base, &un)) return false;
  const std::uint64_t cutoff = std::uint64_t{1} << 63;
  if (!neg && un >= cutoff) return false;
  if (neg && un > cutoff) return false;
  *out = neg ? static_cast<std::int64_t>(0 - un) : static_cast<std::int64_t>(un);
  return true;
}

// strconv's underscoreOK: underscores only between digits (or after a base
// prefix).
bool UnderscoreOk(std::string_view s) {
  char saw = '^';
  std::size_t i = 0;
  if (!s.empty() && (s[0] == '-' || s[0] == '+')) s.remove_prefix(1);
  bool hex = false;
  if (s.size() >= 2 && s[0] == '0' &&
      (Lower(s[1]) == 'b' || Lower(s[1]) == 'o' || Lower(s[1]) == 'x')) {
    i = 2;
    saw = '0';
    hex = Lower(s[1]) == 'x';
  }
  for (; i < s.size(); ++i) {
    if (IsDigit(s[i]) || (hex && Lower(s[i]) >= 'a' && Lower(s[i]) <= 'f')) {
      saw = '0';
      continue;
    }
    if (s[i] == '_') {
      if (saw != '0') return false;
      saw = '_';
      continue;
    }
    if (saw == '_') return false;
    saw = '!';
  }
  return saw != '_';
}

// strconv.ParseFloat(s, 64) for decimal input (the only form that reaches it
// from resolve: the text starts with '.' or matched yamlStyleFloat). Overflow
// is an error as in Go (ErrRange); underflow gives a signed zero.
bool ParseFloatGo(std::string_view s, double* out) {
  std::size_t i = 0;
  bool neg = false;
  if (i < s.size() && (s[i] == '+' || s[i] == '-')) {
    neg = s[i] == '-';
    ++i;
  }
  if (s.size() - i > 2 && s[i] == '0' && Lower(s[i + 1]) == 'x') return false;
  bool underscores = false;
  bool sawdot = false;
  bool sawdigits = false;
  // Position of the decimal point relative to the first significant digit,
  // to tell overflow from underflow when the value is out of range.
  long magnitude = 0;
  bool significant = false;
  std::string clean;
  clean.reserve(s.size());
  if (neg) clean.push_back('-');
  for (; i < s.size(); ++i) {
    char c = s[i];
    if (c == '_') {
      underscores = true;
      continue;
    }
    if (c == '.') {
      if (sawdot) break;
      sawdot = true;
      clean.push_back(c);
      continue;
    }
    if (!IsDigit(c)) break;
    sawdigits = true;
    if (c != '0') significant = true;
    if (!sawdot && significant) ++magnitude;
    if (sawdot && !significant) --magnitude;
    clean.push_back(c);
  }
  if (!sawdigits) return false;
  if (i < s.size() && Lower(s[i]) == 'e') {
    clean.push_back('e');
    ++i;
    if (i >= s.size()) return false;
    bool eneg = false;
    if (s[i] == '+' || s[i] == '-') {
      eneg = s[i] == '-';
      if (eneg) clean.push_back('-');
      ++i;
    }
    if (i >= s.size() || !IsDigit(s[i])) return false;
    long e = 0;
    for (; i < s.size() && (IsDigit(s[i]) || s[i] == '_'); ++i) {
      if (s[i] == '_') {
        underscores = true;
        continue;
      }
      clean.push_back(s[i]);
      if (e < 100000) e = e * 10 + (s[i] - '0');
    }
    magnitude += eneg ? -e : e;
  }
  if (i != s.size()) return false;
  if (underscores && !UnderscoreOk(s)) return false;
  double v = 0;
  const char* first = clean.data();
  const char* last = clean.data() + clean.size();
  std::from_chars_result r = std::from_chars(first, last, v, std::chars_format::general);
  if (r.ec == std::errc::result_out_of_range) {
    if (significant && magnitude > 0) return false;  // overflow: Go's ErrRange
    v = neg ? -0.0 : 0.0;
  } else if (r.ec != std::errc() || r.ptr != last) {
    return false;
  }
  *out = v;
  return true;
}

// ^[-+]?(\.[0-9]+|[0-9]+(\.[0-9]*)?)([eE][-+]?[0-9]+)?$
bool IsYamlStyleFloat(std::string_view s) {
  std::size_t i = 0;
  if (i < s.size() && (s[i] == '-' || s[i] == '+')) ++i;
  if (i < s.size() && s[i] == '.') {
    ++i;
    std::size_t start = i;
    while (i < s.size() && IsDigit(s[i])) ++i;
    if (i == start) return false;
  } else {
    std::size_t start = i;
    while (i < s.size() && IsDigit(s[i])) ++i;
    if (i == start) return false;
    if (i < s.size() && s[i] == '.') {
      ++i;
      while (i < s.size() && IsDigit(s[i])) ++i;
    }
  }
  if (i < s.size() && (s[i] == 'e' || s[i] == 'E')) {
    ++i;
    if (i < s.size() && (s[i] == '-' || s[i] == '+')) ++i;
    std::size_t start = i;
    while (i < s.size() && IsDigit(s[i])) ++i;
    if (i == start) return false;
  }
  return i == s.size();
}

// Go's time package getnum: one or two digits (exactly two when fixed).
bool GetNum(std::string_view& s, bool fixed, int* out) {
  if (s.empty() || !IsDigit(s[0])) return false;
  if (s.size() < 2 || !IsDigit(s[1])) {
    if (fixed) return false;
    *out = s[0] - '0';
    s.remove_prefix(1);
    return true;
  }
  *out = (s[0] - '0') * 10 + (s[1] - '0');
  s.remove_prefix(2);
  return true;
}

bool Skip(std::string_view& s, char c) {
  if (s.empty() || s[0] != c) return false;
  s.remove_prefix(1);
  return true;
}

int DaysIn(int month, int year) {
  static constexpr int kDays[] = {31, 28, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31};
  if (month == 2 && year % 4 == 0 && (year % 100 != 0 || year % 400 == 0)) return 29;
  return kDays[month - 1];
}

// time.Parse with go-yaml's layouts "2006-1-2T15:4:5.999999999Z07:00" (and
// its lower-case 't' variant), "2006-1-2 15:4:5.999999999" and "2006-1-2".
bool IsGoYamlTimestamp(std::string_view s) {
  std::size_t i = 0;
  while (i < s.size() && IsDigit(s[i])) ++i;
  if (i != 4 || i == s.size() || s[i] != '-') return false;
  const int year = (s[0] - '0') * 1000 + (s[1] - '0') * 100 + (s[2] - '0') * 10 + (s[3] - '0');
  std::string_view v = s.substr(4);
  int month;
  int day;
  if (!Skip(v, '-') || !GetNum(v, false, &month) || month < 1 || month > 12) return false;
  if (!Skip(v, '-') || !GetNum(v, false, &day)) return false;
  if (day < 1 || day > DaysIn(month, year)) return false;
  if (v.empty()) return true;  // "2006-1-2"
  bool zone;
  if (v[0] == 'T' || v[0] == 't') {
    zone = true;
    v.remove_prefix(1);
  } else if (v[0] == ' ') {
    // A space in a layout matches a run of spaces.
    zone = false;
    while (!v.empty() && v[0] == ' ') v.remove_prefix(1);
  } else {
    return false;
  }
  int hour;
  int minute;
  int second;
  if (!GetNum(v, false, &hour) || hour > 23) return false;
  if (!Skip(v, ':') || !GetNum(v, false, &minute) || minute > 59) return false;
  if (!Skip(v, ':') || !GetNum(v, false, &second) || second > 59) return false;
  // Optional fraction: '.' or ',' and any number of digits.
  if (v.size() >= 2 && (v[0] == '.' || v[0] == ',') && IsDigit(v[1])) {
    v.remove_prefix(1);
    while (!v.empty() && IsDigit(v[0])) v.remove_prefix(1);
  }
  if (!zone) return v.empty();
  if (!v.empty() && v[0] == 'Z') return v.size() == 1;
  // ±hh:mm
  if (v.size() != 6 || v[3] != ':' || (v[0] != '+' && v[0] != '-')) return false;
  std::string_view hh = v.substr(1, 2);
  std::string_view mm = v.substr(4, 2);
  int zh;
  int zm;
  if (!GetNum(hh, true, &zh) || !GetNum(mm, true, &zm)) return false;
  return zh <= 24 && zm <= 60;
}

bool IsResolvableTag(std::string_view tag) {
  return tag.empty() || tag == kStrTag || tag == kBoolTag || tag == kIntTag || tag == kFloatTag ||
         tag == kNullTag || tag == kTimestampTag;
}

std::string_view TypeTag(YamlScalarType t) {
  switch (t) {
    case YamlScalarType::kNull:
      return kNullTag;
    case YamlScalarType::kBool:
      return kBoolTag;
    case YamlScalarType::kInt:
    case YamlScalarType::kUint:
      return kIntTag;
    case YamlScalarType::kFloat:
      return kFloatTag;
    case YamlScalarType::kTimestamp:
      return kTimestampTag;
    case YamlScalarType::kString:
      break;
  }
  return kStrTag;
}

std::string ShortTag(std::string_view tag) {
  if (tag.substr(0, kTagPrefix.size()) == kTagPrefix) {
    return "!!" + std::string(tag.substr(kTagPrefix.size()));
  }
  return std::string(tag);
}

struct Word {
  std::string_view text;
  YamlScalarType type;
  bool boolean;
  double number;
};

// go-yaml v2's resolveMap ("<<" omitted: it resolves only for keys, which the
// YAML parser checks itself).
constexpr double kInf = std::numeric_limits<double>::infinity();
constexpr Word kWords[] = {
    {"y", YamlScalarType::kBool, true, 0},
    {"Y", YamlScalarType::kBool, true, 0},
    {"yes", YamlScalarType::kBool, true, 0},
    {"Yes", YamlScalarType::kBool, true, 0},
    {"YES", YamlScalarType::kBool, true, 0},
    {"true", YamlScalarType::kBool, true, 0},
    {"True", YamlScalarType::kBool, true, 0},
    {"TRUE", YamlScalarType::kBool, true, 0},
    {"on", YamlScalarType::kBool, true, 0},
    {"On", YamlScalarType::kBool, true, 0},
    {"ON", YamlScalarType::kBool, true, 0},
    {"n", YamlScalarType::kBool, false, 0},
    {"N", YamlScalarType::kBool, false, 0},
    {"no", YamlScalarType::kBool, false, 0},
    {"No", YamlScalarType::kBool, false, 0},
    {"NO", YamlScalarType::kBool, false, 0},
    {"false", YamlScalarType::kBool, false, 0},
    {"False", YamlScalarType::kBool, false, 0},
    {"FALSE", YamlScalarType::kBool, false, 0},
    {"off", YamlScalarType::kBool, false, 0},
    {"Off", YamlScalarType::kBool, false, 0},
    {"OFF", YamlScalarType::kBool, false, 0},
    {"", YamlScalarType::kNull, false, 0},
    {"~", YamlScalarType::kNull, false, 0},
    {"null", YamlScalarType::kNull, false, 0},
    {"Null", YamlScalarType::kNull, false, 0},
    {"NULL", YamlScalarType::kNull, false, 0},
    {".nan", YamlScalarType::kFloat, false, NAN},
    {".NaN", YamlScalarType::kFloat, false, NAN},
    {".NAN", YamlScalarType::kFloat, false, NAN},
    {".inf", YamlScalarType::kFloat, false, kInf},
    {".Inf", YamlScalarType::kFloat, false, kInf},
    {".INF", YamlScalarType::kFloat, false, kInf},
    {"+.inf", YamlScalarType::kFloat, false, kInf},
    {"+.Inf", YamlScalarType::kFloat, false, kInf},
    {"+.INF", YamlScalarType::kFloat, false, kInf},
    {"-.inf", YamlScalarType::kFloat, false, -kInf},
    {"-.Inf", YamlScalarType::kFloat, false, -kInf},
    {"-.INF", YamlScalarType::kFloat, false, -kInf},
};

// resolveTable: the first byte decides which forms are tried.
char Hint(std::string_view in) {
  if (in.empty()) return 'N';
  char c = in[0];
  if (c == '+' || c == '-') return 'S';
  if (IsDigit(c)) return 'D';
  if (std::string_view("yYnNtTfFoO~").find(c) != std::string_view::npos) return 'M';
  if (c == '.') return '.';
  return 0;
}

YamlScalar IntScalar(std::int64_t v) {
  YamlScalar r;
  r.type = YamlScalarType::kInt;
  r.int_value = v;
  return r;
}

YamlScalar UintScalar(std::uint64_t v) {
  YamlScalar r;
  r.type = YamlScalarType::kUint;
  r.uint_value = v;
  return r;
}

YamlScalar FloatScalar(double v) {
  YamlScalar r;
  r.type = YamlScalarType::kFloat;
  r.float_value = v;
  return r;
}

YamlScalar ResolveUntyped(std::string_view tag, std::string_view in) {
  YamlScalar out;  // string
  char hint = Hint(in);
  if (hint == 0 || tag == kStrTag) return out;
  for (const Word& w : kWords) {
    if (w.text == in) {
      out.type = w.type;
      out.boolean = w.boolean;
      out.float_value = w.number;
      return out;
    }
  }
  switch (hint) {
    case '.': {
      double f;
      if (ParseFloatGo(in, &f)) return FloatScalar(f);
      break;
    }
    case 'D':
    case 'S': {
      if ((tag.empty() || tag == kTimestampTag) && IsGoYamlTimestamp(in)) {
        out.type = YamlScalarType::kTimestamp;
        return out;
      }
      std::string plain;
      plain.reserve(in.size());
      for (char c : in) {
        if (c != '_') plain.push_back(c);
      }
      std::int64_t i;
      std::uint64_t u;
      if (ParseIntGo(plain, 0, &i)) return IntScalar(i);
      if (ParseUintGo(plain, 0, &u)) return UintScalar(u);
      double f;
      if (IsYamlStyleFloat(plain) && ParseFloatGo(plain, &f)) return FloatScalar(f);
      std::string_view p = plain;
      if (p.substr(0, 2) == "0b") {
        if (ParseIntGo(p.substr(2), 2, &i)) return IntScalar(i);
        if (ParseUintGo(p.substr(2), 2, &u)) return UintScalar(u);
      } else if (p.substr(0, 3) == "-0b") {
        if (ParseIntGo("-" + std::string(p.substr(3)), 2, &i)) return IntScalar(i);
      }
      break;
    }
    default:
      break;
  }
  return out;
}

}  // namespace

Result<YamlScalar> ResolveYamlScalar(std::string_view tag, std::string_view text) {
  if (!IsResolvableTag(tag)) return YamlScalar{};
  YamlScalar r = ResolveUntyped(tag, text);
  std::string_view rtag = TypeTag(r.type);
  if (tag.empty() || tag == rtag || tag == kStrTag) return r;
  if (tag == kFloatTag && r.type == YamlScalarType::kInt) {
    return FloatScalar(static_cast<double>(r.int_value));
  }
  return Error{"cannot decode " + ShortTag(rtag) + " `" + std::string(text) + "` as a " +
               ShortTag(tag)};
}

}  // namespace dra::json
