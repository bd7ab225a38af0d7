// What evaluation needs at run time: the per-evaluation context (device,
// cost meter, comprehension variables) and the table of functions that the
// planner binds calls to. Functions check their operands' kinds themselves,
// because attribute values are dyn and overloads resolve at run time.
#pragma once

#include <atomic>
#include <cstdint>
#include <string>
#include <string_view>

#include "cel/value.h"

namespace dra::cel {

class Node;

// Variables of comprehensions and cel.bind live in numbered slots.
struct Slot {
  Value value;
  const Node* lazy_init = nullptr;  // cel.bind: evaluated on first use
};

struct EvalContext {
  const DeviceView* device = nullptr;
  std::uint64_t cost = 0;
  std::uint64_t cost_limit = UINT64_MAX;
  // Set once the cost limit is exceeded: evaluation must unwind without any
  // operator absorbing the error.
  bool aborted = false;
  // Cancellation requested by the caller (see Program::Evaluate); when it
  // ends the evaluation, `aborted` and `interrupted` are both set.
  const std::atomic<bool>* cancelled = nullptr;
  bool interrupted = false;
  Slot* slots = nullptr;
  // Plan-time folding: constants hand out owning copies, because the folded
  // result outlives the nodes it was computed from.
  bool folding = false;

  // Adds to the cost meter; false (and aborted) once past the limit.
  bool Charge(std::uint64_t units) {
    cost += units;
    if (cost > cost_limit) aborted = true;
    return !aborted;
  }

  // Polled by loops every kInterruptCheckInterval iterations.
  bool Interrupted() {
    if (cancelled != nullptr && cancelled->load(std::memory_order_relaxed)) {
      aborted = interrupted = true;
    }
    return interrupted;
  }
};

inline constexpr std::string_view kCostLimitExceeded =
    "operation cancelled: actual cost limit exceeded";
inline constexpr std::string_view kInterrupted = "operation interrupted";
inline constexpr std::size_t kInterruptCheckInterval = 100;

Value NoSuchOverload();
Value NoSuchKey(const Value& key);
// The text of a value as cel-go prints it in messages ("x", 1, 1u, ...).
std::string DebugString(const Value& v);

// Operand convention: a member call's receiver is args[0].
using FunctionImpl = Value (*)(EvalContext& ctx, const Value* args, std::size_t n);
// Runtime cost of one call given its evaluated operands (upstream's runtime
// cost table; 1 for most functions).
using CallCost = std::uint64_t (*)(const Value* args, std::size_t n);

struct Function {
  std::string_view name;
  bool member;         // receiver-style call
  std::uint8_t arity;  // including the receiver
  FunctionImpl impl;
  CallCost cost;  // nullptr: 1
  // Safe to evaluate at plan time when all operands are constants.
  bool foldable;
};

// nullptr when the environment has no such function.
const Function* FindFunction(std::string_view name, bool member, std::size_t arity);
// Whether any overload of `name` exists (for "undeclared reference" errors).
bool IsFunctionName(std::string_view name);

// Shared pieces of the function table, defined in the functions_*.cc files.
struct FunctionTable {
  const Function* begin;
  const Function* end;
};
FunctionTable CoreFunctions();
FunctionTable StringFunctions();
FunctionTable ListFunctions();
FunctionTable KubernetesFunctions();
FunctionTable TimeFunctions();
FunctionTable NetFunctions();     // IP, CIDR and URL libraries
FunctionTable FormatFunctions();  // string.format

// string(ip) / string(cidr); NoSuchOverload for other kinds.
Value NetToString(const Value& v);

// list.indexOf / list.lastIndexOf (shares its name with the string functions).
Value ListIndexOf(EvalContext& ctx, const Value* args, std::size_t n, bool last);

// Helpers used across the function files.
// ceil(size / divisor): upstream's fractional cost factors (0.1, 0.2, 0.25)
// as integer divisors.
inline std::uint64_t StringCostFactor(std::size_t size, std::uint64_t divisor) {
  return (size + divisor - 1) / divisor;
}
// matches/find/findAll: ceil(0.1 * (size + 1)) * ceil(0.25 * pattern size).
std::uint64_t MatchesCost(const Value* args, std::size_t n);
bool ArgsAre(const Value* args, std::size_t n, ValueKind kind);
// Three-way comparison for ordered kinds (numbers across kinds); false when
// the pair has no ordering.
bool CompareValues(const Value& a, const Value& b, int* result);

}  // namespace dra::cel
