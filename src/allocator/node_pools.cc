#include "allocator/node_pools.h"

#include "dra/util/mutex.h"

namespace dra::allocator {

std::shared_ptr<const NodePools> NodePoolsCache::Get(NodeRef node) {
  if (keep_) {
    ReaderLock lock(mu_);
    auto it = nodes_.find(node.name());
    if (it != nodes_.end() && it->second->labels == node.labels()) return it->second;
  }
  auto fresh = std::make_shared<NodePools>();
  if (keep_) fresh->labels = node.labels();  // what a later call is checked against
  fresh->pools = GatherPools(inventory_, node);
  if (fresh->pools.ok()) fresh->scan = ScanOrder(inventory_, *fresh->pools);
  if (!keep_) return fresh;
  WriterLock lock(mu_);
  nodes_[std::string(node.name())] = fresh;
  return fresh;
}

std::size_t NodePoolsCache::size() const {
  ReaderLock lock(mu_);
  return nodes_.size();
}

}  // namespace dra::allocator
