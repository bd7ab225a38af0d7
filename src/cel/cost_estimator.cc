#include "cel/cost_estimator.h"

#include <algorithm>
#include <cmath>
#include <string>
#include <vector>

#include "cel/utf8.h"

namespace dra::cel {
namespace {

constexpr std::uint64_t kUnbounded = UINT64_MAX;

// Size bounds of the device declaration, from the API's limits as
// k8s.io/dynamic-resource-allocation cel/compile.go declares them; an attribute value is
// bounded by 64, the larger of the string length limit (64) and the attribute values per
// device (48). includes() is estimated at that 48.
constexpr std::uint64_t kDriverSize = 63;
constexpr std::uint64_t kMapEntries = 32;
constexpr std::uint64_t kDomainKeySize = 63;
constexpr std::uint64_t kIdKeySize = 32;
constexpr std::uint64_t kAttributeValueSize = 64;
constexpr std::uint64_t kIncludesCost = 48;

std::uint64_t Add(std::uint64_t a, std::uint64_t b) {
  return a > kUnbounded - b ? kUnbounded : a + b;
}
std::uint64_t Mul(std::uint64_t a, std::uint64_t b) {
  if (a == 0 || b == 0) return 0;
  return a > kUnbounded / b ? kUnbounded : a * b;
}
// cel-go's multiplication by a cost factor: in doubles, saturating at 2^64.
std::uint64_t Factor(std::uint64_t size, double f) {
  const double r = static_cast<double>(size) * f;
  if (r >= 18446744073709551616.0) return kUnbounded;
  return static_cast<std::uint64_t>(std::ceil(r));
}

// What the estimator knows about a value besides its cost.
struct Estimate {
  enum class Shape : std::uint8_t { kOther, kDevice, kOuterMap, kDomainMap, kAttributeValue };
  std::uint64_t cost = 0;
  std::uint64_t size = kUnbounded;          // string length / list or map entries
  std::uint64_t element_size = kUnbounded;  // size of elements (list) or keys (map)
  Shape shape = Shape::kOther;
  bool empty_literal = false;
  // Under device.capacity rather than device.attributes: the DRA size
  // estimator (k8s.io/dynamic-resource-allocation/cel) knows the sizes of
  // attribute values but not of capacity values (Quantities).
  bool capacity = false;
};

class Estimator {
 public:
  explicit Estimator(const CheckResult& checked) : checked_(checked) {}

  Estimate Visit(const Expr& e) {
    switch (e.kind) {
      case ExprKind::kConstant: {
        Estimate r;
        r.size = (e.constant.kind == Constant::Kind::kString)
                     ? CountCodePoints(e.constant.string_value)
                     : e.constant.string_value.size();
        r.empty_literal = (e.constant.kind == Constant::Kind::kString ||
                           e.constant.kind == Constant::Kind::kBytes) &&
                          e.constant.string_value.empty();
        return r;
      }
      case ExprKind::kIdent: {
        for (auto it = locals_.rbegin(); it != locals_.rend(); ++it) {
          if (it->first == e.name) {
            Estimate r = it->second;
            r.cost = 1;
            return r;
          }
        }
        Estimate r;
        r.cost = 1;
        if (e.name == "device") r.shape = Estimate::Shape::kDevice;
        return r;
      }
      case ExprKind::kSelect:
        return Select(e);
      case ExprKind::kCall:
        return Call(e);
      case ExprKind::kList: {
        Estimate r;
        r.cost = 10;
        r.size = e.args.size();
        r.element_size = 0;
        for (const ExprPtr& a : e.args) {
          Estimate x = Visit(*a);
          r.cost = Add(r.cost, x.cost);
          r.element_size = std::max(r.element_size, x.size);
        }
        return r;
      }
      case ExprKind::kMap: {
        Estimate r;
        r.cost = 30;
        r.size = e.entries.size();
        r.element_size = 0;
        for (const MapEntry& m : e.entries) {
          Estimate k = Visit(*m.key);
          r.cost = Add(r.cost, Add(k.cost, Visit(*m.value).cost));
          r.element_size = std::max(r.element_size, k.size);
        }
        return r;
      }
      case ExprKind::kStruct: {
        Estimate r;
        r.cost = 40;
        for (const MapEntry& m : e.entries) r.cost = Add(r.cost, Visit(*m.value).cost);
        return r;
      }
      case ExprKind::kMacro:
        return Macro(e);
    }
    return {};
  }

 private:
  bool IsStringLike(const Expr& e) const {
    auto id = static_cast<std::size_t>(e.id);
    if (id >= checked_.types.size() || !checked_.types[id]) return false;
    Type::Kind k = checked_.types[id]->kind;
    return k == Type::Kind::kString || k == Type::Kind::kBytes;
  }

