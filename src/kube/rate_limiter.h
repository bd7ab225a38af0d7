// The client-side token bucket (client-go util/flowcontrol's
// NewTokenBucketRateLimiter): `burst` tokens, refilled at `qps` per second,
// starting full; each request takes one token, waiting until one is there.
//
// Thread-safety: Wait() may be called from any number of threads at once.
#pragma once

#include <chrono>
#include <mutex>

namespace dra::kube {

class RateLimiter {
 public:
  RateLimiter(double qps, int burst);
  // Blocks until a token is available and takes it; returns how long it waited.
  std::chrono::nanoseconds Wait();

 private:
  using Clock = std::chrono::steady_clock;
  std::mutex mu_;
  const double qps_;
  const double burst_;
  double tokens_;           // guarded by mu_; may go negative: reserved by waiters
  Clock::time_point last_;  // guarded by mu_
};

}  // namespace dra::kube
