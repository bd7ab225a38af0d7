// ApiError construction from server answers, and kubectl's rendering of it.
#include "dra/kube/api_error.h"

#include <algorithm>
#include <cctype>
#include <set>
#include <string>

#include "dra/api/field_error.h"
#include "dra/json/value.h"
#include "kube/wire.h"

namespace dra::kube {
namespace {

bool StartsWith(std::string_view s, std::string_view prefix) {
  return s.substr(0, prefix.size()) == prefix;
}

std::string ToLower(std::string_view s) {
  std::string out(s);
  std::transform(out.begin(), out.end(), out.begin(),
                 [](unsigned char c) { return static_cast<char>(std::tolower(c)); });
  return out;
}

std::string TrimSpace(std::string_view s) {
  std::size_t b = 0;
  std::size_t e = s.size();
  while (b < e && std::isspace(static_cast<unsigned char>(s[b])) != 0) ++b;
  while (e > b && std::isspace(static_cast<unsigned char>(s[e - 1])) != 0) --e;
  return std::string(s.substr(b, e - b));
}

// A failure Status as the body of an answer, when it is one: kind "Status"
// and status "Failure" (a Status with "Success" is not an error).
bool DecodeFailureStatus(std::string_view body, ApiError& out) {
  if (body.empty() || body.front() != '{') return false;
  json::ParseLimits limits;
  limits.max_depth = 64;
  limits.max_values = 100'000;
  Result<json::Value> tree = json::ParseJson(body, limits);
  if (!tree.ok() || !tree->is_object()) return false;
  if (wire::StringAt(*tree, "kind") != "Status") return false;
  if (wire::StringAt(*tree, "status") != "Failure") return false;
  out = StatusToApiError(*tree);
  return true;
}

}  // namespace

bool ApiError::CodeFallback(int c) const {
  static constexpr std::string_view kKnown[] = {"Unauthorized",
                                                "Forbidden",
                                                "NotFound",
                                                "AlreadyExists",
                                                "Conflict",
                                                "Gone",
                                                "Invalid",
                                                "ServerTimeout",
                                                "StorageReadError",
                                                "Timeout",
                                                "TooManyRequests",
                                                "BadRequest",
                                                "MethodNotAllowed",
                                                "NotAcceptable",
                                                "RequestEntityTooLarge",
                                                "UnsupportedMediaType",
                                                "InternalError",
                                                "Expired",
                                                "ServiceUnavailable"};
  if (kind != ErrorKind::kServer || code != c) return false;
  for (std::string_view k : kKnown) {
    if (reason == k) return false;
  }
  return true;
}

ApiError StatusToApiError(const json::Value& status) {
  if (wire::StringAt(status, "kind") != "Status") {
    return ApiError::Protocol("watch ERROR event whose object is not a Status: " +
                              json::ToJson(status).substr(0, 512));
  }
  ApiError e;
  e.kind = ErrorKind::kServer;
  e.code = wire::IntAt(status, "code");
  e.reason = wire::StringAt(status, "reason");
  e.message = wire::StringAt(status, "message");
  if (const json::Value* meta = status.Find("metadata"); meta != nullptr && meta->is_object()) {
    e.continue_token = wire::StringAt(*meta, "continue");
  }
  if (const json::Value* d = status.Find("details"); d != nullptr && d->is_object()) {
    e.details_name = wire::StringAt(*d, "name");
    e.details_group = wire::StringAt(*d, "group");
    e.details_kind = wire::StringAt(*d, "kind");
    e.retry_after_seconds = wire::IntAt(*d, "retryAfterSeconds");
    if (const json::Value* causes = d->Find("causes"); causes != nullptr && causes->is_array()) {
      for (const json::Value& c : causes->items) {
        e.causes.push_back({wire::StringAt(c, "reason"), wire::StringAt(c, "message"),
                            wire::StringAt(c, "field")});
      }
    }
  }
  return e;
}

ApiError ApiError::Transport(std::string message, std::string host, bool refused) {
  ApiError e;
  e.kind = ErrorKind::kTransport;
  e.message = std::move(message);
  e.host = std::move(host);
  e.connection_refused = refused;
  return e;
}

ApiError ApiError::Protocol(std::string message) {
  ApiError e;
  e.kind = ErrorKind::kProtocol;
  e.message = std::move(message);
  return e;
}

ApiError ApiError::Config(std::string message) {
  ApiError e;
  e.kind = ErrorKind::kConfig;
  e.message = std::move(message);
  return e;
}

ApiError ApiError::Cancelled() {
  ApiError e;
  e.kind = ErrorKind::kCancelled;
  e.message = "cancelled";
  return e;
}

ErrorCode ApiError::error_code() const {
  switch (kind) {
    case ErrorKind::kTransport:
      return ErrorCode::kUnavailable;
    case ErrorKind::kConfig:
    case ErrorKind::kProtocol:
      return ErrorCode::kInvalidInput;
    case ErrorKind::kCancelled:
      return ErrorCode::kCancelled;
    case ErrorKind::kServer:
      break;
  }
  if (IsNotFound()) return ErrorCode::kNotFound;
  if (IsAlreadyExists()) return ErrorCode::kAlreadyExists;
  // A stale resourceVersion or continue token is a conflict too: read again.
  if (IsConflict() || IsGone()) return ErrorCode::kConflict;
  if (IsUnauthorized() || IsForbidden()) return ErrorCode::kPermissionDenied;
  if (Is("Timeout") || code == 504) return ErrorCode::kDeadlineExceeded;
  if (IsTooManyRequests() || Is("ServerTimeout") || Is("ServiceUnavailable") || code == 502 ||
      code == 503) {
    return ErrorCode::kUnavailable;
  }
  if (code >= 500) return ErrorCode::kInternal;
  return ErrorCode::kInvalidInput;
}

Error ToError(const ApiError& error) { return Error{KubectlErrorText(error), error.error_code()}; }

namespace {

// The reason and message apimachinery's NewGenericServerResponse gives a
// status code; `server_message`: the answer's text, or "unknown".
void SetGenericReason(ApiError& e, int code, std::string_view verb,
                      const std::string& server_message) {
  switch (code) {
    case 409:
      e.reason =
          verb == "POST" || verb == "post" || verb == "create" ? "AlreadyExists" : "Conflict";
      e.message = "the server reported a conflict";
      break;
    case 404:
      e.reason = "NotFound";
      e.message = "the server could not find the requested resource";
      break;
    case 400:
      e.reason = "BadRequest";
      e.message = "the server rejected our request for an unknown reason";
      break;
    case 401:
      e.reason = "Unauthorized";
      e.message = "the server has asked for the client to provide credentials";
      break;
    case 403:
      e.reason = "Forbidden";
      e.message = server_message;
      break;
    case 406:
      e.reason = "NotAcceptable";
      e.message = server_message;
      if (server_message.empty() || server_message == "unknown") {
        e.message = "the server was unable to respond with a content type that the client supports";
      }
      break;
    case 415:
      e.reason = "UnsupportedMediaType";
      e.message = server_message;
      break;
    case 405:
      e.reason = "MethodNotAllowed";
      e.message = "the server does not allow this method on the requested resource";
      break;
    case 422:
      e.reason = "Invalid";
      e.message = "the server rejected our request due to an error in our request";
      break;
    case 503:
      e.reason = "ServiceUnavailable";
      e.message = "the server is currently unable to handle the request";
      break;
    case 504:
      e.reason = "Timeout";
      e.message =
          "the server was unable to return a response in the time allotted, but may still be "
          "processing the request";
      break;
    case 429:
      e.reason = "TooManyRequests";
      e.message = "the server has received too many requests and has asked us to try again later";
      break;
    default:
      if (code >= 500) {
        e.reason = "InternalError";
        e.message = "an error on the server (" + api::GoQuote(server_message) +
                    ") has prevented the request from succeeding";
      }
  }
}

// " (verb resource name)" after the message, and the details naming the object.
void AddObjectDetails(ApiError& e, std::string_view verb, std::string_view resource,
                      std::string_view name) {
  if (!resource.empty()) {
    e.message += " (" + ToLower(verb) + " " + std::string(resource);
    if (!name.empty()) e.message += " " + std::string(name);
    e.message += ")";
    auto dot = resource.find('.');
    e.details_kind = std::string(resource.substr(0, dot));
    if (dot != std::string_view::npos) e.details_group = std::string(resource.substr(dot + 1));
    e.details_name = std::string(name);
  }
}

}  // namespace

ApiError ErrorFromResponse(int code, std::string_view content_type, std::string_view body,
                           std::string_view verb, std::string_view resource,
                           std::string_view name) {
  ApiError e;
  if (DecodeFailureStatus(body, e)) {
    if (e.code == 0) e.code = code;
    return e;
  }
  // Not a Status: synthesise one from the code (apimachinery's
  // NewGenericServerResponse), keeping at most 2 KiB of a text body.
  constexpr std::size_t kMaxBodyText = 2048;
  std::string server_message = "unknown";
  // client-go reads an answer without a Content-Type as text too.
  if (content_type.empty() || StartsWith(ToLower(content_type), "text/")) {
    server_message = TrimSpace(body.substr(0, std::min(body.size(), kMaxBodyText)));
  }
  e.kind = ErrorKind::kServer;
  e.code = code;
  e.message = "the server responded with the status code " + std::to_string(code) +
              " but did not return more information";
  SetGenericReason(e, code, verb, server_message);
  AddObjectDetails(e, verb, resource, name);
  e.causes.push_back({"UnexpectedServerResponse", server_message, ""});
  return e;
}

std::string KubectlErrorText(const ApiError& error) {
  switch (error.kind) {
    case ErrorKind::kServer:
      break;
    case ErrorKind::kTransport:
      if (error.connection_refused) {
        return "The connection to the server " + error.host +
               " was refused - did you specify the right host or port?";
      }
      return "Unable to connect to the server: " + error.message;
    case ErrorKind::kConfig:
      return StartsWith(error.message, "error: ") || StartsWith(error.message, "Error in ")
                 ? error.message
                 : "error: " + error.message;
    case ErrorKind::kProtocol:
    case ErrorKind::kCancelled:
      return "error: " + error.message;
  }
  if (error.reason == "Invalid") {
    // kubectl's checkErr: the kind and name from the details, then each
    // distinct "field: message" cause (one inline, several as a list).
    if (error.details_kind.empty() && error.details_name.empty() && error.causes.empty()) {
      return error.message.empty() ? "The request is invalid"
                                   : "The request is invalid: " + error.message;
    }
    std::string out = "The request is invalid";
    if (!error.details_kind.empty() || !error.details_name.empty()) {
      out = "The " + error.details_kind + " " + api::GoQuote(error.details_name) + " is invalid";
    }
    std::vector<std::string> lines;
    std::set<std::string> seen;
    for (const StatusCause& c : error.causes) {
      std::string line = c.field + ": " + c.message;
      if (seen.insert(line).second) lines.push_back(std::move(line));
    }
    if (lines.empty()) return out;
    out += ": ";
    if (lines.size() == 1) return out + lines[0];
    for (const std::string& l : lines) out += "\n* " + l;
    return out;
  }
  if (error.reason == "Unauthorized") {
    return "error: You must be logged in to the server (" + error.message + ")";
  }
  if (!error.reason.empty()) return "Error from server (" + error.reason + "): " + error.message;
  return "Error from server: " + error.message;
}

}  // namespace dra::kube
