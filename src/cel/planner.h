// Turns a checked expression into an executable plan: binds calls to
// functions, allocates slots for comprehension variables, folds constants and
// resolves device.attributes[...]/device.capacity[...] chains with constant
// keys into direct DeviceView lookups.
#pragma once

#include <string>

#include "cel/ast.h"
#include "cel/plan.h"
#include "cel/source.h"

namespace dra::cel {

struct Plan {
  NodePtr root;
  int slot_count = 0;
};

// Fails (with a message in *error) only when folding a constant conversion
// fails, which upstream reports as a program-instantiation error.
bool BuildPlan(const Expr& expr, Plan* plan, std::string* error);

}  // namespace dra::cel
