// Static worst-case cost of a checked expression, following the estimator
// upstream runs at admission (cel-go checker/cost.go with k8s.io/apiserver
// pkg/cel/library/cost.go): unit costs per construct, size-dependent costs for
// strings, lists and comprehensions, and the DRA size bounds of the device's
// fields.
#pragma once

#include <cstdint>

#include "cel/ast.h"
#include "cel/checker.h"

namespace dra::cel {

// Saturates at UINT64_MAX for unbounded inputs.
std::uint64_t EstimateCost(const Expr& expr, const CheckResult& checked);

}  // namespace dra::cel
