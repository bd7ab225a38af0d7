// A fixed set of threads that run one parallel loop at a time; the calling
// thread takes part, so a pool of size 1 runs everything inline.
//
// Thread-safety: ParallelFor is called by one thread at a time (the pool's
// owner); body and stop run on every thread of the pool at once and must be
// safe for that. They are borrowed only until ParallelFor returns.
#pragma once

#include <atomic>
#include <cstddef>
#include <functional>
#include <thread>
#include <vector>

#include "dra/util/mutex.h"

namespace dra::scheduler {

class WorkerPool {
 public:
  explicit WorkerPool(int threads);
  ~WorkerPool();
  WorkerPool(const WorkerPool&) = delete;
  WorkerPool& operator=(const WorkerPool&) = delete;

  // Runs body(i) for i in [0, n) on all threads:
  // every thread repeatedly claims the next index with an atomic counter and
  // runs body on it, until the indices are exhausted or `stop` returns true.
  // Returns when every started body call has finished.
  // REQUIRES: not called concurrently.
  void ParallelFor(std::size_t n, const std::function<void(std::size_t)>& body,
                   const std::function<bool()>& stop = {});

  int size() const { return static_cast<int>(threads_.size()) + 1; }

 private:
  void WorkerLoop();
  void Drain();

  std::vector<std::thread> threads_;
  Mutex mu_;
  CondVar work_cv_;
  CondVar done_cv_;
  std::uint64_t generation_ DRA_GUARDED_BY(mu_) = 0;  // bumped per loop
  int pending_ DRA_GUARDED_BY(mu_) = 0;               // workers not yet done with the current loop
  bool shutdown_ DRA_GUARDED_BY(mu_) = false;

  // The current loop (valid while active). Written by ParallelFor before it
  // bumps generation_ and read by the workers after they see the bump, both
  // under mu_, which orders them; not annotated, since the workers read them
  // without the lock.
  std::size_t n_ = 0;
  const std::function<void(std::size_t)>* body_ = nullptr;
  const std::function<bool()>* stop_ = nullptr;
  std::atomic<std::size_t> next_{0};
};

}  // namespace dra::scheduler
