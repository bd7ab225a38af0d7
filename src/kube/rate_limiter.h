// The client-side token bucket (client-go util/flowcontrol's
// NewTokenBucketRateLimiter): `burst` tokens, refilled at `qps` per second,
// starting full; each request takes one token, waiting until one is there.
//
// Thread-safety: Wait() may be called from any number of threads at once.
#pragma once

#include <chrono>

#include "dra/util/mutex.h"

namespace dra::kube {

class RateLimiter {
 public:
  RateLimiter(double qps, int burst);
  // Blocks until a token is available and takes it; returns how long it waited.
  std::chrono::nanoseconds Wait() DRA_EXCLUDES(mu_);

 private:
  using Clock = std::chrono::steady_clock;
  Mutex mu_;
  const double qps_;
  const double burst_;
  double tokens_ DRA_GUARDED_BY(mu_);  // may go negative: reserved by waiters
  Clock::time_point last_ DRA_GUARDED_BY(mu_);
};

}  // namespace dra::kube
