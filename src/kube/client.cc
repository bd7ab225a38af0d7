// Client: requests to kube-apiserver over libcurl.
//
// Connections: requests (Do) are transfers of one curl multi handle, driven by
// one transport thread per Client (Transport below), so they share its
// connection cache: over HTTP/2 every request in flight is a stream of one
// connection, as client-go sends them, instead of a connection (and a TLS
// handshake) each. Streams (watches) run curl_easy_perform on a handle of
// their own, whose connection stays with that handle between streams: their
// consumer may block in the middle of a body, which must not stall the
// transfers of everyone else. HTTP/2 is negotiated by ALPN on TLS
// (CURL_HTTP_VERSION_2TLS) unless the DISABLE_HTTP2 environment variable is
// set, as client-go honours it.
#include "dra/kube/client.h"

#include <curl/curl.h>

#include <algorithm>
#include <array>
#include <cctype>
#include <cerrno>
#include <chrono>
#include <cmath>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <exception>
#include <iostream>
#include <iterator>
#include <list>
#include <optional>
#include <set>
#include <string>
#include <system_error>
#include <thread>
#include <utility>
#include <vector>

#include "dra/util/mutex.h"
#include "kube/go_duration.h"
#include "kube/gzip_members.h"
#include "kube/rate_limiter.h"
#include "kube/warning_header.h"
#include "kube/wire.h"

