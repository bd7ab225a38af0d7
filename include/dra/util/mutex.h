// Locks that clang's thread-safety analysis can check, and the annotations
// that tell it which lock guards what. One header for the family, because a
// mutex, its scoped lock and the condition variable that waits on it are
// used together and each needs the others' internals:
//   Mutex        an exclusive lock (std::mutex underneath);
//   MutexLock    holds a Mutex for a scope, and may let it go and take it
//                again inside that scope (Unlock/Lock);
//   CondVar      waits on a Mutex the caller holds; the caller writes the
//                loop over its condition, so the analysis sees every read
//                of the guarded state happen under the lock;
//   SharedMutex  a readers-writer lock (std::shared_mutex underneath), with
//                ReaderLock and WriterLock as its scoped locks.
//
// The DRA_* macros expand to clang's thread-safety attributes when the
// compiler has them (the clang build compiles with -Wthread-safety, as an
// error) and to nothing elsewhere (GCC), so they cost nothing at run time:
//   DRA_GUARDED_BY(mu)      a member that is read or written only with mu held;
//   DRA_PT_GUARDED_BY(mu)   the same for what a pointer member points to;
//   DRA_REQUIRES(mu...)     a function its caller calls with mu held;
//   DRA_REQUIRES_SHARED     the same, where a shared (reader) hold is enough;
//   DRA_EXCLUDES(mu...)     a function its caller must not call with mu held
//                           (it takes mu itself);
//   DRA_ACQUIRE/_RELEASE    a function that takes/lets go of a lock and
//                           returns with it held/not held;
//   DRA_RETURN_CAPABILITY   a function that returns a reference to a lock;
//   DRA_NO_THREAD_SAFETY_ANALYSIS  a function the analysis cannot follow (a
//                           lock passed through a C callback, say); every
//                           use says why next to it.
//
// What is safe, and for how long: every member function of Mutex,
// SharedMutex and CondVar may be called from any thread at any time while the
// object lives; none of them may be destroyed while a thread holds or waits
// on them. A MutexLock, ReaderLock or WriterLock belongs to the thread that
// made it and lives no longer than its lock. None of these types is copyable
// or movable: a lock's address is its identity, for the threads that share it
// and for the analysis.
#pragma once

#include <chrono>
#include <condition_variable>
#include <mutex>
#include <shared_mutex>

#if defined(__clang__)
#define DRA_THREAD_ANNOTATION(x) __attribute__((x))
#else
#define DRA_THREAD_ANNOTATION(x)
#endif

#define DRA_CAPABILITY(name) DRA_THREAD_ANNOTATION(capability(name))
#define DRA_SCOPED_CAPABILITY DRA_THREAD_ANNOTATION(scoped_lockable)
#define DRA_GUARDED_BY(x) DRA_THREAD_ANNOTATION(guarded_by(x))
#define DRA_PT_GUARDED_BY(x) DRA_THREAD_ANNOTATION(pt_guarded_by(x))
#define DRA_REQUIRES(...) DRA_THREAD_ANNOTATION(requires_capability(__VA_ARGS__))
#define DRA_REQUIRES_SHARED(...) DRA_THREAD_ANNOTATION(requires_shared_capability(__VA_ARGS__))
#define DRA_EXCLUDES(...) DRA_THREAD_ANNOTATION(locks_excluded(__VA_ARGS__))
#define DRA_ACQUIRE(...) DRA_THREAD_ANNOTATION(acquire_capability(__VA_ARGS__))
#define DRA_ACQUIRE_SHARED(...) DRA_THREAD_ANNOTATION(acquire_shared_capability(__VA_ARGS__))
#define DRA_RELEASE(...) DRA_THREAD_ANNOTATION(release_capability(__VA_ARGS__))
#define DRA_RELEASE_SHARED(...) DRA_THREAD_ANNOTATION(release_shared_capability(__VA_ARGS__))
#define DRA_RELEASE_GENERIC(...) DRA_THREAD_ANNOTATION(release_generic_capability(__VA_ARGS__))
#define DRA_RETURN_CAPABILITY(x) DRA_THREAD_ANNOTATION(lock_returned(x))
#define DRA_NO_THREAD_SAFETY_ANALYSIS DRA_THREAD_ANNOTATION(no_thread_safety_analysis)

