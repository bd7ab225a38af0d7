// An exclusive flock(2) on a lock file, shared by every process of a node
// that opens the same path: held from Acquire until the FileLock is
// destroyed. Serializes checkpoint writes and driver calls between plugin
// instances (a rolling update runs two). Move-only; not for sharing between
// threads (each holder owns its lock).
#pragma once

#include <string>

#include "dra/util/result.h"

namespace dra::driver {

class FileLock {
 public:
  // Opens (creating it, mode 0600) and locks `path`, waiting for other
  // holders. Errors read "open PATH: ..." or "lock PATH: ...".
  static Result<FileLock> Acquire(const std::string& path);

  FileLock(FileLock&& other) noexcept : fd_(other.fd_) { other.fd_ = -1; }
  FileLock& operator=(FileLock&& other) noexcept;
  FileLock(const FileLock&) = delete;
  FileLock& operator=(const FileLock&) = delete;
  ~FileLock();

 private:
  explicit FileLock(int fd) : fd_(fd) {}
  int fd_ = -1;  // closing it releases the lock
};

}  // namespace dra::driver
