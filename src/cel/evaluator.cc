// Node implementations: the evaluation semantics of CEL constructs.
#include <algorithm>
#include <array>

#include "cel/plan.h"

namespace dra::cel {
namespace {

using K = ValueKind;

// The error of an aborted evaluation (cost limit or interruption); the
// program reports the reason from the context.
Value CostExceeded() { return Value::Error(std::string(kCostLimitExceeded)); }

class ConstantNode final : public Node {
 public:
  ConstantNode(Value v, std::uint64_t cost) : value_(std::move(v)), cost_(cost) {}
  Value Eval(EvalContext& ctx) const override {
    if (cost_ != 0 && !ctx.Charge(cost_)) return CostExceeded();
    // The plan owns the data; the evaluation only borrows it.
    return ctx.folding ? value_ : value_.Borrow();
  }
  const Value* constant() const override { return &value_; }

 private:
  Value value_;
  std::uint64_t cost_;
};

class DeviceNode final : public Node {
 public:
  Value Eval(EvalContext& ctx) const override {
    if (!ctx.Charge(1)) return CostExceeded();
    return Value::Device(ctx.device);
  }
};

class SlotNode final : public Node {
 public:
  explicit SlotNode(int slot) : slot_(slot) {}
  Value Eval(EvalContext& ctx) const override {
    if (!ctx.Charge(1)) return CostExceeded();
    Slot& s = ctx.slots[slot_];
    if (s.lazy_init != nullptr) {
      const Node* init = s.lazy_init;
      s.lazy_init = nullptr;
      s.value = init->Eval(ctx);
    }
    return s.value;
  }

 private:
  int slot_;
};

// Field selection on the device, maps and optionals; has() and .? forms.
Value SelectField(EvalContext& ctx, const Value& operand, const std::string& field, bool test_only,
                  bool optional) {
  if (operand.is_error()) return operand;
  switch (operand.kind()) {
    case K::kDevice: {
      const DeviceView& d = operand.device();
      if (test_only) return Value::Bool(true);
      Value v;
      if (field == "driver") {
        v = Value::BorrowedString(d.driver());
      } else if (field == "attributes") {
        v = Value::DeviceMap(&d, false);
      } else if (field == "capacity") {
        v = Value::DeviceMap(&d, true);
      } else if (field == "allowMultipleAllocations") {
        v = Value::Bool(d.allow_multiple_allocations());
      } else {
        return Value::Error("no such field: " + field);
      }
      return optional ? Value::OptionalOf(v) : v;
    }
    case K::kMap: {
      bool outer = operand.rep() == ValueRep::kDeviceAttributes ||
                   operand.rep() == ValueRep::kDeviceCapacity;
      if (outer) {
        // Every domain "exists" for selection and presence tests; unknown
        // ones read as an empty map, as with upstream's map wrapper
        // (newStringInterfaceMapWithDefault in k8s.io/dynamic-resource-allocation
        // cel/compile.go). The field name lives in the plan, which outlives the
        // evaluation.
        if (test_only) return Value::Bool(true);
        Value v = Value::DomainMap(&operand.device(), operand.rep() == ValueRep::kDeviceCapacity,
                                   field, nullptr);
        return optional ? Value::OptionalOf(v) : v;
      }
      Value out;
      bool found = MapFind(operand, Value::BorrowedString(field), &out);
      if (test_only) return Value::Bool(found);
      if (optional) return found ? Value::OptionalOf(out) : Value::OptionalNone();
      if (!found) return Value::Error("no such key: " + field);
      return out;
    }
    case K::kOptional:
      // Selection on an optional value chains: the result is optional too.
      if (!operand.has_value()) return test_only ? Value::Bool(false) : Value::OptionalNone();
      return SelectField(ctx, operand.optional_value(), field, test_only, true);
    default:
      break;
  }
  return Value::Error("no such overload");
}

class SelectNode final : public Node {
 public:
  SelectNode(NodePtr operand, std::string field, bool test_only, bool optional)
      : operand_(std::move(operand)),
        field_(std::move(field)),
        test_only_(test_only),
        optional_(optional) {}
  Value Eval(EvalContext& ctx) const override {
    Value operand = operand_->Eval(ctx);
    if (ctx.aborted) return CostExceeded();
    // Presence tests are free; selections cost 1.
    if (!test_only_ && !ctx.Charge(1)) return CostExceeded();
    return SelectField(ctx, operand, field_, test_only_, optional_);
  }

