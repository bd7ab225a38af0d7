// HttpServer on cpp-httplib: one listening thread, httplib's worker pool.
#include "dra/metrics/http_server.h"

#include <httplib.h>
#include <malloc.h>

#include <algorithm>
#include <atomic>
#include <charconv>
#include <chrono>
#include <thread>
#include <utility>

#include "dra/metrics/registry.h"
#include "metrics/content_coding.h"
#include "metrics/growing_thread_pool.h"

namespace dra::metrics {
namespace {

// A worker thread with no connection to serve for this long ends.
constexpr std::chrono::seconds kKeepIdleThread{30};

// Answers shorter than this go out as they are: gzip would save little.
constexpr std::size_t kMinGzipped = 1024;

// Whether the request takes gzip answers. The header is then removed, so
// that cpp-httplib, which codes any text answer itself when a request allows
// it (and picks brotli at its slowest quality when it can), leaves the body
// as this server made it. The request is httplib's own non-const object,
// handed to handlers by const reference.
bool TakeAcceptEncoding(const httplib::Request& req) {
  auto& request =
      const_cast<httplib::Request&>(req);  // NOLINT(cppcoreguidelines-pro-type-const-cast)
  const bool gzip = AcceptsGzip(request.get_header_value("Accept-Encoding"));
  request.headers.erase("Accept-Encoding");
  return gzip;
}

class HttplibServer final : public HttpServer {
 public:
  HttplibServer(std::map<std::string, HttpHandler> routes, HttpServerOptions options)
      : routes_(std::move(routes)), options_(options) {
    server_.Get(".*",
                [this](const httplib::Request& req, httplib::Response& res) { Serve(req, res); });
    auto refuse = [](const httplib::Request& req, httplib::Response& res) {
      TakeAcceptEncoding(req);
      res.status = 405;
      res.set_header("Allow", "GET, HEAD");
      res.set_content("405 method not allowed\n", "text/plain; charset=utf-8");
    };
    server_.Post(".*", refuse);
    server_.Put(".*", refuse);
    server_.Patch(".*", refuse);
    server_.Delete(".*", refuse);
    server_.Options(".*", refuse);
    // SO_REUSEADDR only: httplib's default also sets SO_REUSEPORT, which lets
    // a second process bind the same port and silently share its traffic.
    server_.set_socket_options([](socket_t sock) {
      int yes = 1;
      setsockopt(sock, SOL_SOCKET, SO_REUSEADDR, &yes, sizeof yes);
    });
    // Bounded requests: these endpoints take no body.
    server_.set_payload_max_length(1 << 16);
    server_.set_read_timeout(10, 0);
    server_.set_write_timeout(10, 0);
    // An idle keep-alive connection holds a worker: let it go soon.
    server_.set_keep_alive_timeout(2);
    const int threads = std::max(1, options_.threads);
    server_.new_task_queue = [threads] {
      return new internal::GrowingThreadPool(static_cast<std::size_t>(threads), kKeepIdleThread);
    };
  }

  ~HttplibServer() override { Stop(); }

  Status Listen(const std::string& host, int port, const std::string& address) {
    int bound = port == 0                          ? server_.bind_to_any_port(host)
                : server_.bind_to_port(host, port) ? port
                                                   : -1;
    if (bound < 0)
      return Error{"listen on " + address + ": cannot bind (address in use or not local)",
                   ErrorCode::kUnavailable};
    port_ = bound;
    thread_ = std::thread([this] {
      server_.listen_after_bind();
      loop_ended_ = true;
    });
    return {};
  }

  int port() const override { return port_; }

  void Stop() override {
    if (!thread_.joinable()) return;
    // httplib's stop() does nothing until the accept loop runs: a Stop right
    // after Start must wait for the loop (or its end), or the join would hang.
    while (!server_.is_running() && !loop_ended_) {
      std::this_thread::sleep_for(std::chrono::milliseconds(1));
    }
    stopping_ = true;
    server_.stop();
    thread_.join();
  }

