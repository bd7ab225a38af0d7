// Recursive-descent parser for the full CEL grammar (cel-spec langdef),
// including the optional-value syntax (.?f, [?i], [?x], {?k: v}) and the
// macros of the Kubernetes environment. Nesting is bounded as in cel-go so
// that hostile input fails with an error instead of exhausting the stack.
#pragma once

#include <string_view>

#include "cel/ast.h"
#include "cel/source.h"

namespace dra::cel {

struct ParseOptions {
  int max_recursion_depth = 250;          // cel-go's default
  std::size_t max_code_points = 100'000;  // cel-go's default expression size limit
};

// Returns the tree, or null with at least one issue recorded.
ExprPtr Parse(const Source& source, Issues* issues, const ParseOptions& options = {});

}  // namespace dra::cel
