// The node an allocation is for, as the allocator reads it: its name (a
// slice's or device's spec.nodeName, a node selector's matchFields on
// metadata.name, the allocation result's node selector) and its labels (a
// node selector's matchExpressions). Nothing else of a Node decides where
// devices are.
#pragma once

#include <string_view>

#include "dra/api/core.h"
#include "dra/api/meta.h"

namespace dra::allocator {

// A view: it points into the Node (or the caller's own record of one) it
// was made from, which must outlive it. Made implicitly from an api::Node,
// so a caller holding Nodes passes them as they are; one that keeps a
// smaller record of its nodes (the scheduler's NodeRecord) names the two
// fields.
class NodeRef {
 public:
  // Implicit: a Node passes where its view is asked for.
  NodeRef(const api::Node& node) : name_(node.metadata.name), labels_(&node.metadata.labels) {}
  NodeRef(std::string_view name, const api::StringMap& labels) : name_(name), labels_(&labels) {}

  std::string_view name() const { return name_; }
  const api::StringMap& labels() const { return *labels_; }

 private:
  std::string_view name_;
  const api::StringMap* labels_;  // never null
};

}  // namespace dra::allocator
