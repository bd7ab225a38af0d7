#include "cel/types.h"

namespace dra::cel {

namespace {

TypePtr Make(Type::Kind kind, std::string name = "", std::vector<TypePtr> params = {}) {
  auto t = std::make_shared<Type>();
  t->kind = kind;
  t->name = std::move(name);
  t->params = std::move(params);
  return t;
}

}  // namespace

TypePtr DynType() {
  static const TypePtr t = Make(Type::Kind::kDyn);
  return t;
}
TypePtr AnyType() {
  static const TypePtr t = Make(Type::Kind::kDyn, "any");
  return t;
}
bool IsAny(const Type& t) { return t.kind == Type::Kind::kDyn && t.name == "any"; }
TypePtr ErrorType() {
  static const TypePtr t = Make(Type::Kind::kError);
  return t;
}
TypePtr PrimitiveType(Type::Kind kind) { return Make(kind); }
TypePtr ListType(TypePtr e) { return Make(Type::Kind::kList, "", {std::move(e)}); }
TypePtr MapType(TypePtr k, TypePtr v) {
  return Make(Type::Kind::kMap, "", {std::move(k), std::move(v)});
}
TypePtr OptionalType(TypePtr v) { return Make(Type::Kind::kOptional, "", {std::move(v)}); }
TypePtr TypeOfType(TypePtr d) { return Make(Type::Kind::kType, "", {std::move(d)}); }
TypePtr OpaqueType(std::string name) { return Make(Type::Kind::kOpaque, std::move(name)); }

namespace {

std::string_view Trim(std::string_view s) {
  while (!s.empty() && s.front() == ' ') s.remove_prefix(1);
  while (!s.empty() && s.back() == ' ') s.remove_suffix(1);
  return s;
}

// Splits "a, map(b, c)" at top-level commas.
std::vector<std::string_view> SplitParams(std::string_view s) {
  std::vector<std::string_view> out;
  int depth = 0;
  std::size_t start = 0;
  for (std::size_t i = 0; i < s.size(); ++i) {
    if (s[i] == '(') ++depth;
    if (s[i] == ')') --depth;
    if (s[i] == ',' && depth == 0) {
      out.push_back(Trim(s.substr(start, i - start)));
      start = i + 1;
    }
  }
  out.push_back(Trim(s.substr(start)));
  return out;
}

}  // namespace

TypePtr ParseType(std::string_view text) {
  text = Trim(text);
  std::size_t paren = text.find('(');
  if (paren != std::string_view::npos) {
    std::string_view head = text.substr(0, paren);
    std::vector<TypePtr> params;
    for (std::string_view p : SplitParams(text.substr(paren + 1, text.size() - paren - 2))) {
      params.push_back(ParseType(p));
    }
    if (head == "list") return ListType(params[0]);
    if (head == "map") return MapType(params[0], params[1]);
    if (head == "optional_type") return OptionalType(params[0]);
    return TypeOfType(params[0]);
  }
  using K = Type::Kind;
  static const std::map<std::string_view, K, std::less<>> kNames = {
      {"dyn", K::kDyn},          {"null_type", K::kNull}, {"bool", K::kBool},
      {"int", K::kInt},          {"uint", K::kUint},      {"double", K::kDouble},
      {"string", K::kString},    {"bytes", K::kBytes},    {"timestamp", K::kTimestamp},
      {"duration", K::kDuration}};
  if (auto it = kNames.find(text); it != kNames.end()) return Make(it->second);
  if (text.size() == 1 && text[0] >= 'A' && text[0] <= 'Z')
    return Make(K::kParam, std::string(text));
  return OpaqueType(std::string(text));
}

std::string TypeString(const Type& t) {
  using K = Type::Kind;
  switch (t.kind) {
    case K::kDyn:
      return t.name == "any" ? "any" : "dyn";
    case K::kError:
      return "*error*";
    case K::kNull:
      return "null_type";
    case K::kBool:
      return "bool";
    case K::kInt:
      return "int";
    case K::kUint:
      return "uint";
    case K::kDouble:
      return "double";
    case K::kString:
      return "string";
    case K::kBytes:
      return "bytes";
    case K::kTimestamp:
      return "google.protobuf.Timestamp";
    case K::kDuration:
      return "google.protobuf.Duration";
    case K::kList:
      return "list(" + TypeString(*t.params[0]) + ")";
    case K::kMap:
      return "map(" + TypeString(*t.params[0]) + ", " + TypeString(*t.params[1]) + ")";
    case K::kOptional:
      return "optional_type(" + TypeString(*t.params[0]) + ")";
    case K::kType:
      return "type(" + TypeString(*t.params[0]) + ")";
    case K::kOpaque:
    case K::kParam:
      return t.name;
  }
  return "dyn";
}

bool SameType(const Type& a, const Type& b) { return TypeString(a) == TypeString(b); }

bool Assignable(const Type& param, const TypePtr& arg, TypeBindings* bindings) {
  using K = Type::Kind;
  if (arg->kind == K::kDyn || arg->kind == K::kError || param.kind == K::kDyn) return true;
  if (param.kind == K::kParam) {
    auto it = bindings->find(param.name);
    if (it == bindings->end()) {
      (*bindings)[param.name] = arg;
      return true;
    }
    // A parameter bound to dyn (through a dyn argument) takes the concrete type.
    if (it->second->kind == K::kDyn) {
      it->second = arg;
      return true;
    }
    return Assignable(*it->second, arg, bindings);
  }
  if (param.kind != arg->kind) return false;
  if (param.kind == K::kOpaque) return param.name == arg->name;
  // Type values compare at run time whatever type they denote.
  if (param.kind == K::kType) return true;
  for (std::size_t i = 0; i < param.params.size(); ++i) {
    if (!Assignable(*param.params[i], arg->params[i], bindings)) return false;
  }
  return true;
}

TypePtr FreeType() {
  static const TypePtr t = Make(Type::Kind::kDyn, "free");
  return t;
}

bool Compatible(const Type& a, const Type& b) {
  if ((a.kind == Type::Kind::kDyn && a.name == "free") ||
      (b.kind == Type::Kind::kDyn && b.name == "free")) {
    return true;
  }
  if (a.kind != b.kind || a.name != b.name || a.params.size() != b.params.size()) return false;
  for (std::size_t i = 0; i < a.params.size(); ++i) {
    if (!Compatible(*a.params[i], *b.params[i])) return false;
  }
  return true;
}

TypePtr Substitute(const TypePtr& t, const TypeBindings& bindings) {
  if (t->kind == Type::Kind::kParam) {
    auto it = bindings.find(t->name);
    return it == bindings.end() ? FreeType() : it->second;
  }
  if (t->params.empty()) return t;
  auto copy = std::make_shared<Type>(*t);
  for (TypePtr& p : copy->params) p = Substitute(p, bindings);
  return copy;
}

}  // namespace dra::cel