 private:
  NodePtr operand_;
  std::string field_;
  bool test_only_;
  bool optional_;
};

class AttributeLookupNode final : public Node {
 public:
  AttributeLookupNode(std::string domain, std::string id, bool capacity, std::uint64_t cost)
      : domain_(std::move(domain)), id_(std::move(id)), capacity_(capacity), cost_(cost) {}
  Value Eval(EvalContext& ctx) const override {
    if (!ctx.Charge(cost_)) return CostExceeded();
    if (capacity_) {
      const api::Quantity* q = ctx.device->FindCapacity(domain_, id_);
      if (q == nullptr) return Value::Error("no such key: " + id_);
      return Value::BorrowedQuantity(q);
    }
    const AttributeValueView* a = ctx.device->FindAttribute(domain_, id_);
    if (a == nullptr) return Value::Error("no such key: " + id_);
    return AttributeToValue(*a);
  }

 private:
  std::string domain_;
  std::string id_;
  bool capacity_;
  std::uint64_t cost_;
};

class DomainMapNode final : public Node {
 public:
  DomainMapNode(std::string domain, bool capacity, std::uint64_t cost)
      : domain_(std::move(domain)), capacity_(capacity), cost_(cost) {}
  Value Eval(EvalContext& ctx) const override {
    if (!ctx.Charge(cost_)) return CostExceeded();
    return Value::DomainMap(ctx.device, capacity_, domain_, nullptr);
  }

 private:
  std::string domain_;
  bool capacity_;
  std::uint64_t cost_;
};

// Operands live in a small fixed array: no allocation for calls with up to
// four operands.
constexpr std::size_t kInlineArgs = 4;

class CallNode final : public Node {
 public:
  CallNode(const Function* fn, std::vector<NodePtr> args) : fn_(fn), args_(std::move(args)) {}
  Value Eval(EvalContext& ctx) const override {
    std::array<Value, kInlineArgs> inline_args;
    std::vector<Value> heap_args;
    Value* values = inline_args.data();
    if (args_.size() > kInlineArgs) {
      heap_args.resize(args_.size());
      values = heap_args.data();
    }
    for (std::size_t i = 0; i < args_.size(); ++i) {
      values[i] = args_[i]->Eval(ctx);
      if (ctx.aborted) return CostExceeded();
      if (values[i].is_error()) return values[i];
    }
    std::uint64_t cost = fn_->cost ? fn_->cost(values, args_.size()) : 1;
    if (!ctx.Charge(cost)) return CostExceeded();
    return fn_->impl(ctx, values, args_.size());
  }

 private:
  const Function* fn_;
  std::vector<NodePtr> args_;
};

// The common case of one or two operands, without the operand array.
class BinaryCallNode final : public Node {
 public:
  BinaryCallNode(const Function* fn, NodePtr left, NodePtr right)
      : fn_(fn), left_(std::move(left)), right_(std::move(right)) {}
  Value Eval(EvalContext& ctx) const override {
    // Both operands are evaluated before errors are looked at, as upstream
    // does; initializing in place (rather than assigning) also keeps the
    // hot path free of store-forwarding stalls.
    Value values[2] = {left_->Eval(ctx), right_->Eval(ctx)};
    if (ctx.aborted) return CostExceeded();
    if (values[0].is_error()) return values[0];
    if (values[1].is_error()) return values[1];
    if (!ctx.Charge(fn_->cost ? fn_->cost(values, 2) : 1)) return CostExceeded();
    return fn_->impl(ctx, values, 2);
  }

 private:
  const Function* fn_;
  NodePtr left_;
  NodePtr right_;
};

class UnaryCallNode final : public Node {
 public:
  UnaryCallNode(const Function* fn, NodePtr operand) : fn_(fn), operand_(std::move(operand)) {}
  Value Eval(EvalContext& ctx) const override {
    Value v = operand_->Eval(ctx);
    if (ctx.aborted) return CostExceeded();
    if (v.is_error()) return v;
    if (!ctx.Charge(fn_->cost ? fn_->cost(&v, 1) : 1)) return CostExceeded();
    return fn_->impl(ctx, &v, 1);
  }

