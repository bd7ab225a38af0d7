// Shared by the tests that run every scheduler_perf workload.
#pragma once

#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "dra/scheduler/cluster.h"
#include "dra/scheduler/scheduler.h"
#include "scheduler/workloads.h"

namespace dra::scheduler {

inline Cluster ParseCluster(const std::string& yaml) {
  api::ManifestSet set;
  api::ParseManifestText("workload", yaml, api::ManifestOptions{}, set);
  Result<Cluster> c = ClusterFromManifests(set, "default");
  EXPECT_TRUE(c.ok()) << c.error();
  return c.ok() ? std::move(*c) : Cluster{};
}

// What the tests that compare two ways of scheduling a workload run it with:
// the DRA features the workloads use, two workers, a fixed seed.
inline SchedulerOptions WorkloadOptions() {
  SchedulerOptions options;
  options.features = allocator::Features::FromGates(api::FeatureGates{});
  options.features.consumable_capacity = true;
  options.features.partitionable_devices = true;
  options.parallelism = 2;
  options.seed = 7;
  return options;
}

// Pod placements and reasons, and each claim's devices (share IDs are random
// by design and left out).
inline std::vector<std::string> Outcome(const Scheduler& s) {
  std::vector<std::string> out;
  for (const PodRecord& p : s.pods()) {
    out.push_back(p.pod.metadata.name + " " + PodStateName(p.state) + " " + p.node + " " +
                  p.reason);
  }
  for (const api::ResourceClaim* c : s.Claims()) {
    std::string line = c->metadata.name + ":";
    if (c->status.allocation) {
      for (const auto& r : c->status.allocation->devices.results) {
        line += " " + r.request + "=" + r.driver + "/" + r.pool + "/" + r.device;
      }
    }
    out.push_back(line);
  }
  return out;
}

inline std::vector<std::string> WorkloadNames() {
  std::vector<std::string> names;
  for (const WorkloadInfo& w : Workloads()) names.push_back(w.name);
  return names;
}

// A gtest parameter name: workload names with '-' as '_'.
inline std::string WorkloadTestName(const ::testing::TestParamInfo<std::string>& info) {
  std::string n = info.param;
  for (char& c : n) {
    if (c == '-') c = '_';
  }
  return n;
}

}  // namespace dra::scheduler
