// A scriptable Driver for the SDK's own tests: counts calls, prepares each
// device into an env edit, fails on demand, reports health.
#pragma once

#include <atomic>
#include <map>
#include <mutex>
#include <set>
#include <string>
#include <vector>

#include "dra/driver/driver.h"
#include "dra/json/value.h"

namespace dra::driver::testing {

class TestDriver : public Driver {
 public:
  explicit TestDriver(int devices = 4) : devices_(devices) {}

  Status Start(DriverEvents& events) override {
    events_ = &events;
    return {};
  }
  void Stop() override { events_ = nullptr; }

  Result<Inventory> Enumerate() override {
    std::lock_guard lock(mu_);
    Pool pool;
    for (int i = 0; i < devices_; ++i) {
      api::Device d;
      d.name = "dev-" + std::to_string(i);
      d.attributes["index"].int_value = i;
      if (tainted_.count(d.name)) {
        api::DeviceTaint t;
        t.key = "example.com/unhealthy";
        t.effect = "NoSchedule";
        d.taints.push_back(t);
      }
      pool.devices.push_back(std::move(d));
    }
    Inventory inv;
    inv.pools.push_back(std::move(pool));
    return inv;
  }

  Result<PreparedClaim> Prepare(const ClaimToPrepare& claim) override {
    ++prepare_calls;
    PreparedClaim out;
    for (const auto& d : claim.devices) {
      for (const auto& config : d.opaque_configs) {
        auto parsed = json::ParseJson(config);
        if (!parsed.ok() || !parsed->is_object() || parsed->Find("mode") == nullptr) {
          return Error{"malformed opaque config for request " + d.request +
                       ": expected {\"mode\": ...}"};
        }
      }
      PreparedDevice p;
      p.pool = d.pool;
      p.device = d.device;
      p.share_id = d.share_id;
      p.edits.env.push_back("TEST_DEVICE=" + d.device);
      if (!common_id.empty()) p.extra_cdi_device_ids.push_back(common_id);
      out.devices.push_back(std::move(p));
    }
    out.claim_edits.env.push_back("TEST_CLAIM=" + claim.uid);
    out.driver_state = "state-" + claim.uid;
    std::lock_guard lock(mu_);
    prepared_.insert(claim.uid);
    return out;
  }

  Status Unprepare(const ClaimToUnprepare& claim) override {
    ++unprepare_calls;
    if (fail_unprepare) return Error{"unprepare failed on purpose"};
    std::lock_guard lock(mu_);
    prepared_.erase(claim.uid);
    last_unprepare_state = claim.driver_state;
    return {};
  }

  bool ReportsHealth() const override { return health_; }
  std::vector<DeviceHealth> Health() override {
    std::lock_guard lock(mu_);
    std::vector<DeviceHealth> out;
    for (int i = 0; i < devices_; ++i) {
      DeviceHealth h;
      h.device = "dev-" + std::to_string(i);
      h.health = unhealthy_.count(h.device) ? Health::kUnhealthy : Health::kHealthy;
      h.message = unhealthy_.count(h.device) ? "broken" : "";
      out.push_back(h);
    }
    return out;
  }

  void SetUnhealthy(const std::string& device) {
    {
      std::lock_guard lock(mu_);
      unhealthy_.insert(device);
    }
    if (events_) events_->HealthChanged();
  }
  void Taint(const std::string& device) {
    {
      std::lock_guard lock(mu_);
      tainted_.insert(device);
    }
    if (events_) events_->InventoryChanged();
  }
  void SetDevices(int n) {
    std::lock_guard lock(mu_);
    devices_ = n;
  }
  void EnableHealth(bool on) { health_ = on; }
  std::set<std::string> prepared() {
    std::lock_guard lock(mu_);
    return prepared_;
  }

  std::atomic<int> prepare_calls{0};
  std::atomic<int> unprepare_calls{0};
  std::atomic<bool> fail_unprepare{false};
  std::string common_id;
  std::string last_unprepare_state;

 private:
  std::mutex mu_;
  int devices_;
  bool health_ = true;
  DriverEvents* events_ = nullptr;
  std::set<std::string> unhealthy_;
  std::set<std::string> tainted_;
  std::set<std::string> prepared_;
};

}  // namespace dra::driver::testing
