#include "cel/declarations.h"

#include <map>
#include <string>

namespace dra::cel {
namespace {

// name, signature. Member signatures start with "<receiver>.".
struct Signature {
  std::string_view name;
  std::string_view signature;
};

constexpr Signature kSignatures[] = {
    // Arithmetic.
    {"_+_", "(int, int) -> int"},
    {"_+_", "(uint, uint) -> uint"},
    {"_+_", "(double, double) -> double"},
    {"_+_", "(string, string) -> string"},
    {"_+_", "(bytes, bytes) -> bytes"},
    {"_+_", "(list(A), list(A)) -> list(A)"},
    {"_+_", "(timestamp, duration) -> timestamp"},
    {"_+_", "(duration, timestamp) -> timestamp"},
    {"_+_", "(duration, duration) -> duration"},
    {"_-_", "(int, int) -> int"},
    {"_-_", "(uint, uint) -> uint"},
    {"_-_", "(double, double) -> double"},
    {"_-_", "(timestamp, timestamp) -> duration"},
    {"_-_", "(timestamp, duration) -> timestamp"},
    {"_-_", "(duration, duration) -> duration"},
    {"_*_", "(int, int) -> int"},
    {"_*_", "(uint, uint) -> uint"},
    {"_*_", "(double, double) -> double"},
    {"_/_", "(int, int) -> int"},
    {"_/_", "(uint, uint) -> uint"},
    {"_/_", "(double, double) -> double"},
    {"_%_", "(int, int) -> int"},
    {"_%_", "(uint, uint) -> uint"},
    {"-_", "(int) -> int"},
    {"-_", "(double) -> double"},
    {"!_", "(bool) -> bool"},
    {"_&&_", "(bool, bool) -> bool"},
    {"_||_", "(bool, bool) -> bool"},
    {"_?_:_", "(bool, A, A) -> A"},
    // Equality and ordering (cross-type numeric ordering is enabled).
    {"_==_", "(A, A) -> bool"},
    {"_!=_", "(A, A) -> bool"},
#define DRA_CEL_ORDER(op)                                                                         \
  {op, "(int, int) -> bool"}, {op, "(uint, uint) -> bool"}, {op, "(double, double) -> bool"},     \
      {op, "(string, string) -> bool"}, {op, "(bytes, bytes) -> bool"},                           \
      {op, "(bool, bool) -> bool"}, {op, "(timestamp, timestamp) -> bool"},                       \
      {op, "(duration, duration) -> bool"}, {op, "(int, uint) -> bool"},                          \
      {op, "(int, double) -> bool"}, {op, "(uint, int) -> bool"}, {op, "(uint, double) -> bool"}, \
      {op, "(double, int) -> bool"}, {                                                            \
    op, "(double, uint) -> bool"                                                                  \
  }
    DRA_CEL_ORDER("_<_"),
    DRA_CEL_ORDER("_<=_"),
    DRA_CEL_ORDER("_>_"),
    DRA_CEL_ORDER("_>=_"),
#undef DRA_CEL_ORDER
    {"@in", "(A, list(A)) -> bool"},
    {"@in", "(A, map(A, B)) -> bool"},
    {"_[_]", "(list(A), int) -> A"},
    {"_[_]", "(map(A, B), A) -> B"},
    {"_[?_]", "(list(A), int) -> optional_type(A)"},
    {"_[?_]", "(map(A, B), A) -> optional_type(B)"},
    {"_[?_]", "(optional_type(list(A)), int) -> optional_type(A)"},
    {"_[?_]", "(optional_type(map(A, B)), A) -> optional_type(B)"},
    // Size and strings.
    {"size", "(string) -> int"},
    {"size", "(bytes) -> int"},
    {"size", "(list(A)) -> int"},
    {"size", "(map(A, B)) -> int"},
    {"size", "string.() -> int"},
    {"size", "bytes.() -> int"},
    {"size", "list(A).() -> int"},
    {"size", "map(A, B).() -> int"},
    {"contains", "string.(string) -> bool"},
    {"startsWith", "string.(string) -> bool"},
    {"endsWith", "string.(string) -> bool"},
    {"matches", "string.(string) -> bool"},
    {"matches", "(string, string) -> bool"},
    // Conversions.
    {"int", "(int) -> int"},
    {"int", "(uint) -> int"},
    {"int", "(double) -> int"},
    {"int", "(string) -> int"},
    {"int", "(timestamp) -> int"},
    {"uint", "(uint) -> uint"},
    {"uint", "(int) -> uint"},
    {"uint", "(double) -> uint"},
    {"uint", "(string) -> uint"},
    {"double", "(double) -> double"},
    {"double", "(int) -> double"},
    {"double", "(uint) -> double"},
    {"double", "(string) -> double"},
    {"string", "(string) -> string"},
    {"string", "(int) -> string"},
    {"string", "(uint) -> string"},
    {"string", "(double) -> string"},
    {"string", "(bool) -> string"},
    {"string", "(bytes) -> string"},
    {"string", "(timestamp) -> string"},
    {"string", "(duration) -> string"},
    {"bytes", "(bytes) -> bytes"},
    {"bytes", "(string) -> bytes"},
    {"bool", "(bool) -> bool"},
    {"bool", "(string) -> bool"},
    {"dyn", "(A) -> dyn"},
    {"type", "(A) -> type(A)"},
    {"timestamp", "(string) -> timestamp"},
    {"timestamp", "(int) -> timestamp"},
    {"timestamp", "(timestamp) -> timestamp"},
    {"duration", "(string) -> duration"},
    {"duration", "(duration) -> duration"},
#define DRA_CEL_TIME(name) \
  {name, "timestamp.() -> int"}, { name, "timestamp.(string) -> int" }
    DRA_CEL_TIME("getFullYear"),
    DRA_CEL_TIME("getMonth"),
    DRA_CEL_TIME("getDate"),
    DRA_CEL_TIME("getDayOfMonth"),
    DRA_CEL_TIME("getDayOfWeek"),
    DRA_CEL_TIME("getDayOfYear"),
    DRA_CEL_TIME("getHours"),
    DRA_CEL_TIME("getMinutes"),
    DRA_CEL_TIME("getSeconds"),
    DRA_CEL_TIME("getMilliseconds"),
#undef DRA_CEL_TIME
    {"getHours", "duration.() -> int"},
    {"getMinutes", "duration.() -> int"},
    {"getSeconds", "duration.() -> int"},
    {"getMilliseconds", "duration.() -> int"},
    // Strings extension v2 and the regex library.
    {"charAt", "string.(int) -> string"},
    {"indexOf", "string.(string) -> int"},
    {"indexOf", "string.(string, int) -> int"},
    {"lastIndexOf", "string.(string) -> int"},
    {"lastIndexOf", "string.(string, int) -> int"},
    {"lowerAscii", "string.() -> string"},
    {"upperAscii", "string.() -> string"},
    {"replace", "string.(string, string) -> string"},
    {"replace", "string.(string, string, int) -> string"},
    {"split", "string.(string) -> list(string)"},
    {"split", "string.(string, int) -> list(string)"},
    {"substring", "string.(int) -> string"},
    {"substring", "string.(int, int) -> string"},
    {"trim", "string.() -> string"},
    {"join", "list(string).() -> string"},
    {"join", "list(string).(string) -> string"},
    {"strings.quote", "(string) -> string"},
    {"format", "string.(list(dyn)) -> string"},
    {"find", "string.(string) -> string"},
    {"findAll", "string.(string) -> list(string)"},
    {"findAll", "string.(string, int) -> list(string)"},
    // Kubernetes lists library, lists extension v3, sets extension.
    {"isSorted", "list(A).() -> bool"},
    {"sum", "list(A).() -> A"},
    {"min", "list(A).() -> A"},
    {"max", "list(A).() -> A"},
    {"indexOf", "list(A).(A) -> int"},
    {"lastIndexOf", "list(A).(A) -> int"},
    {"slice", "list(A).(int, int) -> list(A)"},
    {"flatten", "list(dyn).() -> list(dyn)"},
    {"flatten", "list(dyn).(int) -> list(dyn)"},
    {"distinct", "list(A).() -> list(A)"},
    {"reverse", "list(A).() -> list(A)"},
    {"sort", "list(A).() -> list(A)"},
    {"lists.range", "(int) -> list(int)"},
    {"sets.contains", "(list(A), list(A)) -> bool"},
    {"sets.equivalent", "(list(A), list(A)) -> bool"},
    {"sets.intersects", "(list(A), list(A)) -> bool"},
    // Optionals.
    {"optional.of", "(A) -> optional_type(A)"},
    {"optional.ofNonZeroValue", "(A) -> optional_type(A)"},
    {"optional.none", "() -> optional_type(A)"},
    {"hasValue", "optional_type(A).() -> bool"},
    {"value", "optional_type(A).() -> A"},
    {"or", "optional_type(A).(optional_type(A)) -> optional_type(A)"},
    {"orValue", "optional_type(A).(A) -> A"},
    {"first", "list(A).() -> optional_type(A)"},
    {"last", "list(A).() -> optional_type(A)"},
    {"optional.unwrap", "(list(optional_type(A))) -> list(A)"},
    {"unwrapOpt", "list(optional_type(A)).() -> list(A)"},
    // Kubernetes quantity and semver libraries.
    {"quantity", "(string) -> kubernetes.Quantity"},
    {"isQuantity", "(string) -> bool"},
    {"sign", "(kubernetes.Quantity) -> int"},
    {"isGreaterThan", "kubernetes.Quantity.(kubernetes.Quantity) -> bool"},
    {"isLessThan", "kubernetes.Quantity.(kubernetes.Quantity) -> bool"},
    {"compareTo", "kubernetes.Quantity.(kubernetes.Quantity) -> int"},
    {"add", "kubernetes.Quantity.(kubernetes.Quantity) -> kubernetes.Quantity"},
    {"add", "kubernetes.Quantity.(int) -> kubernetes.Quantity"},
    {"sub", "kubernetes.Quantity.(kubernetes.Quantity) -> kubernetes.Quantity"},
    {"sub", "kubernetes.Quantity.(int) -> kubernetes.Quantity"},
    {"asInteger", "kubernetes.Quantity.() -> int"},
    {"isInteger", "kubernetes.Quantity.() -> bool"},
    {"asApproximateFloat", "kubernetes.Quantity.() -> double"},
    {"semver", "(string) -> kubernetes.Semver"},
    {"semver", "(string, bool) -> kubernetes.Semver"},
    {"isSemver", "(string) -> bool"},
    {"isSemver", "(string, bool) -> bool"},
    {"isGreaterThan", "kubernetes.Semver.(kubernetes.Semver) -> bool"},
    {"isLessThan", "kubernetes.Semver.(kubernetes.Semver) -> bool"},
    {"compareTo", "kubernetes.Semver.(kubernetes.Semver) -> int"},
    {"major", "kubernetes.Semver.() -> int"},
    {"minor", "kubernetes.Semver.() -> int"},
    {"patch", "kubernetes.Semver.() -> int"},
    // Kubernetes IP and CIDR libraries.
    {"ip", "(string) -> net.IP"},
    {"isIP", "(string) -> bool"},
    {"ip.isCanonical", "(string) -> bool"},
    {"family", "net.IP.() -> int"},
    {"isUnspecified", "net.IP.() -> bool"},
    {"isLoopback", "net.IP.() -> bool"},
    {"isLinkLocalMulticast", "net.IP.() -> bool"},
    {"isLinkLocalUnicast", "net.IP.() -> bool"},
    {"isGlobalUnicast", "net.IP.() -> bool"},
    {"string", "(net.IP) -> string"},
    {"cidr", "(string) -> net.CIDR"},
    {"isCIDR", "(string) -> bool"},
    {"containsIP", "net.CIDR.(net.IP) -> bool"},
    {"containsIP", "net.CIDR.(string) -> bool"},
    {"containsCIDR", "net.CIDR.(net.CIDR) -> bool"},
    {"containsCIDR", "net.CIDR.(string) -> bool"},
    {"ip", "net.CIDR.() -> net.IP"},
    {"masked", "net.CIDR.() -> net.CIDR"},
    {"prefixLength", "net.CIDR.() -> int"},
    {"string", "(net.CIDR) -> string"},
    // Kubernetes URL library.
    {"url", "(string) -> kubernetes.URL"},
    {"isURL", "(string) -> bool"},
    {"getScheme", "kubernetes.URL.() -> string"},
    {"getHost", "kubernetes.URL.() -> string"},
    {"getHostname", "kubernetes.URL.() -> string"},
    {"getPort", "kubernetes.URL.() -> string"},
    {"getEscapedPath", "kubernetes.URL.() -> string"},
    {"getQuery", "kubernetes.URL.() -> map(string, list(string))"},
    // DRA.
    {"includes", "dyn.(dyn) -> bool"},
};

OverloadDecl ParseSignature(std::string_view s) {
  OverloadDecl d;
  std::size_t arrow = s.rfind("->");
  d.result = ParseType(s.substr(arrow + 2));
  std::string_view lhs = s.substr(0, arrow);
  while (!lhs.empty() && lhs.back() == ' ') lhs.remove_suffix(1);
  // "(args)" or "<receiver>.(args)"
  std::size_t open = lhs.rfind(".(");
  std::string_view args;
  if (open != std::string_view::npos && lhs.front() != '(') {
    d.member = true;
    d.params.push_back(ParseType(lhs.substr(0, open)));
    args = lhs.substr(open + 2, lhs.size() - open - 3);
  } else {
    args = lhs.substr(1, lhs.size() - 2);
  }
  // Top-level comma split.
  int depth = 0;
  std::size_t start = 0;
  for (std::size_t i = 0; i <= args.size(); ++i) {
    if (i < args.size() && args[i] == '(') ++depth;
    if (i < args.size() && args[i] == ')') --depth;
    if (i == args.size() || (args[i] == ',' && depth == 0)) {
      std::string_view part = args.substr(start, i - start);
      if (part.find_first_not_of(' ') != std::string_view::npos)
        d.params.push_back(ParseType(part));
      start = i + 1;
    }
  }
  return d;
}

}  // namespace

const std::vector<OverloadDecl>& Overloads(std::string_view name) {
  static const auto* table = [] {
    auto* t = new std::map<std::string, std::vector<OverloadDecl>, std::less<>>();
    for (const Signature& s : kSignatures) {
      (*t)[std::string(s.name)].push_back(ParseSignature(s.signature));
    }
    return t;
  }();
  static const std::vector<OverloadDecl> kNone;
  auto it = table->find(name);
  return it == table->end() ? kNone : it->second;
}

}  // namespace dra::cel
