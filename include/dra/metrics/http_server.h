// A small HTTP/1.1 server for read-only endpoints (/metrics, /healthz, the
// dashboard of `dra serve`): GET and HEAD of fixed paths, each answered by a
// handler, which may stream its answer (server-sent events). Built on
// cpp-httplib; no httplib type appears here.
//
// Thread-safety: handlers and streams run on the server's worker threads,
// several at a time; they must be safe to call concurrently. Stop (also run by
// the destructor) waits for handlers and streams in progress, after which none
// runs again.
#pragma once

#include <concepts>
#include <functional>
#include <map>
#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <type_traits>
#include <utility>
#include <vector>

#include "dra/util/result.h"

namespace dra::metrics {

struct HttpRequest {
  std::string method;  // GET or HEAD
  std::string path;    // without the query
  // The query's parameters, percent-decoded, in their order.
  std::vector<std::pair<std::string, std::string>> params;
  // The first value of `name`; "" when absent.
  std::string Param(std::string_view name) const;
};

// A streamed body: called on the worker thread again and again, it returns
// the bytes to send next (possibly none) or std::nullopt to end the answer.
// It may block, but for about a second at most: Stop waits for it, and a
// client that went away is noticed between calls.
using HttpStream = std::function<std::optional<std::string>()>;

struct HttpAnswer {
  int status = 200;
  std::string content_type = "text/plain; charset=utf-8";
  std::string body;
  std::vector<std::pair<std::string, std::string>> headers;  // added to the answer
  HttpStream stream;  // when set, the body is this stream (chunked) and `body` is unused
  // When set (and `stream` is not), the body is this text, sent without a
  // copy (a cached answer of megabytes), and `body` is unused.
  std::shared_ptr<const std::string> shared_body;
  // When set, `body` (or `shared_body`) is one gzip member (RFC 1952) of an
  // answer this many bytes long: sent as it is to clients that take gzip,
  // and inflated as it is sent to the others (so the answer is never held
  // whole).
  std::optional<std::size_t> gzip_of = std::nullopt;
};

// What `write` gives its sink, a piece at a time, as an answer held
// gzip-coded (HttpAnswer::gzip_of, zlib level 1), coded as the pieces come:
// a text of megabytes is never held whole.
using PieceSink = std::function<void(std::string_view)>;
HttpAnswer GzipCodedAnswer(std::string content_type,
                           const std::function<void(const PieceSink&)>& write);

class Registry;
// The registry's exposition as an answer held gzip-coded (at level 1,
// coded as the text is written): 0.3 MB where the text is 4.6 MB for
// dra serve on 5,000 nodes, inflated again for a client that does not take
// gzip.
HttpAnswer ExpositionAnswer(Registry& registry);

// A route's handler: callable with the request, or with nothing.
class HttpHandler {
 public:
  HttpHandler() = default;
  template <class F>
  requires std::is_invocable_r_v<HttpAnswer, F&, const HttpRequest&> HttpHandler(F f)
      : fn_(std::move(f)) {}  // NOLINT(google-explicit-constructor)
  template <class F>
  requires(std::is_invocable_r_v<HttpAnswer, F&> && !std::is_invocable_v<F&, const HttpRequest&>)
      HttpHandler(F f)  // NOLINT(google-explicit-constructor)
      : fn_([f = std::move(f)](const HttpRequest&) mutable { return f(); }) {}
  HttpAnswer operator()(const HttpRequest& request) const { return fn_(request); }
  explicit operator bool() const { return static_cast<bool>(fn_); }

 private:
  std::function<HttpAnswer(const HttpRequest&)> fn_;
};

struct HttpServerOptions {
  // Worker threads: the most requests answered at once; threads are made as
  // connections come and end after 30 s without one. A stream holds one
  // for as long as it runs; connections beyond wait for a free worker.
  int threads = 8;
  // Streams running at once; beyond, a streaming route answers 503.
  int max_streams = 4;
  // zlib's level for answers coded as gzip (text, JSON, JavaScript and SVG of
  // 1 KiB or more, to clients whose Accept-Encoding takes gzip): 1 (fastest)
  // to 9; 0 sends every answer as it is. No other coding is offered.
  int gzip_level = 1;
  // After an answer whose body was at least this many bytes has been sent,
  // free memory goes back to the system (malloc_trim). Such a body (and its
  // gzip copy) is written into freed heap memory that the heap then keeps
  // resident; a few scrapes of megabytes would otherwise hold their sizes
  // until something else trims. 0: never.
  std::size_t trim_after_bytes = 0;
};

class HttpServer {
 public:
  // Listens on `address`: "HOST:PORT", ":PORT" (every interface) or
  // "[IPV6]:PORT"; port 0 picks a free port. Other paths answer 404, other
  // methods 405. Errors name the address ("listen on 127.0.0.1:80: ...").
  static Result<std::unique_ptr<HttpServer>> Start(const std::string& address,
                                                   std::map<std::string, HttpHandler> routes,
                                                   HttpServerOptions options = {});
  virtual ~HttpServer() = default;
  // The port listened on (the chosen one when 0 was asked for).
  virtual int port() const = 0;
  virtual void Stop() = 0;
};

// Splits "HOST:PORT" as Start does; empty host for ":PORT".
Result<std::pair<std::string, int>> ParseListenAddress(const std::string& address);

}  // namespace dra::metrics
