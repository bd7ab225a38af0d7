// The SDK's Kubernetes side: ResourceSlices published through the API, claims
// read from it, device status written to it, Events about failures. These
// implement the interfaces of claim_source.h and slice_publisher.h, so a
// driver runs the same with files (tests) or a cluster.
//
// RBAC each needs (deployments/helm/dra-driver has the ClusterRole):
//   slice publisher: resourceslices list, create, update, delete; events create
//   claim source:    resourceclaims get
//   status writer:   resourceclaims/status patch; resourceclaims/driver
//                    associated-node:patch (node-local) or arbitrary-node:patch
//                    (central controller) for resourceNames [<driver name>],
//                    the granular status authorization of Kubernetes 1.36+
//   node UID:        nodes get
//
// Thread-safety: every object here may be used from several threads at once.
#pragma once

#include <memory>
#include <string>
#include <vector>

#include "dra/api/resource.h"
#include "dra/driver/claim_source.h"
#include "dra/driver/slice_publisher.h"
#include "dra/kube/client.h"
#include "dra/util/result.h"

namespace dra::driver {

// The object Events about a publisher's failures are attached to.
struct EventTarget {
  std::string api_version = "v1";
  std::string kind = "Node";
  std::string name;
  std::string uid;
  std::string namespace_ = "default";  // where the Event is created
};

struct KubeSlicePublisherOptions {
  std::string driver_name;
  // Node-local pools: the node (slices carry spec.nodeName and are listed
  // with the field selector spec.driver=<driver>,spec.nodeName=<node>).
  // Empty: network-attached pools (slices without spec.nodeName), listed
  // with spec.nodeName= (empty).
  std::string node_name;
  // Failures are posted as Warning Events about this object (reason
  // "FailedPublishResourceSlices", at most once a minute per message);
  // empty name: no Events.
  EventTarget event_target;
  // Identifies the writer (fieldManager, Event source); default the driver name.
  std::string field_manager;
};

// Publishes through the API, as upstream's resourceslice controller does
// (k8s.io/dynamic-resource-allocation/resourceslice): List finds this
// driver's slices; Publish deletes the listed slices not in the set (with
// UID and resourceVersion preconditions), updates the changed ones (PUT with
// the listed resourceVersion) and creates the rest (generateName), in that
// order. After each write the stored object is compared with what was sent:
// fields the server dropped because a feature gate is off make Publish fail
// naming the gates (DRADeviceTaints, DRAPartitionableDevices,
// DRADeviceBindingConditions, DRAConsumableCapacity), and what was stored
// is adopted so that the next Publish does not write again. Any failure is
// returned (the Plugin retries with backoff) and posted as an Event.
std::unique_ptr<SlicePublisher> NewKubeSlicePublisher(std::shared_ptr<kube::Client> client,
                                                      KubeSlicePublisherOptions options);

// GET of the claim by namespace and name, as the Go kubeletplugin helper
// does (the SDK checks UID, allocation and driver). Errors carry kubectl's
// text of the API error. Exists is false on NotFound or another UID.
std::unique_ptr<ClaimSource> NewKubeClaimSource(std::shared_ptr<kube::Client> client);

// Writes a driver's status.devices entries by server-side apply of the
// status subresource (resource.k8s.io/v1, Kubernetes 1.34+) with field
// manager `field_manager` (default the driver name): entries of other
// drivers and other field managers are left alone, and an entry this manager
// wrote before but not now is removed. Entries with an empty driver get
// `driver_name`; another driver's entry is an error.
std::unique_ptr<DeviceStatusWriter> NewKubeDeviceStatusWriter(std::shared_ptr<kube::Client> client,
                                                              std::string driver_name,
                                                              std::string field_manager = {});

// The UID of Node `node_name` (for the slices' owner reference).
Result<std::string> GetNodeUid(kube::Client& client, const std::string& node_name);

}  // namespace dra::driver
