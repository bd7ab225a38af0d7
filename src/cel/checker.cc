#include "cel/checker.h"

#include <functional>

#include "cel/declarations.h"
#include "cel/format.h"
#include "cel/regex_cache.h"

namespace dra::cel {
namespace {

using K = Type::Kind;

TypePtr DeviceFieldType(std::string_view field, const DeviceDeclaration& device) {
  if (field == "driver") return PrimitiveType(K::kString);
  if (field == "allowMultipleAllocations" && device.allow_multiple_allocations) {
    return PrimitiveType(K::kBool);
  }
  if (field == "attributes") {
    return MapType(
        PrimitiveType(K::kString),
        MapType(PrimitiveType(K::kString), device.attributes_are_any ? AnyType() : DynType()));
  }
  if (field == "capacity") {
    return MapType(PrimitiveType(K::kString),
                   MapType(PrimitiveType(K::kString), OpaqueType("kubernetes.Quantity")));
  }
  return nullptr;
}

TypePtr TypeNamed(std::string_view name) {
  static const std::pair<std::string_view, std::string_view> kTypes[] = {
      {"int", "int"},
      {"uint", "uint"},
      {"double", "double"},
      {"bool", "bool"},
      {"string", "string"},
      {"bytes", "bytes"},
      {"null_type", "null_type"},
      {"list", "list(dyn)"},
      {"map", "map(dyn, dyn)"},
      {"type", "type(dyn)"},
      {"google.protobuf.Timestamp", "timestamp"},
      {"google.protobuf.Duration", "duration"},
      {"optional_type", "optional_type(dyn)"}};
  for (const auto& [n, t] : kTypes) {
    if (n == name) return TypeOfType(ParseType(t));
  }
  return nullptr;
}

class Checker {
 public:
  Checker(Issues* issues, const DeviceDeclaration& device) : issues_(issues), device_(device) {}

  TypePtr Check(Expr& e) {
    TypePtr t = Visit(e);
    if (types_.size() <= static_cast<std::size_t>(e.id))
      types_.resize(static_cast<std::size_t>(e.id) + 1);
    types_[static_cast<std::size_t>(e.id)] = t;
    return t;
  }

  std::vector<TypePtr> TakeTypes() { return std::move(types_); }

  // Upstream's AST validators run only when type-checking found no error.
  void ValidatePending() {
    if (!issues_->empty()) return;
    for (const Expr* e : pending_validations_) ValidateConstantArguments(*e);
  }

 private:
  TypePtr Error(std::int32_t offset, std::string message) {
    issues_->Add(offset, std::move(message));
    return ErrorType();
  }

  static bool IsError(const TypePtr& t) { return t->kind == K::kError; }

  TypePtr LookupLocal(const std::string& name) const {
    for (auto it = scopes_.rbegin(); it != scopes_.rend(); ++it) {
      if (it->first == name) return it->second;
    }
    return nullptr;
  }

  TypePtr Visit(Expr& e) {
    switch (e.kind) {
      case ExprKind::kConstant:
        return ConstantType(e.constant);
      case ExprKind::kIdent:
        return Ident(e);
      case ExprKind::kSelect:
        return Select(e);
      case ExprKind::kCall:
        return Call(e);
      case ExprKind::kList:
        return List(e);
      case ExprKind::kMap:
        return Map(e);
      case ExprKind::kStruct:
        return Error(e.offset, "undeclared reference to '" + e.name + "' (in container '')");
      case ExprKind::kMacro:
        return MacroType(e);
    }
    return DynType();
  }

  static TypePtr ConstantType(const Constant& c) {
    switch (c.kind) {
      case Constant::Kind::kNull:
        return PrimitiveType(K::kNull);
      case Constant::Kind::kBool:
        return PrimitiveType(K::kBool);
      case Constant::Kind::kInt:
        return PrimitiveType(K::kInt);
      case Constant::Kind::kUint:
        return PrimitiveType(K::kUint);
      case Constant::Kind::kDouble:
        return PrimitiveType(K::kDouble);
      case Constant::Kind::kString:
        return PrimitiveType(K::kString);
      case Constant::Kind::kBytes:
        return PrimitiveType(K::kBytes);
    }
    return DynType();
  }

  TypePtr Ident(const Expr& e) {
    if (TypePtr local = LookupLocal(e.name)) return local;
    if (e.name == "device") return OpaqueType("kubernetes.DRADevice");
    if (TypePtr t = TypeNamed(e.name)) return t;
    return Error(e.offset, "undeclared reference to '" + e.name + "' (in container '')");
  }