namespace dra {

class CondVar;

// An exclusive lock. Lock() blocks until this thread holds it; it is not
// recursive (a thread that locks it twice deadlocks).
class DRA_CAPABILITY("mutex") Mutex {
 public:
  Mutex() = default;
  Mutex(const Mutex&) = delete;
  Mutex& operator=(const Mutex&) = delete;

  void Lock() DRA_ACQUIRE() { mu_.lock(); }
  void Unlock() DRA_RELEASE() { mu_.unlock(); }

 private:
  friend class CondVar;
  std::mutex mu_;
};

// Holds a Mutex from its construction to its destruction. Unlock() lets it go
// early (for work that must not run under it) and Lock() takes it back; the
// destructor lets it go only if it is held then.
class DRA_SCOPED_CAPABILITY MutexLock {
 public:
  explicit MutexLock(Mutex& mu) DRA_ACQUIRE(mu) : mu_(mu) { mu_.Lock(); }
  ~MutexLock() DRA_RELEASE() {
    if (held_) mu_.Unlock();
  }
  MutexLock(const MutexLock&) = delete;
  MutexLock& operator=(const MutexLock&) = delete;

  void Unlock() DRA_RELEASE() {
    mu_.Unlock();
    held_ = false;
  }
  void Lock() DRA_ACQUIRE() {
    mu_.Lock();
    held_ = true;
  }

 private:
  Mutex& mu_;
  bool held_ = true;
};

// A condition variable over Mutex. Each Wait* lets `mu` go while it sleeps and
// holds it again when it returns; it may return early (a spurious wake-up), so
// callers wait in a loop over their condition:
//   while (!done_) cv_.Wait(mu_);
// Notify*() may be called with or without the Mutex held.
class CondVar {
 public:
  CondVar() = default;
  CondVar(const CondVar&) = delete;
  CondVar& operator=(const CondVar&) = delete;

  void Wait(Mutex& mu) DRA_REQUIRES(mu) {
    std::unique_lock<std::mutex> lock(mu.mu_, std::adopt_lock);
    cv_.wait(lock);
    lock.release();  // the caller's hold, not this function's
  }
  // std::cv_status::timeout once `deadline` has passed.
  template <class Clock, class Duration>
  std::cv_status WaitUntil(Mutex& mu, const std::chrono::time_point<Clock, Duration>& deadline)
      DRA_REQUIRES(mu) {
    std::unique_lock<std::mutex> lock(mu.mu_, std::adopt_lock);
    std::cv_status status = cv_.wait_until(lock, deadline);
    lock.release();
    return status;
  }

  void NotifyOne() { cv_.notify_one(); }
  void NotifyAll() { cv_.notify_all(); }

 private:
  std::condition_variable cv_;
};

// A readers-writer lock: any number of readers (LockShared) or one writer
// (Lock) at a time. Not recursive.
class DRA_CAPABILITY("mutex") SharedMutex {
 public:
  SharedMutex() = default;
  SharedMutex(const SharedMutex&) = delete;
  SharedMutex& operator=(const SharedMutex&) = delete;

  void Lock() DRA_ACQUIRE() { mu_.lock(); }
  void Unlock() DRA_RELEASE() { mu_.unlock(); }
  void LockShared() DRA_ACQUIRE_SHARED() { mu_.lock_shared(); }
  void UnlockShared() DRA_RELEASE_SHARED() { mu_.unlock_shared(); }

 private:
  std::shared_mutex mu_;
};

// Holds a SharedMutex for reading from construction to destruction.
class DRA_SCOPED_CAPABILITY ReaderLock {
 public:
  explicit ReaderLock(SharedMutex& mu) DRA_ACQUIRE_SHARED(mu) : mu_(mu) { mu_.LockShared(); }
  ~ReaderLock() DRA_RELEASE() { mu_.UnlockShared(); }
  ReaderLock(const ReaderLock&) = delete;
  ReaderLock& operator=(const ReaderLock&) = delete;

 private:
  SharedMutex& mu_;
};

// Holds a SharedMutex for writing from construction to destruction.
class DRA_SCOPED_CAPABILITY WriterLock {
 public:
  explicit WriterLock(SharedMutex& mu) DRA_ACQUIRE(mu) : mu_(mu) { mu_.Lock(); }
  ~WriterLock() DRA_RELEASE() { mu_.Unlock(); }
  WriterLock(const WriterLock&) = delete;
  WriterLock& operator=(const WriterLock&) = delete;

 private:
  SharedMutex& mu_;
};

}  // namespace dra
