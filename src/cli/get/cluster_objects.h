// The objects `dra get` reads, whatever their source: manifests (-f) or a
// live cluster (live_source.h). Rows (device_rows.h, pool_rows.h,
// claim_rows.h) are computed from this snapshot alone.
#pragma once

#include <string>
#include <vector>

#include "dra/api/core.h"
#include "dra/api/manifest.h"
#include "dra/api/resource.h"

namespace dra::cli::get {

struct ClusterObjects {
  std::vector<api::ResourceSlice> slices;
  std::vector<api::ResourceClaim> claims;
  std::vector<api::Pod> pods;
  std::vector<api::DeviceClass> classes;
  std::vector<api::Node> nodes;
  std::vector<api::DeviceTaintRule> taint_rules;
};

struct ManifestObjects {
  ClusterObjects objects;
  // "FILE: document N (line L): problem": unreadable files, syntax errors,
  // objects that cannot be decoded, unknown kinds of resource.k8s.io.
  std::vector<std::string> errors;
  // Documents of kinds outside DRA's (a Deployment next to the claims) are
  // skipped with a warning, as they hold nothing `dra get` shows.
  std::vector<std::string> warnings;
};

// Sorts the decoded objects of `set` into ClusterObjects; namespaced objects
// that name no namespace get `default_namespace` (as kubectl -f does).
// ResourceClaimTemplates and Namespaces are not needed and dropped.
ManifestObjects ObjectsFromManifests(const api::ManifestSet& set,
                                     const std::string& default_namespace);

}  // namespace dra::cli::get