namespace dra::kube {
namespace {

std::once_flag g_curl_init;

void InitCurl() {
  std::call_once(g_curl_init, [] { curl_global_init(CURL_GLOBAL_DEFAULT); });
}

std::string ToLower(std::string_view s) {
  std::string out(s);
  std::transform(out.begin(), out.end(), out.begin(),
                 [](unsigned char c) { return static_cast<char>(std::tolower(c)); });
  return out;
}

std::string Trim(std::string_view s) {
  std::size_t b = 0;
  std::size_t e = s.size();
  while (b < e && std::isspace(static_cast<unsigned char>(s[b])) != 0) ++b;
  while (e > b && std::isspace(static_cast<unsigned char>(s[e - 1])) != 0) --e;
  return std::string(s.substr(b, e - b));
}

// scheme://host:port of the server, and its parts.
struct ServerUrl {
  std::string scheme;
  std::string host;  // without brackets for IPv6
  std::string port;
  std::string prefix;  // path prefix, no trailing '/'
  bool ipv6 = false;
  std::string HostPort() const { return (ipv6 ? "[" + host + "]" : host) + ":" + port; }
};

Result<ServerUrl> ParseServer(const std::string& server) {
  ServerUrl u;
  auto scheme_end = server.find("://");
  if (scheme_end == std::string::npos) {
    return Error{"server \"" + server + "\" is not a URL (expected https://host:port)"};
  }
  u.scheme = ToLower(server.substr(0, scheme_end));
  if (u.scheme != "https" && u.scheme != "http") {
    return Error{"server \"" + server + "\": unsupported scheme \"" + u.scheme + "\""};
  }
  std::string rest = server.substr(scheme_end + 3);
  auto path_start = rest.find('/');
  std::string authority = rest.substr(0, path_start);
  if (path_start != std::string::npos) {
    u.prefix = rest.substr(path_start);
    auto q = u.prefix.find_first_of("?#");
    if (q != std::string::npos) u.prefix.resize(q);
    while (!u.prefix.empty() && u.prefix.back() == '/') u.prefix.pop_back();
  }
  if (auto at = authority.rfind('@'); at != std::string::npos) authority = authority.substr(at + 1);
  if (authority.empty()) return Error{"server \"" + server + "\" has no host"};
  if (authority.front() == '[') {
    auto close = authority.find(']');
    if (close == std::string::npos) return Error{"server \"" + server + "\": bad IPv6 host"};
    u.host = authority.substr(1, close - 1);
    u.ipv6 = true;
    if (close + 1 < authority.size() && authority[close + 1] == ':') {
      u.port = authority.substr(close + 2);
    }
  } else {
    auto colon = authority.rfind(':');
    if (colon != std::string::npos) {
      u.host = authority.substr(0, colon);
      u.port = authority.substr(colon + 1);
    } else {
      u.host = authority;
    }
  }
  if (u.port.empty()) u.port = u.scheme == "https" ? "443" : "80";
  if (!std::all_of(u.port.begin(), u.port.end(), [](char c) { return c >= '0' && c <= '9'; }) ||
      u.port.size() > 5 || std::stoi(u.port) > 65535) {
    return Error{"server \"" + server + "\": invalid port \"" + u.port + "\""};
  }
  if (u.host.empty()) return Error{"server \"" + server + "\" has no host"};
  return u;
}

// One request's state inside libcurl's callbacks. Thread-safety: while the
// transfer runs, only the thread that drives it touches it (the caller's for
// a stream, the transport thread for a request); the caller reads it after
// the transfer is done, which Transport::Run orders after every callback.
struct Transfer {
  std::size_t max_bytes = 0;
  std::string body;
  std::string content_type;
  std::string content_encoding;
  // Streams' gzip answers, decoded here (ConfigureConnection says why).
  std::unique_ptr<GzipMembers> gunzip;
  std::string decode_error;  // the stream's gzip is corrupt
  std::vector<std::string> warning_values;
  std::string retry_after;
  long os_errno = 0;  // the socket error of a failed connection
  bool too_large = false;
  // Streaming: the user's callback, called once the status code says 2xx.
  const std::function<bool(std::string_view)>* on_data = nullptr;
  CURL* handle = nullptr;
  int status = -1;  // read lazily when the first body bytes arrive
  bool stopped_by_callback = false;
  const std::atomic<bool>* cancel = nullptr;
  bool cancelled = false;
  std::size_t max_error_bytes = 0;
  bool got_status_line = false;
  // An exception thrown inside a callback (the user's on_data, or bad_alloc):
  // kept here and rethrown once libcurl has returned, never unwound through it.
  std::exception_ptr exception;
};

std::size_t OnHeaderUnsafe(Transfer* t, std::string_view line) {
  std::size_t n = line.size();
  // A new response (after a 100 Continue or a redirect) starts over.
  if (line.substr(0, 5) == "HTTP/") {
    t->got_status_line = true;
    t->warning_values.clear();
    t->retry_after.clear();
    t->content_type.clear();
    t->content_encoding.clear();
    t->gunzip.reset();
    return n;
  }
  auto colon = line.find(':');
  if (colon == std::string_view::npos) return n;
  std::string name = ToLower(line.substr(0, colon));
  std::string value = Trim(line.substr(colon + 1));
  if (name == "warning") {
    t->warning_values.push_back(std::move(value));
  } else if (name == "retry-after") {
    t->retry_after = std::move(value);
  } else if (name == "content-type") {
    t->content_type = std::move(value);
  } else if (name == "content-encoding") {
    t->content_encoding = ToLower(value);
  }
  return n;
}

std::size_t OnHeader(char* data, std::size_t size, std::size_t count, void* user) {
  auto* t = static_cast<Transfer*>(user);
  try {
    return OnHeaderUnsafe(t, std::string_view(data, size * count));
  } catch (...) {
    t->exception = std::current_exception();
    return 0;
  }
}

// Takes `piece` of the (decoded) body; false aborts the transfer
// (CURLE_WRITE_ERROR), with the reason in `t`.
bool TakeBody(Transfer* t, std::string_view piece) {
  if (t->status < 0) {
    long code = 0;
    curl_easy_getinfo(t->handle, CURLINFO_RESPONSE_CODE, &code);
    t->status = static_cast<int>(code);
  }
  const bool ok_status = t->status >= 200 && t->status <= 206;
  if (t->on_data != nullptr && ok_status) {
    if (!(*t->on_data)(piece)) {
      t->stopped_by_callback = true;
      return false;
    }
    return true;
  }
  // A failure answer (or, not streaming, the answer) is collected, bounded.
  // Only a Status or 2 KiB of text is ever read from a failure answer.
  std::size_t limit = ok_status ? t->max_bytes : t->max_error_bytes;
  if (t->body.size() + piece.size() > limit) {
    t->too_large = true;
    return false;
  }
  t->body.append(piece);
  return true;
}

std::size_t OnBodyUnsafe(Transfer* t, char* data, std::size_t n) {
  if (t->on_data != nullptr && t->content_encoding == "gzip") {
    if (t->gunzip == nullptr) t->gunzip = std::make_unique<GzipMembers>();
    if (t->gunzip->Feed(std::string_view(data, n),
                        [t](std::string_view piece) { return TakeBody(t, piece); })) {
      return n;
    }
    if (!t->gunzip->error().empty()) t->decode_error = t->gunzip->error();
    return 0;
  }
  return TakeBody(t, std::string_view(data, n)) ? n : 0;
}

std::size_t OnBody(char* data, std::size_t size, std::size_t count, void* user) {
  auto* t = static_cast<Transfer*>(user);
  try {
    return OnBodyUnsafe(t, data, size * count);
  } catch (...) {
    t->exception = std::current_exception();
    return 0;
  }
}

int OnProgress(void* user, curl_off_t, curl_off_t, curl_off_t, curl_off_t) {
  auto* t = static_cast<Transfer*>(user);
  if (t->cancel != nullptr && t->cancel->load(std::memory_order_relaxed)) {
    t->cancelled = true;
    return 1;  // aborts (CURLE_ABORTED_BY_CALLBACK)
  }
  return 0;
}

// Connection failures client-go retries for GETs (rest/request.go
// isErrRetryableFunc: connection reset, unexpected EOF, HTTP/2 connection
// lost), and only before an answer has begun: a body cut short is returned.
// A refused connection and TLS failures (a rejected client certificate
// arrives as a receive error) are not retried.
bool RetryableTransportError(CURLcode code, long os_errno, const std::string& text, bool answered) {
  if (answered) return false;
  if (text.find("SSL") != std::string::npos || text.find("TLS") != std::string::npos) return false;
  switch (code) {
    case CURLE_GOT_NOTHING:  // EOF before an answer
    case CURLE_HTTP2:
    case CURLE_HTTP2_STREAM:
      return true;
    case CURLE_RECV_ERROR:
    case CURLE_SEND_ERROR:
      return os_errno == ECONNRESET || os_errno == EPIPE || os_errno == 0;
    default:
      return false;
  }
}

struct CurlSlist {
  curl_slist* list = nullptr;
  ~CurlSlist() { curl_slist_free_all(list); }
  void Add(const std::string& s) { list = curl_slist_append(list, s.c_str()); }
};

// Drives the requests of one Client: one curl multi handle whose connection
// cache every request shares (HTTP/2 streams over one connection when the
// server speaks it), and one thread that runs it.
//
// Thread-safety: Run may be called from any number of threads at once; each
// call blocks until its transfer is done. From Run's queueing of an easy
// handle until Run returns, the handle (with its Transfer, headers and error
// buffer) belongs to the transport thread and the caller leaves it alone;
// the multi handle is only ever touched by the transport thread (and by the
// destructor, after that thread has ended), except for curl_multi_wakeup,
// which libcurl allows from any thread. The destructor must not run while a
// Run is in progress (Client's destruction contract).
class Transport {
 public:
  // Connection limits (see ClientLimits::max_concurrent_requests): HTTP/2
  // connections carry up to kStreamsPerConnection requests each (libcurl's
  // default, stated here; kube-apiserver offers more streams per
  // connection), and at most kMaxConnections connections are open at once,
  // which over HTTP/1.1 (one request per connection) bounds the connections
  // as the old pool of handles did; the requests beyond wait inside libcurl
  // for a connection to come free.
  static constexpr long kStreamsPerConnection = 100;
  static constexpr long kMaxConnections = 16;

