#include "scheduler/worker_pool.h"

#include "dra/util/mutex.h"

namespace dra::scheduler {

WorkerPool::WorkerPool(int threads) {
  for (int i = 1; i < threads; ++i) threads_.emplace_back([this] { WorkerLoop(); });
}

WorkerPool::~WorkerPool() {
  {
    MutexLock lock(mu_);
    shutdown_ = true;
  }
  work_cv_.NotifyAll();
  for (std::thread& t : threads_) t.join();
}

void WorkerPool::Drain() {
  while (true) {
    if (*stop_ && (*stop_)()) return;
    std::size_t i = next_.fetch_add(1, std::memory_order_relaxed);
    if (i >= n_) return;
    (*body_)(i);
  }
}

void WorkerPool::WorkerLoop() {
  std::uint64_t seen = 0;
  while (true) {
    {
      MutexLock lock(mu_);
      while (!shutdown_ && generation_ == seen) work_cv_.Wait(mu_);
      if (shutdown_) return;
      seen = generation_;
    }
    Drain();
    {
      MutexLock lock(mu_);
      --pending_;
    }
    done_cv_.NotifyOne();
  }
}

void WorkerPool::ParallelFor(std::size_t n, const std::function<void(std::size_t)>& body,
                             const std::function<bool()>& stop) {
  if (n == 0) return;
  n_ = n;
  body_ = &body;
  stop_ = &stop;
  next_.store(0, std::memory_order_relaxed);
  // Small loops are not worth waking the workers for.
  bool wake = !threads_.empty() && n > 1;
  if (wake) {
    {
      MutexLock lock(mu_);
      ++generation_;
      pending_ = static_cast<int>(threads_.size());
    }
    work_cv_.NotifyAll();
  }
  Drain();
  if (wake) {
    MutexLock lock(mu_);
    // Every worker takes part in every loop (possibly finding no index
    // left), so the loop's state stays valid until all of them are done.
    while (pending_ != 0) done_cv_.Wait(mu_);
  }
}

}  // namespace dra::scheduler
