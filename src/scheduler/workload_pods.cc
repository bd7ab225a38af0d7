#include "dra/scheduler/workload_pods.h"

#include <charconv>
#include <cstdint>
#include <optional>
#include <utility>

#include "dra/api/codec.h"
#include "scheduler/node_fit.h"

namespace dra::scheduler {
namespace {

enum class WorkloadKind : std::uint8_t { kReplicated, kStatefulSet, kJob, kDaemonSet };

std::optional<WorkloadKind> WorkloadKindOf(const api::UnmodeledDocument& doc) {
  if (doc.api_version == "apps/v1") {
    if (doc.kind == "Deployment" || doc.kind == "ReplicaSet") return WorkloadKind::kReplicated;
    if (doc.kind == "StatefulSet") return WorkloadKind::kStatefulSet;
    if (doc.kind == "DaemonSet") return WorkloadKind::kDaemonSet;
  }
  if (doc.api_version == "batch/v1" && doc.kind == "Job") return WorkloadKind::kJob;
  return std::nullopt;
}

std::string Describe(const api::UnmodeledDocument& doc) {
  return doc.source + ": document " + std::to_string(doc.index) + ": " + doc.kind + " \"" +
         doc.name + "\"";
}

const json::Value* Member(const json::Value* object, std::string_view key) {
  if (object == nullptr || !object->is_object()) return nullptr;
  const json::Value* v = object->Find(key);
  return v != nullptr && !v->is_null() ? v : nullptr;
}

// An int32 field of the workload's spec: `fallback` when absent; an error
// when it is not a non-negative integer (the API server would not have
// stored such an object).
Result<std::int32_t> Count(const api::UnmodeledDocument& doc, const json::Value* spec,
                           std::string_view field, std::int32_t fallback) {
  const json::Value* v = Member(spec, field);
  if (v == nullptr) return fallback;
  std::int32_t n = -1;
  const char* end = v->text.data() + v->text.size();
  auto [ptr, ec] = std::from_chars(v->text.data(), end, n);
  if (v->kind != json::Kind::kNumber || ec != std::errc() || ptr != end || n < 0) {
    return Error{Describe(doc) + ": spec." + std::string(field) + " is not a non-negative integer"};
  }
  return n;
}

// How many pods the controller creates at once.
Result<std::int32_t> PodCount(const api::UnmodeledDocument& doc, WorkloadKind kind,
                              const json::Value* spec) {
  if (kind != WorkloadKind::kJob) return Count(doc, spec, "replicas", 1);
  const json::Value* suspend = Member(spec, "suspend");
  if (suspend != nullptr && suspend->kind == json::Kind::kBool && suspend->boolean) return 0;
  Result<std::int32_t> parallelism = Count(doc, spec, "parallelism", 1);
  if (!parallelism.ok()) return parallelism;
  Result<std::int32_t> completions = Count(doc, spec, "completions", *parallelism);
  if (!completions.ok()) return completions;
  return std::min(*parallelism, *completions);
}

// The template as a core/v1 Pod in the workload's namespace.
Result<api::Pod> TemplatePod(const api::UnmodeledDocument& doc, const json::Value* spec,
                             const std::string& default_namespace) {
  const json::Value* tmpl = Member(spec, "template");
  if (tmpl == nullptr || !tmpl->is_object()) {
    return Error{Describe(doc) + ": spec.template is missing"};
  }
  json::Value pod = json::Value::Object();
  pod.members.push_back({"apiVersion", json::Value::String("v1"), {}});
  pod.members.push_back({"kind", json::Value::String("Pod"), {}});
  if (const json::Value* meta = Member(tmpl, "metadata"))
    pod.members.push_back({"metadata", *meta, {}});
  if (const json::Value* pod_spec = Member(tmpl, "spec"))
    pod.members.push_back({"spec", *pod_spec, {}});
  api::DecodeOutcome decoded = api::DecodeDocument(pod, api::DecodeOptions{});
  if (!decoded.errors.empty()) {
    return Error{Describe(doc) + ": spec.template: " + decoded.errors.front().message};
  }
  auto* out = decoded.objects.empty() ? nullptr : std::get_if<api::Pod>(&decoded.objects[0].object);
  if (out == nullptr) return Error{Describe(doc) + ": spec.template is not a pod template"};
  out->metadata.namespace_ = doc.namespace_.empty() ? default_namespace : doc.namespace_;
  out->metadata.generate_name.clear();
  return std::move(*out);
}

// The tolerations the DaemonSet controller adds to every pod it creates
// (AddOrUpdateDaemonPodTolerations in pkg/controller/daemon/util).
void AddDaemonTolerations(api::Pod& pod, bool host_network) {
  auto add = [&](const char* key, const char* effect) {
    for (const api::Toleration& t : pod.spec.tolerations) {
      if (t.key == key && t.operator_ == "Exists" && t.effect == effect) return;
    }
    pod.spec.tolerations.push_back({key, "Exists", "", effect, std::nullopt});
  };
  add("node.kubernetes.io/not-ready", "NoExecute");
  add("node.kubernetes.io/unreachable", "NoExecute");
  add("node.kubernetes.io/disk-pressure", "NoSchedule");
  add("node.kubernetes.io/memory-pressure", "NoSchedule");
  add("node.kubernetes.io/pid-pressure", "NoSchedule");
  add("node.kubernetes.io/unschedulable", "NoSchedule");
  if (host_network) add("node.kubernetes.io/network-unavailable", "NoSchedule");
}

// Whether the DaemonSet controller runs its pod on `node`: the template's
// node selector and required affinity match and every NoSchedule and
// NoExecute taint is tolerated.
bool ShouldRunOn(const api::Pod& pod, const api::Node& node) {
  for (const auto& [key, value] : pod.spec.node_selector) {
    auto it = node.metadata.labels.find(key);
    if (it == node.metadata.labels.end() || it->second != value) return false;
  }
  if (pod.spec.affinity && pod.spec.affinity->node_affinity &&
      pod.spec.affinity->node_affinity->required_during_scheduling_ignored_during_execution &&
      !MatchesNodeSelector(
          *pod.spec.affinity->node_affinity->required_during_scheduling_ignored_during_execution,
          node)) {
    return false;
  }
  return UntoleratedTaint(node, pod.spec.tolerations) == nullptr;
}

// The daemon pod for `node`, pinned there as the controller pins it: its
// required node affinity becomes one term matching the node's name.
api::Pod DaemonPod(const api::Pod& tmpl, const std::string& workload, const api::Node& node) {
  api::Pod pod = tmpl;
  pod.metadata.name = workload + "-" + node.metadata.name;
  if (!pod.spec.affinity) pod.spec.affinity.emplace();
  if (!pod.spec.affinity->node_affinity) pod.spec.affinity->node_affinity.emplace();
  api::NodeSelectorRequirement by_name;
  by_name.key = "metadata.name";
  by_name.operator_ = "In";
  by_name.values.push_back(node.metadata.name);
  api::NodeSelectorTerm term;
  term.match_fields.push_back(std::move(by_name));
  api::NodeSelector selector;
  selector.node_selector_terms.push_back(std::move(term));
  pod.spec.affinity->node_affinity->required_during_scheduling_ignored_during_execution =
      std::move(selector);
  return pod;
}

Status AddPods(const api::UnmodeledDocument& doc, WorkloadKind kind,
               const std::vector<api::Node>& nodes, const std::string& default_namespace,
               std::vector<api::Pod>& out) {
  const json::Value* spec = Member(&doc.root, "spec");
  Result<api::Pod> tmpl = TemplatePod(doc, spec, default_namespace);
  if (!tmpl.ok()) return tmpl.failure();
  // A workload named by generateName ("job-") names its pods after the prefix.
  std::string base = doc.name;
  if (base.ends_with('-')) base.pop_back();
  if (kind == WorkloadKind::kDaemonSet) {
    const json::Value* pod_spec = Member(Member(spec, "template"), "spec");
    const json::Value* host_network = Member(pod_spec, "hostNetwork");
    AddDaemonTolerations(*tmpl, host_network != nullptr && host_network->boolean);
    for (const api::Node& node : nodes) {
      if (ShouldRunOn(*tmpl, node)) out.push_back(DaemonPod(*tmpl, base, node));
    }
    return {};
  }
  Result<std::int32_t> count = PodCount(doc, kind, spec);
  if (!count.ok()) return count.failure();
  for (std::int32_t i = 0; i < *count; ++i) {
    api::Pod pod = *tmpl;
    pod.metadata.name = base + "-" + std::to_string(i);
    out.push_back(std::move(pod));
  }
  return {};
}

}  // namespace

Result<std::vector<api::Pod>> PodsOfWorkloads(const std::vector<api::UnmodeledDocument>& documents,
                                              const std::vector<api::Node>& nodes,
                                              const std::string& default_namespace) {
  std::vector<api::Pod> out;
  for (const api::UnmodeledDocument& doc : documents) {
    std::optional<WorkloadKind> kind = WorkloadKindOf(doc);
    if (!kind) continue;
    if (Status s = AddPods(doc, *kind, nodes, default_namespace, out); !s.ok()) {
      return s.failure();
    }
  }
  return out;
}

}  // namespace dra::scheduler