  // Null when libcurl could not make a multi handle (out of memory).
  static std::unique_ptr<Transport> New() {
    CURLM* multi = curl_multi_init();
    if (multi == nullptr) return nullptr;
    curl_multi_setopt(multi, CURLMOPT_PIPELINING, CURLPIPE_MULTIPLEX);
    curl_multi_setopt(multi, CURLMOPT_MAX_CONCURRENT_STREAMS, kStreamsPerConnection);
    curl_multi_setopt(multi, CURLMOPT_MAX_HOST_CONNECTIONS, kMaxConnections);
    // Every connection may stay open while idle (Go's transport keeps up to
    // 25 idle per host; this is never more than kMaxConnections anyway).
    curl_multi_setopt(multi, CURLMOPT_MAXCONNECTS, kMaxConnections);
    return std::unique_ptr<Transport>(new Transport(multi));
  }

  ~Transport() {
    {
      MutexLock lock(mu_);
      stop_ = true;
    }
    if (thread_.joinable()) {
      curl_multi_wakeup(multi_);
      thread_.join();
    }
    // The thread removed every handle it had added; the multi goes now with
    // its idle connections, before the share their TLS sessions live in
    // (Client::Impl's destructor).
    curl_multi_cleanup(multi_);
  }
  Transport(const Transport&) = delete;
  Transport& operator=(const Transport&) = delete;

  // Runs the transfer that `h` is configured for (its callbacks then run on
  // the transport thread) and returns its result once it is done and `h` is
  // out of the multi handle again, so that the caller may read it with
  // curl_easy_getinfo and reuse it. `cancel`, when set while the transfer
  // waits or runs, ends it with CURLE_ABORTED_BY_CALLBACK (t.cancelled set);
  // `deadline`, when given, ends it with CURLE_OPERATION_TIMEDOUT also while
  // it still waits for a connection, where libcurl's own CURLOPT_TIMEOUT_MS
  // does not look. `errbuf` receives the text of a failure of the transport
  // itself.
  CURLcode Run(CURL* h, Transfer& t, const std::atomic<bool>* cancel,
               std::optional<std::chrono::steady_clock::time_point> deadline,
               char (&errbuf)[CURL_ERROR_SIZE]) {
    Job job;
    job.handle = h;
    job.transfer = &t;
    job.cancel = cancel;
    job.deadline = deadline;
    curl_easy_setopt(h, CURLOPT_PRIVATE, &job);
    MutexLock lock(mu_);
    if (!thread_.joinable()) {
      // Started with the first request: a client that only watches never
      // needs it.
      try {
        thread_ = std::thread([this] { Loop(); });
      } catch (const std::system_error& e) {
        std::snprintf(errbuf, CURL_ERROR_SIZE, "could not start the transport thread: %s",
                      e.what());
        return CURLE_FAILED_INIT;
      }
    }
    queued_.push_back(&job);
    curl_multi_wakeup(multi_);
    while (!job.done) job.done_cv.Wait(mu_);
    return job.result;
  }

 private:
  // One request between Run's queueing and its end; lives on the caller's
  // stack. `done` and `result` are guarded by mu_ and written once by the
  // transport thread, which after setting `done` never touches the Job again
  // (a comment, not DRA_GUARDED_BY: a nested struct cannot name mu_).
  struct Job {
    CURL* handle = nullptr;
    Transfer* transfer = nullptr;
    const std::atomic<bool>* cancel = nullptr;
    std::optional<std::chrono::steady_clock::time_point> deadline;
    std::list<Job*>::iterator active_at;  // the transport thread's, while it runs
    CondVar done_cv;
    bool done = false;
    CURLcode result = CURLE_OK;
  };

  explicit Transport(CURLM* multi) : multi_(multi) {}

  // Hands the result to the caller waiting in Run. Notified under the lock:
  // once `done` is seen the caller may return and destroy the Job.
  void Finish(Job* job, CURLcode result) {
    MutexLock lock(mu_);
    job->result = result;
    job->done = true;
    job->done_cv.NotifyOne();
  }

  // Takes a job out of the multi handle (if it was added) and ends it.
  void End(std::list<Job*>& active, Job* job, CURLcode result) {
    curl_multi_remove_handle(multi_, job->handle);
    active.erase(job->active_at);
    Finish(job, result);
  }

  // The transport thread. Nothing here throws (list splices and erases do
  // not allocate; the callbacks keep their exceptions in the Transfer), so
  // nothing unwinds through libcurl.
  void Loop() noexcept {
    // While any transfer is active the loop comes round at least this often,
    // to see cancellations and deadlines of transfers libcurl is not
    // watching (waiting for a connection); when idle, only a new request or
    // the destructor's wakeup ends the wait.
    constexpr int kActivePollMs = 100;
    constexpr int kIdlePollMs = 60'000;
    std::list<Job*> active;  // added to multi_; only this thread's
    for (;;) {
      std::list<Job*> fresh;
      {
        MutexLock lock(mu_);
        if (stop_) break;
        fresh.splice(fresh.end(), queued_);
      }
      while (!fresh.empty()) {
        Job* job = fresh.front();
        active.splice(active.end(), fresh, fresh.begin());
        job->active_at = std::prev(active.end());
        if (curl_multi_add_handle(multi_, job->handle) != CURLM_OK) {
          active.erase(job->active_at);
          Finish(job, CURLE_OUT_OF_MEMORY);
        }
      }
      int running = 0;
      curl_multi_perform(multi_, &running);
      int left = 0;
      while (CURLMsg* msg = curl_multi_info_read(multi_, &left)) {
        if (msg->msg != CURLMSG_DONE) continue;
        // msg is gone once its handle leaves the multi: read it first.
        CURL* h = msg->easy_handle;
        CURLcode result = msg->data.result;
        Job* job = nullptr;
        curl_easy_getinfo(h, CURLINFO_PRIVATE, &job);
        End(active, job, result);
      }
      auto now = std::chrono::steady_clock::now();
      for (auto it = active.begin(); it != active.end();) {
        Job* job = *it++;
        if (job->cancel != nullptr && job->cancel->load(std::memory_order_relaxed)) {
          job->transfer->cancelled = true;
          End(active, job, CURLE_ABORTED_BY_CALLBACK);
        } else if (job->deadline && now >= *job->deadline) {
          End(active, job, CURLE_OPERATION_TIMEDOUT);
        }
      }
      curl_multi_poll(multi_, nullptr, 0, active.empty() ? kIdlePollMs : kActivePollMs, nullptr);
    }
    // Stopped: no Run is in progress (the destructor's precondition), so
    // nothing should be left; whatever is, ends rather than hangs.
    while (!active.empty()) End(active, active.front(), CURLE_ABORTED_BY_CALLBACK);
    MutexLock lock(mu_);
    for (Job* job : queued_) {
      job->result = CURLE_ABORTED_BY_CALLBACK;
      job->done = true;
      job->done_cv.NotifyOne();
    }
    queued_.clear();
  }

