// Writes a cluster's DRA-relevant objects as a snapshot directory (one
// core/v1 List per kind, compact JSON; docs/SNAPSHOT.md): what `dra snapshot`
// writes for a live cluster and `dra simulate --write-snapshot` for the state
// a simulation ends in.
#pragma once

#include <string>
#include <vector>

#include "dra/api/core.h"
#include "dra/api/resource.h"
#include "dra/util/result.h"

namespace dra::cli {

struct SnapshotObjects {
  std::vector<api::Namespace> namespaces;
  std::vector<api::Node> nodes;
  std::vector<api::DeviceClass> classes;
  std::vector<api::ResourceSlice> slices;
  std::vector<api::DeviceTaintRule> taint_rules;
  std::vector<api::ResourceClaimTemplate> templates;
  std::vector<api::ResourceClaim> claims;
  std::vector<api::Pod> pods;
};

// Creates `dir` if needed and writes one file per kind, each through a
// temporary file and a rename. Returns "N namespaces, N nodes, ..." on
// success; the error names the file.
Result<std::string> WriteSnapshot(const std::string& dir, const SnapshotObjects& objects);

}  // namespace dra::cli
