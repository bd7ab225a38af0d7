// The HTTP side of talking to kube-apiserver: one Client per RestConfig sends
// requests over shared libcurl connections (HTTP/2 streams of one connection
// when the server offers it, as client-go sends them),
// attaches credentials, waits for the client-side rate limiter, retries as
// client-go does, and turns failures into ApiErrors.
#pragma once

#include <atomic>
#include <cstddef>
#include <cstdint>
#include <functional>
#include <memory>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "dra/kube/api_error.h"
#include "dra/kube/rest_config.h"
#include "dra/util/result.h"

namespace dra::kube {

struct HttpRequest {
  std::string method = "GET";  // GET, POST, PUT, PATCH, DELETE
  // Absolute API path below the server's prefix: "/apis/resource.k8s.io/v1/resourceslices".
  std::string path;
  // Query parameters, unescaped; sent sorted by name (as client-go does).
  std::vector<std::pair<std::string, std::string>> query;
  std::string body;
  std::string content_type;  // of the body; "application/json" when empty and a body is given
  std::string accept = "application/json";
  // What the request is about, for the texts of errors the server did not
  // describe itself: verb ("get", "list", "create", ...), resource
  // ("resourceslices.resource.k8s.io") and the object's name.
  std::string verb;
  std::string resource;
  std::string name;
  // When given, polled while the request waits (rate limiter aside) or runs:
  // setting it ends the request with kCancelled.
  const std::atomic<bool>* cancel = nullptr;
};

struct HttpResponse {
  int code = 0;
  std::string content_type;
  std::string body;
  // The texts of the response's "Warning: 299 - ..." headers, in order.
  std::vector<std::string> warnings;
};

// Limits that keep a misbehaving server from costing unbounded memory.
struct ClientLimits {
  std::size_t max_response_bytes = std::size_t{1} << 30;  // one non-streamed answer
  std::size_t max_error_bytes = std::size_t{1} << 20;     // the body of a failure answer
  int max_retries = 10;                                   // client-go's maxRetries
  // A server's Retry-After is honoured up to this long per retry, so a hostile
  // or confused server cannot park a request for days (client-go has no cap).
  std::chrono::seconds max_retry_after{60};
  // Connection establishment (client-go dials with a 30 s limit).
  std::chrono::milliseconds connect_timeout{30'000};
  // Requests (not streams) in flight at once; more wait for one to end.
  // Over HTTP/2 the requests in flight are streams of one connection (as
  // client-go's are), which carries up to 100 at once, so the default lets a
  // burst of 100 (a kubelet preparing 100 pods) go out together over one
  // connection and one TLS handshake; the bound remains to cap what one
  // client asks of the server and holds in memory at once. Over HTTP/1.1
  // (DISABLE_HTTP2, or a server without HTTP/2) each request needs a
  // connection of its own: at most 16 are opened and the other requests in
  // flight wait for one. 0: no bound.
  int max_concurrent_requests = 100;
};

// Thread-safety: a Client is safe to use from any number of threads at once.
// Requests (Do) are carried by one transport thread per Client, started by
// the first request, over connections all of them share (see
// ClientLimits::max_concurrent_requests); the calling thread waits for its
// answer. Each stream (Stream) runs on its calling thread over a connection
// of its own, so a slow consumer holds up nobody else. New connections
// resume the TLS sessions of earlier ones. Handlers set with
// SetWarningHandler are called on the requesting thread. The Client must
// outlive every call on it: destroying it (which stops the transport
// thread) while a request or stream is in progress is not allowed.
class Client {
 public:
  // Checks the server URL and the combination of settings (client-go's
  // messages); certificates and keys are checked by the TLS library on the
  // first request.
  static Result<std::shared_ptr<Client>> New(RestConfig config, ClientLimits limits = {});
  ~Client();
  Client(const Client&) = delete;
  Client& operator=(const Client&) = delete;

  const RestConfig& config() const;

  // Sends one request and returns the answer when its code is 200-206. A
  // failure code becomes an ApiError (ErrorFromResponse). 429 and 5xx answers
  // with a Retry-After header are retried after that many seconds (every
  // verb), and GETs whose connection broke before an answer after one
  // second, up to limits.max_retries times, each retry passing the rate
  // limiter again; RestConfig::timeout bounds all attempts together, as
  // client-go's request context does. 401 refreshes the credentials from the
  // provider (for the next request) and is returned.
  ApiResult<HttpResponse> Do(const HttpRequest& request);

  // Sends a request whose answer is a stream (a watch) and hands each piece
  // of the body to `on_data` as it arrives; returning false stops the stream.
  // Not rate limited (client-go does not limit watches). A failure code
  // before the stream starts is returned as an ApiError; the stream's end
  // (server closed it, or on_data stopped it) is success. `cancel`, when
  // given, is polled about once a second and ends the stream with kCancelled.
  // A request with a timeoutSeconds query parameter is abandoned 30 s after
  // that time if the server has not ended it.
  ApiStatus Stream(const HttpRequest& request, const std::function<bool(std::string_view)>& on_data,
                   const std::atomic<bool>* cancel = nullptr);

  // Called once per distinct warning text over the client's life (kubectl
  // prints each warning once per process). Default: "Warning: <text>" on
  // standard error.
  void SetWarningHandler(std::function<void(const std::string&)> handler);

  // The HTTP version the last completed request used ("1.1", "2").
  std::string LastHttpVersion() const;

  // How many connections the client has opened so far (requests and streams
  // together), for tests and diagnostics: a burst of concurrent requests over
  // HTTP/2 adds one.
  std::uint64_t ConnectionsOpened() const;

 private:
  struct Impl;
  explicit Client(std::unique_ptr<Impl> impl);
  std::unique_ptr<Impl> impl_;
};

// "a=b&c=d" with each name and value percent-encoded as Go's url.Values.Encode
// does (space as '+'), sorted by name (stable for equal names).
std::string EncodeQuery(std::vector<std::pair<std::string, std::string>> query);

}  // namespace dra::kube