  CURLM* const multi_;
  Mutex mu_;
  std::list<Job*> queued_ DRA_GUARDED_BY(mu_);  // waiting for the thread to add them
  bool stop_ DRA_GUARDED_BY(mu_) = false;
  std::thread thread_ DRA_GUARDED_BY(mu_);  // started by the first Run
};

}  // namespace

std::string EncodeQuery(std::vector<std::pair<std::string, std::string>> query) {
  std::stable_sort(query.begin(), query.end(),
                   [](const auto& a, const auto& b) { return a.first < b.first; });
  std::string out;
  for (const auto& [k, v] : query) {
    if (!out.empty()) out += '&';
    out += wire::PercentEscape(k, wire::kQueryKept, true);
    out += '=';
    out += wire::PercentEscape(v, wire::kQueryKept, true);
  }
  return out;
}

// Thread-safety: every member is either set by Client::New before the
// Client is shared and constant after (config, limits, url, http2, limiter,
// transport and share themselves), or guarded as its comment says. Lives as
// long as the Client; no request may be in progress when it is destroyed.
struct Client::Impl {
  RestConfig config;
  ClientLimits limits;
  ServerUrl url;
  bool http2 = true;
  std::unique_ptr<RateLimiter> limiter;  // null: not limited

  // Idle easy handles, kept to save their setup: `pool` for requests (their
  // connections live in the transport's multi handle), `stream_pool` for
  // streams (each keeps the connection of its last stream, for the next).
  Mutex pool_mu;
  std::vector<CURL*> pool DRA_GUARDED_BY(pool_mu);
  std::vector<CURL*> stream_pool DRA_GUARDED_BY(pool_mu);

  // Requests in flight (limits.max_concurrent_requests; streams not counted).
  Mutex slots_mu;
  CondVar slots_cv;
  int in_flight DRA_GUARDED_BY(slots_mu) = 0;

  // TLS sessions shared by every handle, so a new connection resumes one
  // instead of a full handshake. curl calls the lock functions from any
  // thread; one mutex per kind of shared data.
  CURLSH* share = nullptr;
  std::array<Mutex, CURL_LOCK_DATA_LAST> share_mu;
  // Not analysed: curl takes the lock in one callback and lets it go in another.
  static void LockShare(CURL*, curl_lock_data data, curl_lock_access,
                        void* self) DRA_NO_THREAD_SAFETY_ANALYSIS {
    static_cast<Impl*>(self)->share_mu[static_cast<std::size_t>(data)].Lock();
  }
  static void UnlockShare(CURL*, curl_lock_data data, void* self) DRA_NO_THREAD_SAFETY_ANALYSIS {
    static_cast<Impl*>(self)->share_mu[static_cast<std::size_t>(data)].Unlock();
  }
  void InitShare() {
    share = curl_share_init();
    if (share == nullptr) return;
    curl_share_setopt(share, CURLSHOPT_LOCKFUNC, &Impl::LockShare);
    curl_share_setopt(share, CURLSHOPT_UNLOCKFUNC, &Impl::UnlockShare);
    curl_share_setopt(share, CURLSHOPT_USERDATA, this);
    curl_share_setopt(share, CURLSHOPT_SHARE, CURL_LOCK_DATA_SSL_SESSION);
  }

  // The requests' multi handle and its thread (set by Client::New).
  std::unique_ptr<Transport> transport;

  void TakeSlot() {
    if (limits.max_concurrent_requests <= 0) return;
    MutexLock lock(slots_mu);
    while (in_flight >= limits.max_concurrent_requests) slots_cv.Wait(slots_mu);
    ++in_flight;
  }
  void GiveSlot() {
    if (limits.max_concurrent_requests <= 0) return;
    {
      MutexLock lock(slots_mu);
      --in_flight;
    }
    slots_cv.NotifyOne();
  }

  Mutex warn_mu;
  std::set<std::string> warned DRA_GUARDED_BY(warn_mu);
  std::function<void(const std::string&)> warning_handler DRA_GUARDED_BY(warn_mu);

  std::atomic<int> last_http_version{0};
  std::atomic<std::uint64_t> connections_opened{0};  // CURLINFO_NUM_CONNECTS summed

  ~Impl() {
    // The transport (thread, multi handle and its connections) goes first,
    // then the easy handles, then the share they all used: curl_share_cleanup
    // refuses a share that a handle still uses.
    transport.reset();
    for (CURL* h : pool) curl_easy_cleanup(h);
    for (CURL* h : stream_pool) curl_easy_cleanup(h);
    if (share != nullptr) curl_share_cleanup(share);
  }

  CURL* Acquire(bool streaming) {
    {
      MutexLock lock(pool_mu);
      std::vector<CURL*>& from = streaming ? stream_pool : pool;
      if (!from.empty()) {
        CURL* h = from.back();
        from.pop_back();
        return h;
      }
    }
    return curl_easy_init();
  }

  void Release(CURL* h, bool streaming) {
    MutexLock lock(pool_mu);
    std::vector<CURL*>& to = streaming ? stream_pool : pool;
    // Bound idle handles (and the streams' idle connections) as Go's
    // transport bounds idle connections (25 per host).
    if (to.size() >= 25) {
      curl_easy_cleanup(h);
      return;
    }
    to.push_back(h);
  }

