// The state `dra serve` serves: computed by one thread, read by many.
#pragma once

#include <chrono>
#include <cstdint>
#include <memory>

#include "cli/serve/dashboard_state.h"
#include "dra/util/mutex.h"

namespace dra::cli::serve {

// Thread-safety: every method may be called from any thread. A state handed
// out is immutable and stays valid for as long as the caller holds it.
class StatePublisher {
 public:
  // Stamps the next generation on `state` and makes it current.
  void Publish(DashboardState state) DRA_EXCLUDES(mu_);
  // The current state; null before the first Publish.
  std::shared_ptr<const DashboardState> Current() const DRA_EXCLUDES(mu_);
  // The current state once its generation differs from `seen`, or null
  // after `timeout` or Close().
  std::shared_ptr<const DashboardState> WaitForNewer(std::uint64_t seen,
                                                     std::chrono::milliseconds timeout)
      DRA_EXCLUDES(mu_);
  // Wakes every waiter; WaitForNewer returns at once from now on.
  void Close() DRA_EXCLUDES(mu_);
  bool closed() const DRA_EXCLUDES(mu_);

 private:
  mutable Mutex mu_;
  CondVar cv_;
  std::shared_ptr<const DashboardState> current_ DRA_GUARDED_BY(mu_);
  std::uint64_t generation_ DRA_GUARDED_BY(mu_) = 0;
  bool closed_ DRA_GUARDED_BY(mu_) = false;
};

}  // namespace dra::cli::serve
