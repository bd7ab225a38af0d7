// Type-checks a parsed expression against the DRA environment (the variable
// `device` and the declared functions), reporting errors in cel-go's words.
// Also normalizes the tree: namespaced calls parsed as member calls
// (optional.of(x), sets.contains(a, b)) become global calls.
#pragma once

#include <string>
#include <vector>

#include "cel/ast.h"
#include "cel/source.h"
#include "cel/types.h"

namespace dra::cel {

struct CheckResult {
  std::string type;  // printed type of the whole expression ("bool", "dyn", ...)
  // Type of every node, indexed by Expr::id (for the cost estimator).
  std::vector<TypePtr> types;
};

CheckResult Check(Expr* expr, Issues* issues);

}  // namespace dra::cel
