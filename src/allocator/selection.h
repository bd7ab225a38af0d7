// Whether a device may serve a request entry (upstream's isSelectable): binding-condition
// gating, the class's and the entry's CEL selectors, per-device node
// selection. Each distinct selector expression is compiled once per
// allocator, and its result per device is computed at most once per
// allocator and reused by every later call, node and pod: selectors read
// only the device, never the node or the claims. Errors are not cached and
// surface lazily, only for devices the search actually examines.
#pragma once

#include <atomic>
#include <cstdint>
#include <memory>
#include <string>
#include <unordered_map>
#include <vector>

#include "allocator/inventory.h"
#include "dra/cel/compile_cache.h"
#include "dra/util/mutex.h"

namespace dra::allocator {

struct Entry;
struct Scan;

// Shared by all calls of one allocator. Thread-safety: every method may be
// called from any thread at any time; a Selector's fields other than
// `results` (atomics, written by any thread) never change after Intern. The
// Inventory and CompileCache must outlive the cache.
class SelectorCache {
 public:
  SelectorCache(const Inventory& inventory, cel::CompileCache& compile_cache);

  struct Selector {
    std::string expression;
    cel::Compilation compilation;
    // Per inventory device: -1 not yet known, 0 false, 1 true.
    std::unique_ptr<std::atomic<std::int8_t>[]> results;
  };

  // The selector for an expression, created and compiled on first use; the
  // pointer stays valid for the cache's lifetime.
  const Selector* Intern(const std::string& expression) DRA_EXCLUDES(mu_);

  // Heap bytes of the cached results.
  std::size_t bytes() const;

 private:
  const Inventory& inventory_;
  cel::CompileCache& compile_cache_;
  mutable Mutex mu_;
  std::unordered_map<std::string, std::unique_ptr<Selector>> selectors_ DRA_GUARDED_BY(mu_);
};

// One call's view of the selectors, by local id. Not thread-safe: it belongs
// to one call on one thread, and what its constructor takes must outlive it.
class Selection {
 public:
  // REQUIRES: `scan` is filled before the first evaluation and then unchanged.
  Selection(const Inventory& inventory, SelectorCache& cache, NodeRef node, const Scan& scan,
            const std::atomic<bool>* cancelled);

  // An id for the expression, shared by all selectors with the same text.
  int Intern(const std::string& expression);

  // Upstream's error texts: "class <c>: selector #<i>: CEL compile error: ...",
  // "claim <ns/name>: selector #<i> on device <id>: CEL runtime error: ...".
  Result<bool> Selectable(const Entry& entry, const std::string& claim, Index slot);

  // One selector on the device in a scan slot, cached; the error is the engine's text.
  Result<bool> Evaluate(int selector, Index slot, bool* compile_error);
  // The same for any inventory device, visible from the node or not.
  Result<bool> EvaluateDevice(int selector, Index device, bool* compile_error);

  std::uint64_t evaluations() const { return evaluations_; }

 private:
  const Inventory& inventory_;
  SelectorCache& cache_;
  const NodeRef node_;
  const Scan& scan_;
  const std::atomic<bool>* cancelled_;
  std::unordered_map<std::string, int> ids_;
  std::vector<const SelectorCache::Selector*> selectors_;
  std::uint64_t evaluations_ = 0;
};

}  // namespace dra::allocator
