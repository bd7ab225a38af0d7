// A scripted HTTP/1.1 server on 127.0.0.1 for the transport's unit tests: each
// request is answered by a test-supplied function, which can delay, stream
// chunks, or cut the connection. Plain HTTP only (TLS is covered by the
// tests against the real kube-apiserver).
//
// Thread-safety: the handler runs on the server's threads (one per
// connection); requests() may be read from the test thread at any time.
#pragma once

#include <atomic>
#include <functional>
#include <mutex>
#include <string>
#include <thread>
#include <utility>
#include <vector>

namespace dra::kube::testing {

struct FakeRequest {
  std::string method;
  std::string target;                                        // path and query, as sent
  std::vector<std::pair<std::string, std::string>> headers;  // names lower-cased
  std::string body;
  std::string Header(const std::string& name) const;
};

struct FakeResponse {
  int status = 200;
  std::vector<std::pair<std::string, std::string>> headers;
  std::string body;
  int delay_ms = 0;  // before anything is written
  // Streamed with chunked encoding, one chunk each `chunk_delay_ms` apart.
  std::vector<std::string> chunks;
  int chunk_delay_ms = 0;
  // Close the connection after writing this many bytes of the body
  // (-1: write it all); the answer then ends early.
  int cut_after_body_bytes = -1;
  // Close the connection without writing any answer.
  bool close_without_answer = false;
};

// A JSON answer with its Content-Type.
FakeResponse JsonResponse(int status, std::string body);
// A metav1 Status failure as kube-apiserver sends it (reason such as
// "NotFound", "Forbidden", "InternalError").
FakeResponse StatusResponse(int code, const std::string& reason, const std::string& message);

class FakeServer {
 public:
  using Handler = std::function<FakeResponse(const FakeRequest&)>;
  explicit FakeServer(Handler handler);
  ~FakeServer();
  FakeServer(const FakeServer&) = delete;
  FakeServer& operator=(const FakeServer&) = delete;

  std::string url() const { return "http://127.0.0.1:" + std::to_string(port_); }
  int port() const { return port_; }
  std::vector<FakeRequest> requests() const;

 private:
  void Serve(int fd);
  Handler handler_;
  int listen_fd_ = -1;
  int port_ = 0;
  std::atomic<bool> stop_{false};
  std::thread acceptor_;
  mutable std::mutex mu_;
  std::vector<std::thread> workers_;   // guarded by mu_
  std::vector<int> open_fds_;          // guarded by mu_
  std::vector<FakeRequest> requests_;  // guarded by mu_
};

}  // namespace dra::kube::testing