  bool Https() const { return url.scheme == "https"; }

  std::string Url(const HttpRequest& r) const {
    // With tls-server-name the URL names that host, and CURLOPT_CONNECT_TO
    // sends the connection to the real one: SNI and the certificate check
    // then use the configured name.
    std::string host = url.ipv6 ? "[" + url.host + "]" : url.host;
    if (Https() && !config.tls.server_name.empty()) host = config.tls.server_name;
    std::string out = url.scheme + "://" + host + ":" + url.port + url.prefix + r.path;
    std::vector<std::pair<std::string, std::string>> query = r.query;
    bool has_timeout =
        std::any_of(query.begin(), query.end(), [](const auto& p) { return p.first == "timeout"; });
    bool has_timeout_seconds = std::any_of(
        query.begin(), query.end(), [](const auto& p) { return p.first == "timeoutSeconds"; });
    // client-go sends its timeout as `timeout`, except on lists and watches,
    // which carry their own timeoutSeconds or none.
    bool list_or_watch = r.verb == "list" || r.verb == "watch";
    if (config.timeout.count() > 0 && !has_timeout && !has_timeout_seconds && !list_or_watch) {
      query.emplace_back("timeout", FormatGoDuration(config.timeout));
    }
    if (!query.empty()) out += "?" + EncodeQuery(std::move(query));
    return out;
  }

  // Sets every option of one attempt; `creds` are what it authenticates with.
  // `remaining`: what is left of RestConfig::timeout over all attempts (zero:
  // no limit).
  void Configure(CURL* h, const HttpRequest& r, const std::string& full_url, Transfer& t,
                 const Credentials& creds, CurlSlist& headers, bool streaming,
                 std::chrono::milliseconds remaining) const {
    ConfigureConnection(h, r, full_url, streaming, remaining);
    if (Https()) ConfigureTls(h, creds, headers);
    AddHeaders(r, headers);
    if (!r.body.empty() || r.method == "POST" || r.method == "PUT" || r.method == "PATCH") {
      headers.Add("Content-Type: " +
                  (r.content_type.empty() ? std::string("application/json") : r.content_type));
      curl_easy_setopt(h, CURLOPT_POSTFIELDS, r.body.data());
      curl_easy_setopt(h, CURLOPT_POSTFIELDSIZE_LARGE, static_cast<curl_off_t>(r.body.size()));
    }
    if (r.method == "GET") {
      curl_easy_setopt(h, CURLOPT_HTTPGET, 1L);
    } else if (r.method != "POST") {
      curl_easy_setopt(h, CURLOPT_CUSTOMREQUEST, r.method.c_str());
    }
    curl_easy_setopt(h, CURLOPT_HTTPHEADER, headers.list);
    curl_easy_setopt(h, CURLOPT_HEADERFUNCTION, &OnHeader);
    curl_easy_setopt(h, CURLOPT_HEADERDATA, &t);
    curl_easy_setopt(h, CURLOPT_WRITEFUNCTION, &OnBody);
    curl_easy_setopt(h, CURLOPT_WRITEDATA, &t);
    curl_easy_setopt(h, CURLOPT_NOPROGRESS, 0L);
    curl_easy_setopt(h, CURLOPT_XFERINFOFUNCTION, &OnProgress);
    curl_easy_setopt(h, CURLOPT_XFERINFODATA, &t);
  }

  // The URL, protocol, keep-alive, timeouts, compression and proxy.
  void ConfigureConnection(CURL* h, const HttpRequest& r, const std::string& full_url,
                           bool streaming, std::chrono::milliseconds remaining) const {
    curl_easy_setopt(h, CURLOPT_URL, full_url.c_str());
    // Paths are sent as built (names were checked): no dot-segment folding.
    curl_easy_setopt(h, CURLOPT_PATH_AS_IS, 1L);
    curl_easy_setopt(h, CURLOPT_NOSIGNAL, 1L);
    curl_easy_setopt(h, CURLOPT_PROTOCOLS_STR, "http,https");
    curl_easy_setopt(h, CURLOPT_HTTP_VERSION,
                     http2 ? static_cast<long>(CURL_HTTP_VERSION_2TLS)
                           : static_cast<long>(CURL_HTTP_VERSION_1_1));
    curl_easy_setopt(h, CURLOPT_TCP_KEEPALIVE, 1L);
    curl_easy_setopt(h, CURLOPT_TCP_KEEPIDLE, 30L);
    curl_easy_setopt(h, CURLOPT_TCP_KEEPINTVL, 30L);
    curl_easy_setopt(h, CURLOPT_CONNECTTIMEOUT_MS,
                     static_cast<long>(limits.connect_timeout.count()));
    if (streaming) {
      // A watch the server should end after timeoutSeconds is abandoned 30 s
      // later if it has not (a silent, wedged peer).
      for (const auto& [k, v] : r.query) {
        if (k != "timeoutSeconds" || v.empty() || v.size() > 9 ||
            !std::all_of(v.begin(), v.end(), [](char c) { return c >= '0' && c <= '9'; })) {
          continue;
        }
        curl_easy_setopt(h, CURLOPT_TIMEOUT_MS, (std::stol(v) + 30) * 1000L);
      }
    } else {
      if (remaining.count() > 0) {
        curl_easy_setopt(h, CURLOPT_TIMEOUT_MS, static_cast<long>(remaining.count()));
      } else {
        // No overall limit (kubectl's default), but a stalled answer is
        // abandoned: kube-apiserver ends a non-long-running request after
        // 60 s, so two minutes without a byte means the peer is gone.
        curl_easy_setopt(h, CURLOPT_LOW_SPEED_LIMIT, 1L);
        curl_easy_setopt(h, CURLOPT_LOW_SPEED_TIME, 120L);
      }
    }
    if (!config.disable_compression) curl_easy_setopt(h, CURLOPT_ACCEPT_ENCODING, "gzip");
    // Streams are decoded by OnBody: kube-apiserver compresses a watch-list
    // as a series of gzip members, and libcurl's decoder fails at the start
    // of the second ("Failed writing received data").
    if (streaming) curl_easy_setopt(h, CURLOPT_HTTP_CONTENT_DECODING, 0L);
    if (!config.proxy_url.empty()) curl_easy_setopt(h, CURLOPT_PROXY, config.proxy_url.c_str());
  }