 private:
  const Function* fn_;
  NodePtr operand_;
};

// && and || are commutative over errors: a deciding operand wins over an
// error on the other side (cel-spec doc/langdef.md). Evaluation is left to right and
// stops once the left side decides.
template <bool kIsAnd>
class LogicalNode final : public Node {
 public:
  LogicalNode(NodePtr left, NodePtr right) : left_(std::move(left)), right_(std::move(right)) {}
  Value Eval(EvalContext& ctx) const override {
    constexpr bool kDecides = !kIsAnd;  // false decides &&, true decides ||
    Value l = left_->Eval(ctx);
    if (ctx.aborted) return CostExceeded();
    if (l.kind() == K::kBool && l.bool_value() == kDecides) return l;
    Value r = right_->Eval(ctx);
    if (ctx.aborted) return CostExceeded();
    if (r.kind() == K::kBool && r.bool_value() == kDecides) return r;
    if (l.is_error()) return l;
    if (r.is_error()) return r;
    if (l.kind() != K::kBool || r.kind() != K::kBool) return NoSuchOverload();
    return Value::Bool(!kDecides);
  }

 private:
  NodePtr left_;
  NodePtr right_;
};

class ConditionalNode final : public Node {
 public:
  ConditionalNode(NodePtr c, NodePtr t, NodePtr f)
      : cond_(std::move(c)), then_(std::move(t)), else_(std::move(f)) {}
  Value Eval(EvalContext& ctx) const override {
    Value c = cond_->Eval(ctx);
    if (ctx.aborted) return CostExceeded();
    if (c.is_error()) return c;
    if (c.kind() != K::kBool) return NoSuchOverload();
    return c.bool_value() ? then_->Eval(ctx) : else_->Eval(ctx);
  }

 private:
  NodePtr cond_;
  NodePtr then_;
  NodePtr else_;
};

class ListNode final : public Node {
 public:
  ListNode(std::vector<NodePtr> elements, std::vector<bool> optional)
      : elements_(std::move(elements)), optional_(std::move(optional)) {}
  Value Eval(EvalContext& ctx) const override {
    if (!ctx.Charge(10)) return CostExceeded();
    std::vector<Value> out;
    out.reserve(elements_.size());
    for (std::size_t i = 0; i < elements_.size(); ++i) {
      Value v = elements_[i]->Eval(ctx);
      if (ctx.aborted) return CostExceeded();
      if (v.is_error()) return v;
      if (optional_[i]) {
        if (v.kind() != K::kOptional) return NoSuchOverload();
        if (!v.has_value()) continue;
        v = v.optional_value();
      }
      out.push_back(std::move(v));
    }
    return Value::List(std::move(out));
  }

 private:
  std::vector<NodePtr> elements_;
  std::vector<bool> optional_;
};

class MapNode final : public Node {
 public:
  MapNode(std::vector<NodePtr> keys, std::vector<NodePtr> values, std::vector<bool> optional)
      : keys_(std::move(keys)), values_(std::move(values)), optional_(std::move(optional)) {}
  Value Eval(EvalContext& ctx) const override {
    if (!ctx.Charge(30)) return CostExceeded();
    std::vector<std::pair<Value, Value>> entries;
    for (std::size_t i = 0; i < keys_.size(); ++i) {
      Value k = keys_[i]->Eval(ctx);
      if (ctx.aborted) return CostExceeded();
      if (k.is_error()) return k;
      Value v = values_[i]->Eval(ctx);
      if (ctx.aborted) return CostExceeded();
      if (v.is_error()) return v;
      if (k.kind() != K::kString && k.kind() != K::kInt && k.kind() != K::kUint &&
          k.kind() != K::kBool) {
        return Value::Error("unsupported key type");
      }
      if (optional_[i]) {
        if (v.kind() != K::kOptional) return NoSuchOverload();
        if (!v.has_value()) continue;
        v = v.optional_value();
      }
      for (const auto& e : entries) {
        if (Equal(e.first, k)) return Value::Error("Failed with repeated key");
      }
      entries.emplace_back(std::move(k), std::move(v));
    }
    return Value::Map(std::move(entries));
  }

