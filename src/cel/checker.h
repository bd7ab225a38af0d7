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

// The parts of the `device` declaration that vary between environments.
struct DeviceDeclaration {
  bool allow_multiple_allocations = true;
  // Attribute values are `dyn`, or `any` in the older declarations (which
  // cannot be iterated by macros).
  bool attributes_are_any = false;
  bool includes = true;
};

CheckResult Check(Expr* expr, Issues* issues, const DeviceDeclaration& device = {});

}  // namespace dra::cel
