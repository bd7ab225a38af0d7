// Whether a device may serve a request entry (spec 6.1): binding-condition
// gating, the class's and the entry's CEL selectors, per-device node
// selection. Each distinct selector expression is compiled once and evaluated
// at most once per device; the boolean is reused by every entry using it.
// Errors surface lazily, only for devices the search actually examines.
#pragma once

#include <atomic>
#include <cstdint>
#include <string>
#include <unordered_map>
#include <vector>

#include "allocator/inventory.h"
#include "dra/cel/compile_cache.h"

namespace dra::allocator {

struct Entry;
struct Scan;

class Selection {
 public:
  // REQUIRES: `scan` is filled before the first evaluation and then unchanged.
  Selection(const Inventory& inventory, const api::Node& node, const Scan& scan,
            cel::CompileCache& cache, const std::atomic<bool>* cancelled);

  // An id for the expression, shared by all selectors with the same text.
  int Intern(const std::string& expression);

  // Upstream's error texts: "class <c>: selector #<i>: CEL compile error: ...",
  // "claim <ns/name>: selector #<i>: CEL runtime error: ...".
  Result<bool> Selectable(const Entry& entry, const std::string& claim, Index slot);

  // One selector on the device in a scan slot, cached; the error is the engine's text.
  Result<bool> Evaluate(int selector, Index slot, bool* compile_error);

  std::uint64_t evaluations() const { return evaluations_; }

 private:
  struct Selector {
    std::string expression;
    bool compiled = false;
    cel::Compilation compilation;
    std::vector<std::int8_t> results;  // per slot: -1 unknown, 0 false, 1 true
  };

  const Inventory& inventory_;
  const api::Node& node_;
  const Scan& scan_;
  cel::CompileCache& cache_;
  const std::atomic<bool>* cancelled_;
  std::unordered_map<std::string, int> ids_;
  std::vector<Selector> selectors_;
  std::uint64_t evaluations_ = 0;
};

}  // namespace dra::allocator
