// The collector behind dra serve's /metrics.
#include "cli/serve/metrics_exposition.h"

#include <ctime>
#include <string>
#include <utility>
#include <vector>

namespace dra::cli::serve {
namespace {

// The state an exposition reads: set by the collector, read by the written
// families, dropped after the text is written. The registry runs all three
// one exposition at a time, so it needs no lock of its own.
struct Exposed {
  std::shared_ptr<const DashboardState> state;
};

struct Families {
  metrics::Family* class_devices;
  metrics::Family* counter_capacity;
  metrics::Family* counter_consumed;
  metrics::Family* capacity;
  metrics::Family* capacity_consumed;
  metrics::Family* claims;
  metrics::Family* pending;
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
    return {class_devices, counter_capacity, counter_consumed, capacity,   capacity_consumed,
            claims,        pending,          synced,           lists,      list_errors,
            watches,       watch_errors,     events,           state_time, stale,
            generation};
  }
};

// The families with a series per pool, device or allocation: written from
// the state at each exposition instead of stored (16,000 join series and
// 15,000 pool series on 5,000 nodes).
void RegisterWritten(metrics::Registry& r, const std::shared_ptr<Exposed>& exposed,
                     bool per_device) {
  const std::vector<std::string> pool = {"driver", "pool", "node"};
  auto state = [exposed] { return exposed->state.get(); };
  r.Written("dra_devices",
            "Devices of the newest generation of each pool by state (free, allocated, "
            "tainted); each device counts once, allocated before tainted",
            metrics::Type::kGauge, {"driver", "pool", "node", "state"},
            [state](metrics::SampleWriter& w) {
              if (const DashboardState* s = state()) {
                for (const PoolSummary& p : s->pools) {
                  const auto& t = p.devices;
                  const std::string_view driver = s->Text(p.driver), pool = s->Text(p.pool),
                                         node = s->Text(p.node);
                  w.Write({driver, pool, node, "free"}, static_cast<double>(t.free));
                  w.Write({driver, pool, node, "allocated"}, static_cast<double>(t.allocated));
                  w.Write({driver, pool, node, "tainted"}, static_cast<double>(t.tainted));
                }
              }
            });
  r.Written("dra_devices_partially_consumed",
            "Free devices drawing on a shared counter that allocated devices partly consume",
            metrics::Type::kGauge, pool, [state](metrics::SampleWriter& w) {
              if (const DashboardState* s = state()) {
                for (const PoolSummary& p : s->pools) {
                  w.Write({s->Text(p.driver), s->Text(p.pool), s->Text(p.node)},
                          static_cast<double>(p.devices.partially_consumed));
                }
              }
            });
  r.Written("dra_devices_blocked_by_counters",
            "Free devices that no longer fit: allocated devices left too little of a shared "
            "counter they need",
            metrics::Type::kGauge, pool, [state](metrics::SampleWriter& w) {
              if (const DashboardState* s = state()) {
                for (const PoolSummary& p : s->pools) {
                  w.Write({s->Text(p.driver), s->Text(p.pool), s->Text(p.node)},
                          static_cast<double>(p.devices.blocked_by_counters));
                }
              }
            });
  r.Written("dra_pod_device_info",
            "1 for each device allocated to a claim a pod reserves; uuid is the device's uuid "
            "attribute, to join GPU monitoring",
            metrics::Type::kGauge,
            {"namespace", "pod", "claim", "request", "driver", "pool", "device", "node", "uuid"},
            [state](metrics::SampleWriter& w) {
              if (const DashboardState* s = state()) {
                for (const PodDevice& d : s->pod_devices) {
                  w.Write({s->Text(d.namespace_), s->Text(d.pod), s->Text(d.claim),
                           s->Text(d.request), s->Text(d.driver), s->Text(d.pool),
                           s->Text(d.device), s->Text(d.node), s->Text(d.uuid)},
                          1);
                }
              }
            });
  if (per_device) {
    r.Written("dra_device_state", "1 for each device, labelled with its state",
              metrics::Type::kGauge, {"driver", "pool", "node", "device", "state"},
              [state](metrics::SampleWriter& w) {
                if (const DashboardState* s = state()) {
                  for (const DeviceCell& d : s->devices) {
                    w.Write({s->Text(d.driver), s->Text(d.pool), s->Text(d.node), s->Text(d.name),
                             DeviceStateName(d.state)},
                            1);
                  }
                }
              });
  }
}

Families Register(metrics::Registry& r) {
  const std::vector<std::string> pool = {"driver", "pool", "node"};
  Families f{};
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
  const std::vector<std::string> resource = {"resource"};
  f.synced = &r.Gauge("dra_serve_informer_synced",
                      "1 once the informer has delivered its first list", resource);
  f.lists = &r.Counter("dra_serve_informer_lists_total",
                       "Successful lists, streamed ones (watch-lists) included", resource);
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
    const std::string driver(s.Text(p.driver)), pool(s.Text(p.pool)), node(s.Text(p.node));
    for (const NamedUse& u : s.Counters(p)) {
      const std::string name(s.Text(u.name));
      f.counter_capacity->Set({driver, pool, node, name}, Number(u.use.total));
      f.counter_consumed->Set({driver, pool, node, name}, Number(u.use.consumed));
    }
    for (const NamedUse& u : s.Capacity(p)) {
      const std::string name(s.Text(u.name));
      f.capacity->Set({driver, pool, node, name}, Number(u.use.total));
      f.capacity_consumed->Set({driver, pool, node, name}, Number(u.use.consumed));
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
  auto exposed = std::make_shared<Exposed>();
  RegisterWritten(registry, exposed, per_device);
  Families families = Register(registry);
  // The stored series are written into the text once per state (dra serve
  // keeps the text), so they are not held between expositions either.
  registry.AddCollector(
      [families, exposed, current = std::move(current)] {
        exposed->state = current();
        if (exposed->state != nullptr) Collect(families, *exposed->state);
      },
      [families, exposed] {
        exposed->state = nullptr;
        for (metrics::Family* family : families.All()) family->Clear();
      });
}

}  // namespace dra::cli::serve
