// The pools a node sees and their scan order, computed once per node and
// reused by every later call for that node: slices never change during an
// allocator's life, so only the node's name and labels decide the result.
// A call with the same name but different labels recomputes (and replaces).
// A cache made not to keep them computes them on every call.
//
// Thread-safety: every method of NodePoolsCache may be called from any thread
// at any time. A NodePools that Get returns is immutable and lives as long as
// someone holds it, past a replacement; its pools point into the Inventory,
// which must outlive both the cache and every NodePools it handed out.
#pragma once

#include <cstddef>
#include <functional>
#include <map>
#include <memory>
#include <string>
#include <string_view>
#include <unordered_map>

#include "allocator/claim_plan.h"
#include "allocator/pools.h"
#include "dra/util/mutex.h"

namespace dra::allocator {

struct NodePools {
  std::map<std::string, std::string> labels;  // empty when not kept
  Result<GatheredPools> pools = Error{""};
  Scan scan;  // points into pools
};

class NodePoolsCache {
 public:
  NodePoolsCache(const Inventory& inventory, bool keep) : inventory_(inventory), keep_(keep) {}

  // Thread-safe. The result stays valid while the caller holds it.
  std::shared_ptr<const NodePools> Get(NodeRef node) DRA_EXCLUDES(mu_);

  std::size_t size() const;

 private:
  const Inventory& inventory_;
  const bool keep_;
  mutable SharedMutex mu_;
  // Found by the NodeRef's name without making a string of it.
  struct NameHash {
    using is_transparent = void;
    std::size_t operator()(std::string_view name) const {
      return std::hash<std::string_view>{}(name);
    }
  };
  std::unordered_map<std::string, std::shared_ptr<const NodePools>, NameHash, std::equal_to<>>
      nodes_ DRA_GUARDED_BY(mu_);
};

}  // namespace dra::allocator
