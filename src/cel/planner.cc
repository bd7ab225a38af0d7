#include "cel/planner.h"

#include <vector>

#include "cel/regex_cache.h"

namespace dra::cel {
namespace {

// Conversions whose constant-argument failures abort program creation.
bool IsStandardConversion(std::string_view name) {
  return name == "int" || name == "uint" || name == "double" || name == "string" ||
         name == "bytes" || name == "bool" || name == "timestamp" || name == "duration";
}

// Names that denote types when used as plain identifiers (type(x) == int).
const char* TypeIdentifier(std::string_view name) {
  static constexpr const char* kTypes[] = {"int",    "uint",      "double",       "bool",
                                           "string", "bytes",     "list",         "map",
                                           "type",   "null_type", "optional_type"};
  for (const char* t : kTypes) {
    if (name == t) return t;
  }
  if (name == "google.protobuf.Timestamp") return "google.protobuf.Timestamp";
  if (name == "google.protobuf.Duration") return "google.protobuf.Duration";
  return nullptr;
}

class Planner {
 public:
  explicit Planner(std::string* error) : error_(error) {}

  int slot_count() const { return max_slots_; }

  NodePtr Plan(const Expr& e) {
    switch (e.kind) {
      case ExprKind::kConstant:
        return MakeConstant(ConstantValue(e.constant), 0);
      case ExprKind::kIdent:
        return PlanIdent(e.name);
      case ExprKind::kSelect:
        return PlanSelect(e);
      case ExprKind::kCall:
        return PlanCall(e);
      case ExprKind::kList:
        return PlanList(e);
      case ExprKind::kMap:
        return PlanMap(e);
      case ExprKind::kMacro:
        return PlanMacro(e);
      case ExprKind::kStruct:
        break;
    }
    return Fail("message construction is not supported: " + e.name);
  }

 private:
  NodePtr Fail(std::string message) {
    if (error_->empty()) *error_ = std::move(message);
    return MakeConstant(Value::Error("planning failed"), 0);
  }

  static Value ConstantValue(const Constant& c) {
    switch (c.kind) {
      case Constant::Kind::kNull:
        return Value::Null();
      case Constant::Kind::kBool:
        return Value::Bool(c.bool_value);
      case Constant::Kind::kInt:
        return Value::Int(c.int_value);
      case Constant::Kind::kUint:
        return Value::Uint(c.uint_value);
      case Constant::Kind::kDouble:
        return Value::Double(c.double_value);
      case Constant::Kind::kString:
        return Value::String(c.string_value);
      case Constant::Kind::kBytes:
        return Value::Bytes(c.string_value);
    }
    return Value::Null();
  }

  int FindLocal(const std::string& name) const {
    for (auto it = scopes_.rbegin(); it != scopes_.rend(); ++it) {
      if (it->first == name) return it->second;
    }
    return -1;
  }

  bool IsDeviceIdent(const Expr& e) const {
    return e.kind == ExprKind::kIdent && e.name == "device" && FindLocal("device") < 0;
  }

  NodePtr PlanIdent(const std::string& name) {
    if (int slot = FindLocal(name); slot >= 0) return MakeSlot(slot);
    if (name == "device") return MakeDevice();
    if (const char* type = TypeIdentifier(name)) return MakeConstant(Value::Type(type), 1);
    // The checker rejects undeclared names; unchecked plans (conformance
    // runs) fail at run time instead, as cel-go does.
    return MakeConstant(Value::Error("no such attribute: " + name), 0);
  }

  // device.attributes / device.capacity (capacity in *capacity).
  bool IsDeviceMap(const Expr& e, bool* capacity) const {
    if (e.kind != ExprKind::kSelect || e.test_only || e.optional || !IsDeviceIdent(*e.target)) {
      return false;
    }
    *capacity = e.name == "capacity";
    return e.name == "attributes" || e.name == "capacity";
  }

  // device.attributes["domain"] with a constant string domain.
  bool IsDomainMap(const Expr& e, bool* capacity, std::string* domain) const {
    if (e.kind != ExprKind::kCall || e.name != "_[_]" || e.target || e.args.size() != 2) {
      return false;
    }
    const Expr& key = *e.args[1];
    if (key.kind != ExprKind::kConstant || key.constant.kind != Constant::Kind::kString) {
      return false;
    }
    if (!IsDeviceMap(*e.args[0], capacity)) return false;
    *domain = key.constant.string_value;
    return true;
  }