  // google.protobuf.Timestamp and the like: a type name written as a chain
  // of selections.
  TypePtr QualifiedTypeName(const Expr& e) const {
    std::string name = e.name;
    const Expr* t = e.target.get();
    while (t->kind == ExprKind::kSelect && !t->test_only && !t->optional) {
      name.insert(0, t->name + ".");
      t = t->target.get();
    }
    if (t->kind != ExprKind::kIdent || LookupLocal(t->name)) return nullptr;
    return TypeNamed(t->name + "." + name);
  }

  TypePtr Select(Expr& e) {
    if (!e.test_only && !e.optional) {
      if (TypePtr type = QualifiedTypeName(e)) return type;
    }
    TypePtr operand = Check(*e.target);
    if (IsError(operand)) return operand;
    bool optional_operand = false;
    if (operand->kind == K::kOptional) {
      operand = operand->params[0];
      optional_operand = true;
    }
    TypePtr field;
    switch (operand->kind) {
      case K::kDyn:
        field = DynType();
        break;
      case K::kMap:
        field = operand->params[1];
        break;
      case K::kOpaque:
        if (operand->name == "kubernetes.DRADevice") {
          field = DeviceFieldType(e.name, device_);
          if (!field) return Error(e.offset, "undefined field '" + e.name + "'");
          break;
        }
        [[fallthrough]];
      default:
        return Error(e.offset,
                     "type '" + TypeString(*operand) + "' does not support field selection");
    }
    if (e.test_only) return PrimitiveType(K::kBool);
    if (e.optional || optional_operand) return OptionalType(field);
    return field;
  }

  // Namespaced functions written as `ns.fn(...)` parse as member calls on an
  // identifier; rewrite them to global calls when `ns` is not a variable.
  void NormalizeNamespacedCall(Expr& e) {
    if (!e.target || e.target->kind != ExprKind::kIdent) return;
    const std::string& ns = e.target->name;
    if (LookupLocal(ns) || ns == "device") return;
    std::string qualified = ns + "." + e.name;
    if (Overloads(qualified).empty()) return;
    e.name = std::move(qualified);
    e.target.reset();
  }

  TypePtr Call(Expr& e) {
    NormalizeNamespacedCall(e);
    std::vector<TypePtr> args;
    bool failed = false;
    if (e.target) {
      args.push_back(Check(*e.target));
      failed = failed || IsError(args.back());
    }
    for (ExprPtr& a : e.args) {
      args.push_back(Check(*a));
      failed = failed || IsError(args.back());
    }
    if (failed) return ErrorType();
    const std::vector<OverloadDecl>& overloads = Overloads(e.name);
    if (overloads.empty() || (e.name == "includes" && !device_.includes)) {
      return Error(e.offset, "undeclared reference to '" + e.name + "' (in container '')");
    }
    // Constant arguments are validated once the whole expression type-checks.
    pending_validations_.push_back(&e);
    bool member = e.target != nullptr;
    if (!member && (e.name == "_&&_" || e.name == "_||_")) {
      // Each operand must be a bool; each one that is not is its own error,
      // at the operand (cel-go's rule for the logical operators).
      bool mismatch = false;
      for (std::size_t i = 0; i < args.size(); ++i) {
        TypeBindings bindings;
        if (Assignable(*PrimitiveType(K::kBool), args[i], &bindings)) continue;
        Error(e.args[i]->offset, "expected type 'bool' but found '" + TypeString(*args[i]) + "'");
        mismatch = true;
      }
      if (mismatch) return ErrorType();
    }
    TypePtr result;
    bool ambiguous = false;
    for (const OverloadDecl& o : overloads) {
      if (o.member != member || o.params.size() != args.size()) continue;
      TypeBindings bindings;
      bool ok = true;
      for (std::size_t i = 0; i < args.size() && ok; ++i) {
        ok = Assignable(*o.params[i], args[i], &bindings);
      }
      if (!ok) continue;
      TypePtr r = Substitute(o.result, bindings);
      if (!result) {
        result = r;
      } else if (!SameType(*result, *r)) {
        ambiguous = true;
      }
    }
    if (!result) return NoMatchingOverload(e, args, member);
    return ambiguous ? DynType() : result;
  }

  TypePtr NoMatchingOverload(const Expr& e, const std::vector<TypePtr>& args, bool member) {
    std::string signature;
    std::size_t first = member ? 1 : 0;
    for (std::size_t i = first; i < args.size(); ++i) {
      if (i > first) signature += ", ";
      signature += TypeString(*args[i]);
    }
    signature = member ? TypeString(*args[0]) + ".(" + signature + ")" : "(" + signature + ")";
    return Error(e.offset,
                 "found no matching overload for '" + e.name + "' applied to '" + signature + "'");
  }

