// httplib's task queue with threads made as they are needed: at most
// `max_threads` tasks run at once, the rest wait in order, and a thread with
// nothing to do for `keep_idle` ends. httplib's own pool starts all of its
// threads up front; a server allowing 80 connections at once then holds 80
// threads (and their stacks) while it serves one scrape a minute.
//
// Thread-safety: enqueue and shutdown may be called from any thread.
// shutdown runs the tasks queued already, joins every thread and lets no
// later task in; the destructor shuts down first.
#pragma once

#include <httplib.h>

#include <chrono>
#include <cstddef>
#include <deque>
#include <functional>
#include <list>
#include <thread>

#include "dra/util/mutex.h"

namespace dra::metrics::internal {

class GrowingThreadPool final : public httplib::TaskQueue {
 public:
  GrowingThreadPool(std::size_t max_threads, std::chrono::milliseconds keep_idle);
  ~GrowingThreadPool() override;
  GrowingThreadPool(const GrowingThreadPool&) = delete;
  GrowingThreadPool& operator=(const GrowingThreadPool&) = delete;

  void enqueue(std::function<void()> task) override;
  void shutdown() override;

  // Threads started and not yet ended.
  std::size_t threads() const;

 private:
  using Threads = std::list<std::thread>;
  void Work(Threads::iterator self);
  // Takes the ended threads out, for the caller to join without the lock.
  Threads TakeEnded() DRA_REQUIRES(mu_);

  const std::size_t max_threads_;
  const std::chrono::milliseconds keep_idle_;
  mutable Mutex mu_;
  CondVar wake_;
  std::deque<std::function<void()>> tasks_ DRA_GUARDED_BY(mu_);
  Threads running_ DRA_GUARDED_BY(mu_);
  Threads ended_ DRA_GUARDED_BY(mu_);            // returned from Work, not joined
  std::size_t waiting_ DRA_GUARDED_BY(mu_) = 0;  // threads waiting for a task
  bool stopping_ DRA_GUARDED_BY(mu_) = false;
};

}  // namespace dra::metrics::internal
