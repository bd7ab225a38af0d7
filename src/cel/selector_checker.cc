#include "dra/cel/selector_checker.h"

namespace dra::cel {

void CelSelectorChecker::Check(std::string_view expression, const std::string& field,
                               bool /*stored*/, const api::FeatureGates& /*gates*/,
                               api::FieldErrors& errors) const {
  // One environment serves both cases: the engine's environment is the
  // lenient "stored" one, which accepts everything the strict one does.
  Compilation c = cache_.GetOrCompile(expression);
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
