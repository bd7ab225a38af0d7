#include "cli/serve/waiting_explainer.h"

#include <malloc.h>

#include <utility>

namespace dra::cli::serve {

WaitingExplainer::WaitingExplainer(api::FeatureGates gates, std::chrono::milliseconds max_age)
    : gates_(gates), max_age_(max_age), latest_(std::make_shared<const Explained>()) {
  thread_ = std::thread([this] { Run(); });
}

WaitingExplainer::~WaitingExplainer() { Stop(); }

void WaitingExplainer::Offer(KeptCluster objects, std::uint64_t version) {
  std::vector<std::string> waiting = WaitingPods(objects);
  const auto now = std::chrono::steady_clock::now();
  MutexLock lock(mu_);
  // Stopped: nothing would take it, and a Hurry would wait for it forever.
  if (stopped_) return;
  if (taken_any_ && !latest_->hurried && waiting == offered_ &&
      (version == offered_version_ || now - offered_at_ < max_age_)) {
    return;
  }
  taken_any_ = true;
  offered_ = std::move(waiting);
  offered_at_ = now;
  offered_version_ = version;
  next_ = std::make_unique<KeptCluster>(std::move(objects));
  // Busy from now: a Hurry before the thread takes it waits for it too.
  busy_ = true;
  cv_.NotifyAll();
}

std::shared_ptr<const Explained> WaitingExplainer::Latest() const {
  MutexLock lock(mu_);
  return latest_;
}

void WaitingExplainer::Hurry() {
  MutexLock lock(mu_);
  if (!busy_) return;
  hurry_ = true;
  while (busy_) cv_.Wait(mu_);
}

void WaitingExplainer::Stop() {
  {
    MutexLock lock(mu_);
    stopped_ = true;
    hurry_ = true;
    cv_.NotifyAll();
  }
  if (thread_.joinable()) thread_.join();
}

void WaitingExplainer::Run() {
  while (true) {
    std::unique_ptr<KeptCluster> objects;
    std::uint64_t generation = 0;
    {
      MutexLock lock(mu_);
      while (!stopped_ && next_ == nullptr) cv_.Wait(mu_);
      if (stopped_) {
        busy_ = false;
        cv_.NotifyAll();
        return;
      }
      objects = std::move(next_);
      generation = latest_->generation + 1;
    }
    const auto start = std::chrono::steady_clock::now();
    auto explained = std::make_shared<Explained>();
    if (!WaitingPods(*objects).empty()) {
      scheduler::Cluster cluster = Unpack(*objects, ExplainerUnpackOptions());
      // The cluster holds what it still needs of the objects.
      objects.reset();
      // What decoding freed (each object's text and document) goes back
      // rather than stay resident beside the scheduler built next.
      malloc_trim(0);
      explained->pods = ExplainWaiting(std::move(cluster), gates_, &hurry_, &explained->hurried);
    }
    objects.reset();
    explained->generation = generation;
    explained->seconds =
        std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
    // The decoded cluster is freed: give it back now, not at the next
    // state's trim, so that it is not kept beside what comes next.
    malloc_trim(0);
    MutexLock lock(mu_);
    latest_ = std::move(explained);
    busy_ = next_ != nullptr;
    if (!busy_) hurry_ = false;
    cv_.NotifyAll();
  }
}

}  // namespace dra::cli::serve
