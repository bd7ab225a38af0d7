// Shared by the tests that run every scheduler_perf workload.
#pragma once

#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "dra/scheduler/cluster.h"
#include "scheduler/workloads.h"

namespace dra::scheduler {

inline Cluster ParseCluster(const std::string& yaml) {
  api::ManifestSet set;
  api::ParseManifestText("workload", yaml, api::ManifestOptions{}, set);
  Result<Cluster> c = ClusterFromManifests(set, "default");
  EXPECT_TRUE(c.ok()) << c.error();
  return c.ok() ? std::move(*c) : Cluster{};
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
