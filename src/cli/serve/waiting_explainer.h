// Explains the waiting pods between the computations of states: dra serve's
// compute loop hands it each cluster whose waiting pods changed (or, while
// the cluster changes, every 30 s), and reads back the latest explanations.
// An explanation takes seconds on thousands of nodes, most of them spent
// searching each waiting pod's closest node; a change in the cluster hurries
// it (Hurry), so that the change reaches the page in well under a second,
// and the state is computed only once the explanation has given its memory
// back: the two never hold their working sets at once. The cluster is
// decoded only while it is explained, and only when pods wait.
#pragma once

#include <atomic>
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
  // Hurried: some pods show the first node DRA rejected, not the closest.
  bool hurried = false;
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
  // Ignored after Stop().
  void Offer(KeptCluster objects, std::uint64_t version) DRA_EXCLUDES(mu_);
  // Ends the explanation in progress early (ExplainWaiting's `hurry`: pods
  // are still tried, but their closest nodes are no longer searched),
  // publishes it, and returns once its memory is given back; returns at once
  // when none runs or waits to. A cluster taken but not yet begun is
  // explained hurried. After a hurried explanation the next cluster offered is
  // taken even with the same waiting pods, so that the search is made once
  // the cluster is quiet.
  void Hurry() DRA_EXCLUDES(mu_);
  // The latest explanations; generation 0 before the first.
  std::shared_ptr<const Explained> Latest() const DRA_EXCLUDES(mu_);
  // Hurries the explanation in progress and ends the thread.
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
  bool busy_ DRA_GUARDED_BY(mu_) = false;  // an explanation runs or is taken
  std::atomic<bool> hurry_{false};         // read by the explanation's threads
  std::shared_ptr<const Explained> latest_ DRA_GUARDED_BY(mu_);
  bool stopped_ DRA_GUARDED_BY(mu_) = false;
  std::thread thread_;
};

}  // namespace dra::cli::serve