 private:
  std::vector<NodePtr> keys_;
  std::vector<NodePtr> values_;
  std::vector<bool> optional_;
};

class OptionalIndexNode final : public Node {
 public:
  OptionalIndexNode(NodePtr operand, NodePtr index)
      : operand_(std::move(operand)), index_(std::move(index)) {}
  Value Eval(EvalContext& ctx) const override {
    Value c = operand_->Eval(ctx);
    if (ctx.aborted) return CostExceeded();
    if (c.is_error()) return c;
    Value k = index_->Eval(ctx);
    if (ctx.aborted) return CostExceeded();
    if (k.is_error()) return k;
    if (!ctx.Charge(1)) return CostExceeded();
    if (c.kind() == K::kOptional) {
      if (!c.has_value()) return c;
      c = c.optional_value();
    }
    if (c.kind() == K::kMap) {
      if (c.rep() == ValueRep::kDeviceAttributes || c.rep() == ValueRep::kDeviceCapacity) {
        if (k.kind() != K::kString) return Value::OptionalNone();
        return Value::OptionalOf(Value::DomainMap(&c.device(), c.rep() == ValueRep::kDeviceCapacity,
                                                  k.str(), k.owner()));
      }
      Value out;
      return MapFind(c, k, &out) ? Value::OptionalOf(out) : Value::OptionalNone();
    }
    if (c.kind() == K::kList) {
      std::int64_t i;
      if (k.kind() == K::kInt) {
        i = k.int_value();
      } else if (k.kind() == K::kUint && k.uint_value() <= INT64_MAX) {
        i = static_cast<std::int64_t>(k.uint_value());
      } else {
        return NoSuchOverload();
      }
      if (i < 0 || static_cast<std::size_t>(i) >= ListSize(c)) return Value::OptionalNone();
      return Value::OptionalOf(ListAt(c, static_cast<std::size_t>(i)));
    }
    return NoSuchOverload();
  }

 private:
  NodePtr operand_;
  NodePtr index_;
};

class OptionalOrNode final : public Node {
 public:
  OptionalOrNode(NodePtr optional, NodePtr alternative, bool or_value)
      : optional_(std::move(optional)), alternative_(std::move(alternative)), or_value_(or_value) {}
  Value Eval(EvalContext& ctx) const override {
    Value o = optional_->Eval(ctx);
    if (ctx.aborted) return CostExceeded();
    if (o.is_error()) return o;
    if (o.kind() != K::kOptional) return NoSuchOverload();
    if (!ctx.Charge(1)) return CostExceeded();
    if (o.has_value()) return or_value_ ? o.optional_value() : o;
    Value alt = alternative_->Eval(ctx);
    if (!or_value_ && !alt.is_error() && alt.kind() != K::kOptional) return NoSuchOverload();
    return alt;
  }

 private:
  NodePtr optional_;
  NodePtr alternative_;
  bool or_value_;
};

// Iteration over a list (index, element) or a map (key, value).
class Iteration {
 public:
  explicit Iteration(const Value& range) : range_(range) {
    if (range.kind() == K::kList) {
      size_ = ListSize(range);
    } else {
      MapForEachKey(range, [&](const Value& k) {
        keys_.push_back(k);
        return true;
      });
      size_ = keys_.size();
    }
  }
  std::size_t size() const { return size_; }
  // First variable: the element (one-variable list form), the index
  // (two-variable list form) or the key (maps).
  void Bind(EvalContext& ctx, std::size_t i, int slot, int slot2) const {
    if (range_.kind() == K::kList) {
      if (slot2 < 0) {
        ctx.slots[slot].value = ListAt(range_, i);
      } else {
        ctx.slots[slot].value = Value::Int(static_cast<std::int64_t>(i));
        ctx.slots[slot2].value = ListAt(range_, i);
      }
      return;
    }
    ctx.slots[slot].value = keys_[i];
    if (slot2 >= 0) {
      Value v;
      MapFind(range_, keys_[i], &v);
      ctx.slots[slot2].value = v;
    }
  }
  bool is_list() const { return range_.kind() == K::kList; }
  Value element(std::size_t i) const { return is_list() ? ListAt(range_, i) : keys_[i]; }

 private:
  const Value& range_;
  std::vector<Value> keys_;
  std::size_t size_ = 0;
};

class ComprehensionNode final : public Node {
 public:
  explicit ComprehensionNode(ComprehensionSpec spec) : s_(std::move(spec)) {}