 private:
  void Serve(const httplib::Request& req, httplib::Response& res) {
    const bool gzip = TakeAcceptEncoding(req);
    auto it = routes_.find(req.path);
    if (it == routes_.end()) {
      res.status = 404;
      res.set_content("404 page not found\n", "text/plain; charset=utf-8");
      return;
    }
    HttpRequest request;
    request.method = req.method;
    request.path = req.path;
    for (const auto& [name, value] : req.params) request.params.emplace_back(name, value);
    HttpAnswer answer = it->second(request);
    res.status = answer.status;
    for (const auto& [name, value] : answer.headers) res.set_header(name, value);
    if (!answer.stream) {
      SetBody(std::move(answer), gzip, !req.ranges.empty(), res);
      return;
    }
    if (streams_.fetch_add(1) >= options_.max_streams) {
      streams_.fetch_sub(1);
      res.status = 503;
      res.set_header("Retry-After", "5");
      res.set_content("503 too many open streams\n", "text/plain; charset=utf-8");
      return;
    }
    // The slot is given back as the stream ends (before its last chunk is
    // sent, so a client that saw the end may open another), or when httplib
    // drops the provider (the client went away, the server stopped).
    auto slot = std::make_shared<StreamSlot>(streams_);
    res.set_chunked_content_provider(
        answer.content_type,
        [this, next = std::move(answer.stream), slot](std::size_t, httplib::DataSink& sink) {
          if (stopping_) {
            slot->Release();
            return false;
          }
          std::optional<std::string> chunk = next();
          if (!chunk) {
            slot->Release();
            sink.done();
            return true;
          }
          const bool written =
              chunk->empty() ? sink.is_writable() : sink.write(chunk->data(), chunk->size());
          if (!written) slot->Release();
          return written;
        });
  }

  // As set_content, without copying the body (megabytes for /metrics), and
  // gzip-coded when the client takes it and it is worth it. A request for
  // byte ranges gets the body as httplib serves ranges of it (checked
  // against its length; past the end, 416), never the holder below.
  void SetBody(HttpAnswer&& answer, bool gzip, bool ranged, httplib::Response& res) const {
    if (answer.gzip_of) return SetGzipBody(std::move(answer), gzip, ranged, res);
    const bool compressible = CompressibleType(answer.content_type) &&
                              !res.has_header("Content-Encoding") && options_.gzip_level > 0;
    // Caches keep the coded and the plain answer apart.
    if (compressible) res.set_header("Vary", "Accept-Encoding");
    const std::string& plain = answer.shared_body ? *answer.shared_body : answer.body;
    std::optional<std::string> coded;
    if (compressible && gzip && plain.size() >= kMinGzipped) {
      coded = Gzip(plain, options_.gzip_level);
    }
    const bool trim =
        !ranged && options_.trim_after_bytes > 0 && plain.size() >= options_.trim_after_bytes;
    if (coded) res.set_header("Content-Encoding", "gzip");
    if (answer.shared_body && !coded) {
      if (ranged) {
        res.body = *answer.shared_body;
      } else {
        // The text is someone else's to keep: only the reference goes.
        SendHeld(std::move(answer.shared_body), answer.content_type, res);
      }
      SetContentType(answer.content_type, res);
      return;
    }
    answer.shared_body.reset();
    std::string body = coded ? std::move(*coded) : std::move(answer.body);
    if (!trim) {
      res.body = std::move(body);
    } else {
      // Sent from a holder that httplib's release of the answer empties
      // (after the last byte is written, or when the client went away), so
      // that the trim finds the body freed; the plain text of a gzip answer
      // is freed already.
      auto held = std::make_shared<std::string>(std::move(body));
      answer.body = std::string();
      res.set_content_provider(
          held->size(), answer.content_type,
          [held](std::size_t offset, std::size_t length, httplib::DataSink& sink) {
            return Send(*held, offset, length, sink);
          },
          [held](bool) {
            std::string().swap(*held);
            malloc_trim(0);
          });
    }
    SetContentType(answer.content_type, res);
  }

  // An answer held gzip-coded (HttpAnswer::gzip_of): as it is to a client
  // that takes gzip; inflated into the body for a request of byte ranges;
  // else inflated a piece at a time as it is sent.
  void SetGzipBody(HttpAnswer&& answer, bool gzip, bool ranged, httplib::Response& res) const {
    res.set_header("Vary", "Accept-Encoding");
    std::shared_ptr<const std::string> coded =
        answer.shared_body != nullptr ? std::move(answer.shared_body)
                                      : std::make_shared<const std::string>(std::move(answer.body));
    if (gzip && options_.gzip_level > 0) {
      res.set_header("Content-Encoding", "gzip");
      SendHeld(coded, answer.content_type, res);
    } else if (ranged) {
      std::string plain;
      plain.reserve(*answer.gzip_of);
      GunzipReader reader(coded);
      char piece[16384];
      while (std::optional<std::size_t> n = reader.Read(piece, sizeof piece)) {
        if (*n == 0) break;
        plain.append(piece, *n);
      }
      res.body = std::move(plain);
    } else {
      struct Inflating {
        explicit Inflating(std::shared_ptr<const std::string> coded) : reader(std::move(coded)) {}
        GunzipReader reader;
        std::size_t sent = 0;
        std::string piece;
      };
      auto state = std::make_shared<Inflating>(coded);
      res.set_content_provider(
          *answer.gzip_of, answer.content_type,
          [state](std::size_t offset, std::size_t length, httplib::DataSink& sink) {
            // httplib asks for the rest in order; anything else ends the answer.
            if (offset != state->sent) return false;
            state->piece.resize(std::min<std::size_t>(length, 64 * 1024));
            std::optional<std::size_t> n =
                state->reader.Read(state->piece.data(), state->piece.size());
            if (!n || *n == 0) return false;
            state->sent += *n;
            return sink.write(state->piece.data(), *n);
          });
    }
    SetContentType(answer.content_type, res);
  }

