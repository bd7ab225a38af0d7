// dra simulate: schedule a cluster's pods with the DRA scheduler and report
// placements, utilization, Pending pods with their reasons, and timing
// (docs/SIMULATE.md).
#include <unistd.h>

#include <chrono>
#include <cstdio>
#include <iostream>
#include <map>
#include <memory>
#include <optional>
#include <set>
#include <string>

#include "cli/commands.h"
#include "cli/manifest_flags.h"
#include "cli/simulate_html.h"
#include "cli/snapshot_writer.h"
#include "dra/allocator/allocator.h"
#include "dra/driver/node_inventory.h"
#include "dra/scheduler/device_plugin_model.h"
#include "dra/scheduler/workload_pods.h"
#include "driver/node_agent_simulation.h"
#include "scheduler/simulation_report.h"

namespace dra::cli {
namespace {

struct SimulateFlags {
  ManifestFlags manifests;
  std::string output = "text";
  std::string compare;
  std::uint64_t seed = 1;
  int parallelism = 0;
  int percentage = 0;
  std::string binding_conditions = "met";
  bool no_explain = false;
  bool prepare = false;
  int prepare_timeout = 60;  // seconds per node
  std::string write_snapshot;
};

double SecondsSince(std::chrono::steady_clock::time_point t) {
  return std::chrono::duration<double>(std::chrono::steady_clock::now() - t).count();
}

// --prepare: the kubelet's part on every node with bound pods that have
// claims, through the example driver (dra/driver/node_agent_simulation.h).
scheduler::PrepareReport PrepareNodes(const scheduler::Scheduler& sched,
                                      const std::vector<api::ResourceSlice>& slices,
                                      int timeout_seconds) {
  auto start = std::chrono::steady_clock::now();
  std::map<std::string, driver::NodeAgentInput> inputs;
  for (const scheduler::PodRecord& p : sched.pods()) {
    if (p.deleted || p.state != scheduler::PodState::kBound) continue;
    const std::string& ns = p.pod.metadata.namespace_;
    driver::NodeAgentPod pod;
    pod.pod = &p.pod;
    for (const api::PodResourceClaim& c : p.pod.spec.resource_claims) {
      std::optional<std::string> name = c.resource_claim_name;
      if (!name) {
        for (const api::PodResourceClaimStatus& s : p.pod.status.resource_claim_statuses) {
          if (s.name == c.name) name = s.resource_claim_name;
        }
      }
      if (!name || name->empty()) continue;
      if (const api::ResourceClaim* claim = sched.FindClaim(ns, *name)) pod.claims[c.name] = claim;
    }
    if (const auto& ext = p.pod.status.extended_resource_claim_status) {
      pod.extended_resource_claim = sched.FindClaim(ns, ext->resource_claim_name);
    }
    if (pod.claims.empty() && pod.extended_resource_claim == nullptr) continue;
    driver::NodeAgentInput& in = inputs[p.node];
    in.node_name = p.node;
    in.slices = &slices;
    in.pods.push_back(std::move(pod));
  }
  driver::NodeAgentOptions options;
  options.node_timeout = std::chrono::seconds(timeout_seconds);
  scheduler::PrepareReport report;
  for (const auto& [node, in] : inputs) {
    driver::NodeAgentResult r = driver::SimulateNodeAgent(in, options);
    ++report.nodes;
    report.claims_prepared += r.claims_prepared;
    report.cdi_devices += r.cdi_device_ids;
    report.failures += r.failures;
    for (const std::string& e : r.errors) {
      std::string line = node;
      line += ": ";
      report.errors.push_back(line += e);
    }
    for (driver::NodeAgentPodResult& p : r.pods) {
      scheduler::PreparedPod out{
          std::move(p.namespace_), std::move(p.name), node, {}, std::move(p.errors)};
      for (driver::ContainerCdiDevices& c : p.containers) {
        out.containers.push_back({std::move(c.name), c.init, std::move(c.cdi_device_ids)});
      }
      report.pods.push_back(std::move(out));
    }
  }
  report.seconds = SecondsSince(start);
  return report;
}

// --write-snapshot: the state the simulation ends in, as `dra snapshot` writes
// a live cluster's: bound pods with their node, Pending ones with a
// PodScheduled condition carrying the scheduler's message, every claim.
int WriteFinalState(const scheduler::Scheduler& sched, std::vector<api::ResourceSlice> slices,
                    scheduler::Cluster state, const std::string& dir) {
  state.slices = std::move(slices);
  std::vector<api::Namespace> namespace_objects;
  std::set<std::string> namespaces;
  for (const scheduler::PodRecord& p : sched.pods()) {
    if (p.deleted || p.state == scheduler::PodState::kSucceeded ||
        p.state == scheduler::PodState::kFailed) {
      continue;
    }
    api::Pod pod = p.pod;
    if (p.state == scheduler::PodState::kPending) {
      api::PodCondition c;
      c.type = "PodScheduled";
      c.status = "False";
      c.reason = "Unschedulable";
      c.message = p.reason;
      pod.status.conditions.push_back(std::move(c));
      pod.status.phase = "Pending";
    }
    namespaces.insert(pod.metadata.namespace_);
    state.pods.push_back(std::move(pod));
  }
  for (const api::ResourceClaim* c : sched.Claims()) {
    namespaces.insert(c->metadata.namespace_);
    state.claims.push_back(*c);
  }
  for (const std::string& ns : namespaces) {
    api::Namespace n;
    n.type = {"Namespace", "v1"};
    n.metadata.name = ns;
    namespace_objects.push_back(std::move(n));
  }
  Result<std::string> written = WriteSnapshot(dir, state, namespace_objects);
  if (!written.ok()) {
    std::cerr << "error: " << written.error() << "\n";
    return 1;
  }
  return 0;
}

// Reads the manifests, NodeInventory documents expanded to Nodes and their
// slices; nullopt, after saying why, when the input cannot be read.
std::optional<scheduler::Cluster> ReadCluster(const ManifestFlags& manifests,
                                              api::ManifestOptions& options) {
  options.extension_groups.emplace_back(driver::kNodeInventoryGroup);
  api::ManifestSet set = api::ReadManifests(manifests.files, options);
  Result<std::vector<api::Object>> inventory =
      driver::ExpandNodeInventories(set, options.decode.now);
  std::vector<api::UnmodeledDocument> unmodeled = std::move(set.unmodeled);
  Result<scheduler::Cluster> cluster =
      scheduler::ClusterFromManifests(std::move(set), manifests.namespace_);
  if (!cluster.ok()) {
    std::cerr << "error: " << cluster.error() << "\n";
    return std::nullopt;
  }
  if (!inventory.ok()) {
    std::cerr << "error: " << inventory.error() << "\n";
    return std::nullopt;
  }
  scheduler::AddObjects(*cluster, std::move(*inventory));
  scheduler::AddMissingNodes(*cluster);
  // Workloads (Deployments, Jobs, DaemonSets...) become the pods their
  // controllers create; DaemonSets need the nodes, so this comes last.
  Result<std::vector<api::Pod>> workload_pods =
      scheduler::PodsOfWorkloads(unmodeled, cluster->nodes, manifests.namespace_);
  if (!workload_pods.ok()) {
    std::cerr << "error: " << workload_pods.error() << "\n";
    return std::nullopt;
  }
  std::vector<api::Object> pods;
  for (api::Pod& pod : *workload_pods) pods.emplace_back(std::move(pod));
  scheduler::AddObjects(*cluster, std::move(pods));
  return std::move(*cluster);
}

scheduler::SchedulerOptions SchedulerOptionsFor(const SimulateFlags& flags,
                                                const api::FeatureGates& gates, std::int64_t now) {
  scheduler::SchedulerOptions sched_options;
  sched_options.features = allocator::Features::FromGates(gates);
  sched_options.seed = flags.seed;
  sched_options.parallelism = flags.parallelism;
  sched_options.percentage_of_nodes_to_score = flags.percentage;
  sched_options.explain = !flags.no_explain;
  sched_options.binding_conditions_met = flags.binding_conditions == "met";
  sched_options.now = now;
  return sched_options;
}

// Runs the scheduler, with progress on a terminal only, at most every 100 ms.
// Returns the seconds it took.
double ScheduleWithProgress(scheduler::Scheduler& sched) {
  bool tty = isatty(STDERR_FILENO) != 0;
  auto last = std::chrono::steady_clock::now();
  bool printed = false;
  std::function<void(std::size_t, std::size_t)> progress;
  if (tty) {
    progress = [&](std::size_t bound, std::size_t total) {
      auto now = std::chrono::steady_clock::now();
      if (now - last < std::chrono::milliseconds(100)) return;
      last = now;
      printed = true;
      std::fprintf(stderr, "\rscheduling: %zu of %zu pods bound", bound, total);
    };
  }
  auto start = std::chrono::steady_clock::now();
  sched.Run(progress);
  double schedule_seconds = SecondsSince(start);
  if (printed) std::fprintf(stderr, "\r\033[K");
  return schedule_seconds;
}

void PrintReport(const std::string& output, const scheduler::SimulationReport& report) {
  if (output == "json") {
    std::cout << json::ToIndentedJson(scheduler::SimulationJson(report)) << "\n";
  } else if (output == "html") {
    std::cout << SimulationHtml(report);
  } else {
    std::cout << scheduler::SimulationText(report);
  }
}

// Exit status: 0 simulated (Pending pods included), 1 --write-snapshot
// failed, 2 input that cannot be read.
int Run(const SimulateFlags& flags) {
  auto load_start = std::chrono::steady_clock::now();
  api::ManifestOptions options;
  api::FeatureGates gates;
  if (int rc = flags.manifests.Prepare(options, gates); rc != 0) return rc;
  std::optional<scheduler::Cluster> cluster = ReadCluster(flags.manifests, options);
  if (!cluster) return 2;
  std::unique_ptr<scheduler::DevicePluginResult> device_plugin;
  if (flags.compare == "device-plugin") {
    device_plugin =
        std::make_unique<scheduler::DevicePluginResult>(scheduler::SimulateDevicePlugin(*cluster));
  }

  scheduler::SchedulerOptions sched_options = SchedulerOptionsFor(flags, gates, options.decode.now);
  std::vector<api::ResourceSlice> slices = cluster->slices;
  // The scheduler keeps neither nodes' allocatable nor the templates.
  scheduler::Cluster state;
  if (!flags.write_snapshot.empty()) {
    state.nodes = cluster->nodes;
    state.classes = cluster->classes;
    state.taint_rules = cluster->taint_rules;
    state.templates = cluster->templates;
  }
  scheduler::Scheduler sched(std::move(*cluster), sched_options);
  double load_seconds = SecondsSince(load_start);
  double schedule_seconds = ScheduleWithProgress(sched);

  std::unique_ptr<scheduler::PrepareReport> prepared;
  if (flags.prepare) {
    prepared = std::make_unique<scheduler::PrepareReport>(
        PrepareNodes(sched, slices, flags.prepare_timeout));
  }

  if (!flags.write_snapshot.empty()) {
    if (int rc = WriteFinalState(sched, slices, std::move(state), flags.write_snapshot); rc != 0) {
      return rc;
    }
  }

  scheduler::SimulationReport report;
  report.scheduler = &sched;
  report.prepare = prepared.get();
  report.utilization = scheduler::ComputeUtilization(sched, slices);
  report.load_seconds = load_seconds;
  report.schedule_seconds = schedule_seconds;
  report.device_plugin = device_plugin.get();
  PrintReport(flags.output, report);
  return 0;
}

}  // namespace

void AddSimulateCommand(CLI::App& app, int& exit_code) {
  auto flags = std::make_shared<SimulateFlags>();
  CLI::App* cmd = app.add_subcommand(
      "simulate",
      "Schedule the pods of a cluster (Nodes, DeviceClasses, ResourceSlices, ResourceClaims, "
      "ResourceClaimTemplates, DeviceTaintRules, Pods; NodeInventory documents of "
      "inventory.dra.local/v1alpha1 expand to Nodes with the example driver's slices) with the "
      "DRA scheduler and report "
      "placements, utilization and why pods stay Pending");
  flags->manifests.Register(*cmd, /*with_gates=*/true);
  cmd->add_option("-o,--output", flags->output, "Output format")
      ->check(CLI::IsMember({"text", "json", "html"}));
  cmd->add_option("--compare", flags->compare,
                  "Also schedule the workload under another model, side by side")
      ->check(CLI::IsMember({"device-plugin"}));
  cmd->add_option("--seed", flags->seed,
                  "Seed for generated claim names and the tie-break between equal nodes");
  cmd->add_option("--parallelism", flags->parallelism,
                  "Threads filtering nodes (default: one per CPU)")
      ->check(CLI::Range(0, 1024));
  cmd->add_option("--percentage-of-nodes-to-score", flags->percentage,
                  "kube-scheduler's percentageOfNodesToScore (default: its adaptive value)")
      ->check(CLI::Range(0, 100));
  cmd->add_option("--binding-conditions", flags->binding_conditions,
                  "Whether drivers meet devices' binding conditions (met) or the binding "
                  "timeout expires (timeout)")
      ->check(CLI::IsMember({"met", "timeout"}));
  cmd->add_flag("--no-explain", flags->no_explain,
                "Skip the allocator's explanation for Pending pods");
  cmd->add_flag("--prepare", flags->prepare,
                "After scheduling, prepare each node's claims with the example driver over its "
                "gRPC sockets, as the kubelet does, and report each container's CDI devices");
  cmd->add_option("--write-snapshot", flags->write_snapshot,
                  "Also write the state the simulation ends in as a snapshot directory "
                  "(docs/SNAPSHOT.md) that dra explain, get and simulate read");
  cmd->add_option("--prepare-timeout", flags->prepare_timeout,
                  "Seconds the kubelet calls of one node may take with --prepare")
      ->check(CLI::Range(1, 3600));
  cmd->callback([flags, &exit_code] { exit_code = Run(*flags); });
}

}  // namespace dra::cli
