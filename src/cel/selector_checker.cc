#include "dra/cel/selector_checker.h"

namespace dra::cel {
namespace {

CompileOptions Strict(bool consumable_capacity, bool list_type_attributes,
                      bool derived_attribute = false) {
  CompileOptions o;
  o.derived_attribute = derived_attribute;
  o.environment = Environment::kNewExpressions;
  o.consumable_capacity = consumable_capacity;
  o.list_type_attributes = list_type_attributes;
  return o;
}

// The caches of NewExpressions environments are indexed by the two gates
// that shape them.
std::size_t GateIndex(const api::FeatureGates& gates) {
  return (gates.Enabled(api::Feature::kDRAConsumableCapacity) ? 2 : 0) +
         (gates.Enabled(api::Feature::kDRAListTypeAttributes) ? 1 : 0);
}

// Compile errors and the cost limit as kube-apiserver reports them
// (validateCELExpression); the estimated cost, 0 when it does not compile.
std::uint64_t Report(const Compilation& c, std::string_view expression, const std::string& field,
                     api::FieldErrors& errors) {
  if (!c.ok()) {
    if (c.error.type == CompileError::Type::kInternal) {
      errors.push_back(api::InternalError(field, c.error.detail));
    } else {
      errors.push_back(api::InvalidString(field, expression, c.error.detail));
    }
    return 0;
  }
  if (c.program->estimated_max_cost() > kCostLimit) {
    errors.push_back(api::Forbidden(field, "too complex, exceeds cost limit"));
  }
  return c.program->estimated_max_cost();
}

}  // namespace

CelSelectorChecker::CelSelectorChecker()
    : stored_(1024),
      strict_{CompileCache(1024, Strict(false, false)), CompileCache(1024, Strict(false, true)),
              CompileCache(1024, Strict(true, false)), CompileCache(1024, Strict(true, true))},
      derived_{CompileCache(256, Strict(false, false, true)),
               CompileCache(256, Strict(false, true, true)),
               CompileCache(256, Strict(true, false, true)),
               CompileCache(256, Strict(true, true, true))} {}

void CelSelectorChecker::Check(std::string_view expression, const std::string& field, bool stored,
                               const api::FeatureGates& gates, api::FieldErrors& errors) const {
  CompileCache& cache = stored ? stored_ : strict_[GateIndex(gates)];
  Report(cache.GetOrCompile(expression), expression, field, errors);
}

// A derived attribute's own limit is the lower of the selector limit and the
// claim's shared budget, both 1,000,000 in 1.37.
std::uint64_t CelSelectorChecker::CheckDerivedAttribute(std::string_view expression,
                                                        const std::string& field,
                                                        const api::FeatureGates& gates,
                                                        api::FieldErrors& errors) const {
  return Report(derived_[GateIndex(gates)].GetOrCompile(expression), expression, field, errors);
}

}  // namespace dra::cel
