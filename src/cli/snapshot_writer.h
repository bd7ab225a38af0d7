// Writes a cluster's DRA-relevant objects as a snapshot directory (one
// core/v1 List per kind, compact JSON; docs/SNAPSHOT.md): what `dra snapshot`
// writes for a live cluster and `dra simulate --write-snapshot` for the state
// a simulation ends in.
#pragma once

#include <string>
#include <vector>

#include "dra/api/core.h"
#include "dra/scheduler/cluster.h"
#include "dra/util/result.h"

namespace dra::cli {

// Creates `dir` if needed and writes one file per kind, each through a
// temporary file and a rename. Returns "N namespaces, N nodes, ..." on
// success; the error names the file.
// Writes the cluster's nodes, classes, slices, taint rules, templates, claims
// and pods (duplicates and warnings are not part of a snapshot).
Result<std::string> WriteSnapshot(const std::string& dir, const scheduler::Cluster& cluster,
                                  const std::vector<api::Namespace>& namespaces);

}  // namespace dra::cli
