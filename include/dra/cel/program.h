// Compiling and evaluating DRA device selectors (DeviceSelector.cel.expression).
//
// An expression goes through four stages, each done once: parse, type-check
// (against the DRA environment: the `device` variable and the Kubernetes CEL
// libraries), plan (constant folding, pre-resolved attribute lookups) and then
// any number of cheap evaluations against devices. Compile() returns an
// immutable Program that may be shared and evaluated concurrently from several
// threads.
#pragma once

#include <atomic>
#include <cstdint>
#include <memory>
#include <string>
#include <string_view>

#include "dra/cel/device_view.h"
#include "dra/util/result.h"

namespace dra::cel {

// Upstream's per-evaluation runtime cost budget and the admission limit on
// the estimated worst-case cost (CELSelectorExpressionMaxCost in k8s.io/api/resource/v1).
inline constexpr std::uint64_t kCostLimit = 1'000'000;
// Upstream's limit on the expression text, in UTF-8 bytes (enforced by API
// validation, not by Compile).
inline constexpr std::size_t kMaxExpressionBytes = 10 * 1024;

// Which of upstream's two environment types (k8s.io/apiserver pkg/cel/environment)
// compiles the expression. The allocator uses StoredExpressions; API validation
// of a new or changed expression uses NewExpressions, whose device declaration
// follows the feature gates below.
enum class Environment : std::uint8_t { kStoredExpressions, kNewExpressions };

struct CompileOptions {
  // Runtime cost budget for each evaluation.
  std::uint64_t cost_limit = kCostLimit;
  Environment environment = Environment::kStoredExpressions;
  // Feature gates, consulted by kNewExpressions only. DRAConsumableCapacity
  // declares device.allowMultipleAllocations; DRAListTypeAttributes makes
  // attribute values dyn (instead of any) and declares includes().
  bool consumable_capacity = true;
  bool list_type_attributes = false;
  // A derived attribute's expression (DRADerivedAttributes) rather than a
  // selector: the result must be bool, int, string, semver or the unknown
  // type, or a list of those where list attributes are allowed (the
  // DRAListTypeAttributes gate, or always in StoredExpressions).
  bool derived_attribute = false;
};

// Why compilation failed, as upstream's DRA compiler classifies it.
struct CompileError {
  enum class Type : std::uint8_t {
    kInvalid,   // the expression is wrong: syntax, types, non-bool result
    kInternal,  // program instantiation failed (e.g. an invalid constant)
  };
  Type type = Type::kInvalid;
  // Upstream's wording, e.g. "compilation failed: ERROR: <input>:1:1: ..."
  // or "must evaluate to bool or the unknown type, not int".
  std::string detail;
};

class Program;

// Either a program or the reason there is none.
struct Compilation {
  std::shared_ptr<const Program> program;  // null iff compilation failed
  CompileError error;                      // meaningful iff program is null
  bool ok() const { return program != nullptr; }
};

// Per-evaluation figures, for callers that account cost.
struct EvalDetails {
  std::uint64_t actual_cost = 0;
};

class Program {
 public:
  virtual ~Program() = default;

  // Evaluates the selector against `device`: true when it matches, false when
  // not, an error otherwise (upstream wording, e.g. "no such key: model",
  // "operation cancelled: actual cost limit exceeded", "CEL result of type
  // string could not be converted to bool: ..."). Errors are not "no match".
  // Thread-safe; allocates nothing for typical selectors.
  //
  // `cancelled`, when given, is polled every 100 comprehension iterations (as
  // upstream polls its context); once true, evaluation stops with an error
  // starting "operation interrupted".
  virtual Result<bool> Evaluate(const DeviceView& device, EvalDetails* details = nullptr,
                                const std::atomic<bool>* cancelled = nullptr) const = 0;

  // Upstream's static worst-case cost estimate (cel-go's EstimateCost). Admission
  // rejects expressions whose estimate exceeds kCostLimit.
  virtual std::uint64_t estimated_max_cost() const = 0;

  virtual const std::string& expression() const = 0;
};

// Parses, checks and plans `expression` in the StoredExpressions environment
// (the one the allocator uses: all device fields, dyn attribute values,
// includes()).
Compilation Compile(std::string_view expression, const CompileOptions& options = {});

}  // namespace dra::cel
