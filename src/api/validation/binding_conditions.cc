#include "api/validation/binding_conditions.h"

#include <algorithm>

#include "api/validation/bad_values.h"
#include "api/validation/formats.h"
#include "api/validation/list_checks.h"
#include "api/validation/resource_limits.h"

namespace dra::api::validation {
namespace {

void ValidateKeys(const List<std::string>& conditions, std::size_t max, const std::string& path,
                  FieldErrors& errors) {
  if (conditions.size() > max) return;
  for (std::size_t i = 0; i < conditions.size(); ++i) {
    ValidateLabelKey(conditions[i], Index(path, i), errors);
  }
}

bool Contains(const List<std::string>& list, const std::string& value) {
  return std::find(list.begin(), list.end(), value) != list.end();
}

}  // namespace

void ValidateBindingConditions(const List<std::string>& conditions,
                               const List<std::string>& failure_conditions,
                               const std::string& parent, FieldErrors& errors) {
  const std::string conditions_path = Child(parent, "bindingConditions");
  const std::string failure_path = Child(parent, "bindingFailureConditions");
  ValidateKeys(conditions, kBindingConditionsMaxSize, conditions_path, errors);
  ValidateKeys(failure_conditions, kBindingFailureConditionsMaxSize, failure_path, errors);

  auto same = [](const std::string& a, const std::string& b) { return a == b; };
  auto quote = [](const std::string& c) { return GoQuote(c); };
  ReportDuplicates(conditions, conditions_path, same, quote, errors);
  for (std::size_t i = 0; i < failure_conditions.size(); ++i) {
    const std::string& condition = failure_conditions[i];
    if (std::find(failure_conditions.begin(), failure_conditions.begin() + i, condition) !=
        failure_conditions.begin() + i) {
      errors.push_back(Duplicate(Index(failure_path, i), GoQuote(condition)));
    }
    if (Contains(conditions, condition)) {
      errors.push_back(InvalidString(Index(failure_path, i), condition,
                                     "bindingFailureConditions must not overlap with "
                                     "bindingConditions"));
    }
  }

  if (conditions.empty() && !failure_conditions.empty()) {
    errors.push_back(Invalid(conditions_path, GoJsonStringList(conditions),
                             "bindingConditions are required to use bindingFailureConditions"));
  }
  if (failure_conditions.empty() && !conditions.empty()) {
    errors.push_back(Invalid(failure_path, GoJsonStringList(failure_conditions),
                             "bindingFailureConditions are required to use bindingConditions"));
  }
}

void ValidateBindingConditionsDeclarative(const List<std::string>& conditions,
                                          const List<std::string>& failure_conditions,
                                          const std::string& parent, FieldErrors& errors) {
  ExceedsMaxItems(conditions.size(), kBindingConditionsMaxSize, Child(parent, "bindingConditions"),
                  errors);
  ExceedsMaxItems(failure_conditions.size(), kBindingFailureConditionsMaxSize,
                  Child(parent, "bindingFailureConditions"), errors);
}

}  // namespace dra::api::validation
