// The core/v1 parts that DRA touches. Node and Pod are partial models: only
// the fields DRA and scheduling need; other fields of those kinds are ignored
// on decode (see docs/COMPATIBILITY.md).
#pragma once

#include <cstdint>
#include <map>
#include <optional>
#include <string>

#include "dra/api/list.h"
#include "dra/api/meta.h"
#include "dra/api/quantity.h"

namespace dra::api {

struct NodeSelectorRequirement {
  std::string key;
  std::string operator_;  // In, NotIn, Exists, DoesNotExist, Gt, Lt
  List<std::string> values;
  bool operator==(const NodeSelectorRequirement&) const = default;
};

struct NodeSelectorTerm {
  List<NodeSelectorRequirement> match_expressions;
  List<NodeSelectorRequirement> match_fields;
  bool operator==(const NodeSelectorTerm&) const = default;
};

struct NodeSelector {
  List<NodeSelectorTerm> node_selector_terms;
  bool operator==(const NodeSelector&) const = default;
};

using ResourceList = std::map<std::string, Quantity>;

// A node taint; the scheduler's TaintToleration filter keeps pods off nodes
// with a NoSchedule or NoExecute taint they do not tolerate.
struct Taint {
  std::string key;
  std::string value;
  std::string effect;  // NoSchedule, PreferNoSchedule, NoExecute
  Time time_added;
  bool operator==(const Taint&) const = default;
};

struct NodeSpec {
  std::string pod_cidr;
  std::string provider_id;
  bool unschedulable = false;
  List<Taint> taints;
  bool operator==(const NodeSpec&) const = default;
};

struct NodeStatus {
  ResourceList capacity;
  ResourceList allocatable;
  bool operator==(const NodeStatus&) const = default;
};

struct Node {
  TypeMeta type;
  ObjectMeta metadata;
  NodeSpec spec;
  NodeStatus status;
};

// Pod side: the claim-related fields of core/v1 Pod (k8s.io/api/core/v1/types.go).
struct PodResourceClaim {
  std::string name;
  std::optional<std::string> resource_claim_name;
  std::optional<std::string> resource_claim_template_name;
  bool operator==(const PodResourceClaim&) const = default;
};

struct ContainerResourceClaim {  // core/v1 ResourceClaim inside resources.claims
  std::string name;
  std::string request;
  bool operator==(const ContainerResourceClaim&) const = default;
};

struct ResourceRequirements {
  ResourceList limits;
  ResourceList requests;
  List<ContainerResourceClaim> claims;
  bool operator==(const ResourceRequirements&) const = default;
};

struct Container {
  std::string name;
  std::string image;
  ResourceRequirements resources;
  bool operator==(const Container&) const = default;
};

struct NodeAffinity {
  std::optional<NodeSelector> required_during_scheduling_ignored_during_execution;
  bool operator==(const NodeAffinity&) const = default;
};

struct Affinity {
  std::optional<NodeAffinity> node_affinity;
  bool operator==(const Affinity&) const = default;
};

struct Toleration {
  std::string key;
  std::string operator_;
  std::string value;
  std::string effect;
  std::optional<std::int64_t> toleration_seconds;
  bool operator==(const Toleration&) const = default;
};

struct PodSchedulingGate {
  std::string name;
  bool operator==(const PodSchedulingGate&) const = default;
};

struct PodSpec {
  List<Container> init_containers;
  List<Container> containers;
  StringMap node_selector;
  std::string node_name;
  std::optional<Affinity> affinity;
  std::string scheduler_name;
  List<Toleration> tolerations;
  std::optional<std::int32_t> priority;
  std::optional<std::string> preemption_policy;  // PreemptLowerPriority (default) or Never
  List<PodSchedulingGate> scheduling_gates;
  List<PodResourceClaim> resource_claims;
  bool operator==(const PodSpec&) const = default;
};

struct PodResourceClaimStatus {
  std::string name;
  std::optional<std::string> resource_claim_name;
  bool operator==(const PodResourceClaimStatus&) const = default;
};

struct ContainerExtendedResourceRequest {
  std::string container_name;
  std::string resource_name;
  std::string request_name;
  bool operator==(const ContainerExtendedResourceRequest&) const = default;
};

struct PodExtendedResourceClaimStatus {
  List<ContainerExtendedResourceRequest> request_mappings;
  std::string resource_claim_name;
  bool operator==(const PodExtendedResourceClaimStatus&) const = default;
};

// A pod condition; kube-scheduler writes PodScheduled (reason
// Unschedulable or SchedulingGated, and its message) on pods it cannot place.
struct PodCondition {
  std::string type;
  std::string status;
  std::string reason;
  std::string message;
  Time last_transition_time;
  bool operator==(const PodCondition&) const = default;
};

struct PodStatus {
  std::string phase;
  List<PodCondition> conditions;
  List<PodResourceClaimStatus> resource_claim_statuses;
  std::optional<PodExtendedResourceClaimStatus> extended_resource_claim_status;
  bool operator==(const PodStatus&) const = default;
};

struct Pod {
  TypeMeta type;
  ObjectMeta metadata;
  PodSpec spec;
  PodStatus status;
};

struct Namespace {
  TypeMeta type;
  ObjectMeta metadata;
};

}  // namespace dra::api
