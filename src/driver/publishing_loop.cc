#include "driver/publishing_loop.h"

#if defined(__GLIBC__)
#include <malloc.h>
#endif

#include <algorithm>
#include <iostream>

#include "dra/api/codec.h"
#include "dra/api/validation.h"

namespace dra::driver {

PublishingLoop::PublishingLoop(Driver& driver, SlicePublisher& publisher, PublishingConfig config)
    : driver_(driver), publisher_(publisher), config_(std::move(config)) {}

PublishingLoop::~PublishingLoop() { Stop(); }

Status PublishingLoop::PublishNow() {
  Status s = PublishOnce();
  Record(s);
#if defined(__GLIBC__)
  // A publish holds the inventory several times over for a moment (the
  // driver's copy, the listed slices, the built ones, their JSON), then frees
  // it in pieces glibc keeps mapped between longer-lived allocations: without
  // this, a driver of 1,024 devices stays about 15 MiB above what it uses.
  // malloc_trim hands whole free pages back; it costs a walk of the free
  // lists, once per publish.
  malloc_trim(0);
#endif
  return s;
}

Status PublishingLoop::PublishOnce() {
  MutexLock lock(publish_mu_);
  auto inventory = driver_.Enumerate();
  if (!inventory.ok()) return inventory.failure().WithPrefix("enumerate devices: ");
  auto existing = publisher_.List();
  if (!existing.ok()) return existing.failure().WithPrefix("list published resource slices: ");
  auto slices = BuildResourceSlices(config_.driver_name, config_.owner, *inventory, *existing);
  if (!slices.ok()) return slices.failure().WithPrefix("resource slices: ");
  // Validated as kube-apiserver would (every gate on), so that a mistake in
  // the driver's inventory reads the same as the server's refusal.
  api::ValidationOptions validation;
  for (int f = 0; f < static_cast<int>(api::Feature::kCount); ++f) {
    validation.gates.Set(static_cast<api::Feature>(f), true);
  }
  for (const auto& slice : *slices) {
    api::ResourceSlice named = slice;
    if (named.metadata.name.empty()) named.metadata.name = named.metadata.generate_name + "x";
    auto errors = api::ValidateResourceSlice(named, validation);
    if (!errors.empty()) {
      return Error{api::InvalidObjectMessage("ResourceSlice", api::kResourceGroup,
                                             named.metadata.generate_name, errors)};
    }
  }
  if (auto s = publisher_.Publish(*slices); !s.ok()) {
    return s.failure().WithPrefix("publish resource slices: ");
  }
  if (config_.metrics != nullptr) {
    auto& devices =
        config_.metrics->Gauge("dra_driver_published_devices",
                               "Devices in the published ResourceSlices, by pool", {"pool"});
    devices.Clear();
    for (const auto& slice : *slices) {
      devices.Add({slice.spec.pool.name}, static_cast<double>(slice.spec.devices.size()));
    }
    config_.metrics->Gauge("dra_driver_published_slices", "ResourceSlices published")
        .Set({}, static_cast<double>(slices->size()));
  }
  return {};
}

void PublishingLoop::Record(const Status& s) {
  {
    MutexLock lock(error_mu_);
    last_error_ = s.ok() ? std::string() : s.error();
  }
  if (config_.metrics == nullptr) return;
  config_.metrics
      ->Counter("dra_driver_publishes_total", "Attempts to publish ResourceSlices, by result",
                {"result"})
      .Add({s.ok() ? "success" : "error"});
  if (s.ok()) {
    auto now = std::chrono::duration<double>(std::chrono::system_clock::now().time_since_epoch());
    config_.metrics
        ->Gauge("dra_driver_last_publish_success_timestamp_seconds",
                "When ResourceSlices were last published successfully (Unix time)")
        .Set({}, now.count());
  }
}

std::string PublishingLoop::last_error() const {
  MutexLock lock(error_mu_);
  return last_error_;
}

void PublishingLoop::Start(bool retry_first) {
  worker_ = std::thread([this, retry_first] { Work(retry_first); });
}

void PublishingLoop::Changed() {
  {
    MutexLock lock(mu_);
    changed_ = true;
  }
  cv_.NotifyAll();
}

void PublishingLoop::Stop() {
  {
    MutexLock lock(mu_);
    stop_ = true;
  }
  cv_.NotifyAll();
  if (worker_.joinable()) worker_.join();
}

void PublishingLoop::Work(bool retry_first) {
  using Clock = std::chrono::steady_clock;
  auto delay = config_.retry_initial;
  auto after_success = [&] {
    return config_.resync_period.count() > 0 ? Clock::now() + config_.resync_period
                                             : Clock::time_point::max();
  };
  auto next = retry_first ? Clock::now() + delay : after_success();
  if (retry_first) delay = std::min(delay * 2, config_.retry_max);
  MutexLock lock(mu_);
  while (true) {
    while (!stop_ && !changed_) {
      if (cv_.WaitUntil(mu_, next) == std::cv_status::timeout) break;
    }
    if (stop_) return;
    bool changed = changed_;
    if (!changed && Clock::now() < next) continue;
    changed_ = false;
    lock.Unlock();
    Status s = PublishNow();
    lock.Lock();
    if (s.ok()) {
      delay = config_.retry_initial;
      next = after_success();
      continue;
    }
    if (changed) delay = config_.retry_initial;
    std::cerr << "dra driver: " << s.error() << " (retrying in "
              << std::chrono::duration<double>(delay).count() << " s)\n";
    next = Clock::now() + delay;
    delay = std::min(delay * 2, config_.retry_max);
  }
}

}  // namespace dra::driver
