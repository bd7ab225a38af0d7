#include "kube/rate_limiter.h"

#include <algorithm>
#include <thread>

#include "dra/util/mutex.h"

namespace dra::kube {

RateLimiter::RateLimiter(double qps, int burst)
    : qps_(qps), burst_(burst), tokens_(burst), last_(Clock::now()) {}

std::chrono::nanoseconds RateLimiter::Wait() {
  std::chrono::nanoseconds wait{0};
  {
    MutexLock lock(mu_);
    Clock::time_point now = Clock::now();
    double elapsed = std::chrono::duration<double>(now - last_).count();
    last_ = now;
    tokens_ = std::min(burst_, tokens_ + elapsed * qps_);
    // Take the token now (possibly going negative); the deficit is the wait,
    // so concurrent waiters queue up behind each other in order.
    tokens_ -= 1;
    if (tokens_ < 0) {
      wait = std::chrono::duration_cast<std::chrono::nanoseconds>(
          std::chrono::duration<double>(-tokens_ / qps_));
    }
  }
  if (wait.count() > 0) std::this_thread::sleep_for(wait);
  return wait;
}

}  // namespace dra::kube