  Value Eval(EvalContext& ctx) const override {
    Value range = s_.range->Eval(ctx);
    if (ctx.aborted) return CostExceeded();
    if (range.is_error()) return range;
    if (range.kind() != K::kList && range.kind() != K::kMap) {
      return Value::Error("got '" + std::string(GoTypeName(range)) + "', expected iterable type");
    }
    Iteration it(range);
    switch (s_.macro) {
      case Macro::kAll:
      case Macro::kAll2:
        return Quantifier(ctx, it, /*want=*/false, /*condition_cost=*/2);
      case Macro::kExists:
      case Macro::kExists2:
        return Quantifier(ctx, it, /*want=*/true, /*condition_cost=*/3);
      case Macro::kExistsOne:
      case Macro::kExistsOne2:
        return ExistsOne(ctx, it);
      case Macro::kTransformMap:
      case Macro::kTransformMapEntry:
        return TransformMap(ctx, it);
      case Macro::kSortBy:
        return SortBy(ctx, it, range);
      default:
        return Collect(ctx, it);
    }
  }

 private:
  // all (want=false) / exists (want=true): stops at the first deciding
  // predicate; otherwise an error from any element is the result.
  Value Quantifier(EvalContext& ctx, const Iteration& it, bool want,
                   std::uint64_t condition_cost) const {
    Value first_error;
    for (std::size_t i = 0; i < it.size(); ++i) {
      if (i % kInterruptCheckInterval == 0 && ctx.Interrupted()) return CostExceeded();
      if (!ctx.Charge(condition_cost + 1)) return CostExceeded();
      it.Bind(ctx, i, s_.slot, s_.slot2);
      Value p = s_.step->Eval(ctx);
      if (ctx.aborted) return CostExceeded();
      if (p.kind() == K::kBool) {
        if (p.bool_value() == want) return Value::Bool(want);
      } else if (!first_error.is_error()) {
        first_error = p.is_error() ? p : NoSuchOverload();
      }
    }
    if (!ctx.Charge(1)) return CostExceeded();
    if (first_error.is_error()) return first_error;
    return Value::Bool(!want);
  }

  Value ExistsOne(EvalContext& ctx, const Iteration& it) const {
    std::int64_t count = 0;
    for (std::size_t i = 0; i < it.size(); ++i) {
      if (i % kInterruptCheckInterval == 0 && ctx.Interrupted()) return CostExceeded();
      it.Bind(ctx, i, s_.slot, s_.slot2);
      Value p = s_.step->Eval(ctx);
      if (ctx.aborted) return CostExceeded();
      if (p.is_error()) return p;
      if (p.kind() != K::kBool) return NoSuchOverload();
      if (!ctx.Charge(p.bool_value() ? 2 : 1)) return CostExceeded();
      if (p.bool_value()) ++count;
    }
    if (!ctx.Charge(2)) return CostExceeded();
    return Value::Bool(count == 1);
  }

  // Evaluates the optional filter; sets *keep.
  bool Filter(EvalContext& ctx, bool* keep, Value* error) const {
    *keep = true;
    if (!s_.filter) return true;
    Value f = s_.filter->Eval(ctx);
    if (ctx.aborted) {
      *error = CostExceeded();
      return false;
    }
    if (f.is_error() || f.kind() != K::kBool) {
      *error = f.is_error() ? f : NoSuchOverload();
      return false;
    }
    *keep = f.bool_value();
    return true;
  }

  // map, filter, transformList: a list result.
  Value Collect(EvalContext& ctx, const Iteration& it) const {
    if (!ctx.Charge(10)) return CostExceeded();  // the accumulator's empty list
    std::vector<Value> out;
    for (std::size_t i = 0; i < it.size(); ++i) {
      if (i % kInterruptCheckInterval == 0 && ctx.Interrupted()) return CostExceeded();
      it.Bind(ctx, i, s_.slot, s_.slot2);
      if (s_.macro == Macro::kFilter) {
        Value p = s_.step->Eval(ctx);
        if (ctx.aborted) return CostExceeded();
        if (p.is_error()) return p;
        if (p.kind() != K::kBool) return NoSuchOverload();
        if (!ctx.Charge(p.bool_value() ? 13 : 1)) return CostExceeded();
        if (p.bool_value()) out.push_back(it.element(i));
        continue;
      }
      bool keep;
      Value error;
      if (!Filter(ctx, &keep, &error)) return error;
      if (!keep) continue;
      Value t = s_.step->Eval(ctx);
      if (ctx.aborted) return CostExceeded();
      if (t.is_error()) return t;
      if (!ctx.Charge(12)) return CostExceeded();
      out.push_back(std::move(t));
    }
    if (!ctx.Charge(1)) return CostExceeded();
    return Value::List(std::move(out));
  }

