#include "kube/fake_server.h"

#include <arpa/inet.h>
#include <netinet/in.h>
#include <poll.h>
#include <sys/socket.h>
#include <unistd.h>

#include <algorithm>
#include <cctype>
#include <chrono>
#include <cstdio>
#include <stdexcept>

#include "dra/json/value.h"

namespace dra::kube::testing {

FakeResponse JsonResponse(int status, std::string body) {
  FakeResponse r;
  r.status = status;
  r.headers = {{"Content-Type", "application/json"}};
  r.body = std::move(body);
  return r;
}

FakeResponse StatusResponse(int code, const std::string& reason, const std::string& message) {
  return JsonResponse(code, R"({"kind":"Status","apiVersion":"v1","status":"Failure","message":)" +
                                json::ToJson(json::Value::String(message)) + R"(,"reason":)" +
                                json::ToJson(json::Value::String(reason)) + R"(,"code":)" +
                                std::to_string(code) + "}");
}

namespace {

bool WriteAll(int fd, const std::string& s) {
  std::size_t off = 0;
  while (off < s.size()) {
    ssize_t n = ::send(fd, s.data() + off, s.size() - off, MSG_NOSIGNAL);
    if (n <= 0) return false;
    off += static_cast<std::size_t>(n);
  }
  return true;
}

std::string Lower(std::string s) {
  std::transform(s.begin(), s.end(), s.begin(),
                 [](unsigned char c) { return static_cast<char>(std::tolower(c)); });
  return s;
}

const char* Reason(int status) {
  switch (status) {
    case 200:
      return "OK";
    case 201:
      return "Created";
    case 401:
      return "Unauthorized";
    case 403:
      return "Forbidden";
    case 404:
      return "Not Found";
    case 409:
      return "Conflict";
    case 410:
      return "Gone";
    case 429:
      return "Too Many Requests";
    case 500:
      return "Internal Server Error";
    case 503:
      return "Service Unavailable";
    default:
      return "Status";
  }
}

}  // namespace

std::string FakeRequest::Header(const std::string& name) const {
  for (const auto& [k, v] : headers) {
    if (k == Lower(name)) return v;
  }
  return "";
}

FakeServer::FakeServer(Handler handler) : handler_(std::move(handler)) {
  listen_fd_ = ::socket(AF_INET, SOCK_STREAM, 0);
  int one = 1;
  ::setsockopt(listen_fd_, SOL_SOCKET, SO_REUSEADDR, &one, sizeof one);
  sockaddr_in addr{};
  addr.sin_family = AF_INET;
  addr.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
  addr.sin_port = 0;
  if (::bind(listen_fd_, reinterpret_cast<sockaddr*>(&addr), sizeof addr) != 0 ||
      ::listen(listen_fd_, 64) != 0) {
    throw std::runtime_error("fake server: cannot listen on 127.0.0.1");
  }
  socklen_t len = sizeof addr;
  ::getsockname(listen_fd_, reinterpret_cast<sockaddr*>(&addr), &len);
  port_ = ntohs(addr.sin_port);
  acceptor_ = std::thread([this] {
    while (!stop_) {
      pollfd p{listen_fd_, POLLIN, 0};
      if (::poll(&p, 1, 50) <= 0) continue;
      int fd = ::accept(listen_fd_, nullptr, nullptr);
      if (fd < 0) continue;
      std::lock_guard<std::mutex> lock(mu_);
      open_fds_.push_back(fd);
      workers_.emplace_back([this, fd] { Serve(fd); });
    }
  });
}

FakeServer::~FakeServer() {
  stop_ = true;
  acceptor_.join();
  std::vector<std::thread> workers;
  {
    std::lock_guard<std::mutex> lock(mu_);
    for (int fd : open_fds_) ::shutdown(fd, SHUT_RDWR);
    workers.swap(workers_);
  }
  for (auto& w : workers) w.join();
  ::close(listen_fd_);
}

std::vector<FakeRequest> FakeServer::requests() const {
  std::lock_guard<std::mutex> lock(mu_);
  return requests_;
}

void FakeServer::Serve(int fd) {
  // The descriptor leaves open_fds_ before it is closed, so the destructor
  // never shuts down a number the system has handed out again.
  auto close_fd = [this, fd] {
    {
      std::lock_guard<std::mutex> lock(mu_);
      open_fds_.erase(std::remove(open_fds_.begin(), open_fds_.end(), fd), open_fds_.end());
    }
    ::shutdown(fd, SHUT_RDWR);
    ::close(fd);
  };
  std::string buf;
  char chunk[16384];
  while (!stop_) {
    // Read one request: headers, then Content-Length bytes.
    std::size_t header_end;
    while ((header_end = buf.find("\r\n\r\n")) == std::string::npos) {
      pollfd p{fd, POLLIN, 0};
      if (::poll(&p, 1, 50) == 0) {
        if (stop_) break;
        continue;
      }
      ssize_t n = ::recv(fd, chunk, sizeof chunk, 0);
      if (n <= 0) {
        close_fd();
        return;
      }
      buf.append(chunk, static_cast<std::size_t>(n));
    }
    if (stop_) break;
    FakeRequest req;
    std::string head = buf.substr(0, header_end);
    buf.erase(0, header_end + 4);
    std::size_t line_end = head.find("\r\n");
    std::string first = head.substr(0, line_end);
    std::size_t sp1 = first.find(' ');
    std::size_t sp2 = first.rfind(' ');
    req.method = first.substr(0, sp1);
    req.target = first.substr(sp1 + 1, sp2 - sp1 - 1);
    std::size_t pos = line_end == std::string::npos ? head.size() : line_end + 2;
    while (pos < head.size()) {
      std::size_t e = head.find("\r\n", pos);
      if (e == std::string::npos) e = head.size();
      std::string line = head.substr(pos, e - pos);
      std::size_t colon = line.find(':');
      if (colon != std::string::npos) {
        std::string v = line.substr(colon + 1);
        while (!v.empty() && v.front() == ' ') v.erase(0, 1);
        req.headers.emplace_back(Lower(line.substr(0, colon)), v);
      }
      pos = e + 2;
    }
    std::size_t length = 0;
    if (std::string cl = req.Header("content-length"); !cl.empty()) length = std::stoul(cl);
    while (buf.size() < length) {
      ssize_t n = ::recv(fd, chunk, sizeof chunk, 0);
      if (n <= 0) {
        close_fd();
        return;
      }
      buf.append(chunk, static_cast<std::size_t>(n));
    }
    req.body = buf.substr(0, length);
    buf.erase(0, length);
    {
      std::lock_guard<std::mutex> lock(mu_);
      requests_.push_back(req);
    }
    FakeResponse resp = handler_(req);
    if (resp.close_without_answer) break;
    if (resp.delay_ms > 0) {
      for (int waited = 0; waited < resp.delay_ms && !stop_; waited += 10) {
        std::this_thread::sleep_for(std::chrono::milliseconds(10));
      }
    }
    std::string out =
        "HTTP/1.1 " + std::to_string(resp.status) + " " + Reason(resp.status) + "\r\n";
    bool has_type = false;
    for (const auto& [k, v] : resp.headers) {
      out += k + ": " + v + "\r\n";
      has_type |= Lower(k) == "content-type";
    }
    if (!has_type) out += "Content-Type: application/json\r\n";
    bool ok = true;
    if (!resp.chunks.empty()) {
      out += "Transfer-Encoding: chunked\r\n\r\n";
      ok = WriteAll(fd, out);
      for (const std::string& c : resp.chunks) {
        if (!ok || stop_) break;
        if (resp.chunk_delay_ms > 0) {
          std::this_thread::sleep_for(std::chrono::milliseconds(resp.chunk_delay_ms));
        }
        char size[32];
        std::snprintf(size, sizeof size, "%zx\r\n", c.size());
        ok = WriteAll(fd, std::string(size) + c + "\r\n");
      }
      if (ok && resp.cut_after_body_bytes < 0) ok = WriteAll(fd, "0\r\n\r\n");
      if (resp.cut_after_body_bytes >= 0) ok = false;
    } else {
      out += "Content-Length: " + std::to_string(resp.body.size()) + "\r\n\r\n";
      if (resp.cut_after_body_bytes >= 0) {
        WriteAll(fd,
                 out + resp.body.substr(0, static_cast<std::size_t>(resp.cut_after_body_bytes)));
        ok = false;
      } else {
        ok = WriteAll(fd, out + resp.body);
      }
    }
    if (!ok) break;
  }
  close_fd();
}

}  // namespace dra::kube::testing
