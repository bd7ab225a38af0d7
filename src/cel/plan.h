// The executable form of a checked expression: a tree of nodes, each of which
// evaluates itself. Nodes are built once by the planner (planner.h) and are
// immutable afterwards, so one plan serves concurrent evaluations.
//
// Runtime cost: each node charges what upstream's runtime cost tracker
// charges for the construct it implements (cel-go interpreter/runtimecost.go
// with k8s.io/apiserver pkg/cel/library/cost.go).
#pragma once

#include <memory>
#include <string>
#include <vector>

#include "cel/ast.h"
#include "cel/runtime.h"

namespace dra::cel {

class Node {
 public:
  virtual ~Node() = default;
  virtual Value Eval(EvalContext& ctx) const = 0;
  // Non-null for constants (used for folding).
  virtual const Value* constant() const { return nullptr; }
};
using NodePtr = std::unique_ptr<Node>;

// A constant; `cost` is charged on every evaluation (folded calls keep the
// cost of the call they replace).
NodePtr MakeConstant(Value v, std::uint64_t cost);
NodePtr MakeDevice();
NodePtr MakeSlot(int slot);
NodePtr MakeSelect(NodePtr operand, std::string field, bool test_only, bool optional);
// device.attributes[domain][id] / device.capacity[domain][id] with constant
// keys, resolved straight through DeviceView::Find*. `cost` is what the
// generic chain of selects and indexes would have charged.
NodePtr MakeAttributeLookup(std::string domain, std::string id, bool capacity, std::uint64_t cost);
// device.attributes[domain] / device.capacity[domain] with a constant domain.
NodePtr MakeDomainMap(std::string domain, bool capacity, std::uint64_t cost);
NodePtr MakeCall(const Function* fn, std::vector<NodePtr> args);
NodePtr MakeAnd(NodePtr left, NodePtr right);
NodePtr MakeOr(NodePtr left, NodePtr right);
NodePtr MakeConditional(NodePtr cond, NodePtr then, NodePtr otherwise);
NodePtr MakeList(std::vector<NodePtr> elements, std::vector<bool> optional);
NodePtr MakeMap(std::vector<NodePtr> keys, std::vector<NodePtr> values, std::vector<bool> optional);
NodePtr MakeOptionalIndex(NodePtr operand, NodePtr index);
// x.or(y) and x.orValue(y): y is evaluated only when x is empty.
NodePtr MakeOptionalOr(NodePtr optional, NodePtr alternative, bool or_value);

struct ComprehensionSpec {
  Macro macro;
  int slot = -1;   // first variable (element, key, or index)
  int slot2 = -1;  // second variable of two-variable forms
  NodePtr range;
  NodePtr filter;  // optional filter of map/transform macros
  NodePtr step;    // predicate or transform
};
NodePtr MakeComprehension(ComprehensionSpec spec);
NodePtr MakeOptionalMap(int slot, NodePtr optional, NodePtr step, bool flat);
// cel.bind: `init` is evaluated on first use of the variable.
NodePtr MakeBind(int slot, NodePtr init, NodePtr body);

}  // namespace dra::cel
