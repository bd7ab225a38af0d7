#include "dra/driver/flags.h"

#include <fstream>
#include <iostream>

namespace dra::driver {

void AddPluginFlags(CLI::App& app, PluginFlags& flags, const std::string& default_driver_name) {
  PluginOptions& o = flags.options;
  if (!default_driver_name.empty()) o.driver_name = default_driver_name;
  auto* driver = app.add_option("--driver-name", o.driver_name, "DRA driver name")
                     ->envname("DRIVER_NAME")
                     ->capture_default_str();
  if (default_driver_name.empty()) driver->required();
  app.add_option("--node-name", o.node_name, "node name (pool name, spec.nodeName)")
      ->envname("NODE_NAME")
      ->required();
  app.add_option("--node-uid", o.node_uid, "UID of the Node object (owner of the ResourceSlices)")
      ->envname("NODE_UID");
  app.add_option("--cdi-root", o.cdi_root, "directory for the claims' CDI specs")
      ->envname("CDI_ROOT")
      ->capture_default_str();
  app.add_option("--kubelet-registrar-directory-path", o.registrar_directory,
                 "the kubelet's plugin registration directory")
      ->envname("KUBELET_REGISTRAR_DIRECTORY_PATH")
      ->capture_default_str();
  app.add_option("--kubelet-plugins-directory-path", o.plugins_directory,
                 "parent of the plugin data directory <path>/<driver name>")
      ->envname("KUBELET_PLUGINS_DIRECTORY_PATH")
      ->capture_default_str();
  app.add_option("--pod-uid", o.pod_uid, "pod UID; enables rolling updates")->envname("POD_UID");
  app.add_option("--claims", flags.claims_path, "ResourceClaim manifests (file or directory)")
      ->envname("DRA_CLAIMS")
      ->required();
  app.add_option("--resource-slices", flags.resource_slices_path,
                 "file the ResourceSlices are written to; - = standard output")
      ->envname("DRA_RESOURCE_SLICES")
      ->capture_default_str();
  app.add_option("--resource-slices-format", flags.resource_slices_format, "yaml or json")
      ->check(CLI::IsMember({"yaml", "json"}))
      ->capture_default_str();
  app.add_option("--health-resend-seconds", flags.health_resend_seconds,
                 "health streams re-send the full list this often")
      ->check(CLI::Range(0.001, 3600.0))
      ->capture_default_str();
}

int RunPluginFromFlags(Driver& driver, PluginFlags& flags) {
  flags.options.health_resend_period =
      std::chrono::milliseconds(static_cast<std::int64_t>(flags.health_resend_seconds * 1000));
  auto claims = NewManifestClaimSource(flags.claims_path);
  std::unique_ptr<SlicePublisher> publisher;
  if (flags.resource_slices_path == "-") {
    publisher = NewStreamSlicePublisher(std::cout);
  } else {
    publisher = NewFileSlicePublisher(flags.resource_slices_path, flags.resource_slices_format);
  }
  return RunPlugin(driver, *claims, *publisher, flags.options);
}

}  // namespace dra::driver
