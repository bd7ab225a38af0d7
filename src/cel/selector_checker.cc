#include "dra/cel/selector_checker.h"

namespace dra::cel {
namespace {

CompileOptions Strict(bool consumable_capacity, bool list_type_attributes) {
  CompileOptions o;
  o.environment = Environment::kNewExpressions;
  o.consumable_capacity = consumable_capacity;
  o.list_type_attributes = list_type_attributes;
  return o;
}

}  // namespace

CelSelectorChecker::CelSelectorChecker()
    : stored_(1024),
      strict_{CompileCache(1024, Strict(false, false)), CompileCache(1024, Strict(false, true)),
              CompileCache(1024, Strict(true, false)), CompileCache(1024, Strict(true, true))} {}

void CelSelectorChecker::Check(std::string_view expression, const std::string& field, bool stored,
                               const api::FeatureGates& gates, api::FieldErrors& errors) const {
  const bool capacity = gates.Enabled(api::Feature::kDRAConsumableCapacity);
  const bool lists = gates.Enabled(api::Feature::kDRAListTypeAttributes);
  CompileCache& cache = stored ? stored_ : strict_[(capacity ? 2 : 0) + (lists ? 1 : 0)];
  Compilation c = cache.GetOrCompile(expression);
  if (!c.ok()) {
    if (c.error.type == CompileError::Type::kInternal) {
      errors.push_back(api::InternalError(field, c.error.detail));
    } else {
      errors.push_back(api::InvalidString(field, expression, c.error.detail));
    }
    return;
  }
  if (c.program->estimated_max_cost() > kCostLimit) {
    errors.push_back(api::Forbidden(field, "too complex, exceeds cost limit"));
  }
}

}  // namespace dra::cel
