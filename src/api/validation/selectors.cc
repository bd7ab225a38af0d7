#include "api/validation/selectors.h"

#include "api/validation/formats.h"
#include "api/validation/resource_limits.h"

namespace dra::api::validation {

void ValidateSelectors(const List<DeviceSelector>& selectors, const std::string& field, bool stored,
                       const ValidationOptions& options, FieldErrors& errors) {
  if (selectors.size() > kDeviceSelectorsMaxSize) return;
  for (std::size_t i = 0; i < selectors.size(); ++i) {
    const std::string path = Index(field, i);
    if (!selectors[i].cel) {
      errors.push_back(Required(Child(path, "cel")));
      continue;
    }
    const std::string& expression = selectors[i].cel->expression;
    const std::string expression_path = Child(Child(path, "cel"), "expression");
    if (expression.size() > kCELSelectorExpressionMaxLength) {
      // Not compiled: an oversized expression must not cost compile time.
      errors.push_back(TooLong(expression_path, kCELSelectorExpressionMaxLength));
      continue;
    }
    if (options.selector_checker != nullptr) {
      options.selector_checker->Check(expression, expression_path, stored, options.gates, errors);
    }
  }
}

}  // namespace dra::api::validation