  // Server verification, the client certificate and the credentials.
  void ConfigureTls(CURL* h, const Credentials& creds, CurlSlist& headers) const {
    if (config.tls.insecure) {
      curl_easy_setopt(h, CURLOPT_SSL_VERIFYPEER, 0L);
      curl_easy_setopt(h, CURLOPT_SSL_VERIFYHOST, 0L);
    } else if (!config.tls.ca_pem.empty()) {
      curl_blob ca{const_cast<char*>(config.tls.ca_pem.data()), config.tls.ca_pem.size(),
                   CURL_BLOB_COPY};
      curl_easy_setopt(h, CURLOPT_CAINFO_BLOB, &ca);
    }
    curl_easy_setopt(h, CURLOPT_SSLVERSION, static_cast<long>(CURL_SSLVERSION_TLSv1_2));
    const std::string& cert = creds.cert_pem.empty() ? config.tls.cert_pem : creds.cert_pem;
    const std::string& key = creds.cert_pem.empty() ? config.tls.key_pem : creds.key_pem;
    if (!cert.empty() && !key.empty()) {
      curl_blob c{const_cast<char*>(cert.data()), cert.size(), CURL_BLOB_COPY};
      curl_blob k{const_cast<char*>(key.data()), key.size(), CURL_BLOB_COPY};
      curl_easy_setopt(h, CURLOPT_SSLCERT_BLOB, &c);
      curl_easy_setopt(h, CURLOPT_SSLCERTTYPE, "PEM");
      curl_easy_setopt(h, CURLOPT_SSLKEY_BLOB, &k);
      curl_easy_setopt(h, CURLOPT_SSLKEYTYPE, "PEM");
    }
    // Credentials are sent only over TLS (client-go's rule).
    const std::string& token =
        creds.bearer_token.empty() ? config.bearer_token : creds.bearer_token;
    if (!token.empty()) {
      headers.Add("Authorization: Bearer " + token);
    } else if (!config.username.empty() || !config.password.empty()) {
      curl_easy_setopt(h, CURLOPT_HTTPAUTH, static_cast<long>(CURLAUTH_BASIC));
      curl_easy_setopt(h, CURLOPT_USERNAME, config.username.c_str());
      curl_easy_setopt(h, CURLOPT_PASSWORD, config.password.c_str());
    }
  }

  // Impersonation, Host, Accept, User-Agent and Expect.
  void AddHeaders(const HttpRequest& r, CurlSlist& headers) const {
    if (!config.impersonate_user.empty()) {
      headers.Add("Impersonate-User: " + config.impersonate_user);
      if (!config.impersonate_uid.empty())
        headers.Add("Impersonate-Uid: " + config.impersonate_uid);
      for (const std::string& g : config.impersonate_groups) headers.Add("Impersonate-Group: " + g);
      for (const auto& [k, vs] : config.impersonate_extra) {
        std::string prefix =
            "Impersonate-Extra-" + wire::PercentEscape(k, wire::kHeaderKeyKept) + ": ";
        for (const std::string& v : vs) headers.Add(prefix + v);
      }
    }
    if (Https() && !config.tls.server_name.empty()) {
      // The URL names tls-server-name (see Url()); the Host header keeps the
      // real server, as Go's transport sends it.
      headers.Add("Host: " + url.HostPort());
    }
    headers.Add("Accept: " + r.accept);
    headers.Add("User-Agent: " + (config.user_agent.empty()
                                      ? std::string("dra/v0.1.0 (linux/amd64) dra")
                                      : config.user_agent));
    // No "Expect: 100-continue" round trip for bodies.
    headers.Add("Expect:");
  }

  void ReportWarnings(const std::vector<std::string>& values) {
    // Each text once (kubectl's rule); past this many distinct texts a
    // long-running process reports repeats again rather than grow the set.
    constexpr std::size_t kMaxRemembered = 4096;
    for (const std::string& v : values) {
      for (std::string& text : ParseWarningHeader(v)) {
        std::function<void(const std::string&)> handler;
        {
          MutexLock lock(warn_mu);
          if (warned.count(text) != 0) continue;
          if (warned.size() < kMaxRemembered) warned.insert(text);
          handler = warning_handler;
        }
        if (handler) {
          handler(text);
        } else {
          std::cerr << "Warning: " << text << "\n";
        }
      }
    }
  }

  Result<Credentials> CurrentCredentials() const {
    if (!Https() || !config.credentials) return Credentials{};
    return config.credentials->Get();
  }

