#include "driver/file_lock.h"

#include <fcntl.h>
#include <sys/file.h>
#include <unistd.h>

#include <cerrno>
#include <cstring>

#include "dra/util/system_error.h"

namespace dra::driver {

Result<FileLock> FileLock::Acquire(const std::string& path) {
  int fd = open(path.c_str(), O_RDWR | O_CREAT | O_CLOEXEC, 0600);
  if (fd < 0) return ErrnoError("open " + path, errno);
  while (flock(fd, LOCK_EX) != 0) {
    if (errno != EINTR) {
      int err = errno;
      close(fd);
      return ErrnoError("lock " + path, err);
    }
  }
  return FileLock(fd);
}

FileLock& FileLock::operator=(FileLock&& other) noexcept {
  if (this != &other) {
    if (fd_ >= 0) close(fd_);
    fd_ = other.fd_;
    other.fd_ = -1;
  }
  return *this;
}

FileLock::~FileLock() {
  if (fd_ >= 0) close(fd_);
}

}  // namespace dra::driver
