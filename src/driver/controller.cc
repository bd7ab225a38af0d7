// RunController: leader election around the publishing loop.
#include "dra/driver/controller.h"

#include <signal.h>
#include <unistd.h>

#include <atomic>
#include <iostream>
#include <thread>
#include <utility>

#include "dra/kube/leader_election.h"
#include "dra/kube/resource_client.h"
#include "dra/util/mutex.h"
#include "driver/publishing_loop.h"

namespace dra::driver {
namespace {

// Forwards InventoryChanged to the loop of the current leadership term.
class ControllerEvents final : public DriverEvents {
 public:
  void InventoryChanged() override {
    MutexLock lock(mu_);
    if (loop_ != nullptr) loop_->Changed();
  }
  void HealthChanged() override {}
  void Set(PublishingLoop* loop) {
    MutexLock lock(mu_);
    loop_ = loop;
  }

 private:
  Mutex mu_;
  PublishingLoop* loop_ DRA_GUARDED_BY(mu_) = nullptr;
};

// Publishes until `lost` becomes true.
void Lead(Driver& driver, SlicePublisher& publisher, const ControllerOptions& options,
          ControllerEvents& events, const std::atomic<bool>& lost) {
  PublishingConfig config;
  config.driver_name = options.driver_name;
  config.retry_initial = options.publish_retry_initial;
  config.retry_max = options.publish_retry_max;
  config.resync_period = options.publish_resync_period;
  config.metrics = options.metrics;
  PublishingLoop loop(driver, publisher, config);
  events.Set(&loop);
  Status first = loop.PublishNow();
  if (first.ok()) {
    std::cerr << "dra controller: published the pools of " << options.driver_name << "\n";
  } else {
    std::cerr << "dra controller: " << first.error() << " (retrying)\n";
  }
  loop.Start(!first.ok());
  while (!lost.load()) std::this_thread::sleep_for(std::chrono::milliseconds(100));
  events.Set(nullptr);
  loop.Stop();
}

}  // namespace

int RunController(Driver& driver, SlicePublisher& publisher, std::shared_ptr<kube::Client> client,
                  const ControllerOptions& options) {
  sigset_t signals;
  sigemptyset(&signals);
  sigaddset(&signals, SIGTERM);
  sigaddset(&signals, SIGINT);
  pthread_sigmask(SIG_BLOCK, &signals, nullptr);
  signal(SIGPIPE, SIG_IGN);
  if (options.driver_name.empty()) {
    std::cerr << "dra controller: driver name: required\n";
    return 1;
  }
  ControllerEvents events;
  if (Status s = driver.Start(events); !s.ok()) {
    std::cerr << "dra controller: driver start: " << s.error() << "\n";
    return 1;
  }
  std::atomic<bool> stopping{false};
  std::atomic<bool> lost_leadership{false};
  std::unique_ptr<kube::LeaderElector> elector;
  std::thread unelected;
  if (options.leader_election) {
    kube::LeaderElectionConfig config;
    config.identity = options.identity;
    config.lease_duration = options.lease_duration;
    config.renew_deadline = options.renew_deadline;
    config.retry_period = options.retry_period;
    config.release_on_cancel = true;
    config.on_started_leading = [&](const std::atomic<bool>& lost) {
      std::cerr << "dra controller: leading (Lease " << options.lease_namespace << "/"
                << (options.lease_name.empty() ? kube::SanitizeLeaseName(options.driver_name)
                                               : options.lease_name)
                << ")\n";
      Lead(driver, publisher, options, events, lost);
    };
    config.on_new_leader = [](const std::string& identity) {
      if (!identity.empty()) std::cerr << "dra controller: the leader is " << identity << "\n";
    };
    config.on_stopped_leading = [&] {
      if (stopping.load()) return;
      // Lost without being asked to stop: exit, as Kubernetes controllers
      // do, so that nothing publishes from a stale view.
      std::cerr << "dra controller: leader election lost\n";
      lost_leadership = true;
      kill(getpid(), SIGTERM);
    };
    auto lock =
        kube::NewLeaseLock(kube::ObjectClient(std::move(client)), options.lease_namespace,
                           options.lease_name.empty() ? kube::SanitizeLeaseName(options.driver_name)
                                                      : options.lease_name);
    auto created = kube::LeaderElector::New(std::move(lock), std::move(config));
    if (!created) {
      std::cerr << "dra controller: leader election: " << created.error() << "\n";
      driver.Stop();
      return 1;
    }
    elector = std::move(*created);
    elector->Start();
  } else {
    unelected = std::thread([&] { Lead(driver, publisher, options, events, stopping); });
  }
  int received = 0;
  sigwait(&signals, &received);
  stopping = true;
  if (!lost_leadership) {
    std::cerr << "dra controller: " << (received == SIGTERM ? "SIGTERM" : "SIGINT")
              << ", shutting down\n";
  }
  if (elector) elector->Stop();
  if (unelected.joinable()) unelected.join();
  driver.Stop();
  return lost_leadership ? 1 : 0;
}

}  // namespace dra::driver
