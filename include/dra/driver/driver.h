// The interface a vendor implements to get a DRA kubelet plugin. The SDK
// (dra/driver/plugin.h) does everything else: gRPC servers and registration,
// fetching claims, CDI spec files, the crash-safe checkpoint, idempotency,
// ResourceSlice publishing and health streaming.
//
// Threading: Enumerate, Prepare, Unprepare and Health may be called from
// several threads. With PluginOptions::serialize (the default) Prepare and
// Unprepare never run concurrently with each other (across plugin instances
// too, in rolling-update mode); Enumerate and Health may always run
// concurrently with anything.
#pragma once

#include <cstdint>
#include <map>
#include <optional>
#include <string>
#include <vector>

#include "dra/api/resource.h"
#include "dra/driver/cdi.h"
#include "dra/util/result.h"

namespace dra::driver {

// ---- Inventory: what the driver publishes in ResourceSlices ---------------

// One resource pool. Devices are api::Device values (name, attributes,
// capacity, consumesCounters, taints, ...), exactly as they appear in a
// ResourceSlice. The SDK splits them into slices (at most 128 devices per
// slice, 64 when any device in the slice has taints, consumes counters or has
// list attributes) in the given order, and puts shared counters in a slice of
// their own ahead of the device slices (the API forbids devices and
// sharedCounters in one slice).
struct Pool {
  // Empty = the node name (the usual pool of a node-local driver).
  std::string name;
  std::vector<api::CounterSet> shared_counters;
  std::vector<api::Device> devices;
  // Optional explicit split: when non-empty, each inner vector (indexes into
  // `devices`) becomes one slice, and no automatic split happens.
  std::vector<std::vector<std::size_t>> slices;
  // 0 = let the SDK manage the generation (normal); a larger value forces it.
  std::int64_t generation = 0;
  // Network-attached pools (published by a Controller, controller.h): which
  // nodes reach the devices. Exactly one of these is set for such a pool
  // (per-device selection: each device sets nodeName, nodeSelector or
  // allNodes); a node-local plugin's pools set none and get spec.nodeName.
  // A kubelet plugin's Enumerate may include network-attached pools (it
  // prepares their devices); it does not publish them, the controller does.
  std::optional<api::NodeSelector> node_selector;
  bool all_nodes = false;
  bool per_device_node_selection = false;
};

struct Inventory {
  std::vector<Pool> pools;
};

// ---- Prepare ---------------------------------------------------------------

// One allocation result of the claim that belongs to this driver.
struct AllocatedDevice {
  std::string request;       // base request name ("gpu" of "gpu/small")
  std::string full_request;  // as in the allocation result ("gpu/small")
  std::string pool;
  std::string device;
  std::optional<std::string> share_id;
  bool admin_access = false;
  std::map<std::string, api::Quantity> consumed_capacity;
  // Opaque parameters of configs for this driver that apply to this request,
  // in precedence order (class configs first, then claim configs; later ones
  // override earlier ones). Each is the exact JSON text of `parameters`.
  std::vector<std::string> opaque_configs;
};

struct ClaimToPrepare {
  const api::ResourceClaim* claim = nullptr;  // the full object from the ClaimSource
  std::string uid;
  std::string namespace_;
  std::string name;
  // Only this driver's results, in allocation order; never empty (a claim
  // without results for this driver gets a per-claim error from the SDK).
  std::vector<AllocatedDevice> devices;
};

// What the driver made of one allocated device.
struct PreparedDevice {
  std::string pool;    // must match an AllocatedDevice
  std::string device;  // must match an AllocatedDevice
  // Only needed when several allocation results name the same device (with
  // different share IDs, consumable capacity): picks the result. Unset = the
  // entry stands for every result of (pool, device).
  std::optional<std::string> share_id;
  // Edits for this device. Non-empty edits give the device its own CDI device
  // named "<claim uid>-<device>[-<share id>]" in the claim's transient spec;
  // empty edits give it none (then only extra_cdi_device_ids are returned).
  cdi::ContainerEdits edits;
  // Further fully-qualified CDI IDs to return for this device, e.g. a device
  // of a static spec the driver installed ("k8s.gpu.example.com/gpu=common").
  std::vector<std::string> extra_cdi_device_ids;
};

struct PreparedClaim {
  // One entry per allocated device the containers should see, usually one per
  // AllocatedDevice. Request names and share IDs are filled in by the SDK
  // from the allocation results.
  std::vector<PreparedDevice> devices;
  // Spec-level edits of the claim's transient CDI spec (applied once when any
  // of its devices is injected), e.g. driver libraries or a shared env var.
  // Requires at least one device with non-empty edits (a CDI spec must
  // define a device).
  cdi::ContainerEdits claim_edits;
  // This claim's status.devices entries for this driver's devices
  // (conditions, data, networkData; driver may be left empty), written to
  // the claim before the prepare is reported done when the plugin has a
  // DeviceStatusWriter (PluginOptions::status_writer). Each must name a
  // device allocated to the claim. A failed write fails the prepare (which
  // is then rolled back) and the kubelet retries.
  std::vector<api::AllocatedDeviceStatus> device_status;
  // Free-form driver state kept in the SDK's checkpoint and handed back to
  // Unprepare (e.g. "mps-daemon=abc"); the claim object may be gone by then.
  std::string driver_state;
};

// What Unprepare gets: everything from the checkpoint, nothing from the API.
struct ClaimToUnprepare {
  std::string uid;
  std::string namespace_;
  std::string name;
  std::vector<AllocatedDevice> devices;  // as given to Prepare (opaque_configs included)
  std::string driver_state;              // as returned by Prepare
};

// ---- Health ----------------------------------------------------------------

enum class Health : std::uint8_t { kUnknown = 0, kHealthy = 1, kUnhealthy = 2 };

struct DeviceHealth {
  std::string pool;  // empty = node name
  std::string device;
  Health health = Health::kUnknown;
  std::string message;  // cut to 1024 bytes on a UTF-8 boundary by the SDK
  // Seconds after which the kubelet treats the entry as stale; 0 = its
  // default (30 s).
  std::int64_t timeout_seconds = 0;
};

// ---- The interface ---------------------------------------------------------

// Lets a driver tell the running SDK that something changed. Valid from
// Driver::Start until Driver::Stop returns.
class DriverEvents {
 public:
  virtual ~DriverEvents() = default;
  // Enumerate's answer changed (new device, new taint): re-publish slices.
  virtual void InventoryChanged() = 0;
  // Health's answer changed: send a fresh list on every open health stream.
  virtual void HealthChanged() = 0;
};

class Driver {
 public:
  virtual ~Driver() = default;

