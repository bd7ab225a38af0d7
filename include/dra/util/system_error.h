// Errors of failed system calls: which ErrorCode an errno value is, and an
// Error naming the call's object with the C library's text.
#pragma once

#include <cerrno>
#include <cstring>
#include <string>
#include <string_view>

#include "dra/util/result.h"

namespace dra {

// The kind of failure errno value `err` reports.
constexpr ErrorCode ErrnoCode(int err) {
  switch (err) {
    case ENOENT:
    case ENOTDIR:
      return ErrorCode::kNotFound;
    case EEXIST:
      return ErrorCode::kAlreadyExists;
    case EACCES:
    case EPERM:
    case EROFS:
      return ErrorCode::kPermissionDenied;
    case EAGAIN:
    case EBUSY:
    case EINTR:
    case ECONNREFUSED:
    case ECONNRESET:
    case ENOSPC:
    case EMFILE:
    case ENFILE:
      return ErrorCode::kUnavailable;
    case ETIMEDOUT:
      return ErrorCode::kDeadlineExceeded;
    case EINVAL:
    case ENAMETOOLONG:
    case EISDIR:
    case ELOOP:
      return ErrorCode::kInvalidInput;
    default:
      return ErrorCode::kInternal;
  }
}

// "<what>: <strerror(err)>" with ErrnoCode(err). `err` is errno as the
// failed call left it; building `what` in the same call is safe, since a
// successful allocation leaves errno alone.
inline Error ErrnoError(std::string_view what, int err) {
  return Error{std::string(what) + ": " + std::strerror(err), ErrnoCode(err)};
}

}  // namespace dra
