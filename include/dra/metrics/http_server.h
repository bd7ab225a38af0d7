// A small HTTP/1.1 server for read-only endpoints (/metrics, /healthz):
// GET and HEAD of fixed paths, each answered by a handler. Built on
// cpp-httplib; no httplib type appears here.
//
// Thread-safety: handlers run on the server's worker threads, several at a
// time; they must be safe to call concurrently. Stop (also run by the
// destructor) waits for handlers in progress, after which none runs again.
#pragma once

#include <functional>
#include <map>
#include <memory>
#include <string>

#include "dra/util/result.h"

namespace dra::metrics {

struct HttpAnswer {
  int status = 200;
  std::string content_type = "text/plain; charset=utf-8";
  std::string body;
};

using HttpHandler = std::function<HttpAnswer()>;

class HttpServer {
 public:
  // Listens on `address`: "HOST:PORT", ":PORT" (every interface) or
  // "[IPV6]:PORT"; port 0 picks a free port. Other paths answer 404, other
  // methods 405. Errors name the address ("listen on 127.0.0.1:80: ...").
  static Result<std::unique_ptr<HttpServer>> Start(const std::string& address,
                                                   std::map<std::string, HttpHandler> routes);
  virtual ~HttpServer() = default;
  // The port listened on (the chosen one when 0 was asked for).
  virtual int port() const = 0;
  virtual void Stop() = 0;
};

// Splits "HOST:PORT" as Start does; empty host for ":PORT".
Result<std::pair<std::string, int>> ParseListenAddress(const std::string& address);

}  // namespace dra::metrics
