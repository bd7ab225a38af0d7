// Whether a slice or device is usable from a node: nodeName / allNodes /
// nodeSelector with core/v1 required-node-affinity semantics (k8s.io/component-helpers
// scheduling/corev1/nodeaffinity).
#pragma once

#include <optional>
#include <string>
#include <string_view>

#include "dra/allocator/node_ref.h"
#include "dra/api/core.h"
#include "dra/util/result.h"

namespace dra::allocator {

// Terms are ORed, requirements within a term ANDed; a problem in any term
// (unknown operator, wrong number of values, non-integer Gt/Lt) is an error.
Result<bool> NodeSelectorMatches(const api::NodeSelector& selector, NodeRef node);

// First applicable rule wins: non-empty nodeName, allNodes, nodeSelector;
// nothing set matches nothing.
Result<bool> NodeMatches(std::optional<std::string_view> node_name,
                         const std::optional<bool>& all_nodes,
                         const std::optional<api::NodeSelector>& selector, NodeRef node);

}  // namespace dra::allocator
