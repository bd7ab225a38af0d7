#include "metrics/growing_thread_pool.h"

#include <algorithm>
#include <utility>

namespace dra::metrics::internal {

GrowingThreadPool::GrowingThreadPool(std::size_t max_threads, std::chrono::milliseconds keep_idle)
    : max_threads_(std::max<std::size_t>(1, max_threads)), keep_idle_(keep_idle) {}

GrowingThreadPool::~GrowingThreadPool() { shutdown(); }

void GrowingThreadPool::enqueue(std::function<void()> task) {
  Threads ended;
  {
    MutexLock lock(mu_);
    ended = TakeEnded();
    if (stopping_) return;
    tasks_.push_back(std::move(task));
    // A waiting thread counts until it wakes: start one more only when the
    // queue outgrows those about to take from it.
    if (tasks_.size() > waiting_ && running_.size() < max_threads_) {
      running_.emplace_back();
      auto self = std::prev(running_.end());
      *self = std::thread([this, self] { Work(self); });
    } else {
      wake_.NotifyOne();
    }
  }
  for (std::thread& t : ended) t.join();
}

void GrowingThreadPool::shutdown() {
  {
    MutexLock lock(mu_);
    stopping_ = true;
    wake_.NotifyAll();
  }
  // Each thread ends once the queue is empty, moving itself to ended_.
  while (true) {
    Threads ended;
    bool all_ended = false;
    {
      MutexLock lock(mu_);
      while (ended_.empty() && !running_.empty()) wake_.Wait(mu_);
      ended = TakeEnded();
      all_ended = running_.empty();
    }
    for (std::thread& t : ended) t.join();
    if (all_ended) return;
  }
}

std::size_t GrowingThreadPool::threads() const {
  MutexLock lock(mu_);
  return running_.size();
}

GrowingThreadPool::Threads GrowingThreadPool::TakeEnded() {
  Threads out;
  out.splice(out.end(), ended_);
  return out;
}

void GrowingThreadPool::Work(Threads::iterator self) {
  MutexLock lock(mu_);
  while (true) {
    if (tasks_.empty() && !stopping_) {
      ++waiting_;
      const auto deadline = std::chrono::steady_clock::now() + keep_idle_;
      bool timed_out = false;
      while (tasks_.empty() && !stopping_ && !timed_out) {
        timed_out = wake_.WaitUntil(mu_, deadline) == std::cv_status::timeout;
      }
      --waiting_;
    }
    if (tasks_.empty()) break;  // idle for keep_idle_, or stopping with nothing left
    std::function<void()> task = std::move(tasks_.front());
    tasks_.pop_front();
    lock.Unlock();
    task();
    task = nullptr;  // what it captured goes before the lock is taken
    lock.Lock();
  }
  // The std::thread moves to ended_ for enqueue or shutdown to join; this
  // thread touches nothing of the pool after the lock is let go.
  ended_.splice(ended_.end(), running_, self);
  wake_.NotifyAll();
}

}  // namespace dra::metrics::internal