  // a.b.c as a qualified name when every part is a plain identifier.
  bool QualifiedName(const Expr& e, std::string* name) const {
    if (e.kind == ExprKind::kIdent) {
      *name = e.name;
      return FindLocal(e.name) < 0;
    }
    if (e.kind != ExprKind::kSelect || e.test_only || e.optional) return false;
    if (!QualifiedName(*e.target, name)) return false;
    *name += "." + e.name;
    return true;
  }

  NodePtr PlanSelect(const Expr& e) {
    std::string qualified;
    if (QualifiedName(e, &qualified)) {
      if (const char* type = TypeIdentifier(qualified)) return MakeConstant(Value::Type(type), 1);
    }
    bool capacity;
    std::string domain;
    if (!e.test_only && !e.optional && IsDomainMap(*e.target, &capacity, &domain)) {
      return MakeAttributeLookup(domain, e.name, capacity, 4);
    }
    return MakeSelect(Plan(*e.target), e.name, e.test_only, e.optional);
  }

  NodePtr PlanCall(const Expr& e) {
    const std::string& name = e.name;
    if (!e.target) {
      if (name == "_&&_") return MakeAnd(Plan(*e.args[0]), Plan(*e.args[1]));
      if (name == "_||_") return MakeOr(Plan(*e.args[0]), Plan(*e.args[1]));
      if (name == "_?_:_") {
        return MakeConditional(Plan(*e.args[0]), Plan(*e.args[1]), Plan(*e.args[2]));
      }
      if (name == "_[?_]") return MakeOptionalIndex(Plan(*e.args[0]), Plan(*e.args[1]));
      if (name == "_[_]") {
        bool capacity;
        std::string domain;
        if (IsDomainMap(e, &capacity, &domain)) return MakeDomainMap(domain, capacity, 3);
        const Expr& key = *e.args[1];
        if (IsDomainMap(*e.args[0], &capacity, &domain) && key.kind == ExprKind::kConstant &&
            key.constant.kind == Constant::Kind::kString) {
          return MakeAttributeLookup(domain, key.constant.string_value, capacity, 4);
        }
      }
      return PlanFunction(name, false, e.args, nullptr);
    }
    // Namespaced global functions are parsed as member calls on an identifier
    // (optional.of, sets.contains, strings.quote, lists.range).
    if (e.target->kind == ExprKind::kIdent && FindLocal(e.target->name) < 0 &&
        e.target->name != "device") {
      std::string qualified = e.target->name + "." + name;
      if (FindFunction(qualified, false, e.args.size())) {
        return PlanFunction(qualified, false, e.args, nullptr);
      }
    }
    if ((name == "or" || name == "orValue") && e.args.size() == 1) {
      return MakeOptionalOr(Plan(*e.target), Plan(*e.args[0]), name == "orValue");
    }
    return PlanFunction(name, true, e.args, e.target.get());
  }

  NodePtr PlanFunction(const std::string& name, bool member, const std::vector<ExprPtr>& args,
                       const Expr* target) {
    const Function* fn = FindFunction(name, member, args.size() + (member ? 1 : 0));
    if (fn == nullptr) return MakeConstant(Value::Error("no such overload: " + name), 0);
    // The Kubernetes regex library compiles constant patterns when the
    // program is created, so an invalid one fails there (cel.OptimizeRegex in
    // k8s.io/apiserver pkg/cel/library/regex.go).
    if ((name == "find" || name == "findAll") && !args.empty() &&
        args[0]->kind == ExprKind::kConstant && args[0]->constant.kind == Constant::Kind::kString) {
      std::string regex_error;
      if (!CompiledRegex(args[0]->constant.string_value, &regex_error)) {
        Fail("Illegal regex: " + regex_error);
      }
    }
    std::vector<NodePtr> operands;
    if (target) operands.push_back(Plan(*target));
    for (const ExprPtr& a : args) operands.push_back(Plan(*a));
    return Fold(fn, std::move(operands));
  }

