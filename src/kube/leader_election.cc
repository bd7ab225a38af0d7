// LeaderElector: client-go's lease election loop (acquire, renew, release).
#include "dra/kube/leader_election.h"

#include <unistd.h>

#include <cstdio>
#include <ctime>
#include <optional>
#include <thread>

#include "dra/util/mutex.h"
#include "dra/util/random.h"

namespace dra::kube {
namespace {

using SteadyClock = std::chrono::steady_clock;
using SystemClock = std::chrono::system_clock;

bool ParseDigits(std::string_view s, std::size_t pos, std::size_t n, int& out) {
  if (pos + n > s.size()) return false;
  out = 0;
  for (std::size_t i = pos; i < pos + n; ++i) {
    if (s[i] < '0' || s[i] > '9') return false;
    out = out * 10 + (s[i] - '0');
  }
  return true;
}

}  // namespace

std::string FormatMicroTime(SystemClock::time_point t) {
  auto us = std::chrono::duration_cast<std::chrono::microseconds>(t.time_since_epoch()).count();
  std::int64_t secs = us / 1'000'000;
  std::int64_t frac = us % 1'000'000;
  if (frac < 0) {
    frac += 1'000'000;
    --secs;
  }
  std::time_t tt = static_cast<std::time_t>(secs);
  std::tm tm{};
  gmtime_r(&tt, &tm);
  char buf[64];
  std::snprintf(buf, sizeof buf, "%04d-%02d-%02dT%02d:%02d:%02d.%06lldZ", tm.tm_year + 1900,
                tm.tm_mon + 1, tm.tm_mday, tm.tm_hour, tm.tm_min, tm.tm_sec,
                static_cast<long long>(frac));
  return buf;
}

Result<SystemClock::time_point> ParseMicroTime(std::string_view s) {
  auto bad = [&] { return Error{"invalid RFC 3339 time \"" + std::string(s) + "\""}; };
  int year, mon, day, hour, min, sec;
  if (!ParseDigits(s, 0, 4, year) || s.size() < 20 || s[4] != '-' || !ParseDigits(s, 5, 2, mon) ||
      s[7] != '-' || !ParseDigits(s, 8, 2, day) || (s[10] != 'T' && s[10] != 't') ||
      !ParseDigits(s, 11, 2, hour) || s[13] != ':' || !ParseDigits(s, 14, 2, min) || s[16] != ':' ||
      !ParseDigits(s, 17, 2, sec)) {
    return bad();
  }
  if (mon < 1 || mon > 12 || day < 1 || day > 31 || hour > 23 || min > 59 || sec > 59) return bad();
  std::size_t pos = 19;
  std::int64_t micros = 0;
  if (pos < s.size() && s[pos] == '.') {
    ++pos;
    int digits = 0;
    std::int64_t scale = 100'000;
    while (pos < s.size() && s[pos] >= '0' && s[pos] <= '9') {
      if (digits < 6) micros += (s[pos] - '0') * scale;
      scale /= 10;
      ++digits;
      ++pos;
    }
    if (digits == 0 || digits > 9) return bad();
  }
  int offset_s = 0;
  if (pos < s.size() && (s[pos] == 'Z' || s[pos] == 'z')) {
    ++pos;
  } else if (pos < s.size() && (s[pos] == '+' || s[pos] == '-')) {
    int oh, om;
    if (!ParseDigits(s, pos + 1, 2, oh) || pos + 3 >= s.size() || s[pos + 3] != ':' ||
        !ParseDigits(s, pos + 4, 2, om)) {
      return bad();
    }
    offset_s = (oh * 3600 + om * 60) * (s[pos] == '-' ? -1 : 1);
    pos += 6;
  } else {
    return bad();
  }
  if (pos != s.size()) return bad();
  std::tm tm{};
  tm.tm_year = year - 1900;
  tm.tm_mon = mon - 1;
  tm.tm_mday = day;
  tm.tm_hour = hour;
  tm.tm_min = min;
  tm.tm_sec = sec;
  std::int64_t epoch = static_cast<std::int64_t>(timegm(&tm)) - offset_s;
  return SystemClock::time_point(std::chrono::duration_cast<SystemClock::duration>(
      std::chrono::microseconds(epoch * 1'000'000 + micros)));
}

std::string SanitizeLeaseName(std::string_view name) {
  std::string out(name);
  for (char& c : out) {
    bool ok =
        (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') || c == '-';
    if (!ok) c = '-';
  }
  if (!out.empty() && out.back() == '-') out += 'X';
  return out;
}

Result<std::string> HostnameIdentity() {
  char buf[256] = {};
  if (gethostname(buf, sizeof buf - 1) != 0 || buf[0] == '\0') {
    return Error{"cannot determine the host name for the leader election identity",
                 ErrorCode::kInternal};
  }
  return std::string(buf);
}

struct LeaderElector::State {
  std::shared_ptr<LeaseLock> lock;
  LeaderElectionConfig config;
  util::SplitMix64 rng{util::RandomSeed()};

  mutable Mutex mu;  // guards the fields marked so, and stop's waits
  CondVar cv;
  bool stop DRA_GUARDED_BY(mu) = false;
  LeaderElectionRecord observed DRA_GUARDED_BY(mu);
  SteadyClock::time_point observed_time DRA_GUARDED_BY(mu){};
  // The record as last read; only Run's thread touches it, without mu.
  std::optional<LeaderElectionRecord> observed_raw;
  std::string reported_leader DRA_GUARDED_BY(mu);
  // Run() returned: not leading, whatever the record says
  bool run_ended DRA_GUARDED_BY(mu) = false;
  // Started by Start under mu; joined by Stop without it (not annotated:
  // Stop must not hold mu while the thread it joins may still take it).
  std::thread thread;

  bool Stopped() {
    MutexLock l(mu);
    return stop;
  }
  // Sleeps until `until` or Stop(); false when stopped.
  bool SleepUntil(SteadyClock::time_point until) {
    MutexLock l(mu);
    while (!stop) {
      if (cv.WaitUntil(mu, until) == std::cv_status::timeout) break;
    }
    return !stop;
  }
  bool IsLeader() {
    MutexLock l(mu);
    return observed.holder_identity == config.identity;
  }
  bool IsLeaseValid(SteadyClock::time_point now) {
    MutexLock l(mu);
    return observed_time + std::chrono::seconds(observed.lease_duration_seconds) > now;
  }
  void SetObserved(const LeaderElectionRecord& r) {
    MutexLock l(mu);
    observed = r;
    observed_time = SteadyClock::now();
  }
  void ReportError(const ApiError& e) {
    if (config.on_error) config.on_error(e);
  }
  void MaybeReportTransition() {
    std::string holder;
    {
      MutexLock l(mu);
      if (observed.holder_identity == reported_leader) return;
      reported_leader = observed.holder_identity;
      holder = reported_leader;
    }
    if (config.on_new_leader) config.on_new_leader(holder);
  }

  bool TryAcquireOrRenew();
  bool TryRelease(SteadyClock::time_point deadline);
  bool Acquire();
  void Renew();
};

bool LeaderElector::State::TryAcquireOrRenew() {
  SystemClock::time_point now = SystemClock::now();
  LeaderElectionRecord record;
  record.holder_identity = config.identity;
  record.lease_duration_seconds = static_cast<int>(
      std::chrono::duration_cast<std::chrono::seconds>(config.lease_duration).count());
  record.acquire_time = now;
  record.renew_time = now;

  // Fast path: renew the lease we hold without reading it first.
  if (IsLeader() && IsLeaseValid(SteadyClock::now())) {
    {
      MutexLock l(mu);
      record.acquire_time = observed.acquire_time;
      record.lease_transitions = observed.lease_transitions;
    }
    ApiStatus st = lock->Update(record);
    if (st.ok()) {
      SetObserved(record);
      return true;
    }
    ReportError(st.error());
  }

  ApiResult<LeaderElectionRecord> current = lock->Get();
  if (!current.ok()) {
    if (!current.error().IsNotFound()) {
      ReportError(current.error());
      return false;
    }
    record.acquire_time = record.renew_time = now;
    record.lease_transitions = 0;
    ApiStatus st = lock->Create(record);
    if (!st.ok()) {
      ReportError(st.error());
      return false;
    }
    SetObserved(record);
    return true;
  }
  if (!observed_raw || !(*observed_raw == *current)) {
    SetObserved(*current);
    observed_raw = *current;
  }
  if (!current->holder_identity.empty() && IsLeaseValid(SteadyClock::now()) && !IsLeader()) {
    return false;  // held by another, not expired
  }
  if (IsLeader()) {
    record.acquire_time = current->acquire_time;
    record.lease_transitions = current->lease_transitions;
  } else {
    record.lease_transitions = current->lease_transitions + 1;
  }
  ApiStatus st = lock->Update(record);
  if (!st.ok()) {
    ReportError(st.error());
    return false;
  }
  SetObserved(record);
  return true;
}

bool LeaderElector::State::TryRelease(SteadyClock::time_point deadline) {
  while (SteadyClock::now() < deadline) {
    ApiResult<LeaderElectionRecord> current = lock->Get();
    if (!current.ok()) {
      ReportError(current.error());
      return false;
    }
    if (!IsLeader()) return true;
    SystemClock::time_point now = SystemClock::now();
    LeaderElectionRecord record;
    record.lease_transitions = current->lease_transitions;
    record.lease_duration_seconds = 1;
    record.acquire_time = record.renew_time = now;
    ApiStatus st = lock->Update(record);
    if (st.ok()) {
      SetObserved(record);
      return true;
    }
    if (!st.error().IsConflict()) {
      ReportError(st.error());
      return false;
    }
  }
  return false;
}

bool LeaderElector::State::Acquire() {
  while (!Stopped()) {
    bool ok = TryAcquireOrRenew();
    MaybeReportTransition();
    if (ok) return true;
    auto wait = std::chrono::duration_cast<SteadyClock::duration>(
        config.retry_period * (1.0 + kJitterFactor * rng.NextDouble()));
    if (!SleepUntil(SteadyClock::now() + wait)) return false;
  }
  return false;
}

void LeaderElector::State::Renew() {
  while (!Stopped()) {
    SteadyClock::time_point deadline = SteadyClock::now() + config.renew_deadline;
    bool renewed = false;
    while (true) {
      renewed = TryAcquireOrRenew();
      MaybeReportTransition();
      if (renewed || Stopped()) break;
      SteadyClock::time_point next = SteadyClock::now() + config.retry_period;
      if (next >= deadline) {
        SleepUntil(deadline);
        break;
      }
      if (!SleepUntil(next)) break;
    }
    if (Stopped()) return;
    if (!renewed) {
      ApiError e = ApiError::Protocol("failed to renew lease " + lock->Describe() +
                                      ": timed out waiting for the condition");
      ReportError(e);
      return;
    }
    if (!SleepUntil(SteadyClock::now() + config.retry_period)) return;
  }
}

LeaderElector::LeaderElector(std::unique_ptr<State> state) : state_(std::move(state)) {}

LeaderElector::~LeaderElector() { Stop(); }

Result<std::unique_ptr<LeaderElector>> LeaderElector::New(std::shared_ptr<LeaseLock> lock,
                                                          LeaderElectionConfig config) {
  if (config.lease_duration <= config.renew_deadline) {
    return Error{"leaseDuration must be greater than renewDeadline"};
  }
  if (std::chrono::duration<double, std::milli>(config.renew_deadline).count() <=
      kJitterFactor * std::chrono::duration<double, std::milli>(config.retry_period).count()) {
    return Error{"renewDeadline must be greater than retryPeriod*JitterFactor"};
  }
  if (config.lease_duration.count() < 1) return Error{"leaseDuration must be greater than zero"};
  if (config.renew_deadline.count() < 1) return Error{"renewDeadline must be greater than zero"};
  if (config.retry_period.count() < 1) return Error{"retryPeriod must be greater than zero"};
  if (lock == nullptr) return Error{"Lock must not be nil."};
  if (config.identity.empty()) {
    Result<std::string> host = HostnameIdentity();
    if (!host.ok()) return host.failure();
    config.identity = *host;
  }
  auto state = std::make_unique<State>();
  state->lock = std::move(lock);
  state->config = std::move(config);
  return std::unique_ptr<LeaderElector>(new LeaderElector(std::move(state)));
}

void LeaderElector::Run() {
  State& s = *state_;
  if (s.Acquire()) {
    std::atomic<bool> lost{false};
    std::thread leading;
    if (s.config.on_started_leading) {
      leading = std::thread([&] { s.config.on_started_leading(lost); });
    }
    s.Renew();
    // Release only when asked to stop: after a failed renewal another
    // candidate may already hold the lease.
    if (s.config.release_on_cancel && s.Stopped() && s.IsLeader()) {
      s.TryRelease(SteadyClock::now() + s.config.renew_deadline);
    }
    {
      MutexLock l(s.mu);
      s.run_ended = true;
    }
    lost.store(true);
    if (s.config.on_stopped_leading) s.config.on_stopped_leading();
    if (leading.joinable()) leading.join();
    return;
  }
  {
    MutexLock l(s.mu);
    s.run_ended = true;
  }
  if (s.config.on_stopped_leading) s.config.on_stopped_leading();
}

void LeaderElector::Start() {
  MutexLock l(state_->mu);
  if (state_->thread.joinable() || state_->stop) return;
  state_->thread = std::thread([this] { Run(); });
}

void LeaderElector::Stop() {
  {
    MutexLock l(state_->mu);
    state_->stop = true;
  }
  state_->cv.NotifyAll();
  if (state_->thread.joinable() && state_->thread.get_id() != std::this_thread::get_id()) {
    state_->thread.join();
  }
}

bool LeaderElector::IsLeader() const {
  MutexLock l(state_->mu);
  return !state_->run_ended && state_->observed.holder_identity == state_->config.identity;
}

std::string LeaderElector::GetLeader() const {
  MutexLock l(state_->mu);
  return state_->observed.holder_identity;
}

const std::string& LeaderElector::identity() const { return state_->config.identity; }

}  // namespace dra::kube