  // The size bound of an equality operand: a literal's own size (1 for
  // scalars), 1 for any scalar-typed value, else what the estimator knows.
  std::uint64_t EqualitySize(const Expr& e, const Estimate& x) const {
    if (e.kind == ExprKind::kConstant) {
      const auto k = e.constant.kind;
      return (k == Constant::Kind::kString || k == Constant::Kind::kBytes) ? x.size : 1;
    }
    auto id = static_cast<std::size_t>(e.id);
    if (id < checked_.types.size() && checked_.types[id] && IsScalar(*checked_.types[id])) {
      return 1;
    }
    return x.size;
  }

  // Both operands have the same Kubernetes type whose equality costs 1.
  bool IsConstantCostEquality(const Expr& a, const Expr& b) const {
    auto ta = static_cast<std::size_t>(a.id);
    auto tb = static_cast<std::size_t>(b.id);
    if (ta >= checked_.types.size() || tb >= checked_.types.size()) return false;
    const auto& x = checked_.types[ta];
    const auto& y = checked_.types[tb];
    if (!x || !y || x->kind != Type::Kind::kOpaque || y->kind != Type::Kind::kOpaque ||
        x->name != y->name) {
      return false;
    }
    return x->name == "kubernetes.Quantity" || x->name == "kubernetes.Semver" ||
           x->name == "net.IP" || x->name == "net.CIDR";
  }

  static bool IsScalar(const Type& t) {
    switch (t.kind) {
      case Type::Kind::kBool:
      case Type::Kind::kInt:
      case Type::Kind::kUint:
      case Type::Kind::kDouble:
      case Type::Kind::kTimestamp:
      case Type::Kind::kDuration:
        return true;
      case Type::Kind::kOptional:
        return !t.params.empty() && t.params[0] && IsScalar(*t.params[0]);
      default:
        return false;
    }
  }

  // The value reached by selecting or indexing into `operand`.
  static Estimate Member(const Estimate& operand, std::string_view field) {
    Estimate r;
    switch (operand.shape) {
      case Estimate::Shape::kDevice:
        if (field == "driver") {
          r.size = kDriverSize;
        } else if (field == "attributes" || field == "capacity") {
          r.shape = Estimate::Shape::kOuterMap;
          r.size = kMapEntries;
          r.element_size = kDomainKeySize;
          r.capacity = field == "capacity";
        }
        break;
      case Estimate::Shape::kOuterMap:
        r.shape = Estimate::Shape::kDomainMap;
        r.size = kMapEntries;
        r.element_size = kIdKeySize;
        r.capacity = operand.capacity;
        break;
      case Estimate::Shape::kDomainMap:
        if (operand.capacity) break;  // a Quantity of unknown size
        // An attribute value is bounded as a whole; its elements (of a list
        // value) are not: upstream's size estimator knows no size below
        // the attribute type.
        r.shape = Estimate::Shape::kAttributeValue;
        r.size = kAttributeValueSize;
        break;
      default:
        break;
    }
    return r;
  }

  Estimate Select(const Expr& e) {
    Estimate operand = Visit(*e.target);
    if (e.test_only) {
      Estimate r;
      r.cost = operand.cost;
      return r;
    }
    Estimate r = Member(operand, e.name);
    r.cost = Add(operand.cost, 1);
    return r;
  }

