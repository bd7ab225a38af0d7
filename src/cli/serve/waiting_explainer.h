// Explains the waiting pods beside the computation of states: dra serve's
// compute loop hands it each cluster whose waiting pods changed (or, while
// the cluster changes, every 30 s), and reads back the latest explanations, so that a slow
// explanation (seconds on thousands of nodes) never delays what devices the page shows. The cluster
// is decoded only while it is explained, and only when pods wait.
#pragma once

#include <chrono>
#include <cstdint>
#include <memory>
#include <string>
#include <thread>
#include <vector>

#include "cli/serve/dashboard_state.h"
#include "cli/serve/kept_objects.h"
#include "dra/api/feature_gates.h"
#include "dra/scheduler/cluster.h"
#include "dra/util/mutex.h"

namespace dra::cli::serve {

struct Explained {
  std::vector<PendingPod> pods;
  std::uint64_t generation = 0;  // grows with each explanation
  double seconds = 0;            // how long it took
};

// Thread-safety: every method may be called from any thread. Runs one
// thread from construction to Stop() (or destruction).
class WaitingExplainer {
 public:
  WaitingExplainer(api::FeatureGates gates, std::chrono::milliseconds max_age);
  ~WaitingExplainer();
  WaitingExplainer(const WaitingExplainer&) = delete;
  WaitingExplainer& operator=(const WaitingExplainer&) = delete;

  // Takes `objects` (the source's `version` of them) when their waiting pods
  // differ from those of the last cluster taken, or when the objects changed
  // and the last cluster taken is older than max_age: an unchanged cluster
  // would be explained the same way. Returns at once; the newest cluster
  // taken replaces one not yet started. By value: a caller done with its
  // copy moves it in, so that an explanation does not hold a second one.
  void Offer(KeptCluster objects, std::uint64_t version) DRA_EXCLUDES(mu_);
  // The latest explanations; generation 0 before the first.
  std::shared_ptr<const Explained> Latest() const DRA_EXCLUDES(mu_);
  void Stop() DRA_EXCLUDES(mu_);

 private:
  void Run() DRA_EXCLUDES(mu_);

  const api::FeatureGates gates_;
  const std::chrono::milliseconds max_age_;
  mutable Mutex mu_;
  CondVar cv_;
  std::unique_ptr<KeptCluster> next_ DRA_GUARDED_BY(mu_);
  std::vector<std::string> offered_ DRA_GUARDED_BY(mu_);  // waiting pods of the last taken
  std::chrono::steady_clock::time_point offered_at_ DRA_GUARDED_BY(mu_);
  std::uint64_t offered_version_ DRA_GUARDED_BY(mu_) = 0;
  bool taken_any_ DRA_GUARDED_BY(mu_) = false;
  std::shared_ptr<const Explained> latest_ DRA_GUARDED_BY(mu_);
  bool stopped_ DRA_GUARDED_BY(mu_) = false;
  std::thread thread_;
};

}  // namespace dra::cli::serve
