// The one error type of dra, and the two ways an operation returns it:
//   Error      a code saying what kind of failure it is, and a message for people;
//   Result<T>  a value or an Error;
//   Status     success or an Error.
// Failures the caller is expected to handle (bad input is expected) are
// values of these types. Exceptions are reserved for programming errors and
// for libraries that force them. Callers decide by code (retry when
// unavailable, report a missing object, map to a gRPC status) and never by
// reading the message; the message is for people and says where and what.
#pragma once

#include <cstdint>
#include <string>
#include <string_view>
#include <utility>
#include <variant>

namespace dra {

// What kind of failure an Error is.
enum class ErrorCode : std::uint8_t {
  // The input is malformed or not allowed: a file, manifest, flag, CEL
  // expression, request, or an answer from a server that does not parse.
  kInvalidInput,
  // A named object, file, device or claim does not exist.
  kNotFound,
  // The object to create exists already.
  kAlreadyExists,
  // The state changed underneath the operation (a resourceVersion, a
  // checkpoint, a lock held by another) or contradicts it; read again and
  // decide again.
  kConflict,
  // A server, socket, device library or lock did not answer or is not ready;
  // the same call may succeed later.
  kUnavailable,
  // The operation did not finish within its time limit.
  kDeadlineExceeded,
  // Credentials are missing or refused, or a file may not be read or written.
  kPermissionDenied,
  // The caller stopped the operation.
  kCancelled,
  // A failure that the input cannot explain: a broken invariant, a write
  // that failed half way, a system call that should not fail.
  kInternal,
};

// "InvalidInput", "NotFound", ...: the code as dra prints it.
constexpr std::string_view ErrorCodeName(ErrorCode code) {
  switch (code) {
    case ErrorCode::kInvalidInput:
      return "InvalidInput";
    case ErrorCode::kNotFound:
      return "NotFound";
    case ErrorCode::kAlreadyExists:
      return "AlreadyExists";
    case ErrorCode::kConflict:
      return "Conflict";
    case ErrorCode::kUnavailable:
      return "Unavailable";
    case ErrorCode::kDeadlineExceeded:
      return "DeadlineExceeded";
    case ErrorCode::kPermissionDenied:
      return "PermissionDenied";
    case ErrorCode::kCancelled:
      return "Cancelled";
    case ErrorCode::kInternal:
      return "Internal";
  }
  return "Unknown";
}

// An error: its kind and a message naming where and what. `Error{message}`
// is an invalid-input error, by far the most common kind (parsers, decoders,
// validation, flags); every other kind is named where the error starts
// (`Error{message, ErrorCode::kNotFound}`), and wrapping keeps it.
struct Error {
  std::string message;
  ErrorCode code = ErrorCode::kInvalidInput;

  // The same error with `prefix` before its message (the prefix carries its
  // own separator, usually ": ").
  Error WithPrefix(std::string_view prefix) const& {
    return Error{std::string(prefix) + message, code};
  }
  Error WithPrefix(std::string_view prefix) && {
    message.insert(0, prefix);
    return std::move(*this);
  }
};

template <class T>
class [[nodiscard]] Result {
 public:
  Result(T value) : v_(std::move(value)) {}      // NOLINT(google-explicit-constructor)
  Result(Error error) : v_(std::move(error)) {}  // NOLINT(google-explicit-constructor)

  bool ok() const { return v_.index() == 0; }
  explicit operator bool() const { return ok(); }

  // REQUIRES: ok().
  T& value() & { return std::get<0>(v_); }
  const T& value() const& { return std::get<0>(v_); }
  T&& value() && { return std::get<0>(std::move(v_)); }
  T& operator*() & { return value(); }
  const T& operator*() const& { return value(); }
  T* operator->() { return &value(); }
  const T* operator->() const { return &value(); }

  // REQUIRES: !ok(). The whole error, to pass on (it converts to any
  // Result or Status), or its parts.
  const Error& failure() const& { return std::get<1>(v_); }
  Error failure() && { return std::get<1>(std::move(v_)); }
  const std::string& error() const { return failure().message; }
  ErrorCode code() const { return failure().code; }

 private:
  std::variant<T, Error> v_;
};

// Status: success or an Error.
class [[nodiscard]] Status {
 public:
  Status() = default;
  Status(Error error) : error_(std::move(error)), failed_(true) {}  // NOLINT

  static Status Ok() { return {}; }
  bool ok() const { return !failed_; }
  explicit operator bool() const { return ok(); }

  // REQUIRES: !ok() (ok: an empty message).
  const Error& failure() const& { return error_; }
  Error failure() && { return std::move(error_); }
  const std::string& error() const { return error_.message; }
  ErrorCode code() const { return error_.code; }

 private:
  Error error_;
  bool failed_ = false;
};

}  // namespace dra
