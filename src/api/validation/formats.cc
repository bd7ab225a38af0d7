#include "api/validation/formats.h"

#include <algorithm>
#include <cstdint>
#include <initializer_list>
#include <optional>
#include <set>
#include <string>
#include <utility>
#include <vector>

#include "api/codec/time_format.h"
#include "api/validation/bad_values.h"
#include "api/validation/tolerations.h"
#include "dra/json/go_text.h"

namespace dra::api::validation {
namespace {

using Messages = std::vector<std::string>;

// apimachinery has two families of format helpers: the older "util" ones say
// "characters" in length messages, the "content" ones (declarative
// validation, label keys and values) say "bytes".
enum class Units : std::uint8_t { kCharacters, kBytes };

constexpr std::size_t kDns1123LabelMaxLength = 63;
constexpr std::size_t kDns1123SubdomainMaxLength = 253;
constexpr std::size_t kLabelKeyNameMaxLength = 63;
constexpr std::size_t kLabelValueMaxLength = 63;
constexpr std::size_t kCIdentifierMaxLength = 32;
constexpr std::size_t kDriverNameMaxLength = 63;
constexpr std::size_t kPoolNameMaxLength = 253;
constexpr std::size_t kTotalAnnotationSizeLimit = 256 * 1024;
constexpr std::size_t kConditionReasonMaxLength = 1024;
constexpr std::size_t kConditionMessageMaxLength = 32 * 1024;
constexpr std::size_t kFieldManagerMaxLength = 128;
constexpr std::size_t kSubresourceMaxLength = 256;
constexpr std::size_t kJsonMaxNestingDepth = 10000;

// apimachinery's RegexError: the description, examples and the expression.
std::string RegexMessage(std::string_view description, std::string_view regex,
                         std::initializer_list<std::string_view> examples) {
  std::string msg(description);
  msg += " (e.g. ";
  bool first = true;
  for (std::string_view example : examples) {
    if (!first) msg += " or ";
    first = false;
    msg += '\'';
    msg += example;
    msg += "', ";
  }
  msg += "regex used for validation is '";
  msg += regex;
  msg += "')";
  return msg;
}

constexpr std::string_view kLabelRegex = "[a-z0-9]([-a-z0-9]*[a-z0-9])?";
constexpr std::string_view kSubdomainRegex =
    R"([a-z0-9]([-a-z0-9]*[a-z0-9])?(\.[a-z0-9]([-a-z0-9]*[a-z0-9])?)*)";
constexpr std::string_view kLabelKeyNameRegex = "([A-Za-z0-9][-A-Za-z0-9_.]*)?[A-Za-z0-9]";
constexpr std::string_view kLabelKeyNameDescription =
    "must consist of alphanumeric characters, '-', '_' or '.', and must start and end with an "
    "alphanumeric character";

const std::string& LabelMessage() {
  static const std::string msg = RegexMessage(
      "a lowercase RFC 1123 label must consist of lower case alphanumeric characters or '-', and "
      "must start and end with an alphanumeric character",
      kLabelRegex, {"my-name", "123-abc"});
  return msg;
}

const std::string& SubdomainMessage() {
  static const std::string msg = RegexMessage(
      "a lowercase RFC 1123 subdomain must consist of lower case alphanumeric characters, '-' or "
      "'.', and must start and end with an alphanumeric character",
      kSubdomainRegex, {"example.com"});
  return msg;
}

const std::string& CaselessSubdomainMessage() {
  static const std::string msg = RegexMessage(
      "an RFC 1123 subdomain must consist of alphanumeric characters, '-' or '.', and must start "
      "and end with an alphanumeric character",
      kSubdomainRegex, {"Example.com"});
  return msg;
}

const std::string& CIdentifierMessage() {
  static const std::string msg = RegexMessage(
      "a valid C identifier must start with alphabetic character or '_', followed by a string of "
      "alphanumeric characters or '_'",
      "[A-Za-z_][A-Za-z0-9_]*", {"my_name", "MY_NAME", "MyName"});
  return msg;
}

const std::string& LabelKeyNameMessage() {
  static const std::string msg =
      "name part " +
      RegexMessage(kLabelKeyNameDescription, kLabelKeyNameRegex, {"MyName", "my.name", "123-abc"});
  return msg;
}

const std::string& LabelKeyPartsMessage() {
  static const std::string msg =
      "a valid label key " +
      RegexMessage(kLabelKeyNameDescription, kLabelKeyNameRegex, {"MyName", "my.name", "123-abc"}) +
      " with an optional DNS subdomain prefix and '/' (e.g. 'example.com/MyName')";
  return msg;
}

const std::string& LabelValueMessage() {
  static const std::string msg = RegexMessage(
      "a valid label must be an empty string or consist of alphanumeric characters, '-', '_' or "
      "'.', and must start and end with an alphanumeric character",
      "(([A-Za-z0-9][-A-Za-z0-9_.]*)?[A-Za-z0-9])?", {"MyValue", "my_value", "12345"});
  return msg;
}

const std::string& ConditionReasonMessage() {
  static const std::string msg = RegexMessage(
      "a condition reason must start with alphabetic character, optionally followed by a string "
      "of alphanumeric characters or '_,:', and must end with an alphanumeric character or '_'",
      "[A-Za-z]([A-Za-z0-9_,:]*[A-Za-z0-9_])?",
      {"my_name", "MY_NAME", "MyName", "ReasonA,ReasonB", "ReasonA:ReasonB"});
  return msg;
}

std::string MaxLengthMessage(std::size_t max, Units units) {
  return "must be no more than " + std::to_string(max) +
         (units == Units::kBytes ? " bytes" : " characters");
}

// ---- Character shapes (the regular expressions above, anchored) -----------

bool IsDigit(char c) { return c >= '0' && c <= '9'; }
bool IsLower(char c) { return c >= 'a' && c <= 'z'; }
bool IsUpper(char c) { return c >= 'A' && c <= 'Z'; }
bool IsAlnum(char c) { return IsDigit(c) || IsLower(c) || IsUpper(c); }

// [a-z0-9]([-a-z0-9]*[a-z0-9])?, or with upper case too.
bool IsLabelShape(std::string_view s, bool caseless) {
  if (s.empty() || s.front() == '-' || s.back() == '-') return false;
  return std::all_of(s.begin(), s.end(), [caseless](char c) {
    return IsDigit(c) || IsLower(c) || c == '-' || (caseless && IsUpper(c));
  });
}

bool IsSubdomainShape(std::string_view s, bool caseless) {
  std::size_t start = 0;
  while (true) {
    const std::size_t dot = s.find('.', start);
    if (!IsLabelShape(s.substr(start, dot - start), caseless)) return false;
    if (dot == std::string_view::npos) return true;
    start = dot + 1;
  }
}

// ([A-Za-z0-9][-A-Za-z0-9_.]*)?[A-Za-z0-9]
bool IsLabelKeyNameShape(std::string_view s) {
  if (s.empty() || !IsAlnum(s.front()) || !IsAlnum(s.back())) return false;
  return std::all_of(s.begin(), s.end(),
                     [](char c) { return IsAlnum(c) || c == '-' || c == '_' || c == '.'; });
}

// [A-Za-z_][A-Za-z0-9_]*
bool IsCIdentifierShape(std::string_view s) {
  if (s.empty() || IsDigit(s.front())) return false;
  return std::all_of(s.begin(), s.end(), [](char c) { return IsAlnum(c) || c == '_'; });
}

// [A-Za-z]([A-Za-z0-9_,:]*[A-Za-z0-9_])?
bool IsConditionReasonShape(std::string_view s) {
  if (s.empty() || !(IsLower(s.front()) || IsUpper(s.front()))) return false;
  if (s.size() > 1 && !(IsAlnum(s.back()) || s.back() == '_')) return false;
  return std::all_of(s.begin(), s.end(),
                     [](char c) { return IsAlnum(c) || c == '_' || c == ',' || c == ':'; });
}

std::vector<std::string_view> Split(std::string_view s, char sep) {
  std::vector<std::string_view> parts;
  std::size_t start = 0;
  while (true) {
    const std::size_t pos = s.find(sep, start);
    parts.push_back(s.substr(start, pos - start));
    if (pos == std::string_view::npos) return parts;
    start = pos + 1;
  }
}

// The '/'-separated parts of a qualified name, without allocating.
struct SlashParts {
  std::size_t count = 1;
  std::string_view first;   // the whole value when count is 1
  std::string_view second;  // set when count is 2
};

SlashParts SplitSlash(std::string_view s) {
  const std::size_t slash = s.find('/');
  if (slash == std::string_view::npos) return {1, s, {}};
  const std::string_view rest = s.substr(slash + 1);
  const std::size_t more = std::count(rest.begin(), rest.end(), '/');
  return {2 + more, s.substr(0, slash), rest};
}

std::string ToLower(std::string_view s) {
  std::string out(s);
  for (char& c : out) {
    if (IsUpper(c)) c = static_cast<char>(c - 'A' + 'a');
  }
  return out;
}

// ---- Message lists of the format helpers ----------------------------------

Messages Dns1123LabelMessages(std::string_view value, Units units) {
  Messages msgs;
  if (value.size() > kDns1123LabelMaxLength) {
    msgs.push_back(MaxLengthMessage(kDns1123LabelMaxLength, units));
  }
  if (!IsLabelShape(value, false)) {
    // A valid subdomain that is not a label can only contain dots.
    msgs.push_back(IsSubdomainShape(value, false) ? "must not contain dots" : LabelMessage());
  }
  return msgs;
}

Messages Dns1123SubdomainMessages(std::string_view value, Units units, bool caseless = false) {
  Messages msgs;
  if (value.size() > kDns1123SubdomainMaxLength) {
    msgs.push_back(MaxLengthMessage(kDns1123SubdomainMaxLength, units));
  }
  if (!IsSubdomainShape(value, caseless)) {
    msgs.push_back(caseless ? CaselessSubdomainMessage() : SubdomainMessage());
  }
  return msgs;
}

Messages LabelKeyMessages(std::string_view value) {
  Messages msgs;
  const SlashParts parts = SplitSlash(value);
  if (parts.count > 2) return {LabelKeyPartsMessage()};
  const std::string_view name = parts.count == 2 ? parts.second : parts.first;
  if (parts.count == 2) {
    if (parts.first.empty()) {
      msgs.push_back("prefix part must be non-empty");
    } else {
      for (std::string& m : Dns1123SubdomainMessages(parts.first, Units::kBytes)) {
        msgs.push_back("prefix part " + m);
      }
    }
  }
  if (name.empty()) {
    msgs.push_back("name part must be non-empty");
  } else if (name.size() > kLabelKeyNameMaxLength) {
    msgs.push_back("name part " + MaxLengthMessage(kLabelKeyNameMaxLength, Units::kBytes));
  }
  if (!IsLabelKeyNameShape(name)) msgs.push_back(LabelKeyNameMessage());
  return msgs;
}

Messages LabelValueMessages(std::string_view value) {
  Messages msgs;
  if (value.size() > kLabelValueMaxLength) {
    msgs.push_back(MaxLengthMessage(kLabelValueMaxLength, Units::kBytes));
  }
  if (!value.empty() && !IsLabelKeyNameShape(value)) msgs.push_back(LabelValueMessage());
  return msgs;
}

// apimachinery's maskTrailingDash, used on generateName: it replaces the
// last *two* characters by "a" (an upstream quirk kept for parity).
std::string_view MaskTrailingDash(std::string_view name, std::string& storage) {
  if (name.size() > 1 && name.back() == '-') {
    storage = std::string(name.substr(0, name.size() - 2)) + "a";
    return storage;
  }
  return name;
}

void AppendInvalid(const Messages& msgs, const std::string& field, std::string_view value,
                   std::string_view origin, FieldErrors& errors) {
  for (const std::string& msg : msgs) {
    FieldError e = InvalidString(field, value, msg);
    e.origin = origin;
    errors.push_back(std::move(e));
  }
}

std::size_t RuneCount(std::string_view s) {
  return static_cast<std::size_t>(
      std::count_if(s.begin(), s.end(), [](char c) { return (c & 0xC0) != 0x80; }));
}

// ---- Go's encoding/json syntax check (for raw extensions) -----------------

// Checks `text` the way encoding/json.Unmarshal does before decoding and
// returns its error message, or an empty string for valid JSON.
//
// Why not json::ParseJson, which follows the same scanner: that parser rejects
// invalid UTF-8 in strings (encoding/json accepts it), prefixes its messages
// with "line L, column C: " and words its depth limit as "exceeded max depth
// of N", where this reproduces Unmarshal's message byte for byte ("invalid
// character '{' exceeded max depth"). kube's WatchDecoder only frames
// documents in a stream and checks no syntax.
class GoJsonChecker {
 public:
  explicit GoJsonChecker(std::string_view text) : s_(text) {}

