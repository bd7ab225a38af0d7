// Keeps a driver's ResourceSlices published: one attempt (Enumerate, build,
// validate, publish) now, and a worker that publishes again on a change,
// retries failures with exponential backoff for as long as it runs, and
// re-publishes every resync period. Shared by the kubelet plugin and the
// central controller.
//
// Thread-safety: PublishNow, Changed and last_error may be called from any
// thread; Start and Stop from one. Publishes never overlap.
#pragma once

#include <chrono>
#include <string>
#include <thread>

#include "dra/driver/driver.h"
#include "dra/driver/slice_publisher.h"
#include "dra/metrics/registry.h"
#include "dra/util/mutex.h"

namespace dra::driver {

struct PublishingConfig {
  std::string driver_name;
  SliceOwner owner;  // node-local: the node; network-attached pools: empty
  std::chrono::milliseconds retry_initial{500};
  std::chrono::milliseconds retry_max{60'000};
  std::chrono::milliseconds resync_period{0};  // 0: none
  metrics::Registry* metrics = nullptr;        // optional
};

class PublishingLoop {
 public:
  // `driver` and `publisher` must outlive the loop.
  PublishingLoop(Driver& driver, SlicePublisher& publisher, PublishingConfig config);
  ~PublishingLoop();
  PublishingLoop(const PublishingLoop&) = delete;
  PublishingLoop& operator=(const PublishingLoop&) = delete;

  // One attempt, recorded in metrics and last_error().
  Status PublishNow();
  // Starts the worker; `retry_first` = the caller's last attempt failed.
  void Start(bool retry_first);
  // The inventory changed: publish soon, with a fresh backoff.
  void Changed();
  // Stops and joins the worker (a publish in progress finishes). Idempotent.
  void Stop();
  // The last attempt's error; empty after a success.
  std::string last_error() const;

 private:
  Status PublishOnce() DRA_EXCLUDES(publish_mu_);
  void Record(const Status& s);
  void Work(bool retry_first) DRA_EXCLUDES(mu_);

  Driver& driver_;
  SlicePublisher& publisher_;
  const PublishingConfig config_;
  Mutex publish_mu_;  // one publish at a time; guards no data
  mutable Mutex error_mu_;
  std::string last_error_ DRA_GUARDED_BY(error_mu_);
  Mutex mu_;
  CondVar cv_;
  bool changed_ DRA_GUARDED_BY(mu_) = false;
  bool stop_ DRA_GUARDED_BY(mu_) = false;
  std::thread worker_;
};

}  // namespace dra::driver