  // Upstream's AST validators: constant regexes, durations and timestamps
  // must be valid.
  void ValidateConstantArguments(const Expr& e) {
    auto constant_string = [](const Expr& a) {
      return a.kind == ExprKind::kConstant && a.constant.kind == Constant::Kind::kString;
    };
    if (e.name == "matches" && !e.args.empty()) {
      const Expr& pattern = *e.args.back();
      std::string error;
      if (constant_string(pattern) && !CompiledRegex(pattern.constant.string_value, &error)) {
        issues_->Add(pattern.offset, "invalid matches argument");
      }
    }
    if (!e.target && e.args.size() == 1 && constant_string(*e.args[0])) {
      const std::string& s = e.args[0]->constant.string_value;
      if (e.name == "duration") {
        std::int64_t ns;
        if (!ParseDuration(s, &ns)) issues_->Add(e.args[0]->offset, "invalid duration argument");
      } else if (e.name == "timestamp") {
        std::int64_t sec;
        std::int32_t nanos;
        if (!ParseTimestamp(s, &sec, &nanos)) {
          issues_->Add(e.args[0]->offset, "invalid timestamp argument");
        }
      }
    }
  }

  // Homogeneous aggregate literals: every element must be assignable to the
  // type joined so far, where dyn is assignable both ways (cel-go's rule), and
  // the joined type becomes the more general of the two.
  static bool MutuallyAssignable(const Type& a, const Type& b) {
    if (a.kind == K::kDyn || b.kind == K::kDyn || Compatible(a, b)) return true;
    if (a.kind != b.kind || a.name != b.name || a.params.size() != b.params.size()) return false;
    for (std::size_t i = 0; i < a.params.size(); ++i) {
      if (!MutuallyAssignable(*a.params[i], *b.params[i])) return false;
    }
    return true;
  }

  TypePtr Join(TypePtr* joined, const TypePtr& next, std::int32_t offset) {
    if (IsError(next)) return next;
    if (!*joined) {
      *joined = next;
      return next;
    }
    if (!MutuallyAssignable(**joined, *next)) {
      return Error(offset, "expected type '" + TypeString(**joined) + "' but found '" +
                               TypeString(*next) + "'");
    }
    if (next->kind == K::kDyn && (*joined)->kind != K::kDyn) *joined = next;
    return next;
  }

  TypePtr Unwrapped(const TypePtr& t, bool optional, std::int32_t offset) {
    if (!optional || IsError(t) || t->kind == K::kDyn) return t;
    if (t->kind != K::kOptional) {
      return Error(offset, "expected type 'optional_type' but found '" + TypeString(*t) + "'");
    }
    return t->params[0];
  }

  TypePtr List(Expr& e) {
    TypePtr element;
    bool failed = false;
    for (std::size_t i = 0; i < e.args.size(); ++i) {
      TypePtr t = Unwrapped(Check(*e.args[i]), e.optional_elements[i], e.args[i]->offset);
      failed = IsError(Join(&element, t, e.args[i]->offset)) || failed;
    }
    if (failed) return ErrorType();
    return ListType(element ? element : FreeType());
  }

  TypePtr Map(Expr& e) {
    TypePtr key, value;
    bool failed = false;
    for (MapEntry& entry : e.entries) {
      failed = IsError(Join(&key, Check(*entry.key), entry.key->offset)) || failed;
      TypePtr v = Unwrapped(Check(*entry.value), entry.optional, entry.value->offset);
      failed = IsError(Join(&value, v, entry.value->offset)) || failed;
    }
    if (failed) return ErrorType();
    return MapType(key ? key : FreeType(), value ? value : FreeType());
  }

  TypePtr WithLocals(const std::vector<std::pair<std::string, TypePtr>>& locals,
                     const std::function<TypePtr()>& body) {
    for (const auto& l : locals) scopes_.push_back(l);
    TypePtr t = body();
    scopes_.resize(scopes_.size() - locals.size());
    return t;
  }

  // The predicate of all/exists/exists_one/filter must be a bool.
  TypePtr RequireBool(const Expr& predicate, const TypePtr& t, std::string_view op) {
    if (IsError(t) || t->kind == K::kBool || t->kind == K::kDyn) return t;
    return Error(predicate.offset, "found no matching overload for '" + std::string(op) +
                                       "' applied to '(bool, " + TypeString(*t) + ")'");
  }

  TypePtr RangeError(const Expr& range_expr, const Type& range) {
    return Error(range_expr.offset, "expression of type '" + TypeString(range) +
                                        "' cannot be range of a comprehension (must be list, "
                                        "map, or dynamic)");
  }

