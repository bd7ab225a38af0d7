#include "dra/cel/program.h"

#include <array>
#include <vector>

#include "cel/checker.h"
#include "cel/cost_estimator.h"
#include "cel/parser.h"
#include "cel/planner.h"

namespace dra::cel {
namespace {

// Comprehension variables of typical selectors fit here without allocating.
constexpr int kInlineSlots = 8;

class CompiledProgram final : public Program {
 public:
  CompiledProgram(std::string expression, Plan plan, std::uint64_t estimated_cost,
                  std::uint64_t cost_limit)
      : expression_(std::move(expression)),
        plan_(std::move(plan)),
        estimated_cost_(estimated_cost),
        cost_limit_(cost_limit) {}

  Result<bool> Evaluate(const DeviceView& device, EvalDetails* details,
                        const std::atomic<bool>* cancelled) const override {
    EvalContext ctx;
    ctx.device = &device;
    ctx.cost_limit = cost_limit_;
    ctx.cancelled = cancelled;
    Value v = Run(ctx);
    if (details) details->actual_cost = ctx.cost;
    if (ctx.aborted) {
      return Error{std::string(ctx.interrupted ? kInterrupted : kCostLimitExceeded)};
    }
    if (v.kind() == ValueKind::kBool) return v.bool_value();
    if (v.is_error()) return Error{std::string(v.str())};
    std::string type(TypeName(v));
    return Error{"CEL result of type " + type + " could not be converted to bool: " +
                 "type conversion error from '" + type + "' to 'bool'"};
  }

  // Evaluates the plan with slots for its comprehension variables.
  Value Run(EvalContext& ctx) const {
    if (plan_.slot_count == 0) return plan_.root->Eval(ctx);
    if (plan_.slot_count <= kInlineSlots) {
      std::array<Slot, kInlineSlots> slots;
      ctx.slots = slots.data();
      return plan_.root->Eval(ctx);
    }
    std::vector<Slot> slots(static_cast<std::size_t>(plan_.slot_count));
    ctx.slots = slots.data();
    return plan_.root->Eval(ctx);
  }

  std::uint64_t estimated_max_cost() const override { return estimated_cost_; }
  const std::string& expression() const override { return expression_; }

 private:
  std::string expression_;
  Plan plan_;
  std::uint64_t estimated_cost_;
  std::uint64_t cost_limit_;
};

// The types a derived attribute may have: those of attribute values.
bool IsDerivedAttributeElementType(std::string_view type) {
  return type == "bool" || type == "int" || type == "string" || type == "any" || type == "dyn" ||
         type == "kubernetes.Semver";
}

bool IsDerivedAttributeType(std::string_view type, bool lists) {
  if (IsDerivedAttributeElementType(type)) return true;
  constexpr std::string_view kList = "list(";
  return lists && type.starts_with(kList) && type.ends_with(")") &&
         IsDerivedAttributeElementType(type.substr(kList.size(), type.size() - kList.size() - 1));
}

}  // namespace

Compilation Compile(std::string_view expression, const CompileOptions& options) {
  Compilation out;
  Source source(expression);
  Issues issues;
  ExprPtr ast = Parse(source, &issues);
  DeviceDeclaration device;
  if (options.environment == Environment::kNewExpressions) {
    device.allow_multiple_allocations = options.consumable_capacity;
    device.attributes_are_any = !options.list_type_attributes;
    device.includes = options.list_type_attributes;
  }
  CheckResult checked;
  if (ast) checked = Check(ast.get(), &issues, device);
  if (!issues.empty()) {
    out.error = {CompileError::Type::kInvalid, "compilation failed: " + issues.Format(source)};
    return out;
  }
  if (options.derived_attribute) {
    const bool lists =
        options.list_type_attributes || options.environment == Environment::kStoredExpressions;
    if (!IsDerivedAttributeType(checked.type, lists)) {
      out.error = {CompileError::Type::kInvalid,
                   std::string("must evaluate to a primitive scalar (string, integer, boolean, "
                               "semver)") +
                       (lists ? " or a list of these scalars" : "") + ", not " + checked.type};
      return out;
    }
  } else {
    // The result must be bool or exactly the attribute value type.
    std::string unknown_type = device.attributes_are_any ? "any" : "dyn";
    if (checked.type != "bool" && checked.type != unknown_type) {
      out.error = {CompileError::Type::kInvalid,
                   "must evaluate to bool or the unknown type, not " + checked.type};
      return out;
    }
  }
  std::uint64_t estimate = EstimateCost(*ast, checked);
  Plan plan;
  std::string error;
  if (!BuildPlan(*ast, &plan, &error)) {
    out.error = {CompileError::Type::kInternal, "program instantiation failed: " + error};
    return out;
  }
  out.program = std::make_shared<CompiledProgram>(std::string(expression), std::move(plan),
                                                  estimate, options.cost_limit);
  return out;
}

}  // namespace dra::cel
