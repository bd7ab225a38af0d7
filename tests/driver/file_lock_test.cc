// FileLock on its own: flock(2) semantics of an exclusive lock held from
// Acquire until destruction, and the codes of its errors.
#include "driver/file_lock.h"

#include <fcntl.h>
#include <gtest/gtest.h>
#include <sys/file.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cerrno>
#include <cstdlib>
#include <string>
#include <utility>

namespace dra::driver {
namespace {

class FileLockTest : public ::testing::Test {
 protected:
  void SetUp() override {
    std::string tmpl = ::testing::TempDir() + "file_lock_test.XXXXXX";
    ASSERT_NE(mkdtemp(tmpl.data()), nullptr);
    dir_ = tmpl;
  }
  void TearDown() override {
    for (const char* name : {"/a.lock", "/b.lock"}) unlink((dir_ + name).c_str());
    rmdir(dir_.c_str());
  }

  // Whether another open file description of `path` can take the exclusive
  // lock right now. flock(2) treats descriptors from separate open(2) calls
  // independently, also within one process, so this sees a FileLock held by
  // this very thread. Never blocks.
  static bool Lockable(const std::string& path) {
    int fd = open(path.c_str(), O_RDWR | O_CLOEXEC);
    if (fd < 0) return false;
    bool ok = flock(fd, LOCK_EX | LOCK_NB) == 0;
    int err = errno;
    close(fd);
    if (!ok) {
      EXPECT_EQ(err, EWOULDBLOCK);
    }
    return ok;
  }

  std::string dir_;
};

TEST_F(FileLockTest, CreatesTheFileOwnerOnly) {
  const std::string path = dir_ + "/a.lock";
  auto lock = FileLock::Acquire(path);
  ASSERT_TRUE(lock.ok()) << lock.error();
  struct stat st {};
  ASSERT_EQ(stat(path.c_str(), &st), 0);
  EXPECT_TRUE(S_ISREG(st.st_mode));
  // Created with mode 0600: nothing for group or others, whatever the umask.
  EXPECT_EQ(st.st_mode & 077, 0u);
  EXPECT_EQ(st.st_mode & 0600, 0600u);
}

TEST_F(FileLockTest, HeldUntilDestroyed) {
  const std::string path = dir_ + "/a.lock";
  {
    auto lock = FileLock::Acquire(path);
    ASSERT_TRUE(lock.ok()) << lock.error();
    EXPECT_FALSE(Lockable(path));
  }
  EXPECT_TRUE(Lockable(path));
  // An existing file is opened, not truncated or refused, and locked again.
  auto again = FileLock::Acquire(path);
  ASSERT_TRUE(again.ok()) << again.error();
  EXPECT_FALSE(Lockable(path));
}

TEST_F(FileLockTest, MovesKeepTheLockAndAssignmentReleasesTheOldOne) {
  const std::string a = dir_ + "/a.lock";
  const std::string b = dir_ + "/b.lock";
  auto la = FileLock::Acquire(a);
  auto lb = FileLock::Acquire(b);
  ASSERT_TRUE(la.ok() && lb.ok());
  FileLock held_a = std::move(*la);
  {
    FileLock moved_from = std::move(*lb);
    FileLock held_b = std::move(moved_from);
    // Destroying the moved-from objects at the end of this block releases nothing.
    EXPECT_FALSE(Lockable(b));
    held_a = std::move(held_b);  // drops a's lock, takes over b's
    EXPECT_TRUE(Lockable(a));
    EXPECT_FALSE(Lockable(b));
  }
  EXPECT_FALSE(Lockable(b));  // held_a owns it now
}

// open(2) of a directory for writing fails with EISDIR: invalid input.
TEST_F(FileLockTest, DirectoryIsInvalidInput) {
  auto lock = FileLock::Acquire(dir_);
  ASSERT_FALSE(lock.ok());
  EXPECT_EQ(lock.code(), ErrorCode::kInvalidInput);
  EXPECT_EQ(lock.error(), "open " + dir_ + ": Is a directory");
}

// A missing parent directory is ENOENT: not found.
TEST_F(FileLockTest, MissingDirectoryIsNotFound) {
  const std::string path = dir_ + "/missing/a.lock";
  auto lock = FileLock::Acquire(path);
  ASSERT_FALSE(lock.ok());
  EXPECT_EQ(lock.code(), ErrorCode::kNotFound);
  EXPECT_EQ(lock.error(), "open " + path + ": No such file or directory");
}

// A path through a regular file is ENOTDIR, which is also "not found".
TEST_F(FileLockTest, PathThroughAFileIsNotFound) {
  const std::string file = dir_ + "/a.lock";
  auto first = FileLock::Acquire(file);
  ASSERT_TRUE(first.ok());
  auto lock = FileLock::Acquire(file + "/b.lock");
  ASSERT_FALSE(lock.ok());
  EXPECT_EQ(lock.code(), ErrorCode::kNotFound);
  EXPECT_EQ(lock.error(), "open " + file + "/b.lock: Not a directory");
}

}  // namespace
}  // namespace dra::driver
