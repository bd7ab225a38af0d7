// Command-line flags of a driver, named as in dra-example-driver so that
// people who know the Go drivers feel at home. Each flag also reads the
// environment variable in parentheses:
//
//   --driver-name (DRIVER_NAME)      --node-name (NODE_NAME)
//   --node-uid (NODE_UID)            --cdi-root (CDI_ROOT)
//   --kubelet-registrar-directory-path (KUBELET_REGISTRAR_DIRECTORY_PATH)
//   --kubelet-plugins-directory-path (KUBELET_PLUGINS_DIRECTORY_PATH)
//   --pod-uid (POD_UID)
//   --claims (DRA_CLAIMS): ResourceClaim manifests file or directory
//   --resource-slices (DRA_RESOURCE_SLICES): file to publish slices to,
//       "-" = standard output
//   --resource-slices-format (yaml|json)
//   --health-resend-seconds
#pragma once

#include <CLI/CLI.hpp>
#include <memory>
#include <string>

#include "dra/driver/plugin.h"
#include "dra/util/result.h"

namespace dra::driver {

struct PluginFlags {
  PluginOptions options;
  std::string claims_path;
  std::string resource_slices_path = "-";
  std::string resource_slices_format = "yaml";
  double health_resend_seconds = 10;
};

// Adds the flags above to `app`, bound to `flags`. `default_driver_name`
// pre-fills --driver-name (empty = the flag is required).
void AddPluginFlags(CLI::App& app, PluginFlags& flags, const std::string& default_driver_name = "");

// Builds the claim source and publisher the flags name and runs the plugin
// until SIGTERM/SIGINT (RunPlugin). Returns the exit status; bad flag values
// are reported on stderr with exit status 2.
int RunPluginFromFlags(Driver& driver, PluginFlags& flags);

}  // namespace dra::driver
