// Why a call to the Kubernetes API failed: the server's metav1.Status, or the
// transport's reason, and how kubectl prints each.
#pragma once

#include <cstdint>
#include <string>
#include <string_view>
#include <utility>
#include <variant>
#include <vector>

#include "dra/json/value.h"
#include "dra/util/result.h"

namespace dra::kube {

enum class ErrorKind : std::uint8_t {
  kServer,     // the server answered with a failure (a Status, or a bare error code)
  kTransport,  // no answer: connection refused or reset, TLS, DNS, timeout
  kConfig,     // the client is not configured usably (bad credentials setup)
  kProtocol,   // the answer could not be understood (not JSON, wrong kind, too large)
  kCancelled,  // the caller stopped the call
};

// metav1.StatusCause; `type` is the JSON key "reason".
struct StatusCause {
  std::string type;
  std::string message;
  std::string field;
};

struct ApiError {
  ErrorKind kind = ErrorKind::kServer;
  int code = 0;        // HTTP status (kServer)
  std::string reason;  // metav1.StatusReason: "NotFound", "Conflict", ... ("" when none)
  std::string message;
  // metav1.StatusDetails.
  std::string details_name;
  std::string details_group;
  std::string details_kind;
  std::vector<StatusCause> causes;
  int retry_after_seconds = 0;
  // metadata.continue of an Expired list Status (an inconsistent continuation).
  std::string continue_token;
  // kTransport: the server's host:port, and whether the connection was refused.
  std::string host;
  bool connection_refused = false;

  bool Is(std::string_view r) const { return kind == ErrorKind::kServer && reason == r; }
  // As apimachinery's IsNotFound etc.: the reason, or, when the reason is
  // not one apimachinery knows, the HTTP code.
  bool IsNotFound() const { return Is("NotFound") || CodeFallback(404); }
  bool IsAlreadyExists() const { return Is("AlreadyExists"); }
  bool IsConflict() const { return Is("Conflict") || CodeFallback(409); }
  bool IsForbidden() const { return Is("Forbidden") || CodeFallback(403); }
  bool IsUnauthorized() const { return Is("Unauthorized") || CodeFallback(401); }
  bool IsInvalid() const { return Is("Invalid") || CodeFallback(422); }
  // 410: Expired (or the legacy Gone): the resourceVersion or continue token is
  // too old.
  bool IsGone() const { return kind == ErrorKind::kServer && (code == 410 || Is("Expired")); }
  bool IsTooManyRequests() const { return kind == ErrorKind::kServer && code == 429; }

  // True for a server error with `c` whose reason is empty or not one of
  // metav1's StatusReasons.
  bool CodeFallback(int c) const;

  static ApiError Transport(std::string message, std::string host = {}, bool refused = false);
  static ApiError Protocol(std::string message);
  static ApiError Config(std::string message);
  static ApiError Cancelled();

  // The kind of failure this is, as dra's ErrorCode: the reason (or HTTP
  // code) of a server's answer; kUnavailable without an answer;
  // kInvalidInput for an answer that cannot be understood or a client that
  // is not configured usably; kCancelled.
  ErrorCode error_code() const;
};

// The error exactly as kubectl prints it (k8s.io/kubectl/pkg/cmd/util
// helpers.go at v0.37.2, StandardErrorMessage and the checkErr fallbacks),
// without a trailing newline:
//   Error from server (NotFound): resourceclaims.resource.k8s.io "x" not found
//   The ResourceClaim "x" is invalid: spec.devices.requests[0].name: Required value
//   error: You must be logged in to the server (Unauthorized)
//   The connection to the server 127.0.0.1:6443 was refused - did you specify the right host or
//   port? Unable to connect to the server: <cause>
std::string KubectlErrorText(const ApiError& error);

// The ApiError as dra's Error: its code(), and KubectlErrorText as message.
Error ToError(const ApiError& error);

// The error a response with a failure code becomes (client-go rest/request.go
// transformResponse and newUnstructuredResponseError at v0.37.2): the body's
// metav1.Status when it is one with status "Failure", else a Status
// synthesised from the code, its message naming `verb`, `resource` (e.g.
// "resourceslices.resource.k8s.io") and `name`.
ApiError ErrorFromResponse(int code, std::string_view content_type, std::string_view body,
                           std::string_view verb, std::string_view resource, std::string_view name);

// The ApiError a metav1.Status carries (a failure answer's body, a watch
// ERROR event's object): kServer with its code, reason, message and
// details; an object that is not a Status is a kProtocol error
// (apimachinery's errors.FromObject).
ApiError StatusToApiError(const json::Value& status);

// A value or an ApiError.
template <class T>
class [[nodiscard]] ApiResult {
 public:
  ApiResult(T value) : v_(std::move(value)) {}         // NOLINT(google-explicit-constructor)
  ApiResult(ApiError error) : v_(std::move(error)) {}  // NOLINT(google-explicit-constructor)

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
  // REQUIRES: !ok().
  const ApiError& error() const { return std::get<1>(v_); }
  // REQUIRES: !ok(). The error as dra's Error (ToError).
  Error failure() const { return ToError(error()); }

 private:
  std::variant<T, ApiError> v_;
};

struct Done {};
using ApiStatus = ApiResult<Done>;

}  // namespace dra::kube