  // range.sortBy(x, key) types as upstream's expansion
  // range.@sortByAssociatedKeys(range.map(x, key)): the receiver must be a
  // list and the keys of a comparable type; the result is the receiver's type.
  TypePtr SortByType(Expr& e, const TypePtr& range) {
    TypePtr element;
    if (range->kind == K::kList || range->kind == K::kMap) {
      element = range->params[0];
    } else if (range->kind == K::kDyn && !IsAny(*range)) {
      element = DynType();
    } else {
      return RangeError(*e.target, *range);
    }
    TypePtr key = WithLocals({{e.name, element}}, [&] { return Check(*e.args[0]); });
    if (IsError(key)) return key;
    bool comparable = false;
    switch (key->kind) {
      case K::kDyn:
      case K::kBool:
      case K::kInt:
      case K::kUint:
      case K::kDouble:
      case K::kString:
      case K::kBytes:
      case K::kTimestamp:
      case K::kDuration:
        comparable = true;
        break;
      default:
        break;
    }
    if (range->kind == K::kMap || !comparable) {
      return Error(e.offset, "found no matching overload for '@sortByAssociatedKeys' applied to '" +
                                 TypeString(*range) + ".(" + TypeString(*ListType(key)) + ")'");
    }
    return range->kind == K::kList ? range : ListType(DynType());
  }

  TypePtr MacroType(Expr& e) {
    TypePtr range = Check(*e.target);
    if (IsError(range)) return range;
    if (e.macro == Macro::kBind) {
      return WithLocals({{e.name, range}}, [&] { return Check(*e.args[0]); });
    }
    if (e.macro == Macro::kOptMap || e.macro == Macro::kOptFlatMap) {
      TypePtr inner = range->kind == K::kOptional ? range->params[0] : DynType();
      TypePtr step = WithLocals({{e.name, inner}}, [&] { return Check(*e.args[0]); });
      if (IsError(step)) return step;
      return e.macro == Macro::kOptMap ? OptionalType(step) : step;
    }
    if (e.macro == Macro::kSortBy) return SortByType(e, range);
    TypePtr first, second;
    switch (range->kind) {
      case K::kList:
        first = e.name2.empty() ? range->params[0] : PrimitiveType(K::kInt);
        second = range->params[0];
        break;
      case K::kMap:
        first = range->params[0];
        second = range->params[1];
        break;
      case K::kDyn:
        if (!IsAny(*range)) {
          first = second = DynType();
          break;
        }
        [[fallthrough]];
      default:
        return RangeError(*e.target, *range);
    }
    std::vector<std::pair<std::string, TypePtr>> locals = {{e.name, first}};
    if (!e.name2.empty()) locals.emplace_back(e.name2, second);
    return WithLocals(locals, [&]() -> TypePtr {
      TypePtr filter;
      if (e.args.size() == 2) {
        filter = RequireBool(*e.args[0], Check(*e.args[0]), "_?_:_");
        if (IsError(filter)) return filter;
      }
      Expr& step_expr = *e.args.back();
      TypePtr step = Check(step_expr);
      if (IsError(step)) return step;
      switch (e.macro) {
        case Macro::kAll:
        case Macro::kAll2:
          return IsError(RequireBool(step_expr, step, "_&&_")) ? ErrorType()
                                                               : PrimitiveType(K::kBool);
        case Macro::kExists:
        case Macro::kExists2:
          return IsError(RequireBool(step_expr, step, "_||_")) ? ErrorType()
                                                               : PrimitiveType(K::kBool);
        case Macro::kExistsOne:
        case Macro::kExistsOne2:
          return IsError(RequireBool(step_expr, step, "_?_:_")) ? ErrorType()
                                                                : PrimitiveType(K::kBool);
        case Macro::kFilter:
          if (IsError(RequireBool(step_expr, step, "_?_:_"))) return ErrorType();
          return ListType(first);
        case Macro::kMap:
        case Macro::kTransformList:
          return ListType(step);
        case Macro::kTransformMap:
          return MapType(first, step);
        case Macro::kTransformMapEntry:
          return step;
        default:
          return DynType();
      }
    });
  }

  Issues* issues_;
  const DeviceDeclaration& device_;
  std::vector<std::pair<std::string, TypePtr>> scopes_;
  std::vector<TypePtr> types_;
  std::vector<const Expr*> pending_validations_;
};

}  // namespace

CheckResult Check(Expr* expr, Issues* issues, const DeviceDeclaration& device) {
  Checker checker(issues, device);
  TypePtr t = checker.Check(*expr);
  checker.ValidatePending();
  CheckResult result;
  result.type = TypeString(*t);
  result.types = checker.TakeTypes();
  return result;
}

}  // namespace dra::cel
