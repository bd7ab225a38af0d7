// Function declarations of the DRA CEL environment (StoredExpressions
// profile, spec cel.md 2.3): the overload signatures the checker resolves.
#pragma once

#include <string_view>
#include <vector>

#include "cel/types.h"

namespace dra::cel {

struct OverloadDecl {
  bool member = false;
  std::vector<TypePtr> params;  // receiver first for member overloads
  TypePtr result;
};

// All overloads of `name`; empty when the environment has no such function.
const std::vector<OverloadDecl>& Overloads(std::string_view name);

}  // namespace dra::cel
