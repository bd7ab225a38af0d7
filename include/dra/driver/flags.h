// Command-line flags of a driver, named as in dra-example-driver so that
// people who know the Go drivers feel at home. Each flag also reads the
// environment variable in parentheses:
//
//   --driver-name (DRIVER_NAME)      --node-name (NODE_NAME)
//   --node-uid (NODE_UID)            --cdi-root (CDI_ROOT)
//   --kubelet-registrar-directory-path (KUBELET_REGISTRAR_DIRECTORY_PATH)
//   --kubelet-plugins-directory-path (KUBELET_PLUGINS_DIRECTORY_PATH)
//   --pod-uid (POD_UID)
//   --kubeconfig (KUBECONFIG)        --kube-api-qps (KUBE_API_QPS)
//   --kube-api-burst (KUBE_API_BURST)
//   --metrics-port (METRICS_PORT)    --healthcheck-port (HEALTHCHECK_PORT)
//   --bind-address (BIND_ADDRESS)
//   --claims (DRA_CLAIMS): ResourceClaim manifests file or directory
//   --resource-slices (DRA_RESOURCE_SLICES): file to publish slices to,
//       "-" = standard output
//   --resource-slices-format (yaml|json)
//   --health-resend-seconds          --slice-resync-seconds
//
// Two modes. Kubernetes (no --claims): claims come from the API server and
// slices go to it, through --kubeconfig or, without one, the in-cluster
// configuration of the pod; the Node's UID is looked up unless --node-uid
// gives it. Files (--claims given): claims from manifests, slices to
// --resource-slices (standard output by default), for tests and
// `dra simulate --prepare`.
#pragma once

#include <memory>
#include <optional>
#include <string>

#include "dra/driver/plugin.h"
#include "dra/util/result.h"

namespace dra::driver {

struct PluginFlags {
  PluginOptions options;
  std::string claims_path;
  std::string resource_slices_path;  // empty: the API (Kubernetes mode) or "-" (files)
  std::string resource_slices_format = "yaml";
  double health_resend_seconds = 10;
  double slice_resync_seconds = 30;  // Kubernetes mode
  std::string kubeconfig;
  double kube_api_qps = 50;
  int kube_api_burst = 100;
  int metrics_port = -1;      // -1: no /metrics endpoint
  int healthcheck_port = -1;  // -1: no /healthz endpoint
  std::string bind_address;   // empty: every interface
  // Set by the driver when it writes status.devices (Kubernetes mode only).
  bool write_device_status = false;
};

// The central controller of network-attached pools (controller.h):
//   --controller                     --leader-election (default true)
//   --leader-election-namespace (LEADER_ELECTION_NAMESPACE; default $NAMESPACE, else "default")
//   --leader-election-lease-name     --leader-election-identity (POD_NAME)
//   --leader-election-lease-duration, --leader-election-renew-deadline,
//   --leader-election-retry-period   (Go durations; 15s, 10s, 5s)
struct ControllerFlags {
  bool enabled = false;
  bool leader_election = true;
  std::string lease_namespace;
  std::string lease_name;
  std::string identity;
  std::string lease_duration = "15s";
  std::string renew_deadline = "10s";
  std::string retry_period = "5s";
};

// Runs `driver` as the controller (RunController) in Kubernetes mode with the
// connection, metrics and resync flags of `plugin`; --node-name and the
// kubelet paths are not used. Bad flags: exit status 2.
int RunControllerFromFlags(Driver& driver, PluginFlags& plugin, const ControllerFlags& flags);

// Kubernetes mode: whether no --claims file was given.
inline bool KubernetesMode(const PluginFlags& flags) { return flags.claims_path.empty(); }

// A driver program's command line: the flags above, plus the driver's own.
// `default_driver_name` pre-fills --driver-name (empty = the flag is
// required). Not thread-safe; the pointers given to Add*Flag must outlive
// Parse.
class DriverCommandLine {
 public:
  DriverCommandLine(std::string program, std::string description,
                    const std::string& default_driver_name = "");
  ~DriverCommandLine();
  DriverCommandLine(const DriverCommandLine&) = delete;
  DriverCommandLine& operator=(const DriverCommandLine&) = delete;

  // A flag of the driver's own ("--name"), also read from the environment
  // variable `env` unless it is empty; `*value` holds the default. Values
  // outside [min, max] are rejected.
  void AddIntFlag(const std::string& name, const std::string& env, const std::string& help,
                  int* value, int min, int max);
  void AddStringFlag(const std::string& name, const std::string& env, const std::string& help,
                     std::string* value);

  // Parses the command line: std::nullopt when the driver should run, else
  // the exit status to return at once (0 after --help; non-zero, with the
  // error on stderr, for bad flags).
  std::optional<int> Parse(int argc, char** argv);

  PluginFlags& flags();

 private:
  struct Impl;
  std::unique_ptr<Impl> impl_;
};

// Builds the claim source, publisher, status writer, metrics and HTTP
// endpoints the flags name and runs the plugin until SIGTERM/SIGINT
// (RunPlugin). Returns the exit status; bad flag values are reported on
// stderr with exit status 2, a configuration or cluster that cannot be used
// with 1.
int RunPluginFromFlags(Driver& driver, PluginFlags& flags);

}  // namespace dra::driver