  // `held` as the body, sent from where it is: the reference is all the
  // answer keeps.
  static void SendHeld(std::shared_ptr<const std::string> held, const std::string& type,
                       httplib::Response& res) {
    const std::size_t size = held->size();
    res.set_content_provider(
        size, type,
        [held = std::move(held)](std::size_t offset, std::size_t length, httplib::DataSink& sink) {
          return Send(*held, offset, length, sink);
        });
  }

  // Once: httplib's content providers add a Content-Type of their own.
  static void SetContentType(const std::string& type, httplib::Response& res) {
    res.headers.erase("Content-Type");
    res.set_header("Content-Type", type);
  }

  // A content provider's step: httplib asks for [0, size) in pieces;
  // anything else ends the answer rather than read outside the body.
  static bool Send(const std::string& body, std::size_t offset, std::size_t length,
                   httplib::DataSink& sink) {
    if (offset >= body.size()) return false;
    return sink.write(body.data() + offset, std::min(length, body.size() - offset));
  }

  // One of max_streams, held by a stream until it ends.
  class StreamSlot {
   public:
    explicit StreamSlot(std::atomic<int>& count) : count_(count) {}
    ~StreamSlot() { Release(); }
    StreamSlot(const StreamSlot&) = delete;
    StreamSlot& operator=(const StreamSlot&) = delete;
    void Release() {
      if (!released_.exchange(true)) count_.fetch_sub(1);
    }

   private:
    std::atomic<int>& count_;
    std::atomic<bool> released_{false};
  };

  std::map<std::string, HttpHandler> routes_;
  const HttpServerOptions options_;
  std::atomic<int> streams_{0};
  std::atomic<bool> stopping_{false};
  httplib::Server server_;
  std::thread thread_;
  std::atomic<bool> loop_ended_{false};
  int port_ = 0;
};

}  // namespace

std::string HttpRequest::Param(std::string_view name) const {
  for (const auto& [n, v] : params) {
    if (n == name) return v;
  }
  return {};
}

HttpAnswer GzipCodedAnswer(std::string content_type,
                           const std::function<void(const PieceSink&)>& write) {
  GzipWriter coder(1);
  write([&coder](std::string_view piece) { coder.Write(piece); });
  HttpAnswer a;
  a.content_type = std::move(content_type);
  a.gzip_of = coder.plain_size();
  a.body = coder.Finish();
  return a;
}

HttpAnswer ExpositionAnswer(Registry& registry) {
  return GzipCodedAnswer(kTextContentType,
                         [&registry](const PieceSink& sink) { registry.Expose(sink); });
}

Result<std::pair<std::string, int>> ParseListenAddress(const std::string& address) {
  auto colon = address.rfind(':');
  if (colon == std::string::npos) return Error{"address " + address + ": want HOST:PORT"};
  std::string host = address.substr(0, colon);
  std::string port_text = address.substr(colon + 1);
  if (host.size() >= 2 && host.front() == '[' && host.back() == ']') {
    host = host.substr(1, host.size() - 2);
  } else if (host.find(':') != std::string::npos) {
    return Error{"address " + address + ": an IPv6 host goes in brackets, [::1]:PORT"};
  }
  int port = -1;
  auto [end, ec] = std::from_chars(port_text.data(), port_text.data() + port_text.size(), port);
  if (port_text.empty() || ec != std::errc() || end != port_text.data() + port_text.size() ||
      port < 0 || port > 65535) {
    return Error{"address " + address + ": port " + port_text + " is not a number from 0 to 65535"};
  }
  return std::make_pair(host, port);
}

Result<std::unique_ptr<HttpServer>> HttpServer::Start(const std::string& address,
                                                      std::map<std::string, HttpHandler> routes,
                                                      HttpServerOptions options) {
  auto parsed = ParseListenAddress(address);
  if (!parsed) return parsed.failure();
  std::string host = parsed->first.empty() ? "0.0.0.0" : parsed->first;
  auto server = std::make_unique<HttplibServer>(std::move(routes), options);
  if (auto s = server->Listen(host, parsed->second, address); !s) return s.failure();
  return std::unique_ptr<HttpServer>(std::move(server));
}

}  // namespace dra::metrics