  std::string Check() {
    SkipSpace();
    if (!Value(0)) return error_;
    SkipSpace();
    if (pos_ < s_.size()) return Fail("after top-level value");
    return {};
  }

 private:
  static bool IsSpace(char c) { return c == ' ' || c == '\t' || c == '\n' || c == '\r'; }

  void SkipSpace() {
    while (pos_ < s_.size() && IsSpace(s_[pos_])) ++pos_;
  }

  bool AtEnd() {
    if (pos_ < s_.size()) return false;
    error_ = "unexpected end of JSON input";
    return true;
  }

  // At the end of input Go's scanner feeds one more space; states that
  // cannot take a space report it as the offending character.
  bool EndsWithin(std::string_view context) {
    if (pos_ < s_.size()) return false;
    error_ = "invalid character ' ' " + std::string(context);
    return true;
  }

  std::string Fail(std::string_view context) {
    error_ = "invalid character " + json::GoQuoteChar(static_cast<unsigned char>(s_[pos_])) + " " +
             std::string(context);
    return error_;
  }

  bool Value(std::size_t depth) {
    if (AtEnd()) return false;
    const char c = s_[pos_];
    switch (c) {
      case '{':
      case '[':
        if (depth + 1 > kJsonMaxNestingDepth) {
          Fail("exceeded max depth");
          return false;
        }
        ++pos_;
        return c == '{' ? Object(depth + 1) : Array(depth + 1);
      case '"':
        ++pos_;
        return String();
      case 't':
        return Literal("true");
      case 'f':
        return Literal("false");
      case 'n':
        return Literal("null");
      default:
        if (c == '-' || IsDigit(c)) return Number();
        Fail("looking for beginning of value");
        return false;
    }
  }

