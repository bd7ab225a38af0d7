// Flags shared by the commands that read manifests (-f, -R, -n,
// --feature-gates, --now).
#pragma once

#include <CLI/CLI.hpp>
#include <string>
#include <string_view>
#include <vector>

#include "dra/api/feature_gates.h"
#include "dra/api/manifest.h"

namespace dra::cli {

struct ManifestFlags {
  std::vector<std::string> files;
  bool recursive = false;
  std::string namespace_ = "default";
  std::string feature_gates;
  std::string now;  // RFC 3339; defaults to the current time

  void Register(CLI::App& cmd, bool with_gates);
  // Fills the options; prints the error and returns 2 on bad flags.
  int Prepare(api::ManifestOptions& options, api::FeatureGates& gates) const;
};

// "resource.k8s.io" for DRA kinds, "" for core kinds.
std::string_view KindGroup(std::string_view kind);

}  // namespace dra::cli
