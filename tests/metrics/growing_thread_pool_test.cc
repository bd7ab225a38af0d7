// GrowingThreadPool: every task runs, at most max_threads at once, threads
// are made only when the queue needs one and end when idle, shutdown drains.
#include "metrics/growing_thread_pool.h"

#include <gtest/gtest.h>

#include <atomic>
#include <chrono>
#include <thread>

#include "dra/util/mutex.h"

namespace dra::metrics::internal {
namespace {

using std::chrono::milliseconds;

// Waits (at most 20 s) for `done` to hold.
template <class F>
bool Eventually(F done) {
  const auto deadline = std::chrono::steady_clock::now() + std::chrono::seconds(20);
  while (!done()) {
    if (std::chrono::steady_clock::now() > deadline) return false;
    std::this_thread::sleep_for(milliseconds(1));
  }
  return true;
}

// Tasks that block until opened, counting how many run at once.
struct Gate {
  Mutex mu;
  CondVar cv;
  bool open DRA_GUARDED_BY(mu) = false;
  std::atomic<int> running{0}, most{0}, finished{0};
  void Task() {
    const int now = ++running;
    for (int seen = most.load(); now > seen && !most.compare_exchange_weak(seen, now);) {
    }
    {
      MutexLock lock(mu);
      while (!open) cv.Wait(mu);
    }
    --running;
    ++finished;
  }
  void Open() {
    MutexLock lock(mu);
    open = true;
    cv.NotifyAll();
  }
};

TEST(GrowingThreadPoolTest, RunsAtMostMaxThreadsAtOnceAndEveryTask) {
  GrowingThreadPool pool(3, std::chrono::seconds(30));
  Gate gate;
  for (int i = 0; i < 10; ++i) pool.enqueue([&] { gate.Task(); });
  ASSERT_TRUE(Eventually([&] { return gate.running.load() == 3; }));
  EXPECT_EQ(pool.threads(), 3u);
  gate.Open();
  ASSERT_TRUE(Eventually([&] { return gate.finished.load() == 10; }));
  EXPECT_EQ(gate.most.load(), 3);
  EXPECT_EQ(pool.threads(), 3u);  // idle, not yet past keep_idle
}

TEST(GrowingThreadPoolTest, StartsAThreadOnlyWhenNoneIsFree) {
  GrowingThreadPool pool(8, std::chrono::seconds(30));
  std::atomic<int> done{0};
  for (int i = 0; i < 20; ++i) {
    pool.enqueue([&] { ++done; });
    ASSERT_TRUE(Eventually([&] { return done.load() == i + 1; }));
    // The one thread is back waiting before the next task comes.
    ASSERT_TRUE(Eventually([&] { return pool.threads() == 1; }));
  }
}

TEST(GrowingThreadPoolTest, IdleThreadsEndAndNewOnesComeWhenNeeded) {
  GrowingThreadPool pool(4, milliseconds(20));
  Gate gate;
  for (int i = 0; i < 4; ++i) pool.enqueue([&] { gate.Task(); });
  ASSERT_TRUE(Eventually([&] { return gate.running.load() == 4; }));
  gate.Open();
  ASSERT_TRUE(Eventually([&] { return pool.threads() == 0; }));
  std::atomic<bool> ran{false};
  pool.enqueue([&] { ran = true; });
  ASSERT_TRUE(Eventually([&] { return ran.load(); }));
}

TEST(GrowingThreadPoolTest, ShutdownRunsWhatIsQueuedAndJoins) {
  std::atomic<int> done{0};
  {
    GrowingThreadPool pool(2, std::chrono::seconds(30));
    for (int i = 0; i < 50; ++i) {
      pool.enqueue([&] {
        std::this_thread::sleep_for(milliseconds(1));
        ++done;
      });
    }
    pool.shutdown();
    EXPECT_EQ(done.load(), 50);
    EXPECT_EQ(pool.threads(), 0u);
    pool.enqueue([&] { ++done; });  // refused after shutdown
    pool.shutdown();                // and again, as the destructor does
  }
  EXPECT_EQ(done.load(), 50);
}

}  // namespace
}  // namespace dra::metrics::internal
