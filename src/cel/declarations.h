// Function declarations of the DRA CEL environment (StoredExpressions
// profile: the libraries of k8s.io/apiserver pkg/cel/environment/base.go plus
// cel.bind and includes()): the overload signatures the checker resolves.
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
