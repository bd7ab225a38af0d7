// A fixed set of threads that run one parallel loop at a time; the calling
// thread takes part, so a pool of size 1 runs everything inline.
#pragma once

#include <atomic>
#include <condition_variable>
#include <cstddef>
#include <functional>
#include <mutex>
#include <thread>
#include <vector>

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
  std::mutex mu_;
  std::condition_variable work_cv_;
  std::condition_variable done_cv_;
  std::uint64_t generation_ = 0;  // bumped per loop; guarded by mu_
  int pending_ = 0;               // workers not yet done with the current loop; guarded by mu_
  bool shutdown_ = false;

  // The current loop (valid while active).
  std::size_t n_ = 0;
  const std::function<void(std::size_t)>* body_ = nullptr;
  const std::function<bool()>* stop_ = nullptr;
  std::atomic<std::size_t> next_{0};
};

}  // namespace dra::scheduler