  // Evaluates a call of constants once, at plan time. Errors stay in the
  // plan (they surface at evaluation) except for the standard conversions.
  NodePtr Fold(const Function* fn, std::vector<NodePtr> operands) {
    bool constant = fn->foldable;
    for (const NodePtr& n : operands) {
      // Operand errors must reach run time through the call's error rules.
      constant = constant && n->constant() != nullptr && !n->constant()->is_error();
    }
    if (!constant) return MakeCall(fn, std::move(operands));
    std::vector<Value> values;
    values.reserve(operands.size());
    for (const NodePtr& n : operands) values.push_back(*n->constant());
    EvalContext ctx;
    Value result = fn->impl(ctx, values.data(), values.size());
    if (result.is_error()) {
      if (IsStandardConversion(fn->name)) {
        Fail(std::string(result.str()));
        return MakeConstant(result, 0);
      }
      return MakeCall(fn, std::move(operands));
    }
    std::uint64_t cost = fn->cost ? fn->cost(values.data(), values.size()) : 1;
    return MakeConstant(std::move(result), cost);
  }

  NodePtr PlanList(const Expr& e) {
    std::vector<NodePtr> elements;
    elements.reserve(e.args.size());
    bool constant = true;
    for (std::size_t i = 0; i < e.args.size(); ++i) {
      elements.push_back(Plan(*e.args[i]));
      constant = constant && !e.optional_elements[i] && elements.back()->constant();
    }
    if (constant) {
      std::vector<Value> values;
      values.reserve(elements.size());
      for (const NodePtr& n : elements) values.push_back(*n->constant());
      return MakeConstant(Value::List(std::move(values)), 0);
    }
    return MakeList(std::move(elements), e.optional_elements);
  }

  NodePtr PlanMap(const Expr& e) {
    std::vector<NodePtr> keys, values;
    std::vector<bool> optional;
    for (const MapEntry& entry : e.entries) {
      keys.push_back(Plan(*entry.key));
      values.push_back(Plan(*entry.value));
      optional.push_back(entry.optional);
    }
    NodePtr node = MakeMap(std::move(keys), std::move(values), std::move(optional));
    // All-constant maps are built once (an invalid one stays an error at run time).
    bool constant = true;
    for (const MapEntry& entry : e.entries) {
      constant = constant && !entry.optional && entry.key->kind == ExprKind::kConstant &&
                 entry.value->kind == ExprKind::kConstant;
    }
    if (constant) {
      EvalContext ctx;
      ctx.folding = true;
      Value v = node->Eval(ctx);
      if (!v.is_error()) return MakeConstant(std::move(v), 0);
    }
    return node;
  }

  int PushLocal(const std::string& name) {
    int slot = next_slot_++;
    if (next_slot_ > max_slots_) max_slots_ = next_slot_;
    scopes_.emplace_back(name, slot);
    return slot;
  }
  void PopLocals(std::size_t count) {
    scopes_.resize(scopes_.size() - count);
    next_slot_ -= static_cast<int>(count);
  }

  NodePtr PlanMacro(const Expr& e) {
    if (e.macro == Macro::kBind) {
      NodePtr init = Plan(*e.target);
      int slot = PushLocal(e.name);
      NodePtr body = Plan(*e.args[0]);
      PopLocals(1);
      return MakeBind(slot, std::move(init), std::move(body));
    }
    NodePtr range = Plan(*e.target);
    if (e.macro == Macro::kOptMap || e.macro == Macro::kOptFlatMap) {
      int slot = PushLocal(e.name);
      NodePtr step = Plan(*e.args[0]);
      PopLocals(1);
      return MakeOptionalMap(slot, std::move(range), std::move(step),
                             e.macro == Macro::kOptFlatMap);
    }
    ComprehensionSpec spec;
    spec.macro = e.macro;
    spec.range = std::move(range);
    std::size_t locals = 1;
    spec.slot = PushLocal(e.name);
    if (!e.name2.empty()) {
      spec.slot2 = PushLocal(e.name2);
      ++locals;
    }
    if (e.args.size() == 2) {
      spec.filter = Plan(*e.args[0]);
      spec.step = Plan(*e.args[1]);
    } else {
      spec.step = Plan(*e.args[0]);
    }
    PopLocals(locals);
    return MakeComprehension(std::move(spec));
  }

  std::string* error_;
  std::vector<std::pair<std::string, int>> scopes_;
  int next_slot_ = 0;
  int max_slots_ = 0;
};

}  // namespace

bool BuildPlan(const Expr& expr, Plan* plan, std::string* error) {
  error->clear();
  Planner planner(error);
  plan->root = planner.Plan(expr);
  plan->slot_count = planner.slot_count();
  return error->empty();
}

}  // namespace dra::cel
