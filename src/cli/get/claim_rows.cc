#include "cli/get/claim_rows.h"

#include <algorithm>
#include <tuple>

#include "allocator/node_match.h"

namespace dra::cli::get {
namespace {

bool UsesClass(const api::ResourceClaim& claim, const std::string& device_class) {
  for (const api::DeviceRequest& r : claim.spec.devices.requests) {
    if (r.exactly && r.exactly->device_class_name == device_class) return true;
    for (const api::DeviceSubRequest& s : r.first_available) {
      if (s.device_class_name == device_class) return true;
    }
  }
  return false;
}

bool UsesDriver(const api::ResourceClaim& claim, const std::string& driver) {
  if (!claim.status.allocation) return false;
  for (const auto& r : claim.status.allocation->devices.results) {
    if (r.driver == driver) return true;
  }
  return false;
}

bool AvailableOn(const api::ResourceClaim& claim, const api::Node& node) {
  if (!claim.status.allocation) return false;
  const auto& selector = claim.status.allocation->node_selector;
  if (!selector) return true;  // usable on every node
  Result<bool> m = allocator::NodeSelectorMatches(*selector, node);
  return m.ok() && *m;
}

}  // namespace

std::string_view ClaimState(const api::ResourceClaim& claim) {
  if (!claim.metadata.deletion_timestamp.IsZero()) return "deleting";
  if (!claim.status.reserved_for.empty()) return "reserved";
  if (claim.status.allocation) return "allocated";
  return "pending";
}

std::vector<ClaimRow> ClaimRows(const ClusterObjects& objects, const GetFilters& filters) {
  api::Node node;
  if (!filters.node.empty()) {
    node.metadata.name = filters.node;
    node.metadata.labels["kubernetes.io/hostname"] = filters.node;
    for (const api::Node& n : objects.nodes) {
      if (n.metadata.name == filters.node) node = n;
    }
  }
  std::vector<ClaimRow> rows;
  for (const api::ResourceClaim& claim : objects.claims) {
    if (!filters.all_namespaces && claim.metadata.namespace_ != filters.namespace_) continue;
    if (!filters.device_class.empty() && !UsesClass(claim, filters.device_class)) continue;
    if (!filters.driver.empty() && !UsesDriver(claim, filters.driver)) continue;
    if (!filters.node.empty() && !AvailableOn(claim, node)) continue;
    ClaimRow row;
    row.claim = &claim;
    row.state = ClaimState(claim);
    if (claim.status.allocation) {
      for (const auto& r : claim.status.allocation->devices.results) row.devices.push_back(&r);
      if (claim.status.allocation->node_selector) {
        row.node = NodeSelectorText(*claim.status.allocation->node_selector);
      }
    }
    for (const api::ResourceClaimConsumerReference& ref : claim.status.reserved_for) {
      if (ref.resource == "pods" && ref.api_group.empty()) {
        row.pods.push_back(claim.metadata.namespace_ + "/" + ref.name);
      }
    }
    std::sort(row.pods.begin(), row.pods.end());
    row.pods.erase(std::unique(row.pods.begin(), row.pods.end()), row.pods.end());
    rows.push_back(std::move(row));
  }
  std::stable_sort(rows.begin(), rows.end(), [](const ClaimRow& a, const ClaimRow& b) {
    return std::tie(a.namespace_(), a.name()) < std::tie(b.namespace_(), b.name());
  });
  return rows;
}

}  // namespace dra::cli::get