  // Called once before anything else; the driver keeps `events` for its
  // background monitoring. An error aborts start-up.
  virtual Status Start(DriverEvents& events) {
    (void)events;
    return {};
  }
  // Called once at shutdown, after the servers stopped taking calls.
  virtual void Stop() {}

  // The complete desired inventory (all pools).
  virtual Result<Inventory> Enumerate() = 0;

  // Prepares one claim; an error becomes that claim's per-claim error. Must
  // not leave side effects behind when it fails. Is not called again for a
  // claim that was prepared successfully (the SDK answers from its
  // checkpoint) unless the claim was unprepared in between.
  virtual Result<PreparedClaim> Prepare(const ClaimToPrepare& claim) = 0;

  // Undoes Prepare. Also called to roll back a Prepare that was interrupted
  // (crash) or whose result could not be recorded, so it must tolerate
  // partially done or never done work. An error becomes the per-claim error
  // and the claim stays prepared (the kubelet retries).
  virtual Status Unprepare(const ClaimToUnprepare& claim) = 0;

  // Whether the driver implements Health. When true the SDK serves and
  // advertises v1.DRAResourceHealth and v1alpha1.DRAResourceHealth.
  virtual bool ReportsHealth() const { return false; }
  // The complete health list of all devices now.
  virtual std::vector<DeviceHealth> Health() { return {}; }
};

}  // namespace dra::driver
