#include "scheduler/node_fit.h"

#include <algorithm>
#include <cstdlib>

namespace dra::scheduler {
namespace {

// Upstream's defaults for containers without requests, used only for scoring.
constexpr std::int64_t kDefaultMilliCpu = 100;
constexpr std::int64_t kDefaultMemory = 200 * 1024 * 1024;

void AddResource(const std::string& name, const api::Quantity& q, PodRequests& r, int sign) {
  if (name == "cpu") {
    r.milli_cpu += sign * q.MilliValue();
  } else if (name == "memory") {
    r.memory += sign * q.Value();
  } else {
    r.scalar[name] += sign * q.Value();
  }
}

// A limit without a request counts as the request, as kube-apiserver's
// defaulting of core/v1 containers makes it (manifests read from files have
// not been through it).
void AddContainer(const api::Container& c, PodRequests& r, int sign) {
  for (const auto& [name, q] : c.resources.requests) AddResource(name, q, r, sign);
  for (const auto& [name, q] : c.resources.limits) {
    if (!c.resources.requests.contains(name)) AddResource(name, q, r, sign);
  }
}

bool HasRequest(const api::Container& c, const char* name) {
  return c.resources.requests.contains(name) || c.resources.limits.contains(name);
}

bool ParseInt(const std::string& s, std::int64_t& out) {
  if (s.empty()) return false;
  char* end = nullptr;
  out = std::strtoll(s.c_str(), &end, 10);
  return end != nullptr && *end == '\0';
}

bool MatchesRequirement(const api::NodeSelectorRequirement& req, const std::string* value) {
  const std::string& op = req.operator_;
  if (op == "In") {
    return value != nullptr &&
           std::find(req.values.begin(), req.values.end(), *value) != req.values.end();
  }
  if (op == "NotIn") {
    return value == nullptr ||
           std::find(req.values.begin(), req.values.end(), *value) == req.values.end();
  }
  if (op == "Exists") return value != nullptr;
  if (op == "DoesNotExist") return value == nullptr;
  if (op == "Gt" || op == "Lt") {
    std::int64_t have = 0, want = 0;
    if (value == nullptr || req.values.size() != 1 || !ParseInt(*value, have) ||
        !ParseInt(req.values[0], want)) {
      return false;
    }
    return op == "Gt" ? have > want : have < want;
  }
  return false;
}

bool MatchesTerm(const api::NodeSelectorTerm& term, NodeView node) {
  // A term without requirements selects no node.
  if (term.match_expressions.empty() && term.match_fields.empty()) return false;
  for (const api::NodeSelectorRequirement& req : term.match_expressions) {
    auto it = node.labels.find(req.key);
    if (!MatchesRequirement(req, it == node.labels.end() ? nullptr : &it->second)) {
      return false;
    }
  }
  for (const api::NodeSelectorRequirement& req : term.match_fields) {
    if (req.key != "metadata.name") return false;
    if (!MatchesRequirement(req, &node.name)) return false;
  }
  return true;
}

std::int64_t LeastAllocated(std::int64_t requested, std::int64_t capacity) {
  if (capacity <= 0 || requested > capacity) return 0;
  return (capacity - requested) * 100 / capacity;
}

}  // namespace

PodRequests RequestsOf(const api::Pod& pod) {
  PodRequests sum;
  std::int64_t zero_cpu_containers = 0, zero_memory_containers = 0;
  for (const api::Container& c : pod.spec.containers) {
    AddContainer(c, sum, 1);
    if (!HasRequest(c, "cpu")) ++zero_cpu_containers;
    if (!HasRequest(c, "memory")) ++zero_memory_containers;
  }
  sum.non_zero_milli_cpu = sum.milli_cpu + zero_cpu_containers * kDefaultMilliCpu;
  sum.non_zero_memory = sum.memory + zero_memory_containers * kDefaultMemory;
  for (const api::Container& c : pod.spec.init_containers) {
    PodRequests init;
    AddContainer(c, init, 1);
    sum.milli_cpu = std::max(sum.milli_cpu, init.milli_cpu);
    sum.memory = std::max(sum.memory, init.memory);
    for (const auto& [name, v] : init.scalar) sum.scalar[name] = std::max(sum.scalar[name], v);
  }
  return sum;
}

void NodeUsage::Add(const PodRequests& r, int sign) {
  milli_cpu += sign * r.milli_cpu;
  memory += sign * r.memory;
  pods += sign;
  non_zero_milli_cpu += sign * r.non_zero_milli_cpu;
  non_zero_memory += sign * r.non_zero_memory;
  for (const auto& [name, v] : r.scalar) scalar[name] += sign * v;
}

NodeCapacity CapacityOf(const api::Node& node) {
  NodeCapacity c;
  const api::ResourceList& list =
      node.status.allocatable.empty() ? node.status.capacity : node.status.allocatable;
  c.known = !list.empty();
  for (const auto& [name, q] : list) {
    if (name == "cpu") {
      c.milli_cpu = q.MilliValue();
    } else if (name == "memory") {
      c.memory = q.Value();
    } else if (name == "pods") {
      c.pods = q.Value();
    } else {
      c.scalar[name] = q.Value();
    }
  }
  return c;
}

bool MatchesNodeSelector(const api::NodeSelector& selector, NodeView node) {
  for (const api::NodeSelectorTerm& term : selector.node_selector_terms) {
    if (MatchesTerm(term, node)) return true;
  }
  return false;
}

bool ToleratesTaint(const api::Toleration& toleration, const api::Taint& taint) {
  if (!toleration.effect.empty() && toleration.effect != taint.effect) return false;
  if (!toleration.key.empty() && toleration.key != taint.key) return false;
  if (toleration.operator_.empty() || toleration.operator_ == "Equal") {
    return toleration.value == taint.value;
  }
  return toleration.operator_ == "Exists";
}

const api::Taint* UntoleratedTaint(NodeView node, const api::List<api::Toleration>& tolerations) {
  for (const api::Taint& taint : node.taints) {
    if (taint.effect != "NoSchedule" && taint.effect != "NoExecute") continue;
    bool tolerated =
        std::any_of(tolerations.begin(), tolerations.end(),
                    [&](const api::Toleration& t) { return ToleratesTaint(t, taint); });
    if (!tolerated) return &taint;
  }
  return nullptr;
}

NodeFilterStatus FilterNode(const api::Pod& pod, const PodRequests& requests, NodeView node,
                            const NodeCapacity& capacity, const NodeUsage& usage,
                            const std::set<std::string>& dra_resources) {
  NodeFilterStatus status;
  auto reject = [&](std::string reason) {
    status.reasons.push_back(std::move(reason));
    status.unresolvable = true;
    return status;
  };
  if (!pod.spec.node_name.empty() && pod.spec.node_name != node.name) {
    return reject(kReasonNodeName);
  }
  if (node.unschedulable) {
    // Tolerating the unschedulable taint tolerates spec.unschedulable.
    api::Taint cordon{"node.kubernetes.io/unschedulable", "", "NoSchedule", {}};
    if (std::none_of(pod.spec.tolerations.begin(), pod.spec.tolerations.end(),
                     [&](const api::Toleration& t) { return ToleratesTaint(t, cordon); })) {
      return reject(kReasonUnschedulable);
    }
  }
  if (UntoleratedTaint(node, pod.spec.tolerations) != nullptr) return reject(kReasonTaints);
  for (const auto& [key, value] : pod.spec.node_selector) {
    auto it = node.labels.find(key);
    if (it == node.labels.end() || it->second != value) return reject(kReasonAffinity);
  }
  if (pod.spec.affinity && pod.spec.affinity->node_affinity &&
      pod.spec.affinity->node_affinity->required_during_scheduling_ignored_during_execution &&
      !MatchesNodeSelector(
          *pod.spec.affinity->node_affinity->required_during_scheduling_ignored_during_execution,
          node)) {
    return reject(kReasonAffinity);
  }
  if (!capacity.known) return status;
  // NodeResourcesFit: every insufficient resource is a reason; the node is
  // unresolvable when one request exceeds the node's allocatable itself.
  if (usage.pods + 1 > capacity.pods) status.reasons.emplace_back(kReasonTooManyPods);
  if (requests.milli_cpu > 0 && usage.milli_cpu + requests.milli_cpu > capacity.milli_cpu) {
    status.reasons.emplace_back("Insufficient cpu");
    status.unresolvable |= requests.milli_cpu > capacity.milli_cpu;
  }
  if (requests.memory > 0 && usage.memory + requests.memory > capacity.memory) {
    status.reasons.emplace_back("Insufficient memory");
    status.unresolvable |= requests.memory > capacity.memory;
  }
  for (const auto& [name, want] : requests.scalar) {
    if (want <= 0) continue;
    auto cap = capacity.scalar.find(name);
    std::int64_t have = cap == capacity.scalar.end() ? 0 : cap->second;
    if (have == 0 && dra_resources.contains(name)) continue;
    auto used = usage.scalar.find(name);
    if ((used == usage.scalar.end() ? 0 : used->second) + want > have) {
      status.reasons.push_back("Insufficient " + name);
      status.unresolvable |= want > have;
    }
  }
  return status;
}

std::int64_t LeastAllocatedScore(const PodRequests& requests, const NodeCapacity& capacity,
                                 const NodeUsage& usage) {
  if (!capacity.known) return 0;
  std::int64_t cpu =
      LeastAllocated(usage.non_zero_milli_cpu + requests.non_zero_milli_cpu, capacity.milli_cpu);
  std::int64_t mem =
      LeastAllocated(usage.non_zero_memory + requests.non_zero_memory, capacity.memory);
  return (cpu + mem) / 2;
}

std::int64_t BalancedAllocationScore(const PodRequests& requests, const NodeCapacity& capacity,
                                     const NodeUsage& usage) {
  if (!capacity.known || capacity.milli_cpu <= 0 || capacity.memory <= 0) return 0;
  double cpu = std::min(1.0, static_cast<double>(usage.milli_cpu + requests.milli_cpu) /
                                 static_cast<double>(capacity.milli_cpu));
  double mem = std::min(1.0, static_cast<double>(usage.memory + requests.memory) /
                                 static_cast<double>(capacity.memory));
  // With two resources the standard deviation is half their difference.
  double std_dev = std::abs(cpu - mem) / 2;
  return static_cast<std::int64_t>((1 - std_dev) * 100);
}

// framework.FitError's text: "0/N nodes are available: " and the reasons
// with their node counts, sorted as strings, then ".".
std::string NodesAvailableMessage(std::size_t nodes, const std::map<std::string, int>& histogram) {
  std::vector<std::string> counted;
  counted.reserve(histogram.size());
  for (const auto& [reason, count] : histogram) {
    counted.push_back(std::to_string(count) + " " + reason);
  }
  std::sort(counted.begin(), counted.end());
  std::string message = "0/" + std::to_string(nodes) + " nodes are available: ";
  for (std::size_t i = 0; i < counted.size(); ++i) {
    message += (i == 0 ? "" : ", ") + counted[i];
  }
  return message + ".";
}

}  // namespace dra::scheduler
