// The pools a node sees and their scan order, computed once per node and
// reused by every later call for that node: slices never change during an
// allocator's life, so only the node's name and labels decide the result.
// A call with the same name but different labels recomputes (and replaces).
#pragma once

#include <map>
#include <memory>
#include <shared_mutex>
#include <string>
#include <unordered_map>

#include "allocator/claim_plan.h"
#include "allocator/pools.h"

namespace dra::allocator {

struct NodePools {
  std::map<std::string, std::string> labels;
  Result<GatheredPools> pools = Error{""};
  Scan scan;  // points into pools
};

class NodePoolsCache {
 public:
  explicit NodePoolsCache(const Inventory& inventory) : inventory_(inventory) {}

  // Thread-safe. The result stays valid while the caller holds it.
  std::shared_ptr<const NodePools> Get(const api::Node& node);

  std::size_t size() const;

 private:
  const Inventory& inventory_;
  mutable std::shared_mutex mu_;
  std::unordered_map<std::string, std::shared_ptr<const NodePools>> nodes_;
};

}  // namespace dra::allocator