  Estimate Call(const Expr& e) {
    std::vector<Estimate> args;
    std::vector<const Expr*> exprs;
    if (e.target) {
      args.push_back(Visit(*e.target));
      exprs.push_back(e.target.get());
    }
    for (const ExprPtr& a : e.args) {
      args.push_back(Visit(*a));
      exprs.push_back(a.get());
    }
    std::uint64_t args_cost = 0;
    for (const Estimate& a : args) args_cost = Add(args_cost, a.cost);
    const std::string& n = e.name;
    Estimate r;
    std::uint64_t call = 1;
    if (n == "_&&_" || n == "_||_") {
      call = 0;
    } else if (n == "_?_:_") {
      r.cost = Add(args[0].cost, std::max(args[1].cost, args[2].cost));
      return r;
    } else if (n == "_[_]" || n == "_[?_]") {
      r = Member(args[0], "");
    } else if (n == "_==_" && IsConstantCostEquality(*exprs[0], *exprs[1])) {
      // Kubernetes' estimator (k8s.io/apiserver/pkg/cel/library/cost.go)
      // prices `==` of two Quantities, Semvers, IPs or CIDRs at 1. It is
      // asked for `_==_` only: `!=` of the same values takes cel-go's rule
      // below, which knows no size for them (unbounded).
      call = 1;
    } else if (n == "_==_" || n == "_!=_") {
      // Equality of any type costs a tenth of the smaller operand's size
      // bound: 1 for scalars, unbounded when neither size is known.
      std::uint64_t smaller =
          std::min(EqualitySize(*exprs[0], args[0]), EqualitySize(*exprs[1], args[1]));
      call = Factor(smaller, 0.1);
    } else if (n == "_<_" || n == "_<=_" || n == "_>_" || n == "_>=_") {
      if (IsStringLike(*exprs[0]) || IsStringLike(*exprs[1])) {
        if (args[0].empty_literal || args[1].empty_literal) {
          call = 0;
        } else {
          call = std::max<std::uint64_t>(1, Factor(std::min(args[0].size, args[1].size), 0.1));
        }
      }
    } else if (n == "@in") {
      call = args[1].shape == Estimate::Shape::kOther ||
                     args[1].shape == Estimate::Shape::kAttributeValue
                 ? (IsMapType(*exprs[1]) ? 1 : args[1].size)
                 : 1;
    } else if (n == "startsWith" || n == "endsWith") {
      call = Factor(args[1].size, 0.1);
    } else if (n == "contains") {
      call = Mul(Factor(args[0].size, 0.1), Factor(args[1].size, 0.1));
    } else if (n == "matches" || n == "find" || n == "findAll") {
      call = Mul(Factor(Add(args[0].size, 1), 0.1), Factor(args[1].size, 0.25));
    } else if (n == "_+_" && IsStringLike(*exprs[0])) {
      call = Factor(Add(args[0].size, args[1].size), 0.1);
      r.size = Add(args[0].size, args[1].size);
    } else if (n == "quantity" || n == "isQuantity" || n == "semver" || n == "isSemver" ||
               n == "url" || n == "cidr" || n == "isIP" || n == "isCIDR" ||
               (n == "ip" && !e.target)) {
      call = Factor(args[0].size, 0.1);
    } else if (n == "ip.isCanonical") {
      call = Mul(Factor(args[0].size, 0.1), 2);
    } else if (n == "lowerAscii" || n == "upperAscii" || n == "substring" || n == "trim") {
      call = Factor(args[0].size, 0.1);
      r.size = args[0].size;
    } else if (n == "replace" || n == "split") {
      call = Factor(args[0].size, 0.2);
    } else if (n == "includes") {
      call = kIncludesCost;
    } else if (e.target && (n == "isSorted" || n == "sum" || n == "min" || n == "max" ||
                            ((n == "indexOf" || n == "lastIndexOf") && !IsStringLike(*exprs[0])))) {
      call = args[0].size;
    }
    r.cost = Add(args_cost, call);
    return r;
  }

  bool IsMapType(const Expr& e) const {
    auto id = static_cast<std::size_t>(e.id);
    return id < checked_.types.size() && checked_.types[id] &&
           checked_.types[id]->kind == Type::Kind::kMap;
  }

  Estimate Macro(const Expr& e) {
    Estimate range = Visit(*e.target);
    if (e.macro == Macro::kBind) {
      locals_.emplace_back(e.name, range);
      Estimate body = Visit(*e.args[0]);
      locals_.pop_back();
      Estimate r = body;
      r.cost = Add(Add(10, range.cost), body.cost);
      return r;
    }
    Estimate element;
    element.size = range.element_size;
    if (range.shape == Estimate::Shape::kOuterMap) element.size = kDomainKeySize;
    locals_.emplace_back(e.name, element);
    if (!e.name2.empty()) locals_.emplace_back(e.name2, Estimate{});
    std::uint64_t filter = e.args.size() == 2 ? Visit(*e.args[0]).cost : 0;
    std::uint64_t step = Visit(*e.args.back()).cost;
    locals_.resize(locals_.size() - (e.name2.empty() ? 1 : 2));
    std::uint64_t init = 0, condition = 0, result = 1, per_step = 0;
    switch (e.macro) {
      case Macro::kAll:
      case Macro::kAll2:
        condition = 2;
        per_step = Add(1, step);
        break;
      case Macro::kExists:
      case Macro::kExists2:
        condition = 3;
        per_step = Add(1, step);
        break;
      case Macro::kExistsOne:
      case Macro::kExistsOne2:
        per_step = Add(step, 2);
        result = 2;
        break;
      case Macro::kFilter:
        init = 10;
        per_step = Add(step, 13);
        break;
      case Macro::kOptMap:
      case Macro::kOptFlatMap:
        init = 0;
        per_step = step;
        break;
      default:  // map and the transforms
        init = 10;
        per_step = Add(Add(step, 12), filter);
        break;
    }
    std::uint64_t iterations =
        (e.macro == Macro::kOptMap || e.macro == Macro::kOptFlatMap) ? 1 : range.size;
    Estimate r;
    r.cost = Add(Add(Add(range.cost, init), result), Mul(iterations, Add(condition, per_step)));
    r.size = range.size;
    if (e.macro == Macro::kSortBy) {
      // Upstream's expansion cel.bind(r, range, r.@sortByAssociatedKeys(r.map(x, key))) adds
      // the bind's empty list (10), two reads of r and the call, costed as sort() is.
      r.cost = Add(r.cost, 13);
      r.element_size = element.size;
    }
    return r;
  }

  const CheckResult& checked_;
  std::vector<std::pair<std::string, Estimate>> locals_;
};

}  // namespace

std::uint64_t EstimateCost(const Expr& expr, const CheckResult& checked) {
  Estimator estimator(checked);
  return estimator.Visit(expr).cost;
}

}  // namespace dra::cel