  // The kinds whose values upstream's lists ext can order.
  static bool Orderable(K kind) {
    switch (kind) {
      case K::kBool:
      case K::kInt:
      case K::kUint:
      case K::kDouble:
      case K::kString:
      case K::kBytes:
      case K::kTimestamp:
      case K::kDuration:
        return true;
      default:
        return false;
    }
  }

  // range.sortBy(x, key), charged as upstream's expansion
  // cel.bind(r, range, r.@sortByAssociatedKeys(r.map(x, key))): the bind's
  // empty-list range and two reads of the bound variable, the map, then the
  // call. Stable: elements with equal keys keep their order.
  Value SortBy(EvalContext& ctx, const Iteration& it, const Value& range) const {
    if (!ctx.Charge(12)) return CostExceeded();
    Value keys = Collect(ctx, it);
    if (ctx.aborted) return CostExceeded();
    if (keys.is_error()) return keys;
    if (!ctx.Charge(1)) return CostExceeded();
    if (!it.is_list()) return NoSuchOverload();
    std::size_t n = ListSize(keys);
    if (n == 0) return range;
    std::vector<Value> key_values;
    key_values.reserve(n);
    for (std::size_t i = 0; i < n; ++i) key_values.push_back(ListAt(keys, i));
    if (!Orderable(key_values[0].kind())) return Value::Error("list elements must be comparable");
    for (const Value& k : key_values) {
      if (k.kind() != key_values[0].kind()) {
        return Value::Error("list elements must have the same type");
      }
    }
    std::vector<std::size_t> order(n);
    for (std::size_t i = 0; i < n; ++i) order[i] = i;
    std::stable_sort(order.begin(), order.end(), [&](std::size_t x, std::size_t y) {
      int c = 0;
      CompareValues(key_values[x], key_values[y], &c);
      return c < 0;
    });
    std::vector<Value> out;
    out.reserve(n);
    for (std::size_t i : order) out.push_back(it.element(i));
    return Value::List(std::move(out));
  }

  Value TransformMap(EvalContext& ctx, const Iteration& it) const {
    if (!ctx.Charge(30)) return CostExceeded();
    std::vector<std::pair<Value, Value>> out;
    for (std::size_t i = 0; i < it.size(); ++i) {
      if (i % kInterruptCheckInterval == 0 && ctx.Interrupted()) return CostExceeded();
      it.Bind(ctx, i, s_.slot, s_.slot2);
      bool keep;
      Value error;
      if (!Filter(ctx, &keep, &error)) return error;
      if (!keep) continue;
      Value t = s_.step->Eval(ctx);
      if (ctx.aborted) return CostExceeded();
      if (t.is_error()) return t;
      if (!ctx.Charge(2)) return CostExceeded();
      if (s_.macro == Macro::kTransformMap) {
        out.emplace_back(ctx.slots[s_.slot].value, std::move(t));
        continue;
      }
      // transformMapEntry: the step yields a one-entry map to merge.
      if (t.kind() != K::kMap) return NoSuchOverload();
      bool duplicate = false;
      MapForEachKey(t, [&](const Value& k) {
        for (const auto& e : out) duplicate = duplicate || Equal(e.first, k);
        Value v;
        MapFind(t, k, &v);
        out.emplace_back(k, v);
        return !duplicate;
      });
      if (duplicate) return Value::Error("insert failed: key already exists");
    }
    return Value::Map(std::move(out));
  }

  ComprehensionSpec s_;
};

class BindNode final : public Node {
 public:
  BindNode(int slot, NodePtr init, NodePtr body)
      : slot_(slot), init_(std::move(init)), body_(std::move(body)) {}
  Value Eval(EvalContext& ctx) const override {
    // Upstream charges the empty-list range of the expansion.
    if (!ctx.Charge(10)) return CostExceeded();
    Slot& s = ctx.slots[slot_];
    s.lazy_init = init_.get();
    Value result = body_->Eval(ctx);
    s.lazy_init = nullptr;
    return result;
  }

