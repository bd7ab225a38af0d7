// dra explain pod|claim [NAMESPACE/]NAME: what kube-scheduler decides for a
// pod and why, node by node, on a live cluster or a snapshot directory
// (docs/EXPLAIN.md).
#include <iostream>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "allocator/report.h"
#include "cli/commands.h"
#include "cli/explain/pod_report.h"
#include "cli/kube_flags.h"
#include "cli/live_cluster.h"
#include "cli/manifest_flags.h"
#include "dra/allocator/allocator.h"
#include "dra/json/build.h"
#include "dra/json/value.h"
#include "dra/scheduler/scheduler.h"

namespace dra::cli {
namespace {

struct ExplainFlags {
  std::string kind;
  std::string name;
  bool all_namespaces = false;
  std::vector<std::string> files;
  bool recursive = false;
  std::string feature_gates;
  std::string output = "text";
  std::uint64_t seed = 1;
  kube::ConfigFlags kube;
};

// Kubernetes' wording for an object that is not there.
int NotFound(const std::string& resource, const std::string& name) {
  std::cerr << "Error from server (NotFound): " << resource << " \"" << name << "\" not found\n";
  return 1;
}

struct Loaded {
  scheduler::Cluster cluster;
  std::string namespace_;  // for names given without one
  api::FeatureGates gates;
  std::int64_t now = 0;
};

// -f: manifests (a snapshot directory); else the live cluster.
std::optional<Loaded> Load(const ExplainFlags& flags, int& rc) {
  Loaded out;
  ManifestFlags manifests;
  manifests.files = flags.files;
  manifests.recursive = flags.recursive;
  manifests.feature_gates = flags.feature_gates;
  manifests.namespace_ = flags.kube.namespace_.value_or("default");
  api::ManifestOptions options;
  if ((rc = manifests.Prepare(options, out.gates)) != 0) return std::nullopt;
  out.now = options.decode.now;
  if (!flags.files.empty()) {
    api::ManifestSet set = api::ReadManifests(flags.files, options);
    Result<scheduler::Cluster> cluster =
        scheduler::ClusterFromManifests(std::move(set), manifests.namespace_);
    if (!cluster.ok()) {
      std::cerr << "error: " << cluster.error() << "\n";
      rc = 2;
      return std::nullopt;
    }
    out.cluster = std::move(*cluster);
    out.namespace_ = manifests.namespace_;
    return out;
  }
  Result<LiveCluster> live = LoadLiveCluster(flags.kube);
  if (!live.ok()) {
    std::cerr << live.error() << "\n";
    rc = 1;
    return std::nullopt;
  }
  out.cluster = std::move(live->cluster);
  out.namespace_ = live->namespace_;
  return out;
}

// "ns/name" or "name" (in `default_ns`).
std::pair<std::string, std::string> SplitName(const std::string& arg,
                                              const std::string& default_ns) {
  auto slash = arg.find('/');
  if (slash == std::string::npos) return {default_ns, arg};
  return {arg.substr(0, slash), arg.substr(slash + 1)};
}

int Print(const explain::PodReport& report, const std::string& output) {
  if (output == "json") {
    std::cout << json::ToIndentedJson(report.json, 2) << "\n";
  } else {
    std::cout << report.text;
  }
  return 0;
}

// Whether the pod names the claim (directly, or through its status for a
// template entry).
bool PodUsesClaim(const api::Pod& pod, const std::string& claim) {
  for (const api::PodResourceClaim& c : pod.spec.resource_claims) {
    if (c.resource_claim_name && *c.resource_claim_name == claim) return true;
  }
  for (const api::PodResourceClaimStatus& s : pod.status.resource_claim_statuses) {
    if (s.resource_claim_name && *s.resource_claim_name == claim) return true;
  }
  if (const auto& ext = pod.status.extended_resource_claim_status) {
    if (ext->resource_claim_name == claim) return true;
  }
  return false;
}

// One pod's report, with the PodScheduled condition the cluster recorded.
// Errors are printed; nullopt then.
std::optional<explain::PodReport> ReportFor(scheduler::Scheduler& sched,
                                            explain::ReportContext& ctx, const std::string& ns,
                                            const std::string& name) {
  const scheduler::PodRecord* rec = sched.FindPod(ns, name);
  ctx.cluster_condition.reset();
  if (rec != nullptr) {
    for (const api::PodCondition& c : rec->pod.status.conditions) {
      if (c.type == "PodScheduled") ctx.cluster_condition = c;
    }
  }
  Result<scheduler::PodVerdict> verdict = sched.ExplainPod(ns, name);
  if (!verdict.ok()) {
    if (rec == nullptr) {
      NotFound("pods", name);
    } else {
      std::cerr << "error: " << verdict.error() << "\n";
    }
    return std::nullopt;
  }
  Result<explain::PodReport> report = explain::BuildPodReport(*verdict, ctx);
  if (!report.ok()) {
    std::cerr << "error: " << report.error() << "\n";
    return std::nullopt;
  }
  return std::move(report).value();
}

int ExplainPodNamed(scheduler::Scheduler& sched, explain::ReportContext& ctx, const std::string& ns,
                    const std::string& name, const std::string& output,
                    const std::string& claim_key) {
  explain::CollectHolders(sched, ctx);
  std::optional<explain::PodReport> report = ReportFor(sched, ctx, ns, name);
  if (!report) return 1;
  if (!claim_key.empty()) {
    report->json.members.insert(report->json.members.begin(),
                                {"claim", json::Value::String(claim_key), {}});
    report->text =
        "Claim " + claim_key + ", as used by pod " + ns + "/" + name + ":\n" + report->text;
  }
  return Print(*report, output);
}

// An allocated claim: its devices and who holds it. Otherwise the pod that
// waits for it is explained (or, when no pod uses it, a pod that would).
int ExplainClaim(scheduler::Scheduler& sched, explain::ReportContext& ctx, const std::string& ns,
                 const std::string& name, const std::string& output) {
  const api::ResourceClaim* claim = sched.FindClaim(ns, name);
  if (claim == nullptr) return NotFound("resourceclaims.resource.k8s.io", name);
  const std::string key = ns + "/" + name;
  if (claim->status.allocation) {
    json::Value doc = json::Value::Object();
    json::Put(doc, "claim", json::Value::String(key));
    json::Put(doc, "verdict", json::Value::String("Allocated"));
    std::string text = "Claim " + key + ": Allocated\n";
    json::Value pods = json::Value::Array();
    std::vector<std::string> names;
    for (const api::ResourceClaimConsumerReference& r : claim->status.reserved_for) {
      names.push_back(r.resource == "pods" ? ns + "/" + r.name : r.resource + "/" + r.name);
      pods.items.push_back(json::Value::String(names.back()));
    }
    json::Put(doc, "reservedFor", std::move(pods));
    text += "  reserved for: " + (names.empty() ? std::string("nobody") : "");
    for (std::size_t i = 0; i < names.size(); ++i) text += (i == 0 ? "" : ", ") + names[i];
    text += "\n";
    Result<json::Value> a = allocator::AllocationResultJson(*claim->status.allocation);
    if (!a.ok()) {
      std::cerr << "error: " << a.error() << "\n";
      return 1;
    }
    json::Put(doc, "allocation", std::move(*a));
    for (const api::DeviceRequestAllocationResult& r : claim->status.allocation->devices.results) {
      text += "  request " + r.request + ": " + r.driver + "/" + r.pool + "/" + r.device + "\n";
    }
    std::string summary = names.empty()
                              ? "allocated but reserved for no pod: the next pod that uses it "
                                "gets these devices"
                              : "allocated and in use";
    json::Put(doc, "summary", json::Value::String(summary));
    text += "Summary: " + summary + "\n";
    if (output == "json") {
      std::cout << json::ToIndentedJson(doc, 2) << "\n";
    } else {
      std::cout << text;
    }
    return 0;
  }
  // The first Pending pod that uses the claim.
  for (const scheduler::PodRecord& p : sched.pods()) {
    if (p.deleted || p.state != scheduler::PodState::kPending) continue;
    if (p.pod.metadata.namespace_ == ns && PodUsesClaim(p.pod, name)) {
      return ExplainPodNamed(sched, ctx, ns, p.pod.metadata.name, output, key);
    }
  }
  // Nobody uses it: a pod that would.
  api::Pod probe;
  probe.type = {"Pod", "v1"};
  probe.metadata.namespace_ = ns;
  probe.metadata.name = "dra-explain-" + name;
  for (int i = 2; sched.FindPod(ns, probe.metadata.name) != nullptr; ++i) {
    probe.metadata.name = "dra-explain-" + name + "-" + std::to_string(i);
  }
  probe.spec.containers.push_back({"c", "", {}});
  probe.spec.resource_claims.push_back({"claim", name, std::nullopt});
  Status added = sched.AddPod(probe);
  if (!added.ok()) {
    std::cerr << "error: " << added.error() << "\n";
    return 1;
  }
  return ExplainPodNamed(sched, ctx, ns, probe.metadata.name, output, key + " (no pod uses it)");
}

// `dra explain pods` without a name: every pod of the namespace (or of all
// with -A), one report each, from one load of the cluster.
int ExplainAllPods(scheduler::Scheduler& sched, explain::ReportContext& ctx, const std::string& ns,
                   bool all_namespaces, const std::string& output) {
  explain::CollectHolders(sched, ctx);
  std::vector<std::pair<std::string, std::string>> names;
  for (const scheduler::PodRecord& p : sched.pods()) {
    if (p.deleted || p.state == scheduler::PodState::kSucceeded ||
        p.state == scheduler::PodState::kFailed) {
      continue;
    }
    if (all_namespaces || p.pod.metadata.namespace_ == ns) {
      names.emplace_back(p.pod.metadata.namespace_, p.pod.metadata.name);
    }
  }
  json::Value items = json::Value::Array();
  std::string text;
  for (const auto& [pod_ns, name] : names) {
    std::optional<explain::PodReport> report = ReportFor(sched, ctx, pod_ns, name);
    if (!report) return 1;
    items.items.push_back(std::move(report->json));
    text += (text.empty() ? "" : "\n") + report->text;
  }
  if (output == "json") {
    json::Value doc = json::Value::Object();
    doc.members.push_back({"items", std::move(items), {}});
    std::cout << json::ToIndentedJson(doc, 2) << "\n";
  } else if (names.empty()) {
    std::cerr << "No resources found" << (all_namespaces ? "" : " in " + ns + " namespace")
              << ".\n";
  } else {
    std::cout << text;
  }
  return 0;
}

int Run(const ExplainFlags& flags) {
  if (flags.kind != "pod" && flags.kind != "pods" && flags.kind != "po" && flags.kind != "claim" &&
      flags.kind != "claims" && flags.kind != "resourceclaim" && flags.kind != "resourceclaims") {
    std::cerr << "error: the server doesn't have a resource type \"" << flags.kind
              << "\" (dra explain explains a pod or a claim)\n";
    return 2;
  }
  int rc = 0;
  std::optional<Loaded> loaded = Load(flags, rc);
  if (!loaded) return rc;
  auto [ns, name] = SplitName(flags.name, loaded->namespace_);

  explain::ReportContext ctx;
  for (const api::ResourceSlice& s : loaded->cluster.slices) {
    if (s.spec.node_name && !s.spec.node_name->empty()) {
      ctx.pool_nodes[s.spec.driver + "/" + s.spec.pool.name] = *s.spec.node_name;
    }
  }
  scheduler::SchedulerOptions options;
  options.features = allocator::Features::FromGates(loaded->gates);
  options.seed = flags.seed;
  options.now = loaded->now;
  // Deliberately never destroyed (held by a static pointer, so it stays
  // reachable): the process exits right after, and freeing a large cluster
  // (20,000 pods and claims) object by object costs a quarter of a second.
  static scheduler::Scheduler* kept = nullptr;
  kept = new scheduler::Scheduler(std::move(loaded->cluster), options);
  scheduler::Scheduler& sched = *kept;
  if (flags.kind.starts_with("p")) {
    if (flags.name.empty()) {
      return ExplainAllPods(sched, ctx, ns, flags.all_namespaces, flags.output);
    }
    return ExplainPodNamed(sched, ctx, ns, name, flags.output, "");
  }
  if (flags.name.empty()) {
    std::cerr << "error: dra explain claim needs a claim name\n";
    return 2;
  }
  return ExplainClaim(sched, ctx, ns, name, flags.output);
}

}  // namespace

void AddExplainCommand(CLI::App& app, int& exit_code) {
  auto flags = std::make_shared<ExplainFlags>();
  CLI::App* cmd = app.add_subcommand(
      "explain",
      "Say what kube-scheduler decides for a pod (or the pod waiting for a claim) and why, node "
      "by node: the filter that rejects each node, per request the devices each allocator "
      "stage removed, the nodes that came closest and who holds their devices; on a live "
      "cluster (kubectl's flags) or a snapshot directory (-f)");
  cmd->add_option("kind", flags->kind, "pod or claim")->required();
  cmd->add_option("name", flags->name,
                  "[NAMESPACE/]NAME; without it, every pod of the namespace (pods only)");
  cmd->add_flag("-A,--all-namespaces", flags->all_namespaces,
                "Without a name: the pods of every namespace");
  cmd->add_option("-f,--filename", flags->files,
                  "Manifest files or directories (e.g. from dra snapshot) instead of a live "
                  "cluster");
  cmd->add_flag("-R,--recursive", flags->recursive, "Read directories given with -f recursively");
  cmd->add_option("--feature-gates", flags->feature_gates,
                  "Kubernetes feature gates (A=true,B=false); defaults are Kubernetes 1.37's");
  cmd->add_option("-o,--output", flags->output, "Output format")
      ->check(CLI::IsMember({"text", "json"}));
  cmd->add_option("--seed", flags->seed,
                  "Seed for the tie-break between equally good nodes and generated names");
  RegisterKubeFlags(*cmd, flags->kube);
  cmd->callback([flags, &exit_code] { exit_code = Run(*flags); });
}

}  // namespace dra::cli
