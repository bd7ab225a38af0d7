// The collector behind dra serve's /metrics.
#include "cli/serve/metrics_exposition.h"

#include <ctime>
#include <string>
#include <utility>
#include <vector>

namespace dra::cli::serve {
namespace {

struct Families {
  metrics::Family* devices;
  metrics::Family* partially_consumed;
  metrics::Family* blocked;
  metrics::Family* class_devices;
  metrics::Family* counter_capacity;
  metrics::Family* counter_consumed;
  metrics::Family* capacity;
  metrics::Family* capacity_consumed;
  metrics::Family* claims;
  metrics::Family* pending;
  metrics::Family* pod_device;
  metrics::Family* device_state;  // null unless per-device series are on
  metrics::Family* synced;
  metrics::Family* lists;
  metrics::Family* list_errors;
  metrics::Family* watches;
  metrics::Family* watch_errors;
  metrics::Family* events;
  metrics::Family* state_time;
  metrics::Family* stale;
  metrics::Family* generation;

  std::vector<metrics::Family*> All() const {
    std::vector<metrics::Family*> all = {
        devices,  partially_consumed, blocked, class_devices, counter_capacity, counter_consumed,
        capacity, capacity_consumed,  claims,  pending,       pod_device,       synced,
        lists,    list_errors,        watches, watch_errors,  events,           state_time,
        stale,    generation};
    if (device_state != nullptr) all.push_back(device_state);
    return all;
  }
};

Families Register(metrics::Registry& r, bool per_device) {
  const std::vector<std::string> pool = {"driver", "pool", "node"};
  Families f{};
  f.devices = &r.Gauge("dra_devices",
                       "Devices of the newest generation of each pool by state (free, allocated, "
                       "tainted); each device counts once, allocated before tainted",
                       {"driver", "pool", "node", "state"});
  f.partially_consumed = &r.Gauge(
      "dra_devices_partially_consumed",
      "Free devices drawing on a shared counter that allocated devices partly consume", pool);
  f.blocked = &r.Gauge("dra_devices_blocked_by_counters",
                       "Free devices that no longer fit: allocated devices left too little of a "
                       "shared counter they need",
                       pool);
  f.class_devices =
      &r.Gauge("dra_deviceclass_devices", "Devices that a DeviceClass's selectors accept, by state",
               {"deviceclass", "state"});
  std::vector<std::string> counter = pool;
  counter.push_back("counter");
  f.counter_capacity = &r.Gauge("dra_shared_capacity",
                                "Shared counters of a pool, summed over its counter sets", counter);
  f.counter_consumed =
      &r.Gauge("dra_shared_capacity_consumed",
               "What allocated devices consume of a pool's shared counters", counter);
  std::vector<std::string> cap = pool;
  cap.push_back("capacity");
  f.capacity = &r.Gauge("dra_consumable_capacity",
                        "Capacity of a pool's devices that allow multiple allocations", cap);
  f.capacity_consumed =
      &r.Gauge("dra_consumable_capacity_consumed",
               "Capacity that allocations consume of devices that allow multiple allocations", cap);
  f.claims =
      &r.Gauge("dra_claims", "ResourceClaims by state (pending, allocated, reserved, deallocating)",
               {"namespace", "state"});
  f.pending = &r.Gauge("dra_pending_pods",
                       "Unscheduled pods with resource claims, by the allocator stage that blocks "
                       "them (or claim, schedulable, other)",
                       {"namespace", "stage"});
  f.pod_device = &r.Gauge(
      "dra_pod_device_info",
      "1 for each device allocated to a claim a pod reserves; uuid is the "
      "device's uuid attribute, to join GPU monitoring",
      {"namespace", "pod", "claim", "request", "driver", "pool", "device", "node", "uuid"});
  if (per_device) {
    f.device_state = &r.Gauge("dra_device_state", "1 for each device, labelled with its state",
                              {"driver", "pool", "node", "device", "state"});
  }
  const std::vector<std::string> resource = {"resource"};
  f.synced = &r.Gauge("dra_serve_informer_synced",
                      "1 once the informer has delivered its first list", resource);
  f.lists = &r.Counter("dra_serve_informer_lists_total", "Successful lists", resource);
  f.list_errors = &r.Counter("dra_serve_informer_list_errors_total", "Failed lists", resource);
  f.watches = &r.Counter("dra_serve_informer_watches_total",
                         "Watches started (each restart counts)", resource);
  f.watch_errors =
      &r.Counter("dra_serve_informer_watch_errors_total", "Watches ended by an error", resource);
  f.events = &r.Counter("dra_serve_informer_events_total", "Watch events received", resource);
  f.state_time = &r.Gauge("dra_serve_state_timestamp_seconds",
                          "When the state served was computed (unix time)");
  f.stale = &r.Gauge("dra_serve_state_stale_seconds",
                     "How long the API server has not been followed; 0 while it is");
  f.generation = &r.Gauge("dra_serve_state_generation", "Number of the state served");
  return f;
}

double Number(const api::Quantity& q) { return q.AsApproximateDouble(); }

void Collect(const Families& f, const DashboardState& s) {
  for (metrics::Family* family : f.All()) family->Clear();
  for (const PoolSummary& p : s.pools) {
    f.devices->Set({p.driver, p.pool, p.node, "free"}, static_cast<double>(p.devices.free));
    f.devices->Set({p.driver, p.pool, p.node, "allocated"},
                   static_cast<double>(p.devices.allocated));
    f.devices->Set({p.driver, p.pool, p.node, "tainted"}, static_cast<double>(p.devices.tainted));
    f.partially_consumed->Set({p.driver, p.pool, p.node},
                              static_cast<double>(p.devices.partially_consumed));
    f.blocked->Set({p.driver, p.pool, p.node}, 0);
    for (const auto& [name, use] : p.counters) {
      f.counter_capacity->Set({p.driver, p.pool, p.node, name}, Number(use.total));
      f.counter_consumed->Set({p.driver, p.pool, p.node, name}, Number(use.consumed));
    }
    for (const auto& [name, use] : p.capacity) {
      f.capacity->Set({p.driver, p.pool, p.node, name}, Number(use.total));
      f.capacity_consumed->Set({p.driver, p.pool, p.node, name}, Number(use.consumed));
    }
  }
  for (const DeviceCell& d : s.devices) {
    if (d.blocked_by_counters) f.blocked->Add({d.driver, d.pool, d.node});
    if (f.device_state != nullptr) {
      f.device_state->Set({d.driver, d.pool, d.node, d.name, DeviceStateName(d.state)}, 1);
    }
  }
  for (const auto& [name, t] : s.classes) {
    f.class_devices->Set({name, "free"}, static_cast<double>(t.free));
    f.class_devices->Set({name, "allocated"}, static_cast<double>(t.allocated));
    f.class_devices->Set({name, "tainted"}, static_cast<double>(t.tainted));
  }
  for (const auto& [ns, c] : s.claims) {
    f.claims->Set({ns, "pending"}, static_cast<double>(c.pending));
    f.claims->Set({ns, "allocated"}, static_cast<double>(c.allocated));
    f.claims->Set({ns, "reserved"}, static_cast<double>(c.reserved));
    f.claims->Set({ns, "deallocating"}, static_cast<double>(c.deallocating));
  }
  for (const PendingPod& p : s.pending) f.pending->Add({p.namespace_, p.stage});
  for (const PodDevice& d : s.pod_devices) {
    f.pod_device->Set(
        {d.namespace_, d.pod, d.claim, d.request, d.driver, d.pool, d.device, d.node, d.uuid}, 1);
  }
  for (const ResourceHealth& h : s.health) {
    f.synced->Set({h.resource}, h.synced ? 1 : 0);
    f.lists->Add({h.resource}, static_cast<double>(h.stats.lists));
    f.list_errors->Add({h.resource}, static_cast<double>(h.stats.list_errors));
    f.watches->Add({h.resource}, static_cast<double>(h.stats.watches));
    f.watch_errors->Add({h.resource}, static_cast<double>(h.stats.watch_errors));
    f.events->Add({h.resource}, static_cast<double>(h.stats.events));
  }
  f.state_time->Set({}, static_cast<double>(s.computed_at));
  const auto now = static_cast<std::int64_t>(std::time(nullptr));
  f.stale->Set({}, s.stale_since == 0 ? 0 : static_cast<double>(now - s.stale_since));
  f.generation->Set({}, static_cast<double>(s.generation));
}

}  // namespace

void RegisterStateMetrics(metrics::Registry& registry, CurrentState current, bool per_device) {
  Families families = Register(registry, per_device);
  registry.AddCollector([families, current = std::move(current)] {
    std::shared_ptr<const DashboardState> state = current();
    if (state != nullptr) Collect(families, *state);
  });
}

}  // namespace dra::cli::serve
