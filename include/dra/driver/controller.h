// The central half of a driver whose devices are reachable from several
// nodes (network-attached): one publisher of ResourceSlices for the whole
// cluster, run as a Deployment with leader election among its replicas
// (k8s.io/dynamic-resource-allocation's resourceslice controller with no
// node owner). Its pools set nodeSelector, allNodes or
// perDeviceNodeSelection (Pool in driver.h); its slices carry no
// spec.nodeName, so no kubelet removes them. The kubelet-plugin half still
// runs on each node to prepare the devices.
#pragma once

#include <chrono>
#include <memory>
#include <string>

#include "dra/driver/driver.h"
#include "dra/driver/slice_publisher.h"
#include "dra/kube/client.h"
#include "dra/metrics/registry.h"

namespace dra::driver {

struct ControllerOptions {
  std::string driver_name;  // required
  // Leader election through the Lease lease_namespace/lease_name: only the
  // leader publishes. Without it, every replica publishes (run one).
  bool leader_election = true;
  std::string lease_namespace = "default";
  std::string lease_name;  // empty: the driver name, sanitized as the DRA library does
  std::string identity;    // empty: the host name
  std::chrono::milliseconds lease_duration{15'000};
  std::chrono::milliseconds renew_deadline{10'000};
  std::chrono::milliseconds retry_period{5'000};
  // As PluginOptions: retries of failed publishes, periodic re-publishing.
  std::chrono::milliseconds publish_retry_initial{500};
  std::chrono::milliseconds publish_retry_max{60'000};
  std::chrono::milliseconds publish_resync_period{30'000};
  metrics::Registry* metrics = nullptr;  // optional; must outlive the call
};

// Starts the driver (Driver::Start; Prepare and Unprepare are never called),
// campaigns for the Lease and, while leading, keeps the driver's pools
// published through `publisher` (retrying failures, re-publishing on
// InventoryChanged and every resync period). Runs until SIGTERM or SIGINT,
// then releases the Lease so that another replica takes over at once.
// Returns the exit status: 0 after a signal, 1 when start-up failed or
// leadership was lost (a replica that lost it exits, as Kubernetes
// controllers do, and is restarted).
int RunController(Driver& driver, SlicePublisher& publisher, std::shared_ptr<kube::Client> client,
                  const ControllerOptions& options);

}  // namespace dra::driver