  // One attempt. Returns the curl code; fills `t`. A request runs on the
  // transport thread (the caller waits), a stream on the calling thread.
  CURLcode Perform(const HttpRequest& r, Transfer& t, const Credentials& creds, bool streaming,
                   std::chrono::milliseconds remaining, std::string& curl_error) {
    if (!streaming) TakeSlot();
    struct SlotGuard {
      Impl* impl;
      bool held;
      ~SlotGuard() {
        if (held) impl->GiveSlot();
      }
    } slot{this, !streaming};
    CURL* h = Acquire(streaming);
    if (h == nullptr) {
      curl_error = "could not create a connection handle";
      return CURLE_OUT_OF_MEMORY;
    }
    curl_easy_reset(h);
    if (share != nullptr) curl_easy_setopt(h, CURLOPT_SHARE, share);
    t.handle = h;
    CurlSlist headers;
    CurlSlist connect_to;
    std::string full_url = Url(r);
    Configure(h, r, full_url, t, creds, headers, streaming, remaining);
    if (Https() && !config.tls.server_name.empty()) {
      std::string real_host = url.ipv6 ? "[" + url.host + "]" : url.host;
      connect_to.Add(config.tls.server_name + ":" + url.port + ":" + real_host + ":" + url.port);
      curl_easy_setopt(h, CURLOPT_CONNECT_TO, connect_to.list);
    }
    if (!streaming && Https() && http2) {
      // A request that finds a connection still being set up waits to learn
      // whether it will multiplex (ALPN) rather than open another one: a
      // burst of requests on a cold client makes one TLS handshake, not one
      // each. Without TLS there is no HTTP/2 here (no h2c), and waiting for
      // the first answer would only serialise the burst.
      curl_easy_setopt(h, CURLOPT_PIPEWAIT, 1L);
    }
    char errbuf[CURL_ERROR_SIZE] = {0};
    curl_easy_setopt(h, CURLOPT_ERRORBUFFER, errbuf);
    CURLcode code = CURLE_OK;
    if (streaming) {
      code = curl_easy_perform(h);
    } else {
      // Backstop of CURLOPT_TIMEOUT_MS for the time a request waits for a
      // connection (see Transport::Run); the same instant, so whichever
      // notices first ends it the same way.
      std::optional<std::chrono::steady_clock::time_point> deadline;
      if (remaining.count() > 0) deadline = std::chrono::steady_clock::now() + remaining;
      code = transport->Run(h, t, t.cancel, deadline, errbuf);
    }
    long status = 0;
    curl_easy_getinfo(h, CURLINFO_RESPONSE_CODE, &status);
    t.status = static_cast<int>(status);
    curl_easy_getinfo(h, CURLINFO_OS_ERRNO, &t.os_errno);
    long version = 0;
    curl_easy_getinfo(h, CURLINFO_HTTP_VERSION, &version);
    last_http_version.store(static_cast<int>(version));
    long connects = 0;
    curl_easy_getinfo(h, CURLINFO_NUM_CONNECTS, &connects);
    connections_opened.fetch_add(static_cast<std::uint64_t>(std::max(connects, 0L)));
    curl_error = errbuf[0] != 0 ? std::string(errbuf) : std::string(curl_easy_strerror(code));
    curl_easy_setopt(h, CURLOPT_ERRORBUFFER, nullptr);
    curl_easy_setopt(h, CURLOPT_HTTPHEADER, nullptr);
    curl_easy_setopt(h, CURLOPT_CONNECT_TO, nullptr);
    curl_easy_setopt(h, CURLOPT_PRIVATE, nullptr);
    Release(h, streaming);
    return code;
  }

  ApiError TransportError(CURLcode code, const std::string& curl_error, long os_errno) const {
    bool refused = code == CURLE_COULDNT_CONNECT && os_errno == ECONNREFUSED;
    std::string message = curl_error;
    if (code == CURLE_OPERATION_TIMEDOUT) {
      message = "the request to " + url.HostPort() + " timed out: " + curl_error;
    }
    return ApiError::Transport(message, url.HostPort(), refused);
  }

  ApiResult<HttpResponse> Run(const HttpRequest& r, bool streaming,
                              const std::function<bool(std::string_view)>* on_data,
                              const std::atomic<bool>* cancel) {
    using Clock = std::chrono::steady_clock;
    // RestConfig::timeout bounds every attempt and wait together (client-go
    // runs the whole retry loop under one context deadline).
    const bool bounded = !streaming && config.timeout.count() > 0;
    const Clock::time_point deadline = Clock::now() + config.timeout;
    auto remaining = [&]() -> std::chrono::milliseconds {
      if (!bounded) return std::chrono::milliseconds(0);
      auto left = std::chrono::duration_cast<std::chrono::milliseconds>(deadline - Clock::now());
      return std::max(left, std::chrono::milliseconds(1));
    };
    auto timed_out = [&] {
      return ApiError::Transport("the request to " + url.HostPort() + " timed out after " +
                                     FormatGoDuration(config.timeout),
                                 url.HostPort(), false);
    };
    // Sleeps `d`, in steps, unless cancelled or past the deadline.
    auto wait = [&](std::chrono::milliseconds d) -> std::optional<ApiError> {
      Clock::time_point until = Clock::now() + d;
      if (bounded && until > deadline) return timed_out();
      while (Clock::now() < until) {
        if (cancel != nullptr && cancel->load()) return ApiError::Cancelled();
        std::this_thread::sleep_for(
            std::min<Clock::duration>(std::chrono::milliseconds(100), until - Clock::now()));
      }
      return std::nullopt;
    };
    std::string previous_error;  // of a transport failure, as client-go tracks it
    for (int attempt = 0;; ++attempt) {
      if (!streaming && limiter) limiter->Wait();
      if (cancel != nullptr && cancel->load()) return ApiError::Cancelled();
      if (bounded && Clock::now() >= deadline) return timed_out();
      Result<Credentials> creds = CurrentCredentials();
      if (!creds.ok()) return ApiError::Config("getting credentials: " + creds.error());
      Transfer t;
      t.max_bytes = limits.max_response_bytes;
      t.max_error_bytes = limits.max_error_bytes;
      t.on_data = on_data;
      t.cancel = cancel;
      std::string curl_error;
      CURLcode code = Perform(r, t, *creds, streaming, remaining(), curl_error);
      if (t.exception) std::rethrow_exception(t.exception);
      if (t.cancelled) return ApiError::Cancelled();
      if (!t.decode_error.empty()) {
        return ApiError::Protocol("the answer to " + r.method + " " + r.path +
                                  " is not valid gzip: " + t.decode_error);
      }
      if (t.too_large) return TooLarge(r, t);
      bool stopped = t.stopped_by_callback && code == CURLE_WRITE_ERROR;
      if (code != CURLE_OK && !stopped) {
        bool answered = t.got_status_line && t.status > 0;
        if (r.method == "GET" && attempt < limits.max_retries &&
            RetryableTransportError(code, t.os_errno, curl_error, answered)) {
          previous_error = curl_error;
          if (auto e = wait(std::chrono::seconds(1))) return *e;
          continue;
        }
        if (code == CURLE_OPERATION_TIMEDOUT && bounded) return timed_out();
        return TransferFailed(code, curl_error, t.os_errno, answered, previous_error);
      }
      if (t.status >= 200 && t.status <= 206) return Answer(t);
      // Retry-After on 429 and 5xx: every verb, up to max_retries times, each
      // wait capped by limits.max_retry_after.
      long retry_after = RetryAfterSeconds(t.retry_after);
      if ((t.status == 429 || t.status >= 500) && retry_after >= 0 &&
          attempt < limits.max_retries) {
        auto delay = std::min<std::chrono::milliseconds>(std::chrono::seconds(retry_after),
                                                         limits.max_retry_after);
        if (auto e = wait(delay)) return *e;
        continue;
      }
      return ErrorAnswer(r, t, *creds, retry_after);
    }
  }

