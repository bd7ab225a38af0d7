#include "dra/util/mutex.h"

#include <gtest/gtest.h>

#include <atomic>
#include <chrono>
#include <thread>
#include <vector>

namespace dra {
namespace {

struct Counter {
  Mutex mu;
  CondVar cv;
  int value DRA_GUARDED_BY(mu) = 0;
};

TEST(Mutex, MutexLockSerializesIncrements) {
  Counter c;
  std::vector<std::thread> threads;
  threads.reserve(4);
  for (int t = 0; t < 4; ++t) {
    threads.emplace_back([&c] {
      for (int i = 0; i < 1000; ++i) {
        MutexLock lock(c.mu);
        ++c.value;
      }
    });
  }
  for (std::thread& t : threads) t.join();
  MutexLock lock(c.mu);
  EXPECT_EQ(c.value, 4000);
}

TEST(Mutex, MutexLockCanLetGoAndTakeBack) {
  Counter c;
  MutexLock lock(c.mu);
  c.value = 1;
  lock.Unlock();
  // Another thread can take the lock while this scope has let it go.
  std::thread other([&c] {
    MutexLock inner(c.mu);
    c.value = 2;
  });
  other.join();
  lock.Lock();
  EXPECT_EQ(c.value, 2);
}

TEST(CondVar, WaitReturnsOnceTheConditionHolds) {
  Counter c;
  std::thread producer([&c] {
    {
      MutexLock lock(c.mu);
      c.value = 7;
    }
    c.cv.NotifyAll();
  });
  {
    MutexLock lock(c.mu);
    while (c.value == 0) c.cv.Wait(c.mu);
    EXPECT_EQ(c.value, 7);
  }
  producer.join();
}

TEST(CondVar, WaitUntilTimesOutWithTheMutexHeld) {
  Counter c;
  MutexLock lock(c.mu);
  auto deadline = std::chrono::steady_clock::now() + std::chrono::milliseconds(20);
  std::cv_status status = std::cv_status::no_timeout;
  while (c.value == 0 && status == std::cv_status::no_timeout) {
    status = c.cv.WaitUntil(c.mu, deadline);
  }
  EXPECT_EQ(status, std::cv_status::timeout);
  EXPECT_GE(std::chrono::steady_clock::now(), deadline);
  c.value = 1;  // still held: the analysis and the lock agree
}

TEST(SharedMutex, ReadersShareWritersExclude) {
  SharedMutex mu;
  std::atomic<int> readers{0};
  std::atomic<int> most{0};
  std::vector<std::thread> threads;
  threads.reserve(4);
  for (int t = 0; t < 4; ++t) {
    threads.emplace_back([&] {
      ReaderLock lock(mu);
      int now = ++readers;
      int seen = most.load();
      while (now > seen && !most.compare_exchange_weak(seen, now)) {
      }
      std::this_thread::sleep_for(std::chrono::milliseconds(20));
      --readers;
    });
  }
  for (std::thread& t : threads) t.join();
  EXPECT_GE(most.load(), 1);
  WriterLock lock(mu);
  EXPECT_EQ(readers.load(), 0);
}

}  // namespace
}  // namespace dra
