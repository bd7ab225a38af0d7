// The SDK's runtime: serves a Driver to the kubelet (the DRAPlugin,
// Registration and DRAResourceHealth services of k8s.io/kubelet pkg/apis), keeps the checkpoint and
// CDI files, publishes ResourceSlices.
//
//   MyDriver driver;
//   dra::driver::PluginOptions options;       // or from dra/driver/flags.h
//   options.driver_name = "gpu.example.com";
//   options.node_name = "node-1";
//   auto claims = dra::driver::NewManifestClaimSource("/etc/dra/claims");
//   auto slices = dra::driver::NewFileSlicePublisher("/run/dra/slices.yaml");
//   return dra::driver::RunPlugin(driver, *claims, *slices, options);
#pragma once

#include <chrono>
#include <functional>
#include <memory>
#include <string>
#include <vector>

#include "dra/driver/claim_source.h"
#include "dra/driver/driver.h"
#include "dra/driver/slice_publisher.h"
#include "dra/metrics/registry.h"
#include "dra/util/result.h"

namespace dra::driver {

struct PluginOptions {
  // Required. DNS subdomain, at most 63 characters.
  std::string driver_name;
  // Required. Pool name default, spec.nodeName and slice owner.
  std::string node_name;
  // UID of the Node object for the slices' owner reference; empty = none.
  std::string node_uid;

  // Where the kubelet watches for registration sockets.
  std::string registrar_directory = "/var/lib/kubelet/plugins_registry";
  // The plugin data directory is <plugins_directory>/<driver_name> unless
  // plugin_data_directory is set. It holds the DRA socket, the checkpoint
  // and the lock; created with mode 0750 when missing.
  std::string plugins_directory = "/var/lib/kubelet/plugins";
  std::string plugin_data_directory;
  // Where claim CDI specs go (created 0755 when missing).
  std::string cdi_root = "/var/run/cdi";
  // CDI kind of the per-claim specs; empty = "k8s.<driver_name>/claim".
  std::string cdi_kind;

  // Non-empty = rolling-update mode (as k8s.io/dynamic-resource-allocation
  // kubeletplugin.RollingUpdate): per-instance socket names
  // derived from this pod UID and a file lock shared by the instances.
  std::string pod_uid;

  // Serialize Prepare/Unprepare (in-process and, in rolling-update mode,
  // through <plugin data dir>/serialize.lock). Same-claim calls are always
  // serialized.
  bool serialize = true;
  bool serve_v1 = true;
  bool serve_v1beta1 = true;
  // Health streams re-send the full list at least this often.
  std::chrono::milliseconds health_resend_period{10'000};

  // Publishing. A failed publish (enumeration, invalid slices, a write the
  // API server refused or could not take) never stops the plugin: it is
  // logged, counted and retried after publish_retry_initial, doubling up to
  // publish_retry_max, for as long as the plugin runs, so a pool is never
  // silently stale. An InventoryChanged restarts the wait.
  std::chrono::milliseconds publish_retry_initial{500};
  std::chrono::milliseconds publish_retry_max{60'000};
  // Publishes again this often without a change (a publisher writes only
  // differences), restoring slices that someone else edited or deleted;
  // 0 = only on changes and retries.
  std::chrono::milliseconds publish_resync_period{0};

  // Optional; must outlive the Plugin. Writes PreparedClaim::device_status.
  DeviceStatusWriter* status_writer = nullptr;
  // Optional; must outlive the Plugin. The plugin's metrics (docs/DRIVER-SDK.md).
  metrics::Registry* metrics = nullptr;
};

// The resolved paths of a running plugin (for tests and logs).
struct PluginEndpoints {
  std::string plugin_data_directory;
  std::string dra_socket;           // absolute path of the DRA endpoint
  std::string registration_socket;  // absolute path in the registrar directory
  std::string checkpoint_file;
  std::vector<std::string> supported_versions;  // as advertised by GetInfo
};

// Socket names as the kubeletplugin helper names them (draplugin.go), with and
// without rolling updates (exposed for tests and health probes).
std::string RegistrationSocketName(const std::string& registrar_directory,
                                   const std::string& driver_name, const std::string& pod_uid);
std::string DraSocketName(const std::string& pod_uid);

// Thread-safety: every method may be called from any thread at any time
// while the Plugin lives (Stop from one thread while others Wait, say).
// endpoints() lives as long as the Plugin.
class Plugin {
 public:
  // Validates options, reconciles the checkpoint with the CDI directory
  // (rolling back interrupted prepares), starts Driver::Start, publishes
  // slices, then starts the DRA server and last the registration server.
  // Errors name the option or path at fault. The referenced objects must
  // outlive the Plugin.
  static Result<std::unique_ptr<Plugin>> Start(Driver& driver, ClaimSource& claims,
                                               SlicePublisher& publisher,
                                               const PluginOptions& options);
  virtual ~Plugin() = default;

  virtual const PluginEndpoints& endpoints() const = 0;
  // Re-publishes slices from a fresh Enumerate (also done on
  // DriverEvents::InventoryChanged).
  virtual Status PublishResources() = 0;
  // Removes the registration socket, stops both servers (ending health
  // streams), unlinks the DRA socket, calls Driver::Stop. Idempotent; the
  // destructor calls it.
  virtual void Stop() = 0;
  // Blocks until Stop (from another thread or a signal, see RunPlugin).
  virtual void Wait() = 0;
  // The first registration status the kubelet sent, for logging.
  virtual std::string registration_status() const = 0;
  // Liveness, as the kubelet sees the plugin: GetInfo on the registration
  // socket and an empty NodePrepareResources on the DRA socket both answer.
  virtual Status CheckLiveness() = 0;
  // The last publish's error; empty after a successful one.
  virtual std::string publish_error() const = 0;
};

// Start + Wait until SIGTERM or SIGINT, then Stop. Prints start-up errors to
// stderr ("dra driver: ...") and returns the process exit status (0 after a
// clean shutdown, 1 when start-up failed). `started`, when given, runs after
// a successful start (e.g. to serve the plugin's liveness); its error stops
// the plugin (exit 1). `stopping` runs before Stop, e.g. to end what
// `started` began while the plugin still exists.
int RunPlugin(Driver& driver, ClaimSource& claims, SlicePublisher& publisher,
              const PluginOptions& options, const std::function<Status(Plugin&)>& started = {},
              const std::function<void()>& stopping = {});

}  // namespace dra::driver
