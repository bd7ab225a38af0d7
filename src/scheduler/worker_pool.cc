#include "scheduler/worker_pool.h"

namespace dra::scheduler {

WorkerPool::WorkerPool(int threads) {
  for (int i = 1; i < threads; ++i) threads_.emplace_back([this] { WorkerLoop(); });
}

WorkerPool::~WorkerPool() {
  {
    std::lock_guard<std::mutex> lock(mu_);
    shutdown_ = true;
  }
  work_cv_.notify_all();
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
      std::unique_lock<std::mutex> lock(mu_);
      work_cv_.wait(lock, [&] { return shutdown_ || generation_ != seen; });
      if (shutdown_) return;
      seen = generation_;
    }
    Drain();
    {
      std::lock_guard<std::mutex> lock(mu_);
      --pending_;
    }
    done_cv_.notify_one();
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
      std::lock_guard<std::mutex> lock(mu_);
      ++generation_;
      pending_ = static_cast<int>(threads_.size());
    }
    work_cv_.notify_all();
  }
  Drain();
  if (wake) {
    std::unique_lock<std::mutex> lock(mu_);
    // Every worker takes part in every loop (possibly finding no index
    // left), so the loop's state stays valid until all of them are done.
    done_cv_.wait(lock, [&] { return pending_ == 0; });
  }
}

}  // namespace dra::scheduler
