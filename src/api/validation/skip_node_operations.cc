#include "api/validation/skip_node_operations.h"

#include <algorithm>

#include "api/validation/bad_values.h"
#include "api/validation/formats.h"
#include "api/validation/list_checks.h"

namespace dra::api::validation {
namespace {

constexpr std::string_view kAll = "*";
constexpr std::string_view kPrepare = "NodePrepareResources";
constexpr std::string_view kUnprepare = "NodeUnprepareResources";

bool Contains(const List<std::string>& operations, std::string_view operation) {
  return std::find(operations.begin(), operations.end(), operation) != operations.end();
}

}  // namespace

void ValidateSkipNodeOperations(const List<std::string>& operations, const std::string& field,
                                FieldErrors& errors) {
  if (Contains(operations, kPrepare) && !Contains(operations, kUnprepare) &&
      !Contains(operations, kAll)) {
    errors.push_back(Invalid(field, GoJsonStringList(operations),
                             "NodePrepareResources cannot be skipped unless "
                             "NodeUnprepareResources is also skipped"));
  }
}

void ValidateSkipNodeOperationsDeclarative(const List<std::string>& operations,
                                           const std::string& field, FieldErrors& errors) {
  ReportDuplicates(
      operations, field, [](const std::string& a, const std::string& b) { return a == b; },
      [](const std::string& operation) { return GoQuote(operation); }, errors);
  for (std::size_t i = 0; i < operations.size(); ++i) {
    const std::string& operation = operations[i];
    if (operation != kAll && operation != kPrepare && operation != kUnprepare) {
      errors.push_back(NotSupported(Index(field, i), operation, {kAll, kPrepare, kUnprepare}));
    }
  }
}

}  // namespace dra::api::validation