  bool Object(std::size_t depth) {
    SkipSpace();
    if (AtEnd()) return false;
    if (s_[pos_] == '}') {
      ++pos_;
      return true;
    }
    while (true) {
      if (AtEnd()) return false;
      if (s_[pos_] != '"') {
        Fail("looking for beginning of object key string");
        return false;
      }
      ++pos_;
      if (!String()) return false;
      SkipSpace();
      if (AtEnd()) return false;
      if (s_[pos_] != ':') {
        Fail("after object key");
        return false;
      }
      ++pos_;
      SkipSpace();
      if (!Value(depth)) return false;
      SkipSpace();
      if (AtEnd()) return false;
      if (s_[pos_] == '}') {
        ++pos_;
        return true;
      }
      if (s_[pos_] != ',') {
        Fail("after object key:value pair");
        return false;
      }
      ++pos_;
      SkipSpace();
    }
  }

  bool Array(std::size_t depth) {
    SkipSpace();
    if (AtEnd()) return false;
    if (s_[pos_] == ']') {
      ++pos_;
      return true;
    }
    while (true) {
      if (!Value(depth)) return false;
      SkipSpace();
      if (AtEnd()) return false;
      if (s_[pos_] == ']') {
        ++pos_;
        return true;
      }
      if (s_[pos_] != ',') {
        Fail("after array element");
        return false;
      }
      ++pos_;
      SkipSpace();
    }
  }

  static bool IsHex(char c) {
    return IsDigit(c) || (c >= 'a' && c <= 'f') || (c >= 'A' && c <= 'F');
  }

  // After the opening quote.
  bool String() {
    while (true) {
      if (AtEnd()) return false;
      const auto c = static_cast<unsigned char>(s_[pos_]);
      if (c == '"') {
        ++pos_;
        return true;
      }
      if (c < 0x20) {
        Fail("in string literal");
        return false;
      }
      ++pos_;
      if (c != '\\') continue;
      if (EndsWithin("in string escape code")) return false;
      const char e = s_[pos_];
      if (e == 'u') {
        ++pos_;
        for (int k = 0; k < 4; ++k, ++pos_) {
          if (EndsWithin(R"(in \u hexadecimal character escape)")) return false;
          if (!IsHex(s_[pos_])) {
            Fail(R"(in \u hexadecimal character escape)");
            return false;
          }
        }
        continue;
      }
      if (std::string_view("bfnrt\\/\"").find(e) == std::string_view::npos) {
        Fail("in string escape code");
        return false;
      }
      ++pos_;
    }
  }

  bool Literal(std::string_view word) {
    ++pos_;
    for (std::size_t k = 1; k < word.size(); ++k, ++pos_) {
      const std::string context =
          "in literal " + std::string(word) + " (expecting '" + std::string(1, word[k]) + "')";
      if (EndsWithin(context)) return false;
      if (s_[pos_] != word[k]) {
        Fail(context);
        return false;
      }
    }
    return true;
  }

  bool Digits() {
    while (pos_ < s_.size() && IsDigit(s_[pos_])) ++pos_;
    return true;
  }

  bool Number() {
    if (s_[pos_] == '-') {
      ++pos_;
      if (EndsWithin("in numeric literal")) return false;
      if (!IsDigit(s_[pos_])) {
        Fail("in numeric literal");
        return false;
      }
    }
    if (s_[pos_] == '0') {
      ++pos_;
    } else {
      Digits();
    }
    if (pos_ < s_.size() && s_[pos_] == '.') {
      ++pos_;
      if (EndsWithin("after decimal point in numeric literal")) return false;
      if (!IsDigit(s_[pos_])) {
        Fail("after decimal point in numeric literal");
        return false;
      }
      Digits();
    }
    if (pos_ < s_.size() && (s_[pos_] == 'e' || s_[pos_] == 'E')) {
      ++pos_;
      if (EndsWithin("in exponent of numeric literal")) return false;
      if (s_[pos_] == '+' || s_[pos_] == '-') {
        ++pos_;
        if (EndsWithin("in exponent of numeric literal")) return false;
      }
      if (!IsDigit(s_[pos_])) {
        Fail("in exponent of numeric literal");
        return false;
      }
      Digits();
    }
    return true;
  }