  // An answer over the size limit.
  ApiError TooLarge(const HttpRequest& r, const Transfer& t) const {
    bool ok_status = t.status >= 200 && t.status <= 206;
    return ApiError::Protocol(
        "the answer to " + r.method + " " + r.path + " exceeds " +
        std::to_string(ok_status ? limits.max_response_bytes : limits.max_error_bytes) + " bytes" +
        (ok_status ? "" : " (HTTP " + std::to_string(t.status) + ")"));
  }

  // A transfer that failed and is not retried; `answered`: the answer had begun.
  ApiError TransferFailed(CURLcode code, const std::string& curl_error, long os_errno,
                          bool answered, const std::string& previous_error) const {
    ApiError e = TransportError(code, curl_error, os_errno);
    if (answered) {
      // The answer began and was cut short (client-go's words).
      e.message =
          "unexpected error when reading response body. Please retry. Original "
          "error: " +
          curl_error;
    }
    if (!previous_error.empty() && previous_error != curl_error) {
      e.message += " - error from a previous attempt: " + previous_error;
    }
    return e;
  }

  // A successful answer, its warnings reported.
  HttpResponse Answer(Transfer& t) {
    ReportWarnings(t.warning_values);
    HttpResponse resp;
    resp.code = t.status;
    resp.content_type = std::move(t.content_type);
    resp.body = std::move(t.body);
    resp.warnings = std::move(t.warning_values);
    return resp;
  }

  // Retry-After in seconds; -1 when absent or not a plain number of at most 9 digits.
  static long RetryAfterSeconds(const std::string& value) {
    if (!value.empty() && value.size() <= 9 &&
        std::all_of(value.begin(), value.end(), [](char c) { return c >= '0' && c <= '9'; })) {
      return std::stol(value);
    }
    return -1;
  }

  // An error answer that is not retried, its warnings reported; a 401
  // invalidates the credentials that got it.
  ApiError ErrorAnswer(const HttpRequest& r, const Transfer& t, const Credentials& creds,
                       long retry_after) {
    ReportWarnings(t.warning_values);
    if (t.status == 401 && config.credentials) config.credentials->Invalidate(creds);
    ApiError e = ErrorFromResponse(t.status, t.content_type, t.body, r.method, r.resource, r.name);
    if (e.retry_after_seconds == 0 && retry_after > 0) {
      e.retry_after_seconds = static_cast<int>(std::min<long>(retry_after, 1 << 30));
    }
    return e;
  }
};

Client::Client(std::unique_ptr<Impl> impl) : impl_(std::move(impl)) {}
Client::~Client() = default;

Result<std::shared_ptr<Client>> Client::New(RestConfig config, ClientLimits limits) {
  InitCurl();
  auto impl = std::make_unique<Impl>();
  impl->InitShare();
  impl->transport = Transport::New();
  if (impl->transport == nullptr) {
    return Error{"could not create a libcurl multi handle", ErrorCode::kInternal};
  }
  Result<ServerUrl> url = ParseServer(config.server);
  if (!url.ok()) return url.failure();
  impl->url = *url;
  if (config.tls.insecure && !config.tls.ca_pem.empty()) {
    return Error{"specifying a root certificates file with the insecure flag is not allowed"};
  }
  if (!config.bearer_token.empty() && (!config.username.empty() || !config.password.empty())) {
    return Error{"username/password or bearer token may be set, but not both"};
  }
  if (config.burst < 0) return Error{"burst must not be negative"};
  if (config.qps > 0 && config.burst <= 0) {
    return Error{
        "burst is required to be greater than 0 when RateLimiter is not set and QPS is set to "
        "greater than 0"};
  }
  if (config.qps >= 0) {
    // QPS 0 means client-go's default (5/10).
    double qps = config.qps == 0 ? 5 : config.qps;
    int burst = config.qps == 0 && config.burst == 0 ? 10 : config.burst;
    impl->limiter = std::make_unique<RateLimiter>(qps, burst);
  }
  const char* disable = std::getenv("DISABLE_HTTP2");
  impl->http2 = disable == nullptr || disable[0] == 0;
  impl->config = std::move(config);
  impl->limits = limits;
  return std::shared_ptr<Client>(new Client(std::move(impl)));
}

const RestConfig& Client::config() const { return impl_->config; }

ApiResult<HttpResponse> Client::Do(const HttpRequest& request) {
  return impl_->Run(request, false, nullptr, request.cancel);
}

ApiStatus Client::Stream(const HttpRequest& request,
                         const std::function<bool(std::string_view)>& on_data,
                         const std::atomic<bool>* cancel) {
  ApiResult<HttpResponse> r = impl_->Run(request, true, &on_data, cancel);
  if (!r.ok()) return r.error();
  return Done{};
}

void Client::SetWarningHandler(std::function<void(const std::string&)> handler) {
  MutexLock lock(impl_->warn_mu);
  impl_->warning_handler = std::move(handler);
}

std::uint64_t Client::ConnectionsOpened() const { return impl_->connections_opened.load(); }

std::string Client::LastHttpVersion() const {
  switch (impl_->last_http_version.load()) {
    case CURL_HTTP_VERSION_1_0:
      return "1.0";
    case CURL_HTTP_VERSION_1_1:
      return "1.1";
    case CURL_HTTP_VERSION_2_0:
      return "2";
    default:
      return "";
  }
}

}  // namespace dra::kube
