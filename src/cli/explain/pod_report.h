// What `dra explain` prints for one pod: the scheduler's per-node verdict
// (dra/scheduler/scheduler.h ExplainPod) turned into what a person asks:
// nodes grouped by the reason they fail, the nodes that came closest, who
// holds the devices there, and one line on what would make the pod fit.
// docs/EXPLAIN.md describes both output forms.
#pragma once

#include <map>
#include <optional>
#include <string>
#include <vector>

#include "dra/api/core.h"
#include "dra/json/value.h"
#include "dra/scheduler/scheduler.h"
#include "dra/util/result.h"

namespace dra::cli::explain {

// The cluster around the pod, for naming who holds which device. Built
// before the scheduler takes the cluster (pool_nodes) and read from it after.
struct ReportContext {
  // "driver/pool" -> node, for pools of node-local slices.
  std::map<std::string, std::string> pool_nodes;
  // "driver/pool/device" -> holders, each "namespace/claim" followed by the
  // pods in its reservedFor ("default/c (default/p1, default/p2)").
  std::map<std::string, std::vector<std::string>> holders;
  // The PodScheduled condition the cluster recorded (live or snapshot), if any.
  std::optional<api::PodCondition> cluster_condition;
};

// Fills ctx.holders from the scheduler's claims.
void CollectHolders(const scheduler::Scheduler& sched, ReportContext& ctx);

struct PodReport {
  json::Value json;  // the -o json document
  std::string text;  // the -o text form
};

Result<PodReport> BuildPodReport(const scheduler::PodVerdict& verdict, const ReportContext& ctx);

// The (at most 3) nodes DRA rejected that came closest, as the report's
// "Closest" line lists them: fewest devices missing first, nodes without
// any device of the class only when no other is left. The pointers point
// into `verdict`.
std::vector<const scheduler::NodeVerdict*> ClosestNodes(const scheduler::PodVerdict& verdict);

// How far a node DRA rejected came from fitting, in the order of the
// "Closest" line: nodes with devices of the class first, fewest devices
// missing first, then the nodes without any. For ExplainOptions::distance.
std::uint64_t Distance(const allocator::Explanation& explanation);

}  // namespace dra::cli::explain