  std::string_view s_;
  std::size_t pos_ = 0;
  std::string error_;
};

char FirstNonSpace(std::string_view s) {
  for (char c : s) {
    if (c != ' ' && c != '\t' && c != '\n' && c != '\r') return c;
  }
  return '\0';
}

// ---- ObjectMeta pieces -----------------------------------------------------

std::string JsonTime(const Time& t) {
  return t.IsZero() ? "null" : GoJsonString(std::string_view(codec::FormatRfc3339(t)));
}

std::string JsonOptionalInt(const std::optional<std::int64_t>& v) {
  return v ? RenderInt(*v) : "null";
}

void AppendJsonMember(std::string& out, std::string_view key, std::string_view json_value) {
  if (out.back() != '{') out += ',';
  out += GoJsonString(key);
  out += ':';
  out += json_value;
}

std::string OwnerReferenceJson(const OwnerReference& ref) {
  std::string out = "{";
  AppendJsonMember(out, "apiVersion", GoJsonString(std::string_view(ref.api_version)));
  AppendJsonMember(out, "kind", GoJsonString(std::string_view(ref.kind)));
  AppendJsonMember(out, "name", GoJsonString(std::string_view(ref.name)));
  AppendJsonMember(out, "uid", GoJsonString(std::string_view(ref.uid)));
  if (ref.controller) AppendJsonMember(out, "controller", *ref.controller ? "true" : "false");
  if (ref.block_owner_deletion) {
    AppendJsonMember(out, "blockOwnerDeletion", *ref.block_owner_deletion ? "true" : "false");
  }
  out += '}';
  return out;
}

std::string OwnerReferencesJson(const List<OwnerReference>& refs) {
  if (refs.nil()) return "null";
  std::string out = "[";
  for (const OwnerReference& ref : refs) {
    if (out.size() > 1) out += ',';
    out += OwnerReferenceJson(ref);
  }
  return out + "]";
}

void ValidateLabels(const StringMap& labels, const std::string& field, FieldErrors& errors) {
  for (const auto& [key, value] : labels) {
    AppendInvalid(LabelKeyMessages(key), field, key, "format=k8s-label-key", errors);
    AppendInvalid(LabelValueMessages(value), field, value, "", errors);
  }
}

void ValidateAnnotations(const StringMap& annotations, const std::string& field,
                         FieldErrors& errors) {
  std::size_t total = 0;
  for (const auto& [key, value] : annotations) {
    // Annotation keys are label keys in any case.
    AppendInvalid(LabelKeyMessages(ToLower(key)), field, key, "format=k8s-label-key", errors);
    total += key.size() + value.size();
  }
  if (total > kTotalAnnotationSizeLimit) {
    errors.push_back(TooLong(field, static_cast<std::int64_t>(kTotalAnnotationSizeLimit)));
  }
}

// One reference, as apimachinery v0.37.2's validateOwnerReference: an empty
// apiVersion, kind, name or uid is Required; an apiVersion that
// schema.ParseGroupVersion rejects (more than one slash) or that has no
// version is Invalid.
void ValidateOwnerReference(const OwnerReference& ref, const std::string& path,
                            FieldErrors& errors) {
  std::string_view group;
  std::string_view version;
  const std::size_t slashes = std::count(ref.api_version.begin(), ref.api_version.end(), '/');
  if (slashes == 0) {
    version = ref.api_version;
  } else if (slashes == 1 && ref.api_version != "/") {
    const std::size_t slash = ref.api_version.find('/');
    group = std::string_view(ref.api_version).substr(0, slash);
    version = std::string_view(ref.api_version).substr(slash + 1);
  }
  if (ref.api_version.empty()) {
    errors.push_back(Required(path + ".apiVersion", "must not be empty"));
  } else if (version.empty()) {
    errors.push_back(InvalidString(path + ".apiVersion", ref.api_version,
                                   "must be <group>/<version> or <version>"));
  }
  if (ref.kind.empty()) errors.push_back(Required(path + ".kind", "must not be empty"));
  if (ref.name.empty()) errors.push_back(Required(path + ".name", "must not be empty"));
  if (ref.uid.empty()) errors.push_back(Required(path + ".uid", "must not be empty"));
  if (group.empty() && version == "v1" && ref.kind == "Event") {
    errors.push_back(Invalid(path, OwnerReferenceJson(ref),
                             "/v1, Kind=Event is disallowed from being an owner"));
  }
}

void ValidateOwnerReferences(const List<OwnerReference>& refs, FieldErrors& errors) {
  const std::string field = "metadata.ownerReferences";
  std::string first_controller;
  for (std::size_t i = 0; i < refs.size(); ++i) {
    const OwnerReference& ref = refs[i];
    ValidateOwnerReference(ref, Index(field, i), errors);
    if (ref.controller.value_or(false)) {
      const std::string current = ref.kind + "/" + ref.name;
      if (first_controller.empty()) {
        first_controller = current;
      } else {
        std::string detail =
            R"(Only one reference can have Controller set to true. Found "true" in references for )";
        detail += first_controller;
        detail += " and ";
        detail += current;
        errors.push_back(Invalid(field, OwnerReferencesJson(refs), std::move(detail)));
      }
    }
  }
}

void ValidateFinalizerNames(const List<std::string>& finalizers, FieldErrors& errors) {
  const std::string field = "metadata.finalizers";
  bool orphan = false;
  bool foreground = false;
  for (const std::string& finalizer : finalizers) {
    AppendInvalid(LabelKeyMessages(finalizer), field, finalizer, "", errors);
    orphan = orphan || finalizer == "orphan";
    foreground = foreground || finalizer == "foregroundDeletion";
  }
  if (orphan && foreground) {
    errors.push_back(Invalid(field, GoJsonStringList(finalizers),
                             "finalizer orphan and foregroundDeletion cannot be both set"));
  }
}

// kube-apiserver's core wrapper additionally wants legacy finalizers to be
// standard or fully qualified.
void ValidateKubeFinalizerNames(const List<std::string>& finalizers, FieldErrors& errors) {
  for (std::size_t i = 0; i < finalizers.size(); ++i) {
    const std::string& finalizer = finalizers[i];
    if (finalizer.find('/') != std::string::npos) continue;
    if (finalizer == "kubernetes" || finalizer == "orphan" || finalizer == "foregroundDeletion") {
      continue;
    }
    errors.push_back(InvalidString(Index("metadata.finalizers", i), finalizer,
                                   "name is neither a standard finalizer name nor is it fully "
                                   "qualified"));
  }
}

void ValidateManagedFields(const List<ManagedFieldsEntry>& entries, FieldErrors& errors) {
  for (std::size_t i = 0; i < entries.size(); ++i) {
    const ManagedFieldsEntry& entry = entries[i];
    const std::string path = Index("metadata.managedFields", i);
    if (entry.operation != "Apply" && entry.operation != "Update") {
      errors.push_back(
          InvalidString(path + ".operation", entry.operation, "must be `Apply` or `Update`"));
    }
    if (!entry.fields_type.empty() && entry.fields_type != "FieldsV1") {
      errors.push_back(
          InvalidString(path + ".fieldsType", entry.fields_type, "must be `FieldsV1`"));
    }
    if (entry.manager.size() > kFieldManagerMaxLength) {
      errors.push_back(
          TooLong(path + ".manager", static_cast<std::int64_t>(kFieldManagerMaxLength)));
    }
    if (entry.subresource.size() > kSubresourceMaxLength) {
      errors.push_back(
          TooLong(path + ".subresource", static_cast<std::int64_t>(kSubresourceMaxLength)));
    }
  }
}

// The rules shared by create and update.
void ValidateMetaContents(const ObjectMeta& meta, FieldErrors& errors) {
  ValidateLabels(meta.labels, "metadata.labels", errors);
  ValidateAnnotations(meta.annotations, "metadata.annotations", errors);
  ValidateOwnerReferences(meta.owner_references, errors);
}

}  // namespace

// ---- Paths -----------------------------------------------------------------

std::string Child(std::string_view path, std::string_view name) {
  std::string out(path);
  if (!out.empty()) out += '.';
  out += name;
  return out;
}

std::string Index(std::string_view path, std::size_t i) {
  std::string out(path);
  out += '[';
  out += std::to_string(i);
  out += ']';
  return out;
}

std::string ExactKey(std::string_view path, std::string_view key) {
  std::string out(path);
  out += '[';
  out += key;
  out += ']';
  return out;
}

std::string TruncatedKey(std::string_view path, std::string_view key, std::size_t max_len) {
  max_len = std::max<std::size_t>(max_len, 16);
  if (key.size() <= max_len) return ExactKey(path, key);
  const std::size_t remaining = max_len - 3;
  std::string shortened(key.substr(0, (remaining + 1) / 2));
  shortened += "...";
  shortened += key.substr(key.size() - remaining / 2);
  return ExactKey(path, shortened);
}

std::string Key(std::string_view path, std::string_view key) {
  // The longest qualified name: a 63-byte domain, "/" and a 32-byte id.
  return TruncatedKey(path, key, kDriverNameMaxLength + 1 + kCIdentifierMaxLength);
}

// ---- Declarative union errors --------------------------------------------

namespace {

std::string BacktickedList(const std::vector<std::string_view>& members) {
  std::string out;
  for (std::string_view m : members) {
    if (!out.empty()) out += ", ";
    out += '`';
    out += m;
    out += '`';
  }
  return out;
}

}  // namespace

FieldError UnionNoneSet(std::string field, const std::vector<std::string_view>& members) {
  FieldError e =
      Invalid(std::move(field), R"("")", "must specify one of: " + BacktickedList(members));
  e.origin = "union";
  return e;
}

FieldError UnionSeveralSet(std::string field, const std::vector<std::string_view>& set,
                           const std::vector<std::string_view>& members) {
  std::string value = "{";
  for (std::size_t i = 0; i < set.size(); ++i) {
    if (i > 0) value += ", ";
    value += set[i];
  }
  value += '}';
  FieldError e = InvalidString(std::move(field), value,
                               "must specify exactly one of: " + BacktickedList(members));
  e.origin = "union";
  return e;
}

// ---- String formats --------------------------------------------------------

void ValidateDnsLabel(std::string_view value, const std::string& field, FieldErrors& errors,
                      bool content) {
  AppendInvalid(Dns1123LabelMessages(value, content ? Units::kBytes : Units::kCharacters), field,
                value, content ? "format=k8s-short-name" : "format=dns-label", errors);
}

void ValidateDnsSubdomain(std::string_view value, const std::string& field, FieldErrors& errors,
                          bool content) {
  AppendInvalid(Dns1123SubdomainMessages(value, content ? Units::kBytes : Units::kCharacters),
                field, value, content ? "format=k8s-long-name" : "", errors);
}

void ValidateCaselessSubdomain(std::string_view value, const std::string& field,
                               FieldErrors& errors) {
  AppendInvalid(Dns1123SubdomainMessages(value, Units::kBytes, /*caseless=*/true), field, value,
                "format=k8s-long-name-caseless", errors);
}

void ValidateLabelKey(std::string_view value, const std::string& field, FieldErrors& errors) {
  AppendInvalid(LabelKeyMessages(value), field, value, "format=k8s-label-key", errors);
}

void ValidateLabelValue(std::string_view value, const std::string& field, FieldErrors& errors) {
  AppendInvalid(LabelValueMessages(value), field, value, "", errors);
}

void ValidateCIdentifier(std::string_view value, const std::string& field, FieldErrors& errors) {
  if (value.size() > kCIdentifierMaxLength) {
    errors.push_back(TooLong(field, static_cast<std::int64_t>(kCIdentifierMaxLength)));
  }
  if (!IsCIdentifierShape(value)) {
    errors.push_back(InvalidString(field, value, CIdentifierMessage()));
  }
}

void ValidateDriverName(std::string_view value, const std::string& field, FieldErrors& errors) {
  // An empty name is Required and nothing else (ValidateCSIDriverName).
  if (value.empty()) {
    errors.push_back(Required(field));
    return;
  }
  if (value.size() > kDriverNameMaxLength) {
    errors.push_back(TooLong(field, static_cast<std::int64_t>(kDriverNameMaxLength)));
  }
  // Driver names are CSI driver names: checked lower-cased as subdomains, so
  // upper case passes but the messages are those of the lower-case format.
  Messages msgs;
  if (value.size() > kDns1123SubdomainMaxLength) {
    msgs.push_back(MaxLengthMessage(kDns1123SubdomainMaxLength, Units::kCharacters));
  }
  if (!IsSubdomainShape(value, /*caseless=*/true)) msgs.push_back(SubdomainMessage());
  AppendInvalid(msgs, field, value, "", errors);
}

void ValidateDriverNameDeclarative(std::string_view value, const std::string& field,
                                   FieldErrors& errors) {
  if (value.empty()) {
    errors.push_back(Required(field));
    return;
  }
  ValidateCaselessSubdomain(value, field, errors);
  if (value.size() > kDriverNameMaxLength && RuneCount(value) > kDriverNameMaxLength) {
    FieldError e = TooLongChars(field, static_cast<std::int64_t>(kDriverNameMaxLength));
    e.origin = "maxLength";
    errors.push_back(std::move(e));
  }
}

void ValidatePoolName(std::string_view value, const std::string& field, FieldErrors& errors) {
  if (value.empty()) {
    errors.push_back(Required(field));
    return;
  }
  if (value.size() > kPoolNameMaxLength) {
    FieldError e = TooLong(field, static_cast<std::int64_t>(kPoolNameMaxLength));
    e.origin = "format=k8s-resource-pool-name";
    errors.push_back(std::move(e));
  }
  for (std::string_view segment : Split(value, '/')) {
    AppendInvalid(Dns1123SubdomainMessages(segment, Units::kCharacters), field, segment,
                  "format=k8s-resource-pool-name", errors);
  }
}

void ValidatePoolNameDeclarative(std::string_view value, const std::string& field,
                                 FieldErrors& errors) {
  if (value.empty()) {
    errors.push_back(Required(field));
    return;
  }
  constexpr std::string_view kOrigin = "format=k8s-resource-pool-name";
  if (value.size() > kPoolNameMaxLength) {
    FieldError e = TooLong(field, static_cast<std::int64_t>(kPoolNameMaxLength));
    e.origin = kOrigin;
    errors.push_back(std::move(e));
  }
  const std::vector<std::string_view> segments = Split(value, '/');
  for (std::size_t i = 0; i < segments.size(); ++i) {
    const std::string prefix = "segment " + std::to_string(i) + ": ";
    if (segments[i].empty()) {
      FieldError e = InvalidString(field, value, prefix + "must not be empty");
      e.origin = kOrigin;
      errors.push_back(std::move(e));
      continue;
    }
    for (const std::string& msg : Dns1123SubdomainMessages(segments[i], Units::kBytes)) {
      FieldError e = InvalidString(field, segments[i], prefix + msg);
      e.origin = kOrigin;
      errors.push_back(std::move(e));
    }
  }
}

void ValidateQualifiedName(std::string_view value, const std::string& field, FieldErrors& errors) {
  const SlashParts parts = SplitSlash(value);
  if (parts.count == 1) {
    ValidateCIdentifier(parts.first, field, errors);
  } else if (parts.count == 2) {
    if (parts.first.empty()) {
      errors.push_back(Invalid(field, R"("")", "the domain must not be empty"));
    } else {
      ValidateDriverName(parts.first, field, errors);
    }
    if (parts.second.empty()) {
      errors.push_back(Invalid(field, R"("")", "the name must not be empty"));
    } else {
      ValidateCIdentifier(parts.second, field, errors);
    }
  }
  // Upstream accepts names with more than one slash; so do we.
}

namespace {

void AppendNoDomainError(std::string_view value, const std::string& field, FieldErrors& errors) {
  if (value.find('/') == std::string_view::npos) {
    errors.push_back(InvalidString(field, value,
                                   "a fully qualified name must be a domain and a name separated "
                                   "by a slash"));
  }
}

void SetOrigin(FieldErrors& errors, std::size_t from, std::string_view origin) {
  for (std::size_t i = from; i < errors.size(); ++i) errors[i].origin = origin;
}

}  // namespace

void ValidateFullyQualifiedName(std::string_view value, const std::string& field,
                                FieldErrors& errors) {
  const std::size_t first = errors.size();
  ValidateQualifiedName(value, field, errors);
  AppendNoDomainError(value, field, errors);
  SetOrigin(errors, first, "format=k8s-resource-fully-qualified-name");
}

void ValidateFullyQualifiedNameDeclarative(std::string_view value, const std::string& field,
                                           FieldErrors& errors) {
  const std::size_t first = errors.size();
  const SlashParts parts = SplitSlash(value);
  if (parts.count == 1) {
    ValidateCIdentifier(parts.first, field, errors);
  } else if (parts.count == 2) {
    const std::string_view prefix = parts.first;
    if (prefix.empty()) {
      errors.push_back(Invalid(field, R"("")", "prefix must not be empty"));
    } else {
      if (prefix.size() > kDriverNameMaxLength) {
        errors.push_back(TooLong(field, static_cast<std::int64_t>(kDriverNameMaxLength)));
      }
      for (const std::string& msg : Dns1123SubdomainMessages(prefix, Units::kBytes)) {
        errors.push_back(InvalidString(field, prefix, "prefix: " + msg));
      }
    }
    if (parts.second.empty()) {
      errors.push_back(Invalid(field, R"("")", "name must not be empty"));
    } else {
      ValidateCIdentifier(parts.second, field, errors);
    }
  }
  AppendNoDomainError(value, field, errors);
  SetOrigin(errors, first, "format=k8s-resource-fully-qualified-name");
}

void ValidateUuid(std::string_view value, const std::string& field, FieldErrors& errors) {
  bool ok = value.size() == 36;
  for (std::size_t i = 0; ok && i < value.size(); ++i) {
    const char c = value[i];
    ok =
        (i == 8 || i == 13 || i == 18 || i == 23) ? c == '-' : IsDigit(c) || (c >= 'a' && c <= 'f');
  }
  if (!ok) {
    FieldError e = InvalidString(field, value, "must be a lowercase UUID in 8-4-4-4-12 format");
    e.origin = "format=k8s-uuid";
    errors.push_back(std::move(e));
  }
}

void ValidateExtendedResourceName(std::string_view value, const std::string& field,
                                  FieldErrors& errors) {
  const std::size_t first = errors.size();
  if (value.find('/') == std::string_view::npos) {
    errors.push_back(InvalidString(
        field, value, "a name must be a domain-prefixed path, such as 'example.com/my-prop'"));
  } else if (value.find("kubernetes.io/") != std::string_view::npos) {
    errors.push_back(InvalidString(field, value, R"(must not have "kubernetes.io/" domain)"));
  }
  constexpr std::string_view kRequestsPrefix = "requests.";
  if (value.substr(0, kRequestsPrefix.size()) == kRequestsPrefix) {
    errors.push_back(InvalidString(field, value, R"(must not have "requests." prefix)"));
  }
  const std::string quota_name = std::string(kRequestsPrefix) + std::string(value);
  AppendInvalid(LabelKeyMessages(quota_name), field, value, "", errors);
  SetOrigin(errors, first, "format=k8s-extended-resource-name");
}

// ---- Device taints ---------------------------------------------------------

void ValidateDeviceTaintKeyAndValue(const DeviceTaint& taint, const std::string& path,
                                    FieldErrors& errors) {
  ValidateLabelKey(taint.key, path + ".key", errors);
  if (!taint.value.empty()) ValidateLabelValue(taint.value, path + ".value", errors);
}

void ValidateDeviceTaintEffect(std::string_view effect, const std::string& field,
                               FieldErrors& errors) {
  if (effect.empty()) {
    errors.push_back(Required(field));
  } else if (std::find(kDeviceTaintEffects.begin(), kDeviceTaintEffects.end(), effect) ==
             kDeviceTaintEffects.end()) {
    errors.push_back(NotSupported(field, effect, kDeviceTaintEffects));
  }
}

// ---- Sub-objects -----------------------------------------------------------

void ValidateNodeSelector(const NodeSelector& selector, const std::string& field,
                          FieldErrors& errors) {
  const std::string terms_path = field + ".nodeSelectorTerms";
  if (selector.node_selector_terms.empty()) {
    errors.push_back(Required(terms_path, "must have at least one node selector term"));
    return;
  }
  for (std::size_t i = 0; i < selector.node_selector_terms.size(); ++i) {
    const NodeSelectorTerm& term = selector.node_selector_terms[i];
    const std::string term_path = Index(terms_path, i);
    for (std::size_t j = 0; j < term.match_expressions.size(); ++j) {
      const NodeSelectorRequirement& req = term.match_expressions[j];
      const std::string path = Index(term_path + ".matchExpressions", j);
      const std::string& op = req.operator_;
      if (op == "In" || op == "NotIn") {
        if (req.values.empty()) {
          errors.push_back(
              Required(path + ".values", "must be specified when `operator` is 'In' or 'NotIn'"));
        }
      } else if (op == "Exists" || op == "DoesNotExist") {
        if (!req.values.empty()) {
          errors.push_back(Forbidden(path + ".values",
                                     "may not be specified when `operator` is 'Exists' or "
                                     "'DoesNotExist'"));
        }
      } else if (op == "Gt" || op == "Lt") {
        if (req.values.size() != 1) {
          errors.push_back(Required(path + ".values",
                                    "must be specified single value when `operator` is 'Lt' or "
                                    "'Gt'"));
        }
      } else {
        errors.push_back(InvalidString(path + ".operator", op, "not a valid selector operator"));
      }
      ValidateLabelKey(req.key, path + ".key", errors);
      for (std::size_t k = 0; k < req.values.size(); ++k) {
        AppendInvalid(LabelValueMessages(req.values[k]), Index(path + ".values", k), req.values[k],
                      "format=k8s-label-value", errors);
      }
    }
    for (std::size_t j = 0; j < term.match_fields.size(); ++j) {
      const NodeSelectorRequirement& req = term.match_fields[j];
      const std::string path = Index(term_path + ".matchFields", j);
      if (req.operator_ == "In" || req.operator_ == "NotIn") {
        if (req.values.size() != 1) {
          errors.push_back(Required(path + ".values",
                                    "must be only one value when `operator` is 'In' or 'NotIn' "
                                    "for node field selector"));
        }
      } else {
        errors.push_back(
            InvalidString(path + ".operator", req.operator_, "not a valid selector operator"));
      }
      if (req.key != "metadata.name") {
        errors.push_back(InvalidString(path + ".key", req.key, "not a valid field selector key"));
        continue;
      }
      for (std::size_t k = 0; k < req.values.size(); ++k) {
        ValidateDnsSubdomain(req.values[k], Index(path + ".values", k), errors);
      }
    }
  }
}

void ValidateRawExtension(const RawExtension& raw, const std::string& field, long max_bytes,
                          FieldErrors& errors) {
  constexpr std::string_view kOmitted = R"("<value omitted>")";
  if (raw.empty()) {
    errors.push_back(Required(field));
    return;
  }
  if (max_bytes >= 0 && raw.raw.size() > static_cast<std::size_t>(max_bytes)) {
    errors.push_back(TooLong(field, max_bytes));
    return;
  }
  if (std::string error = GoJsonChecker(raw.raw).Check(); !error.empty()) {
    errors.push_back(Invalid(field, std::string(kOmitted), "error parsing data as JSON: " + error));
    return;
  }
  switch (FirstNonSpace(raw.raw)) {
    case 'n':
      errors.push_back(Required(field));
      return;
    case '{':
      return;
    default:
      errors.push_back(Invalid(field, std::string(kOmitted), "must be a valid JSON object"));
  }
}

void ValidateConditions(const List<Condition>& conditions, const std::string& field,
                        FieldErrors& errors) {
  std::set<std::string_view> types;
  for (std::size_t i = 0; i < conditions.size(); ++i) {
    const Condition& c = conditions[i];
    const std::string path = Index(field, i);
    if (!types.insert(c.type).second) errors.push_back(Duplicate(path, GoQuote(c.type)));
    if (c.type.empty()) {
      errors.push_back(Required(path + ".type", "is required"));
    } else {
      ValidateLabelKey(c.type, path + ".type", errors);
    }
    if (c.status.empty()) {
      errors.push_back(Required(path + ".status"));
    } else if (c.status != "True" && c.status != "False" && c.status != "Unknown") {
      errors.push_back(NotSupported(path + ".status", c.status, {"False", "True", "Unknown"}));
    }
    if (c.observed_generation < 0) {
      errors.push_back(Invalid(path + ".observedGeneration", RenderInt(c.observed_generation),
                               "must be greater than or equal to zero"));
    }
    if (c.last_transition_time.IsZero()) errors.push_back(Required(path + ".lastTransitionTime"));
    if (c.reason.empty()) {
      errors.push_back(Required(path + ".reason"));
    } else {
      if (!IsConditionReasonShape(c.reason)) {
        errors.push_back(InvalidString(path + ".reason", c.reason, ConditionReasonMessage()));
      }
      if (c.reason.size() > kConditionReasonMaxLength) {
        errors.push_back(
            TooLong(path + ".reason", static_cast<std::int64_t>(kConditionReasonMaxLength)));
      }
    }
    if (c.message.size() > kConditionMessageMaxLength) {
      errors.push_back(
          TooLong(path + ".message", static_cast<std::int64_t>(kConditionMessageMaxLength)));
    }
  }
}

void ValidateObjectMeta(const ObjectMeta& meta, bool namespaced, bool content_name,
                        FieldErrors& errors) {
  const std::string name_path = "metadata.name";
  if (content_name) {
    // DeviceClass: names are checked after generation only.
    if (!meta.generate_name.empty() && meta.name.empty()) {
      errors.push_back(InternalError(name_path, "generateName was specified (" +
                                                    GoQuote(meta.generate_name) +
                                                    "), but no name was generated"));
    }
    if (meta.name.empty()) {
      errors.push_back(Required(name_path, "name or generateName is required"));
    } else {
      ValidateDnsSubdomain(meta.name, name_path, errors, /*content=*/true);
    }
  } else {
    if (!meta.generate_name.empty()) {
      std::string storage;
      AppendInvalid(Dns1123SubdomainMessages(MaskTrailingDash(meta.generate_name, storage),
                                             Units::kCharacters),
                    "metadata.generateName", meta.generate_name, "", errors);
    }
    if (meta.name.empty()) {
      errors.push_back(Required(name_path, "name or generateName is required"));
    } else {
      ValidateDnsSubdomain(meta.name, name_path, errors);
    }
  }

  if (namespaced) {
    if (meta.namespace_.empty()) {
      errors.push_back(Required("metadata.namespace"));
    } else {
      ValidateDnsLabel(meta.namespace_, "metadata.namespace", errors);
    }
  } else if (!meta.namespace_.empty()) {
    errors.push_back(Forbidden("metadata.namespace", "not allowed on this type"));
  }

  if (meta.generation < 0) {
    FieldError e = Invalid("metadata.generation", RenderInt(meta.generation),
                           "must be greater than or equal to 0");
    e.origin = "minimum";
    errors.push_back(std::move(e));
  }
  ValidateMetaContents(meta, errors);
  ValidateFinalizerNames(meta.finalizers, errors);
  ValidateManagedFields(meta.managed_fields, errors);
  ValidateKubeFinalizerNames(meta.finalizers, errors);
}

void ValidateObjectMetaUpdate(const ObjectMeta& meta, const ObjectMeta& old, FieldErrors& errors) {
  if (!old.deletion_timestamp.IsZero()) {
    const std::set<std::string> before(old.finalizers.begin(), old.finalizers.end());
    std::set<std::string> added;
    for (const std::string& f : meta.finalizers) {
      if (before.count(f) == 0) added.insert(f);
    }
    if (!added.empty()) {
      std::string list = "[]string{";
      for (const std::string& f : added) {
        if (list.back() != '{') list += ", ";
        list += GoQuote(f);
      }
      list += '}';
      errors.push_back(Forbidden(
          "metadata.finalizers",
          "no new finalizers can be added if the object is being deleted, found new finalizers " +
              list));
    }
  }
  if (meta.generation < old.generation) {
    errors.push_back(
        Invalid("metadata.generation", RenderInt(meta.generation), "must not be decremented"));
  }
  constexpr std::string_view kImmutable = "field is immutable";
  if (meta.name != old.name) {
    errors.push_back(InvalidString("metadata.name", meta.name, std::string(kImmutable)));
  }
  if (meta.namespace_ != old.namespace_) {
    errors.push_back(InvalidString("metadata.namespace", meta.namespace_, std::string(kImmutable)));
  }
  if (meta.uid != old.uid) {
    errors.push_back(
        Invalid("metadata.uid", GoJsonString(std::string_view(meta.uid)), std::string(kImmutable)));
  }
  if (meta.creation_timestamp != old.creation_timestamp) {
    errors.push_back(Invalid("metadata.creationTimestamp", JsonTime(meta.creation_timestamp),
                             std::string(kImmutable)));
  }
  if (meta.deletion_timestamp != old.deletion_timestamp) {
    errors.push_back(Invalid("metadata.deletionTimestamp", JsonTime(meta.deletion_timestamp),
                             std::string(kImmutable)));
  }
  if (meta.deletion_grace_period_seconds != old.deletion_grace_period_seconds) {
    errors.push_back(Invalid("metadata.deletionGracePeriodSeconds",
                             JsonOptionalInt(meta.deletion_grace_period_seconds),
                             std::string(kImmutable)));
  }
  ValidateMetaContents(meta, errors);
  ValidateManagedFields(meta.managed_fields, errors);
  ValidateKubeFinalizerNames(meta.finalizers, errors);
}

}  // namespace dra::api::validation