 private:
  int slot_;
  NodePtr init_;
  NodePtr body_;
};

// x.optMap(v, e) / x.optFlatMap(v, e).
class OptionalMapNode final : public Node {
 public:
  OptionalMapNode(int slot, NodePtr optional, NodePtr step, bool flat)
      : slot_(slot), optional_(std::move(optional)), step_(std::move(step)), flat_(flat) {}
  Value Eval(EvalContext& ctx) const override {
    Value o = optional_->Eval(ctx);
    if (ctx.aborted) return CostExceeded();
    if (o.is_error()) return o;
    if (o.kind() != K::kOptional) return NoSuchOverload();
    if (!o.has_value()) return o;
    ctx.slots[slot_].value = o.optional_value();
    Value r = step_->Eval(ctx);
    if (r.is_error() || flat_) {
      if (flat_ && !r.is_error() && r.kind() != K::kOptional) return NoSuchOverload();
      return r;
    }
    return Value::OptionalOf(std::move(r));
  }

 private:
  int slot_;
  NodePtr optional_;
  NodePtr step_;
  bool flat_;
};

}  // namespace

NodePtr MakeOptionalMap(int slot, NodePtr optional, NodePtr step, bool flat) {
  return std::make_unique<OptionalMapNode>(slot, std::move(optional), std::move(step), flat);
}

NodePtr MakeConstant(Value v, std::uint64_t cost) {
  return std::make_unique<ConstantNode>(std::move(v), cost);
}
NodePtr MakeDevice() { return std::make_unique<DeviceNode>(); }
NodePtr MakeSlot(int slot) { return std::make_unique<SlotNode>(slot); }
NodePtr MakeSelect(NodePtr operand, std::string field, bool test_only, bool optional) {
  return std::make_unique<SelectNode>(std::move(operand), std::move(field), test_only, optional);
}
NodePtr MakeAttributeLookup(std::string domain, std::string id, bool capacity, std::uint64_t cost) {
  return std::make_unique<AttributeLookupNode>(std::move(domain), std::move(id), capacity, cost);
}
NodePtr MakeDomainMap(std::string domain, bool capacity, std::uint64_t cost) {
  return std::make_unique<DomainMapNode>(std::move(domain), capacity, cost);
}
NodePtr MakeCall(const Function* fn, std::vector<NodePtr> args) {
  if (args.size() == 1) return std::make_unique<UnaryCallNode>(fn, std::move(args[0]));
  if (args.size() == 2) {
    return std::make_unique<BinaryCallNode>(fn, std::move(args[0]), std::move(args[1]));
  }
  return std::make_unique<CallNode>(fn, std::move(args));
}
NodePtr MakeAnd(NodePtr l, NodePtr r) {
  return std::make_unique<LogicalNode<true>>(std::move(l), std::move(r));
}
NodePtr MakeOr(NodePtr l, NodePtr r) {
  return std::make_unique<LogicalNode<false>>(std::move(l), std::move(r));
}
NodePtr MakeConditional(NodePtr c, NodePtr t, NodePtr f) {
  return std::make_unique<ConditionalNode>(std::move(c), std::move(t), std::move(f));
}
NodePtr MakeList(std::vector<NodePtr> elements, std::vector<bool> optional) {
  return std::make_unique<ListNode>(std::move(elements), std::move(optional));
}
NodePtr MakeMap(std::vector<NodePtr> keys, std::vector<NodePtr> values,
                std::vector<bool> optional) {
  return std::make_unique<MapNode>(std::move(keys), std::move(values), std::move(optional));
}
NodePtr MakeOptionalIndex(NodePtr operand, NodePtr index) {
  return std::make_unique<OptionalIndexNode>(std::move(operand), std::move(index));
}
NodePtr MakeOptionalOr(NodePtr optional, NodePtr alternative, bool or_value) {
  return std::make_unique<OptionalOrNode>(std::move(optional), std::move(alternative), or_value);
}
NodePtr MakeComprehension(ComprehensionSpec spec) {
  return std::make_unique<ComprehensionNode>(std::move(spec));
}
NodePtr MakeBind(int slot, NodePtr init, NodePtr body) {
  return std::make_unique<BindNode>(slot, std::move(init), std::move(body));
}

}  // namespace dra::cel
